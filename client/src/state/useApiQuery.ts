/** Read an API list or record through the query cache (SPEC.md section 4). */
import { useCallback, useEffect } from 'react';
import type { EndpointName, Endpoints, ResponseOf } from '@gd/shared/endpoints';
import { api, type CallInput, type QueryValue } from '../api/client.ts';
import { useSession } from '../session/store.ts';
import { RANGE_LIFETIME_MS, STORE_LIFETIME_MS, cacheKey, stableStringify, type CacheEntry, type LoadState } from './queryCache.ts';
import { useQueryCache } from './queryStore.ts';

export type QueryName = { [N in EndpointName]: Endpoints[N]['method'] extends 'GET' ? N : never }[EndpointName];

export interface QueryOptions {
  params?: Record<string, string>;
  query?: Record<string, QueryValue>;
  /** App-scoped data is keyed by the current app, so it refetches when the app changes. */
  scope?: 'app' | 'account';
  /** Range queries live 3000 ms in the cache, other data 1000 ms. */
  range?: boolean;
  enabled?: boolean;
}

export interface QueryResult<T> {
  data: T | undefined;
  state: LoadState;
  error: unknown;
  /** When `data` was loaded (ms since the epoch), also after a failed refetch. */
  loadedAt: number | undefined;
  refetch: () => void;
}

type Caller = (name: EndpointName, input?: CallInput<EndpointName>) => Promise<unknown>;

export function useApiQuery<N extends QueryName>(name: N, options: QueryOptions = {}): QueryResult<ResponseOf<N>> {
  const { params, query, scope = 'account', range = false, enabled = true } = options;
  const appId = useSession((s) => s.currentAppId);
  const key = cacheKey(scope === 'app' ? appId : null, name, { params, query });
  const entry = useQueryCache((s) => s.entries[key]) as CacheEntry<ResponseOf<N>> | undefined;
  const ensure = useQueryCache((s) => s.ensure);
  const lifetime = range ? RANGE_LIFETIME_MS : STORE_LIFETIME_MS;

  // The input as text: a stable dependency however the caller builds its objects.
  const inputJson = stableStringify({ params, query });
  const fetcher = useCallback(() => (api.call as Caller)(name, JSON.parse(inputJson) as CallInput<EndpointName>), [name, inputJson]);

  useEffect(() => {
    if (enabled) ensure(key, fetcher, lifetime);
  }, [enabled, ensure, fetcher, key, lifetime]);

  const refetch = useCallback(() => ensure(key, fetcher, lifetime, true), [ensure, fetcher, key, lifetime]);
  return { data: entry?.data, state: entry?.state ?? 'loading', error: entry?.error, loadedAt: entry?.loadedAt, refetch };
}
