/**
 * SQL of behaviour analytics: event totals, explore series and event properties.
 *
 * Sources, chosen by the caller (explore.ts):
 * - `event_daily`, the rollup kept by ingestion in the app's time zone: events and revenue per
 *   day, name, source, country, os and app version. Its primary key starts (app_id, name, day), so
 *   one event over a range is an index range scan whatever the size of `events`.
 * - `event_property_daily`, the property breakdown rollup of the properties marked as breakdowns,
 *   and the person structures (`event_people_daily`, `event_person_months`) for distinct people
 *   (migration 034, kept by ingestion, exact).
 * - `events`, for hours of the day, unmarked properties and people by a breakdown. It is partitioned by
 *   month on event_time, so every query bounds event_time with UTC instants (`utcBounds`: the
 *   range's first local midnight and the local midnight after its last day) and Postgres prunes
 *   the partitions outside the range.
 */
import { OTHER_SENTINEL, addDays, type ResolvedRange } from '@gd/shared';
import type { Queryable } from '../../db/pool.ts';
import { singleCurrency } from './currency.ts';
import { bucketLabels } from './range.ts';
import { DIMENSION_COLUMNS, Params, dayBucket, hourBucket, type RowDimension } from './sql.ts';

/** Today in a time zone, as Postgres sees it (the app's calendar). */
export async function todayIn(db: Queryable, timezone: string): Promise<string> {
  const { rows } = await db.query<{ today: string }>(`SELECT to_char(now() AT TIME ZONE $1, 'YYYY-MM-DD') AS today`, [timezone]);
  return rows[0]?.today ?? new Date().toISOString().slice(0, 10);
}

export interface UtcBounds { from: Date; to: Date }
/** The instants that bound the local days `startDay`..`endDay` (end exclusive: the midnight after). */
export async function utcBounds(db: Queryable, startDay: string, endDay: string, timezone: string): Promise<UtcBounds> {
  const { rows } = await db.query<{ from_utc: Date; to_utc: Date }>(
    `SELECT $1::date::timestamp AT TIME ZONE $3 AS from_utc, ($2::date + 1)::timestamp AT TIME ZONE $3 AS to_utc`,
    [startDay, endDay, timezone],
  );
  const row = rows[0];
  if (!row) throw new Error('time zone conversion returned no row');
  return { from: row.from_utc, to: row.to_utc };
}

/**
 * One aggregate of an explore query. `period` 0 is the range, 1 the previous period (already
 * shifted onto the range's buckets). `bucket` null is the total of the period (events source
 * only: the rollup's totals are sums of buckets). `key` is the breakdown value ('' when missing,
 * OTHER_SENTINEL for the values past the top), null without a breakdown.
 */
export interface ExploreRow {
  period: number;
  bucket: string | null;
  key: string | null;
  events: number;
  people: number | null;
  revenue: number;
}

export interface ExploreSpec {
  appId: string;
  event: string;
  range: ResolvedRange;
  /** First day of the previous period when comparing; its days shift forward by `shift` days. */
  previousStart: string | null;
  shift: number;
  top: number;
}

/** Names of the distinct event names of an app in the rollup, by a skip scan of its primary key. */
const NAMES_CTE = `
WITH RECURSIVE n AS (
  (SELECT name FROM event_daily WHERE app_id = $1 ORDER BY name LIMIT 1)
  UNION ALL
  SELECT (SELECT e.name FROM event_daily e WHERE e.app_id = $1 AND e.name > n.name ORDER BY e.name LIMIT 1)
    FROM n WHERE n.name IS NOT NULL
)`;
const ROLLUP_NAMES = `${NAMES_CTE} SELECT name FROM n WHERE name IS NOT NULL`;

export async function rollupNames(db: Queryable, appId: string): Promise<string[]> {
  return (await db.query<{ name: string }>(ROLLUP_NAMES, [appId])).rows.map((r) => r.name);
}

/**
 * Explore over the rollup: events or revenue per day, week or month, optionally by a row
 * dimension. Top values are ranked by the metric over the range (not the previous period).
 */
