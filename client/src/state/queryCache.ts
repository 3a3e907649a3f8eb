/**
 * Cached store data (SPEC.md section 4), pure rules. An entry has a load state of loading,
 * loaded or error. It is refetched when the app or the query changes (they are part of its
 * key), when its lifetime has expired, or when forced. A failed fetch records the error and
 * ends loading. A late answer of a superseded request is ignored.
 */
export type LoadState = 'loading' | 'loaded' | 'error';

/** Cache lifetime (SPEC.md section 9): 1000 ms for a store, 3000 ms for range queries. */
export const STORE_LIFETIME_MS = 1000;
export const RANGE_LIFETIME_MS = 3000;

export interface CacheEntry<T = unknown> {
  state: LoadState;
  /** Last loaded data; kept while a refetch runs or after it fails. */
  data?: T;
  error?: unknown;
  /** When the last fetch settled (ms); 0 while the first one runs. */
  settledAt: number;
  /** When `data` was loaded (ms), kept after a failed refetch: the age of what is shown. */
  loadedAt?: number;
  /** Id of the request whose answer the entry waits for. */
  requestId: number;
}

/** Stable key: app, query name and parameters (object keys sorted). */
export function cacheKey(appId: string | null, name: string, params?: unknown): string {
  return `${appId ?? '-'}|${name}|${stableStringify(params ?? null)}`;
}

export function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function needsFetch(entry: CacheEntry | undefined, now: number, lifetimeMs: number, force = false): boolean {
  if (!entry) return true;
  if (entry.state === 'loading') return force;
  if (force) return true;
  return now - entry.settledAt >= lifetimeMs;
}

export function startFetch<T>(entry: CacheEntry<T> | undefined, requestId: number): CacheEntry<T> {
  return { ...(entry ?? { settledAt: 0 }), state: 'loading', requestId, error: undefined };
}

export function fetchSucceeded<T>(entry: CacheEntry<T> | undefined, requestId: number, data: T, now: number): CacheEntry<T> | undefined {
  if (!entry || entry.requestId !== requestId) return entry;
  return { state: 'loaded', data, settledAt: now, loadedAt: now, requestId };
}

export function fetchFailed<T>(entry: CacheEntry<T> | undefined, requestId: number, error: unknown, now: number): CacheEntry<T> | undefined {
  if (!entry || entry.requestId !== requestId) return entry;
  return { ...entry, state: 'error', error, settledAt: now };
}
