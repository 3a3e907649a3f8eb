/**
 * The cohort query through the query cache (SPEC.md section 4): a POST (its query is a nested
 * object), cached per app and query like the GET range queries of useApiQuery, 3000 ms lifetime,
 * refetched when the app or the query changes or when forced. Dashboards use it for cohort widgets.
 */
import { useCallback, useEffect } from 'react';
import type { CohortAnswer, CohortQueryInput } from '@gd/shared/schemas/cohorts';
import { api } from '../../api/client.ts';
import { RANGE_LIFETIME_MS, cacheKey, stableStringify, type CacheEntry } from '../../state/queryCache.ts';
import { useQueryCache } from '../../state/queryStore.ts';
import type { QueryResult } from '../../state/useApiQuery.ts';

export function useCohort(appId: string, query: CohortQueryInput | null): QueryResult<CohortAnswer> {
  const key = cacheKey(appId, 'cohort', query);
  const entry = useQueryCache((s) => s.entries[key]) as CacheEntry<CohortAnswer> | undefined;
  const ensure = useQueryCache((s) => s.ensure);
  const json = stableStringify(query);
  const fetcher = useCallback(() => api.call('cohort', { params: { appId }, body: JSON.parse(json) as CohortQueryInput }), [appId, json]);
  const enabled = query !== null;
  useEffect(() => {
    if (enabled) ensure(key, fetcher, RANGE_LIFETIME_MS);
  }, [enabled, ensure, fetcher, key]);
  const refetch = useCallback(() => ensure(key, fetcher, RANGE_LIFETIME_MS, true), [ensure, fetcher, key]);
  return { data: entry?.data, state: entry?.state ?? 'loading', error: entry?.error, loadedAt: entry?.loadedAt, refetch };
}