export async function exploreRollup(db: Queryable, spec: ExploreSpec & { metric: 'events' | 'revenue'; dimension: RowDimension | null }): Promise<ExploreRow[]> {
  const { range } = spec;
  if (range.timeGroup === 'hour') throw new Error('the rollup has no hours');
  const p = new Params();
  const app = p.add(spec.appId), name = p.add(spec.event), start = p.add(range.startDay), end = p.add(range.endDay);
  const first = spec.previousStart === null ? start : p.add(spec.previousStart);
  const shift = p.add(spec.shift);
  const key = spec.dimension ? DIMENSION_COLUMNS[spec.dimension] : 'NULL::text';
  const measure = spec.metric === 'events' ? 'events' : 'revenue';
  const day = `CASE WHEN day >= ${start}::date THEN day ELSE day + ${shift}::int END`;
  const keyed = spec.dimension
    ? `CASE WHEN k IN (SELECT k FROM top) THEN k ELSE '${OTHER_SENTINEL}' END`
    : 'k';
  const top = spec.dimension
    ? `, top AS (SELECT k FROM base WHERE day >= ${start}::date GROUP BY k ORDER BY sum(${measure}) DESC, k LIMIT ${p.add(spec.top)})`
    : '';
  const sql = `
WITH base AS (
  SELECT day, ${key} AS k, events, revenue FROM event_daily
   WHERE app_id = ${app} AND name = ${name} AND day BETWEEN ${first}::date AND ${end}::date
)${top}
SELECT CASE WHEN day >= ${start}::date THEN 0 ELSE 1 END AS period,
       ${dayBucket(range.timeGroup, day, start)} AS bucket,
       ${keyed} AS key,
       sum(events)::float8 AS events, NULL::float8 AS people, sum(revenue)::float8 AS revenue
  FROM base GROUP BY 1, 2, 3`;
  return (await db.query<ExploreRow>(sql, p.values)).rows;
}

/**
 * Explore over the property breakdown rollup (`event_property_daily`, migration 034) of a property
 * marked as a breakdown: events or revenue per day, week or month by the property's value ('' for
 * missing, OTHER_SENTINEL past the top), the same rows as `exploreEvents` gives for it.
 */
export async function explorePropertyRollup(db: Queryable, spec: ExploreSpec & { metric: 'events' | 'revenue'; property: string }): Promise<ExploreRow[]> {
  const { range } = spec;
  if (range.timeGroup === 'hour') throw new Error('the rollup has no hours');
  const p = new Params();
  const app = p.add(spec.appId), name = p.add(spec.event), property = p.add(spec.property), start = p.add(range.startDay), end = p.add(range.endDay);
  const first = spec.previousStart === null ? start : p.add(spec.previousStart);
  const shift = p.add(spec.shift);
  const day = `CASE WHEN day >= ${start}::date THEN day ELSE day + ${shift}::int END`;
  const sql = `
WITH base AS (
  SELECT day, value AS k, events, revenue FROM event_property_daily
   WHERE app_id = ${app} AND name = ${name} AND property = ${property} AND day BETWEEN ${first}::date AND ${end}::date
), top AS (
  SELECT k FROM base WHERE day >= ${start}::date GROUP BY k ORDER BY sum(${spec.metric}) DESC, k LIMIT ${p.add(spec.top)}
)
SELECT CASE WHEN day >= ${start}::date THEN 0 ELSE 1 END AS period,
       ${dayBucket(range.timeGroup, day, start)} AS bucket,
       CASE WHEN k IN (SELECT k FROM top) THEN k ELSE '${OTHER_SENTINEL}' END AS key,
       sum(events)::float8 AS events, NULL::float8 AS people, sum(revenue)::float8 AS revenue
  FROM base GROUP BY 1, 2, 3`;
  return (await db.query<ExploreRow>(sql, p.values)).rows;
}

/** Distinct people of one period or bucket (bucket null: the whole period). */
export interface PeopleRow { period: number; bucket: string | null; people: number }

/** A set of days as bit masks of the person month bitmaps: month (YYYY-MM-01) to mask. */
export type MonthMasks = Map<string, number>;
export interface PeopleGroup { period: number; bucket: string | null; masks: MonthMasks }

