/** Pure rules of usePolling: when a tick (or the tab coming back) asks the server again. */

export interface PollContext {
  /** The tab is hidden (`document.hidden`). */
  hidden: boolean;
  /** The previous request is still running. */
  loading: boolean;
}

/** A timer tick refetches only in a visible tab and when nothing is in flight. */
export function shouldPollTick({ hidden, loading }: PollContext): boolean {
  return !hidden && !loading;
}

/** The tab became visible again: ask once (ticks were skipped while it was hidden), unless a request runs. */
export function shouldPollOnVisible({ hidden, loading }: PollContext, intervalMs: number | null): boolean {
  return intervalMs !== null && !hidden && !loading;
}
