/**
 * What a widget asks the API (pure), over the dashboard's window (dashboard/model.ts `windowRanges`):
 * range queries cached 3000 ms per app and query (SPEC §4, §9; state/useApiQuery.ts), refetched
 * when the window, the app or the query changes. Funnel and cohort widgets read through their
 * entities' hooks (entities/funnel/useFunnel.ts, entities/cohort/useCohort.ts), cached the same
 * way. A widget's stored query
 * is checked with its kind's schema first; one that no longer parses is that widget's error.
 */
import { KpiWidgetQuery, ExploreWidgetQuery, type WindowRanges } from '@gd/shared/dashboard/model';
import { CohortQuery } from '@gd/shared/schemas/cohorts';
import { FunnelQuery } from '@gd/shared/schemas/funnels';

type PostName = 'funnel' | 'cohort';

/** The explore query of a chart widget over the window, or the reason it cannot run. */
export function exploreRequest(query: unknown, ranges: WindowRanges) {
  const parsed = ExploreWidgetQuery.safeParse(query);
  if (!parsed.success) return { ok: false as const, reason: parsed.error.issues[0]?.message ?? 'invalid' };
  const q = parsed.data;
  return {
    ok: true as const,
    query: {
      event: q.event, metric: q.metric, breakdown: q.breakdown, property: q.property,
      startDay: ranges.current.startDay, endDay: ranges.current.endDay, timeGroup: ranges.timeGroup,
    },
  };
}

/** A KPI's two explore queries: the window so far and the same stretch of the previous window. */
export function kpiRequests(query: unknown, ranges: WindowRanges) {
  const parsed = KpiWidgetQuery.safeParse(query);
  if (!parsed.success) return { ok: false as const, reason: parsed.error.issues[0]?.message ?? 'invalid' };
  const base = { event: parsed.data.event, metric: parsed.data.metric, timeGroup: 'day' as const };
  return {
    ok: true as const,
    metric: parsed.data.metric,
    current: { ...base, ...ranges.current },
    previous: { ...base, ...ranges.previous },
  };
}

/** A funnel or cohort body over the window (days grouped by day), checked with its schema. */
export function postRequest(kind: PostName, query: unknown, ranges: WindowRanges) {
  const body = { ...(typeof query === 'object' && query !== null ? query : {}), startDay: ranges.current.startDay, endDay: ranges.current.endDay, timeGroup: 'day', ...(kind === 'funnel' ? { compare: false } : {}) };
  const parsed = (kind === 'funnel' ? FunnelQuery : CohortQuery).safeParse(body);
  if (!parsed.success) return { ok: false as const, reason: parsed.error.issues[0]?.message ?? 'invalid' };
  return { ok: true as const, body: body as Record<string, unknown> };
}
