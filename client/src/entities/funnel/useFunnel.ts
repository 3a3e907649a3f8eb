/**
 * The funnel answer through the query cache (SPEC.md section 4): the GET form of the endpoint
 * (`funnel`, the query as JSON in `q`, written with stable key order so equal queries share one
 * cache entry), 3000 ms lifetime, refetched when the app or the query changes. While a new query
 * loads, the last answer is kept (`stale`), so a screen keeps its chart under an "Updating…" hint.
 * Dashboards use it for funnel widgets.
 */
import { useState } from 'react';
import type { FunnelAnswer, FunnelQueryInput } from '@gd/shared/schemas/funnels';
import { stableStringify } from '../../state/queryCache.ts';
import { useApiQuery, type QueryResult } from '../../state/useApiQuery.ts';

export function useFunnel(appId: string, query: FunnelQueryInput | null): QueryResult<FunnelAnswer> & { stale: boolean } {
  const result = useApiQuery('funnel', { params: { appId }, query: { q: stableStringify(query) }, scope: 'app', range: true, enabled: query !== null }) as QueryResult<FunnelAnswer>;
  const [last, setLast] = useState<FunnelAnswer | undefined>(result.data);
  // Adjusting state while rendering (React's pattern for state derived from props): no extra effect pass.
  if (result.data !== undefined && result.data !== last) setLast(result.data);
  if (result.data !== undefined || result.state !== 'loading') return { ...result, stale: false };
  return { ...result, data: last, stale: last !== undefined };
}
