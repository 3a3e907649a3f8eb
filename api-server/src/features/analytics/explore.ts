/**
 * Explore: one metric of one event per bucket, optionally by a breakdown and against the previous
 * period. Chooses the source (see repository.ts) and turns its rows into aligned series.
 *
 * The rollup answers events and revenue by day, week or month, with no breakdown or a row
 * dimension (source, country, os, app version): the common case, and the one that must stay fast
 * however many events the app has. The structures of migration 034 answer, exactly and as fast,
 * events and revenue by a property marked as a breakdown (once its backfill is done) and distinct
 * people (and events per person) without a breakdown. Hours of the day, unmarked properties and
 * people by a breakdown read the events themselves. The answer's `source` says which was used.
 */
import {
  ANALYTICS_LIMITS, EMPTY_SENTINEL, OTHER_SENTINEL, type ExploreAnswer, type ExploreMetric, type ExploreQuery, type ExploreSeries,
  type ResolvedRange, rangeLength,
} from '@gd/shared';
import type { z } from 'zod';
import type { Queryable } from '../../db/pool.ts';
import { bucketLabels, previousPeriod } from './range.ts';
import { breakdownReady } from './breakdowns.ts';
import {
  exploreEvents, explorePeople, explorePropertyRollup, exploreRollup, revenueCurrencies, utcBounds, type ExploreRow, type PeopleRow, type Rank,
} from './repository.ts';

export type ExploreResult = z.infer<z.ZodObject<typeof ExploreAnswer>>;

/** The value of a metric in one aggregate row. */
export function metricValue(metric: ExploreMetric, row: Pick<ExploreRow, 'events' | 'people' | 'revenue'>): number {
  switch (metric) {
    case 'events':
      return row.events;
    case 'people':
      return row.people ?? 0;
    case 'revenue':
      return row.revenue;
    case 'eventsPerPerson':
      return row.people ? row.events / row.people : 0;
    default: {
      const never: never = metric;
      throw new Error(`unknown metric ${String(never)}`);
    }
  }
}

interface Accumulator { values: number[]; previous: number[]; total: number | null; previousTotal: number | null }

/**
 * Series from the rows: one per key, values aligned with `labels` (0 where no row), totals from the
 * period rows when the source gives them, else (additive metrics of the rollup) the sum of the
 * buckets. Ordered by total, largest first, with "(empty)" among the values and "other" last.
 */
export function assembleSeries(rows: readonly ExploreRow[], labels: readonly string[], opts: { metric: ExploreMetric; compare: boolean; breakdown: boolean }): ExploreSeries[] {
  const { metric, compare } = opts;
  const index = new Map(labels.map((label, i) => [label, i]));
  const byKey = new Map<string | null, Accumulator>();
  const seriesOf = (key: string | null) => {
    let acc = byKey.get(key);
    if (!acc) {
      acc = { values: labels.map(() => 0), previous: labels.map(() => 0), total: null, previousTotal: null };
      byKey.set(key, acc);
    }
    return acc;
  };
  for (const row of rows) {
    if (row.period !== 0 && !compare) continue;
    const key = row.key === '' ? EMPTY_SENTINEL : row.key;
    const acc = seriesOf(key);
    const value = metricValue(metric, row);
    if (row.bucket === null) {
      if (row.period === 0) acc.total = value;
      else acc.previousTotal = value;
      continue;
    }
    const i = index.get(row.bucket);
    if (i === undefined) continue;
    (row.period === 0 ? acc.values : acc.previous)[i] = value;
  }
  // Without a breakdown there is always one series, zeros when nothing happened.
  if (!opts.breakdown && byKey.size === 0) seriesOf(null);
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const series = [...byKey.entries()].map(([key, acc]): ExploreSeries => ({
    key,
    values: acc.values,
    total: acc.total ?? sum(acc.values),
    ...(compare ? { previous: acc.previous, previousTotal: acc.previousTotal ?? sum(acc.previous) } : {}),
  }));
  const rank = (s: ExploreSeries) => (s.key === OTHER_SENTINEL ? 1 : 0);
  return series.sort((a, b) => rank(a) - rank(b) || b.total - a.total || String(a.key).localeCompare(String(b.key)));
}