/**
 * The groups whose distinct people explore needs (pure): each period (bucket null) and, for weeks
 * and months, each bucket, as month masks (bit d-1 = day d). Days of the previous period belong to
 * the bucket of the day `shift` days later, as in the other sources.
 */
export function peopleGroups(spec: Pick<ExploreSpec, 'range' | 'previousStart' | 'shift'>): PeopleGroup[] {
  const { range } = spec;
  const labels = bucketLabels(range);
  const groups = new Map<string, PeopleGroup>();
  const add = (period: number, bucket: string | null, day: string) => {
    const key = `${period}|${bucket ?? ''}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { period, bucket, masks: new Map() }));
    const month = `${day.slice(0, 8)}01`;
    g.masks.set(month, (g.masks.get(month) ?? 0) | (1 << (Number(day.slice(8, 10)) - 1)));
  };
  const bucketOf = (day: string) => {
    let label = labels[0] ?? day;
    for (const l of labels) if (l <= day) label = l;
    return label;
  };
  const first = spec.previousStart ?? range.startDay;
  for (let day = first; day <= range.endDay; day = addDays(day, 1)) {
    const period = day >= range.startDay ? 0 : 1;
    add(period, null, day);
    if (range.timeGroup !== 'day') add(period, bucketOf(period === 0 ? day : addDays(day, spec.shift)), day);
  }
  return [...groups.values()];
}

/**
 * Distinct people of one event ('' = any) per bucket and per period, exact, from the structures of
 * migration 034: per day from `event_people_daily`; per week, month and period from the person
 * month bitmaps, a person counting when their month's bits meet the group's mask. A person has one
 * row per month, so the groups inside one month are plain counts, all in one scan; a group across
 * months (a period, a week over a month's end) counts distinct person ids, one query per group,
 * run side by side on the pool's connections.
 */
export async function explorePeople(db: Queryable, spec: ExploreSpec): Promise<PeopleRow[]> {
  const { range } = spec;
  if (range.timeGroup === 'hour') throw new Error('the person structures have no hours');
  const groups = peopleGroups(spec);
  const single = groups.filter((g) => g.masks.size === 1);
  const multi = groups.filter((g) => g.masks.size > 1);
  const entries = (gs: PeopleGroup[]) => gs.flatMap((g, i) => [...g.masks].map(([month, mask]) => ({ i, month, mask })));
  const one = entries(single);
  const singleRows = one.length === 0 ? Promise.resolve([]) : db.query<{ i: number; people: number }>(
    `SELECT m.i, count(*)::float8 AS people
       FROM event_person_months e JOIN unnest($3::int[], $4::date[], $5::int[]) AS m(i, month, mask) ON e.month = m.month
      WHERE e.app_id = $1 AND e.name = $2 AND e.month = ANY($4::date[]) AND e.days & m.mask <> 0
      GROUP BY m.i`,
    [spec.appId, spec.event, one.map((x) => x.i), one.map((x) => x.month), one.map((x) => x.mask)],
  ).then((r) => r.rows.flatMap((row) => {
    const g = single[row.i];
    return g ? [{ period: g.period, bucket: g.bucket, people: row.people }] : [];
  }));
  const multiRows = multi.map(async (g) => {
    const months = [...g.masks.keys()];
    // Each month's rows meet that month's mask (array_position picks it); grouped by person: with the
    // person-ordered index of migration 036 an index-only stream, else a hash of the group's people.
    const { rows } = await db.query<{ people: number }>(
      `SELECT count(*)::float8 AS people FROM (
         SELECT person_id FROM event_person_months
          WHERE app_id = $1 AND name = $2 AND month = ANY($3::date[]) AND days & ($4::int[])[array_position($3::date[], month)] <> 0
          GROUP BY person_id) x`,
      [spec.appId, spec.event, months, months.map((m) => g.masks.get(m))],
    );
    return { period: g.period, bucket: g.bucket, people: rows[0]?.people ?? 0 };
  });
  const daily = range.timeGroup !== 'day' ? Promise.resolve([]) : db.query<PeopleRow>(
    `SELECT CASE WHEN day >= $3::date THEN 0 ELSE 1 END AS period,
            to_char(CASE WHEN day >= $3::date THEN day ELSE day + $5::int END, 'YYYY-MM-DD') AS bucket, people::float8 AS people
       FROM event_people_daily WHERE app_id = $1 AND name = $2 AND day BETWEEN $4::date AND $6::date`,
    [spec.appId, spec.event, range.startDay, spec.previousStart ?? range.startDay, spec.shift, range.endDay],
  ).then((r) => r.rows);
  const parts = await Promise.all([singleRows, daily, ...multiRows]);
  return parts.flat();
}

/** How the events source ranks breakdown values. */
export type Rank = 'events' | 'people' | 'revenue';
const RANK_SQL: Record<Rank, string> = {
  events: 'count(*)',
  people: 'count(DISTINCT person_id)',
  revenue: 'coalesce(sum(revenue), 0)',
};

/**
 * Explore over the events table: events, distinct people and revenue per bucket (hours of the
 * day or days/weeks/months) and per period in total, optionally by a row dimension or a property.
 * Distinct people are counted only when the metric needs them (`people`): on millions of rows that
 * count, sorted per group, costs as much as the scan itself.
 */
export async function exploreEvents(db: Queryable, spec: ExploreSpec & {
  timezone: string; bounds: UtcBounds; dimension: RowDimension | { property: string } | null; rank: Rank; people: boolean;
}): Promise<ExploreRow[]> {
  const { range } = spec;
  const p = new Params();
  const app = p.add(spec.appId), name = p.add(spec.event), from = p.add(spec.bounds.from), to = p.add(spec.bounds.to);
  const tz = p.add(spec.timezone), start = p.add(range.startDay);
  const key = spec.dimension === null ? 'NULL::text'
    : typeof spec.dimension === 'string' ? `coalesce(${DIMENSION_COLUMNS[spec.dimension]}, '')`
      : `coalesce(properties ->> ${p.add(spec.dimension.property)}, '')`;
  const bucket = range.timeGroup === 'hour'
    ? hourBucket('lt')
    : dayBucket(range.timeGroup, `CASE WHEN lt >= ${start}::date THEN lt::date ELSE lt::date + ${p.add(spec.shift)}::int END`, start);
  const top = spec.dimension
    ? `, top AS (SELECT k FROM base WHERE lt >= ${start}::date GROUP BY k ORDER BY ${RANK_SQL[spec.rank]} DESC, k LIMIT ${p.add(spec.top)})`
    : '';
  const keyed = spec.dimension ? `CASE WHEN k IN (SELECT k FROM top) THEN k ELSE '${OTHER_SENTINEL}' END` : 'k';
  const sql = `
WITH base AS (
  SELECT event_time AT TIME ZONE ${tz} AS lt, person_id, revenue, ${key} AS k FROM events
   WHERE app_id = ${app} AND name = ${name} AND event_time >= ${from} AND event_time < ${to}
)${top}, tagged AS (
  SELECT CASE WHEN lt >= ${start}::date THEN 0 ELSE 1 END AS period, ${bucket} AS bucket, ${keyed} AS key, person_id, revenue FROM base
)
SELECT period, bucket, key, count(*)::float8 AS events, ${spec.people ? 'count(DISTINCT person_id)::float8' : 'NULL::float8'} AS people,
       coalesce(sum(revenue), 0)::float8 AS revenue
  FROM tagged GROUP BY GROUPING SETS ((period, bucket, key), (period, key))`;
  return (await db.query<ExploreRow>(sql, p.values)).rows;
}

export interface EventTotals { name: string; events: number; revenue: number; previousEvents: number }

/** Events and revenue per event name over a range and its previous period, from the rollup. */
export async function eventTotals(db: Queryable, appId: string, range: ResolvedRange, previousStart: string): Promise<EventTotals[]> {
  const { rows } = await db.query<{ name: string; events: number | null; revenue: number | null; previous: number | null }>(
    `${NAMES_CTE}
SELECT n.name, t.events, t.revenue, t.previous FROM n CROSS JOIN LATERAL (
  SELECT sum(events) FILTER (WHERE day >= $2::date)::float8 AS events,
         sum(revenue) FILTER (WHERE day >= $2::date)::float8 AS revenue,
         sum(events) FILTER (WHERE day < $2::date)::float8 AS previous
    FROM event_daily e WHERE e.app_id = $1 AND e.name = n.name AND e.day BETWEEN $4::date AND $3::date
) t WHERE n.name IS NOT NULL`,
    [appId, range.startDay, range.endDay, previousStart],
  );
  return rows.map((r) => ({ name: r.name, events: r.events ?? 0, revenue: r.revenue ?? 0, previousEvents: r.previous ?? 0 }));
}

/** Distinct people per event name between two instants (hash aggregation of name, person pairs). */
export async function peopleByEvent(db: Queryable, appId: string, bounds: UtcBounds): Promise<Map<string, number>> {
  const { rows } = await db.query<{ name: string; people: number }>(
    `SELECT name, count(*)::float8 AS people FROM (
       SELECT DISTINCT name, person_id FROM events WHERE app_id = $1 AND event_time >= $2 AND event_time < $3
     ) d GROUP BY name`,
    [appId, bounds.from, bounds.to],
  );
  return new Map(rows.map((r) => [r.name, r.people]));
}

export interface PropertyRow { sampled: number; key: string | null; n: number | null; distinct_values: number | null; value: string | null; value_count: number | null }

/**
 * The most frequent properties of an event and their most frequent values, over at most
 * `sample` of the latest events of the range. Values are text (JSON for arrays and objects; ''
 * for null and empty strings).
 */
export async function eventProperties(db: Queryable, appId: string, event: string, bounds: UtcBounds, limits: { sample: number; properties: number; values: number }): Promise<PropertyRow[]> {
  const { rows } = await db.query<PropertyRow>(
    `WITH sample AS MATERIALIZED (
       SELECT properties FROM events WHERE app_id = $1 AND name = $2 AND event_time >= $3 AND event_time < $4
        ORDER BY event_time DESC LIMIT $5
     ), kv AS (
       SELECT p.key, coalesce(p.value #>> '{}', '') AS value FROM sample s CROSS JOIN LATERAL jsonb_each(s.properties) p
     ), keys AS (
       SELECT key, count(*)::float8 AS n, count(DISTINCT value)::float8 AS distinct_values FROM kv GROUP BY key ORDER BY count(*) DESC, key LIMIT $6
     ), vals AS (
       SELECT kv.key, kv.value, count(*)::float8 AS value_count,
              row_number() OVER (PARTITION BY kv.key ORDER BY count(*) DESC, kv.value) AS rank
         FROM kv JOIN keys USING (key) GROUP BY kv.key, kv.value
     )
     SELECT s.sampled, r.key, r.n, r.distinct_values, r.value, r.value_count
       FROM (SELECT count(*)::float8 AS sampled FROM sample) s
       LEFT JOIN (SELECT k.key, k.n, k.distinct_values, v.value, v.value_count FROM keys k JOIN vals v USING (key) WHERE v.rank <= $7) r ON true
      ORDER BY r.n DESC NULLS LAST, r.key, r.value_count DESC, r.value`,
    [appId, event, bounds.from, bounds.to, limits.sample, limits.properties, limits.values],
  );
  return rows;
}

/**
 * Per event name, the currency of its revenue events between two instants (at most two distinct
 * values are read per name: enough to tell one from several; currency.ts says why). Only the names given are read, so
 * callers pass the names whose revenue is not zero; the others have no currency.
 */
export async function revenueCurrencies(db: Queryable, appId: string, names: readonly string[], bounds: UtcBounds): Promise<Map<string, string | null>> {
  if (names.length === 0) return new Map();
  const { rows } = await db.query<{ name: string; currencies: (string | null)[] }>(
    `SELECT n.name, ARRAY(
       SELECT DISTINCT rtrim(e.currency) FROM events e
        WHERE e.app_id = $1 AND e.name = n.name AND e.event_time >= $2 AND e.event_time < $3 AND e.revenue <> 0
        LIMIT 2
     ) AS currencies
       FROM unnest($4::text[]) AS n(name)`,
    [appId, bounds.from, bounds.to, [...names]],
  );
  return new Map(rows.map((r) => [r.name, singleCurrency(r.currencies)]));
}
