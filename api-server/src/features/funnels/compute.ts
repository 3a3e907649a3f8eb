/**
 * Funnels: resolves the range, runs the SQL of repository.ts and assembles the answer
 * (schemas/funnels.ts). `runFunnel` is what the screen, dashboards and reports call.
 *
 * Decisions: series are ordered by the people who entered, largest first, OTHER_SENTINEL last;
 * the previous period (compare) is answered without a breakdown (its totals only).
 */
import {
  ANALYTICS_LIMITS, OTHER_SENTINEL, conversions, histogramEdges, windowSeconds, type FunnelAnswer, type FunnelQuery, type FunnelSeries,
  type ResolvedRange,
} from '@gd/shared';
import type { Queryable } from '../../db/pool.ts';
import { bucketLabels, previousPeriod, resolveRange } from '../analytics/range.ts';
import { todayIn, utcBounds } from '../analytics/repository.ts';
import { funnelAggregates, type AggregateRow, type OutcomeSpec } from './repository.ts';

export interface FunnelApp { id: string; timezone: string }

/** The query's range (default: the last 7 days including today in the app's time zone). */
export async function funnelRange(db: Queryable, app: FunnelApp, query: FunnelQuery): Promise<ResolvedRange> {
  return resolveRange(query, query.startDay === undefined ? await todayIn(db, app.timezone) : query.startDay);
}

/** The SQL spec of a query over a resolved range. */
export async function outcomeSpec(db: Queryable, app: FunnelApp, query: FunnelQuery, range: ResolvedRange, opts: { withBreakdown: boolean; top: number | null }): Promise<OutcomeSpec> {
  const bounds = await utcBounds(db, range.startDay, range.endDay, app.timezone);
  return { appId: app.id, timezone: app.timezone, query, range, bounds, windowSeconds: windowSeconds(query.window), ...opts, withBreakdown: opts.withBreakdown && query.breakdown !== undefined };
}

/** A series from the (key, reached) counts and the converted people's durations. */
export function seriesOf(key: string | null, rows: readonly AggregateRow[], n: number): FunnelSeries {
  const byReached = new Map(rows.map((r) => [r.reached, r]));
  const counts = Array.from({ length: n }, (_, k) => rows.filter((r) => r.reached >= k + 1).reduce((a, r) => a + r.n, 0));
  const done = byReached.get(n);
  const { overall, fromPrevious } = conversions(counts);
  return {
    key, counts, conversion: overall, stepConversion: fromPrevious,
    avgSeconds: done && done.n > 0 ? done.dur_sum / done.n : null,
    medianSeconds: done?.dur_median ?? null,
  };
}

async function answerFor(db: Queryable, app: FunnelApp, query: FunnelQuery, range: ResolvedRange, withBreakdown: boolean) {
  const edges = histogramEdges(windowSeconds(query.window));
  const spec = await outcomeSpec(db, app, query, range, { withBreakdown, top: ANALYTICS_LIMITS.breakdownTop });
  const rows = await funnelAggregates(db, spec, edges);
  const n = query.steps.length;
  const of = (g: AggregateRow['grouping']) => rows.filter((r) => r.grouping === g);
  const total = seriesOf(null, of('all'), n);
  const byKey = new Map<string, AggregateRow[]>();
  for (const r of of('key')) {
    if (r.key === null) continue;
    byKey.set(r.key, [...(byKey.get(r.key) ?? []), r]);
  }
  const breakdown = spec.withBreakdown
    ? [...byKey.entries()].map(([key, list]) => seriesOf(key, list, n))
      .sort((a, b) => Number(a.key === OTHER_SENTINEL) - Number(b.key === OTHER_SENTINEL) || (b.counts[0] ?? 0) - (a.counts[0] ?? 0) || String(a.key).localeCompare(String(b.key)))
    : [];
  const histogram = edges.map((upTo, i) => ({ upTo, people: of('bin').filter((r) => r.reached === n && r.bin === i).reduce((a, r) => a + r.n, 0) }));
  const buckets = bucketLabels(range);
  const index = new Map(buckets.map((b, i) => [b, i]));
  const entered = buckets.map(() => 0), converted = buckets.map(() => 0);
  for (const r of of('bucket')) {
    const i = r.bucket === null ? undefined : index.get(r.bucket);
    if (i === undefined) continue;
    entered[i] = (entered[i] ?? 0) + r.n;
    if (r.reached === n) converted[i] = (converted[i] ?? 0) + r.n;
  }
  return { total, breakdown, histogram, overTime: { buckets, entered, converted } };
}

export async function runFunnel(db: Queryable, app: FunnelApp, query: FunnelQuery): Promise<FunnelAnswer> {
  const range = await funnelRange(db, app, query);
  const previousRange = query.compare ? previousPeriod(range) : null;
  const [current, previous] = await Promise.all([
    answerFor(db, app, query, range, true),
    previousRange ? answerFor(db, app, query, { ...previousRange, timeGroup: range.timeGroup }, false) : null,
  ]);
  return {
    range, windowSeconds: windowSeconds(query.window), steps: query.steps.map((s) => s.event),
    ...current,
    previous: previousRange && previous ? { range: previousRange, total: previous.total } : null,
  };
}
