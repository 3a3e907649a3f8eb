/**
 * Retry timing. Full jitter (the AWS architecture blog's "exponential backoff and jitter"): the
 * n-th consecutive failure waits a uniformly random time in [0, min(cap, base × 2^(n−1))], which
 * spreads the retries of many browsers that lost the server at the same moment. A server's
 * Retry-After is a floor: the wait is never shorter than what it asked for (up to an hour).
 */
export interface BackoffOptions {
  baseMs: number;
  capMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 1000, capMs: 5 * 60 * 1000 };
export const MAX_RETRY_AFTER_MS = 60 * 60 * 1000;

/** The ceiling of the random wait after `attempt` consecutive failures (1-based). */
export const backoffCeiling = (attempt: number, o: BackoffOptions): number =>
  Math.min(o.capMs, o.baseMs * 2 ** Math.min(Math.max(attempt, 1) - 1, 40));

/** Milliseconds to wait before retry number `attempt`, given the server's Retry-After (ms) if any. */
export function backoffDelay(attempt: number, o: BackoffOptions, retryAfterMs: number | null = null, random: () => number = Math.random): number {
  const jittered = Math.floor(random() * backoffCeiling(attempt, o));
  return retryAfterMs === null ? jittered : Math.max(jittered, Math.min(retryAfterMs, MAX_RETRY_AFTER_MS));
}

/** A Retry-After header (delay in seconds, or an HTTP date) in milliseconds from `now`; null when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: number): number | null {
  const text = value?.trim();
  if (!text) return null;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}
