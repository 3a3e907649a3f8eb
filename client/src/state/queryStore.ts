/** The query cache as a zustand store: entries by key, with in-flight requests deduplicated. */
import { create } from 'zustand';
import { type CacheEntry, fetchFailed, fetchSucceeded, needsFetch, startFetch } from './queryCache.ts';

interface QueryCacheState {
  entries: Record<string, CacheEntry>;
  /** Fetch unless fresh (or already loading); `force` refetches regardless. */
  ensure: (key: string, fetcher: () => Promise<unknown>, lifetimeMs: number, force?: boolean) => void;
  clear: () => void;
}

let nextRequestId = 1;

export const useQueryCache = create<QueryCacheState>((set, get) => ({
  entries: {},

  ensure(key, fetcher, lifetimeMs, force = false) {
    if (!needsFetch(get().entries[key], Date.now(), lifetimeMs, force)) return;
    const requestId = nextRequestId++;
    set((s) => ({ entries: { ...s.entries, [key]: startFetch(s.entries[key], requestId) } }));
    const settle = (update: (entry: CacheEntry | undefined) => CacheEntry | undefined) =>
      set((s) => {
        const next = update(s.entries[key]);
        return next === s.entries[key] || !next ? s : { entries: { ...s.entries, [key]: next } };
      });
    fetcher().then(
      (data) => settle((e) => fetchSucceeded(e, requestId, data, Date.now())),
      (error: unknown) => settle((e) => fetchFailed(e, requestId, error, Date.now())),
    );
  },

  clear() {
    set({ entries: {} });
  },
}));