/**
 * Distinct people rows joined with the rollup's events per bucket (for events per person); a
 * period's events are the sum of its buckets.
 */
export function peopleRows(people: readonly PeopleRow[], events: readonly ExploreRow[]): ExploreRow[] {
  const eventsOf = new Map<string, number>();
  const add = (key: string, n: number) => eventsOf.set(key, (eventsOf.get(key) ?? 0) + n);
  for (const e of events) {
    add(`${e.period}|${e.bucket}`, e.events);
    add(`${e.period}|`, e.events);
  }
  return people.map((r) => ({ period: r.period, bucket: r.bucket, key: null, people: r.people, events: eventsOf.get(`${r.period}|${r.bucket ?? ''}`) ?? 0, revenue: 0 }));
}

/** How the events source ranks breakdown values for a metric. */
const rankFor = (metric: ExploreMetric): Rank => (metric === 'people' ? 'people' : metric === 'revenue' ? 'revenue' : 'events');

/** `eventsTable`: answer from the events table whatever the query (the reference the other sources are tested against). */
export async function explore(
  db: Queryable, app: { id: string; timezone: string }, range: ResolvedRange, query: ExploreQuery, opts: { eventsTable?: boolean } = {},
): Promise<ExploreResult> {
  const previous = query.compare ? previousPeriod(range) : null;
  const spec = {
    appId: app.id, event: query.event, range, previousStart: previous?.startDay ?? null,
    shift: rangeLength(range.startDay, range.endDay), top: ANALYTICS_LIMITS.breakdownTop,
  };
  const labels = bucketLabels(range);
  const { metric, breakdown } = query;
  let rows: ExploreRow[];
  let source: ExploreResult['source'];
  const rollupMetric = metric === 'events' || metric === 'revenue' ? metric : null;
  const byDays = range.timeGroup !== 'hour' && !opts.eventsTable;
  if (rollupMetric && byDays && breakdown !== 'property') {
    rows = await exploreRollup(db, { ...spec, metric: rollupMetric, dimension: breakdown ?? null });
    source = 'rollup';
  } else if (rollupMetric && byDays && breakdown === 'property' && query.property && (await breakdownReady(db, app.id, query.event, query.property))) {
    rows = await explorePropertyRollup(db, { ...spec, metric: rollupMetric, property: query.property });
    source = 'propertyRollup';
  } else if (!rollupMetric && byDays && breakdown === undefined) {
    const [people, events] = await Promise.all([
      explorePeople(db, spec),
      metric === 'eventsPerPerson' ? exploreRollup(db, { ...spec, metric: 'events', dimension: null }) : Promise.resolve([]),
    ]);
    rows = peopleRows(people, events);
    source = 'peopleRollup';
  } else {
    const bounds = await utcBounds(db, previous?.startDay ?? range.startDay, range.endDay, app.timezone);
    const dimension = breakdown === undefined ? null : breakdown === 'property' ? { property: query.property ?? '' } : breakdown;
    const people = metric === 'people' || metric === 'eventsPerPerson';
    rows = await exploreEvents(db, { ...spec, timezone: app.timezone, bounds, dimension, rank: rankFor(metric), people });
    source = 'events';
  }
  const series = assembleSeries(rows, labels, { metric, compare: query.compare, breakdown: breakdown !== undefined });
  // Revenue's currency (currency.ts), read only for the revenue metric and when there is some.
  const hasRevenue = metric === 'revenue' && series.some((s) => s.total !== 0 || (s.previousTotal ?? 0) !== 0);
  const currency = hasRevenue
    ? ((await revenueCurrencies(db, app.id, [query.event], await utcBounds(db, previous?.startDay ?? range.startDay, range.endDay, app.timezone))).get(query.event) ?? null)
    : null;
  return {
    event: query.event, metric, breakdown: breakdown ?? null, property: breakdown === 'property' ? (query.property ?? null) : null,
    range, previous, buckets: labels, series, source, currency,
  };
}
