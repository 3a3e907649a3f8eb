import { describe, expect, it } from 'vitest';
import {
  RANGE_LIFETIME_MS, STORE_LIFETIME_MS, cacheKey, fetchFailed, fetchSucceeded, needsFetch, stableStringify, startFetch,
} from './queryCache.ts';

describe('query cache keys', () => {
  it('changes with the app and with the query', () => {
    const base = cacheKey('app1', 'listTestDevices', { appId: 'app1' });
    expect(cacheKey('app2', 'listTestDevices', { appId: 'app1' })).not.toBe(base);
    expect(cacheKey('app1', 'listApps', { appId: 'app1' })).not.toBe(base);
    expect(cacheKey('app1', 'listTestDevices', { appId: 'app2' })).not.toBe(base);
  });

  it('does not depend on the order of parameters or on undefined values', () => {
    expect(stableStringify({ b: 1, a: [1, { d: 2, c: 3 }], z: undefined })).toBe(stableStringify({ a: [1, { c: 3, d: 2 }], b: 1 }));
    expect(cacheKey(null, 'q')).toBe(cacheKey(null, 'q', null));
  });
});

describe('query cache lifetime', () => {
  it('fetches a missing entry', () => {
    expect(needsFetch(undefined, 0, STORE_LIFETIME_MS)).toBe(true);
  });

  it('keeps a fresh entry and refetches once its lifetime has expired', () => {
    const loaded = fetchSucceeded(startFetch(undefined, 1), 1, 'data', 10_000)!;
    expect(needsFetch(loaded, 10_000 + STORE_LIFETIME_MS - 1, STORE_LIFETIME_MS)).toBe(false);
    expect(needsFetch(loaded, 10_000 + STORE_LIFETIME_MS, STORE_LIFETIME_MS)).toBe(true);
    expect(needsFetch(loaded, 10_000 + 2000, RANGE_LIFETIME_MS)).toBe(false);
    expect(needsFetch(loaded, 10_000 + RANGE_LIFETIME_MS, RANGE_LIFETIME_MS)).toBe(true);
  });

  it('refetches a fresh entry when forced', () => {
    const loaded = fetchSucceeded(startFetch(undefined, 1), 1, 'data', 10_000)!;
    expect(needsFetch(loaded, 10_000, STORE_LIFETIME_MS, true)).toBe(true);
  });

  it('does not start a second request while one is loading unless forced', () => {
    const loading = startFetch(undefined, 1);
    expect(needsFetch(loading, 99_999, STORE_LIFETIME_MS)).toBe(false);
    expect(needsFetch(loading, 0, STORE_LIFETIME_MS, true)).toBe(true);
  });
});

describe('query cache load states', () => {
  it('goes loading → loaded and keeps old data while refetching', () => {
    const first = startFetch<string>(undefined, 1);
    expect(first.state).toBe('loading');
    const loaded = fetchSucceeded(first, 1, 'v1', 5)!;
    expect(loaded).toMatchObject({ state: 'loaded', data: 'v1', settledAt: 5 });
    const refetching = startFetch(loaded, 2);
    expect(refetching).toMatchObject({ state: 'loading', data: 'v1' });
  });

  it('records a failed fetch as an error and ends loading', () => {
    const failed = fetchFailed(startFetch(undefined, 1), 1, new Error('boom'), 7)!;
    expect(failed.state).toBe('error');
    expect(failed.error).toBeInstanceOf(Error);
    expect(failed.settledAt).toBe(7);
    expect(needsFetch(failed, 7, STORE_LIFETIME_MS)).toBe(false);
    expect(needsFetch(failed, 7 + STORE_LIFETIME_MS, STORE_LIFETIME_MS)).toBe(true);
  });

  it('keeps the data and the time it was loaded after a failed refetch (what an offline screen shows, and how old)', () => {
    const loaded = fetchSucceeded(startFetch<string>(undefined, 1), 1, 'v1', 5)!;
    const failed = fetchFailed(startFetch(loaded, 2), 2, new Error('offline'), 9)!;
    expect(failed).toMatchObject({ state: 'error', data: 'v1', loadedAt: 5, settledAt: 9 });
  });

  it('clears the error of a previous failure when a new fetch starts', () => {
    const failed = fetchFailed(startFetch(undefined, 1), 1, 'x', 1);
    expect(startFetch(failed, 2).error).toBeUndefined();
  });

  it('ignores the late answer of a superseded request', () => {
    const second = startFetch(startFetch<string>(undefined, 1), 2);
    expect(fetchSucceeded(second, 1, 'stale', 3)).toBe(second);
    expect(fetchFailed(second, 1, 'stale', 3)).toBe(second);
    expect(fetchSucceeded(second, 2, 'fresh', 4)?.data).toBe('fresh');
  });
});
