/**
 * Runs an async job for the latest input only (pure, framework free, tested): `schedule` waits
 * `delayMs` after the last call before starting; a newer call cancels the wait, and aborts (through
 * its AbortSignal) a run that already started, whose answer is then ignored. The same input
 * (by key) as the one shown or running is not asked again. The last answer stays available while
 * a newer one is on its way, so a screen can dim it instead of flashing empty.
 */

export interface RunnerState<T> {
  /** The latest successful answer and the key it answers (null before the first). */
  result: T | null;
  resultKey: string | null;
  /** The failure of the latest run (cleared when a newer one is scheduled). */
  error: unknown;
  /** A run is waiting for its delay or under way. */
  pending: boolean;
  /** The key of the latest input scheduled. */
  key: string | null;
}

export interface Timers {
  set: (fn: () => void, ms: number) => unknown;
  clear: (handle: unknown) => void;
}

const realTimers: Timers = {
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface LatestRunner<I> {
  /** Ask for `input` (identified by `key`) after the delay; supersedes anything earlier. */
  schedule: (key: string, input: I) => void;
  /** Run the latest input again now (after a failure). */
  retry: () => void;
  /** Forget the pending work (nothing runs or reports afterwards). */
  dispose: () => void;
  state: () => RunnerState<unknown>;
}

export function createLatestRunner<I, T>(options: {
  delayMs: number;
  run: (input: I, signal: AbortSignal) => Promise<T>;
  onChange: (state: RunnerState<T>) => void;
  timers?: Timers;
}): LatestRunner<I> & { state: () => RunnerState<T> } {
  const { delayMs, run, onChange, timers = realTimers } = options;
  let state: RunnerState<T> = { result: null, resultKey: null, error: null, pending: false, key: null };
  let timer: unknown = null;
  let controller: AbortController | null = null;
  let latest: { key: string; input: I } | null = null;
  let disposed = false;

  const set = (patch: Partial<RunnerState<T>>) => {
    state = { ...state, ...patch };
    if (!disposed) onChange(state);
  };

  const cancel = () => {
    if (timer !== null) timers.clear(timer);
    timer = null;
    controller?.abort();
    controller = null;
  };

  const start = () => {
    timer = null;
    if (!latest || disposed) return;
    const { key, input } = latest;
    const ctl = new AbortController();
    controller = ctl;
    run(input, ctl.signal).then(
      (result) => {
        if (ctl.signal.aborted || disposed) return;
        controller = null;
        set({ result, resultKey: key, error: null, pending: false });
      },
      (error: unknown) => {
        if (ctl.signal.aborted || disposed) return;
        controller = null;
        set({ error, pending: false });
      },
    );
  };

  return {
    schedule(key, input) {
      if (disposed) return;
      const same = latest?.key === key;
      latest = { key, input };
      // Already shown, or already on its way: nothing new to ask.
      if (same && (state.pending || (state.resultKey === key && state.error === null))) return;
      cancel();
      set({ key, error: null, pending: true });
      timer = timers.set(start, delayMs);
    },
    retry() {
      if (disposed || !latest) return;
      cancel();
      set({ error: null, pending: true });
      start();
    },
    dispose() {
      disposed = true;
      cancel();
    },
    state: () => state,
  };
}
