/**
 * Range queries of the analytics screens: cached per app and query (useApiQuery, SPEC.md section
 * 4), 3000 ms lifetime, refetched when the app, the query or the range changes.
 */
import { useState } from 'react';
import type { QueryValue } from '../../api/client.ts';
import { useApiQuery, type QueryName, type QueryResult } from '../../state/useApiQuery.ts';

export function useAppRangeQuery<N extends QueryName>(name: N, appId: string, query: Record<string, QueryValue>, enabled = true) {
  return useApiQuery(name, { params: { appId }, query, scope: 'app', range: true, enabled });
}

/**
 * The query with its last loaded answer kept while a new query loads (a change of metric, breakdown
 * or range), so the screen keeps its chart under an "Updating…" hint instead of blanking. A failure
 * of the new query still shows as an error.
 */
export function useKeptQuery<T>(query: QueryResult<T>): QueryResult<T> & { stale: boolean } {
  const [last, setLast] = useState<T | undefined>(query.data);
  // Adjusting state while rendering (React's pattern for state derived from props): no extra effect pass.
  if (query.data !== undefined && query.data !== last) setLast(query.data);
  if (query.data !== undefined || query.state !== 'loading') return { ...query, stale: false };
  return { ...query, data: last, stale: last !== undefined };
}
