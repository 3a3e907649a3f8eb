/**
 * SQL of funnels. One statement per answer, built from one common part (`personOutcomes`): the
 * events of the steps and exclusions over the range plus the window (every event of the person for
 * strict order, which needs to see the others), read through the index (app_id, name, event_time)
 * and the monthly partitions of `events`; per person, arrays ordered by (instant, step mask,
 * exclusion mask, then the breakdown value in binary order, as funnel.ts orders them);
 * `gd_funnel_eval` (migration 035) per person; the breakdown value; then either
 * aggregates (a few hundred rows at most), a page of people, or the person ids an audience
 * stores. Event rows never leave Postgres.
 *
 * Every value is a parameter; only whitelisted column names (person attributes) are spliced in.
 * Every read of `events` and `people` is scoped by app_id.
 */
import { EMPTY_SENTINEL, NUMERIC_TEXT_PATTERN, OTHER_SENTINEL, type FunnelQuery, type PersonAttribute, type PropertyFilter, type ResolvedRange, type StepEvent } from '@gd/shared';
import { tx, type Db, type Queryable } from '../../db/pool.ts';
import { bucketLabels } from '../analytics/range.ts';
import { Params, hourBucket } from '../analytics/sql.ts';

const ATTRIBUTE_COLUMNS: Record<PersonAttribute, string> = {
  country: 'country', os: 'os', app_version: 'app_version', from_source: 'from_source', from_campaign: 'from_campaign',
  carrier: 'carrier', city: 'city', state: 'state',
};

/** A filter as SQL over `properties` (the rule of shared `matchesFilter`). */
export function filterSql(p: Params, f: PropertyFilter): string {
  const key = `${p.add(f.property)}::text`;
  const scalar = `coalesce(jsonb_typeof(properties -> ${key}) IN ('string', 'number', 'boolean'), false)`;
  const text = `(properties ->> ${key})`;
  switch (f.op) {
    case 'set':
      return `coalesce(jsonb_typeof(properties -> ${key}) <> 'null', false)`;
    case 'notSet':
      return `NOT coalesce(jsonb_typeof(properties -> ${key}) <> 'null', false)`;
    case 'eq':
      return `(CASE WHEN ${scalar} THEN ${text} = ${p.add(String(f.value))}::text ELSE false END)`;
    case 'neq':
      return `(CASE WHEN ${scalar} THEN ${text} <> ${p.add(String(f.value))}::text ELSE true END)`;
    case 'contains':
      return `(CASE WHEN ${scalar} THEN strpos(lower(${text}), lower(${p.add(String(f.value))}::text)) > 0 ELSE false END)`;
    case 'gt':
    case 'lt':
      return `(CASE WHEN ${scalar} AND ${text} ~ ${p.add(NUMERIC_TEXT_PATTERN)}::text THEN ${text}::numeric ${f.op === 'gt' ? '>' : '<'} ${p.add(String(Number(f.value)))}::numeric ELSE false END)`;
  }
}

/** Whether the row is an occurrence of a step event. */
export function stepSql(p: Params, step: StepEvent): string {
  return [`name = ${p.add(step.event)}::text`, ...step.filters.map((f) => filterSql(p, f))].join(' AND ');
}

/** A bitmask expression: bit i set when `conditions[i]` holds. */
const maskSql = (conditions: string[]) => (conditions.length === 0 ? '0' : conditions.map((c, i) => `(CASE WHEN ${c} THEN ${1 << i} ELSE 0 END)`).join(' | '));

export interface FunnelBounds {
  /** The range's first local midnight and the local midnight after its last day. */
  from: Date;
  to: Date;
}

export interface OutcomeSpec {
  appId: string;
  timezone: string;
  query: FunnelQuery;
  range: ResolvedRange;
  bounds: FunnelBounds;
  windowSeconds: number;
  /** Map breakdown values past the top (by people entered, then value in binary order) to OTHER_SENTINEL. */
  top: number | null;
  withBreakdown: boolean;
}

/**
 * Whether a query takes the set-based path (`setBasedOutcomes`): in order, no exclusions, every
 * step a different event (so no occurrence can fill two steps), and no breakdown value read at a
 * later step than the first. Anything else goes through `gd_funnel_eval` per person.
 */
export function setBasedApplies(query: FunnelQuery, withBreakdown: boolean): boolean {
  return query.order === 'sequential' && query.exclusions.length === 0 && new Set(query.steps.map((s) => s.event)).size === query.steps.length
    && (!withBreakdown || query.breakdown?.kind !== 'property' || query.attribution === 'first');
}

/**
 * `WITH ... res AS (...)`: one row per person who entered: person_id, reached, t_start, t_end
 * (epoch seconds) and key (the breakdown value, or NULL).
 */
export function personOutcomes(p: Params, spec: OutcomeSpec): string {
  const { query } = spec;
  const app = p.add(spec.appId);
  const from = p.add(spec.bounds.from), to = p.add(spec.bounds.to);
  const win = p.add(spec.windowSeconds);
  const stepConditions = query.steps.map((s) => stepSql(p, s));
  const exclusionConditions = query.exclusions.map((x) => stepSql(p, x.event));
  const names = [...new Set([...query.steps.map((s) => s.event), ...query.exclusions.map((x) => x.event.event)])];
  const nameFilter = query.order === 'strict' ? '' : `AND name = ANY(${p.add(names)}::text[])`;
  const breakdown = spec.withBreakdown ? query.breakdown : undefined;
  const byProperty = breakdown?.kind === 'property';
  const value = byProperty ? `, coalesce(nullif(properties ->> ${p.add(breakdown.property)}::text, ''), '${EMPTY_SENTINEL}') AS v` : '';
  const order = `ORDER BY t, m, x${byProperty ? ', v COLLATE "C"' : ''}`;
  // The range's ends as epoch seconds, computed here: `extract(epoch ...)` on a parameter is not
  // folded into a constant, and its numeric result cost a conversion on every row it was compared to.
  const rf = `${p.add(spec.bounds.from.getTime() / 1000)}::float8`, rt = `${p.add(spec.bounds.to.getTime() / 1000)}::float8`;
  let key = 'NULL::text';
  if (breakdown?.kind === 'attribute') {
    key = `coalesce(nullif(pe.${ATTRIBUTE_COLUMNS[breakdown.field]}, ''), '${EMPTY_SENTINEL}')`;
  } else if (byProperty) {
    const a = query.attribution;
    key = a === 'first' ? 'o.vs[o.matched[1]]'
      : a === 'last' ? 'o.vs[o.matched[o.reached]]'
        : `CASE WHEN o.reached >= ${p.add(a.step)}::int THEN o.vs[o.matched[${p.add(a.step)}::int]] ELSE '${EMPTY_SENTINEL}' END`;
  }
  // The person attribute of a breakdown: one join, scoped by app (a merged or missing person reads as empty).
  const people = (alias: string) => (breakdown?.kind === 'attribute' ? ` LEFT JOIN people pe ON pe.app_id = ${app}::uuid AND pe.id = ${alias}.person_id` : '');
  const keyed = breakdown && spec.top !== null
    ? `, top AS (SELECT key FROM res0 GROUP BY key ORDER BY count(*) DESC, key COLLATE "C" LIMIT ${p.add(spec.top)}::int)
, res AS (SELECT person_id, reached, t_start, t_end, CASE WHEN key IN (SELECT key FROM top) THEN key ELSE '${OTHER_SENTINEL}' END AS key FROM res0)`
    : ', res AS (SELECT * FROM res0)';
  if (setBasedApplies(query, spec.withBreakdown)) {
    const ev = `
  SELECT person_id, date_part('epoch', event_time) AS t, (${maskSql(stepConditions)}) AS m${value}
    FROM events
   WHERE app_id = ${app}::uuid AND event_time >= ${from}::timestamptz AND event_time < ${to}::timestamptz + make_interval(secs => ${win}::float8) ${nameFilter}`;
    const firstKey = breakdown?.kind === 'attribute' ? key : byProperty ? 'b.v' : 'NULL::text';
    return setBasedOutcomes({ ev, n: query.steps.length, win, rf, rt, key: firstKey, byProperty, keyed, people: people('b') });
  }
  return `
WITH ev AS (
  SELECT person_id, date_part('epoch', event_time) AS t, (${maskSql(stepConditions)}) AS m, (${maskSql(exclusionConditions)}) AS x${value}
    FROM events
   WHERE app_id = ${app}::uuid AND event_time >= ${from}::timestamptz AND event_time < ${to}::timestamptz + make_interval(secs => ${win}::float8) ${nameFilter}
), per AS (
  SELECT person_id, array_agg(t ${order}) AS ts, array_agg(m ${order}) AS ms, array_agg(x ${order}) AS xs${byProperty ? `, array_agg(v ${order}) AS vs` : ''}
    FROM ev WHERE m <> 0 OR x <> 0 OR ${query.order === 'strict' ? 'true' : 'false'}
   GROUP BY person_id
  HAVING bool_or((m & 1) = 1 AND t >= ${rf} AND t < ${rt})
), o AS (
  SELECT per.person_id, f.reached, f.t_start, f.t_end, f.matched${byProperty ? ', per.vs' : ''}
    FROM per, LATERAL gd_funnel_eval(per.ts, per.ms, per.xs, ${p.add(query.steps.length)}::int, ${p.add(query.order)}::text, ${win}::float8,
                                     ${rf}, ${rt}, ${p.add(query.exclusions.map((x) => x.afterStep))}::int[]) AS f
   WHERE f.reached > 0
), res0 AS (
  SELECT o.person_id, o.reached, o.t_start, o.t_end, ${key} AS key FROM o${people('o')}
)${keyed}`;
}

/**
 * Funnels in order without exclusions, each step a different event, evaluated with window
 * functions instead of a call per person: with distinct step events no occurrence can fill two
 * steps, so the greedy chain of `gd_funnel_eval` from a step-k occurrence at time t is "the
 * earliest step-(k+1) occurrence at or after t, then the chain from there". Walking the steps
 * backwards, one window pass per step over the person's events (latest first, at one instant the
 * later steps first; every pass has the same window, so the events are sorted once) gives every event the
 * chain that starts at or after it: `x{k}_{j}` is the time of step j in the chain from the earliest
 * step-k occurrence at or after the event. Each chain element only moves later as the start moves
 * later, so the chain of the earliest step-k occurrence is, element by element, the minimum over
 * all step-k occurrences at or after the event: plain `min` aggregates over scalar columns, no
 * arrays. A step-1 occurrence in the range then reaches 1 + the chain's times within its window;
 * each person keeps the attempt that gets furthest, the earliest on a tie (then the breakdown
 * value in binary order, as funnel.ts). Same answers as `gd_funnel_eval` (the integration tests
 * compare both with the reference).
 */
function setBasedOutcomes(a: { ev: string; n: number; win: string; rf: string; rt: string; key: string; byProperty: boolean; keyed: string; people: string }): string {
  // Latest first; at one instant the later steps first (m DESC), so a row's frame (every row up to
  // it) holds the occurrences of the next step at the same instant: "at or after" with ROWS
  // framing, cheaper than RANGE, which looks ahead for the peers of every row.
  const w = 'WINDOW w AS (PARTITION BY person_id ORDER BY t DESC, m DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)';
  const levels: string[] = [];
  let previous = 'ev';
  for (let k = a.n; k >= 2; k--) {
    const step = `FILTER (WHERE m = ${1 << (k - 1)}) OVER w`;
    const chain = [`min(t) ${step} AS x${k}_${k}`];
    for (let j = k + 1; j <= a.n; j++) chain.push(`min(x${k + 1}_${j}) ${step} AS x${k}_${j}`);
    levels.push(`c${k} AS (SELECT *, ${chain.join(', ')} FROM ${previous} ${w})`);
    previous = `c${k}`;
  }
  // The chain's times within the window (they never decrease, and a missing one is NULL).
  const steps = Array.from({ length: a.n - 1 }, (_, i) => i + 2);
  const within = steps.map((j) => `coalesce((x2_${j} <= t + ${a.win}::float8)::int, 0)`).join(' + ');
  const end = `CASE reached ${steps.map((j) => `WHEN ${j} THEN x2_${j}`).join(' ')} ELSE t_start END`;
  return `
WITH ev AS (SELECT * FROM (${a.ev}) AS e WHERE m <> 0
), ${levels.join(',\n')}
, att AS (
  SELECT person_id, t AS t_start, 1 + ${within} AS reached${a.byProperty ? ', v' : ''}, ${steps.map((j) => `x2_${j}`).join(', ')}
    FROM ${previous} WHERE m = 1 AND t >= ${a.rf} AND t < ${a.rt}
), b AS (
  SELECT DISTINCT ON (person_id) person_id, reached, t_start, ${end} AS t_end${a.byProperty ? ', v' : ''}
    FROM att ORDER BY person_id, reached DESC, t_start${a.byProperty ? ', v COLLATE "C"' : ''}
), res0 AS (
  SELECT b.person_id, b.reached, b.t_start, b.t_end, ${a.key} AS key FROM b${a.people}
)${a.keyed}`;
}

export interface AggregateRow {
  /** Which grouping: 'bucket' (key, bucket, reached), 'key' (key, reached), 'bin' (reached, bin), 'all' (reached). */
  grouping: 'bucket' | 'key' | 'bin' | 'all';
  key: string | null;
  bucket: string | null;
  reached: number;
  bin: number | null;
  n: number;
  dur_sum: number;
  dur_median: number | null;
}

/** The aggregates an answer is assembled from. `edges`: the histogram's upper edges in seconds. */
export async function funnelAggregates(db: Queryable, spec: OutcomeSpec, edges: readonly number[]): Promise<AggregateRow[]> {
  const p = new Params();
  const base = personOutcomes(p, spec);
  const n = p.add(spec.query.steps.length);
  const tz = p.add(spec.timezone);
  const group = spec.range.timeGroup;
  // Day, week and month buckets: the bucket whose local start is the last at or before t_start, by
  // a binary search (width_bucket) over the buckets' starts, worked out once from their labels;
  // a time zone conversion and a date format per person cost about a tenth of the statement.
  const labels = group === 'hour' ? '' : p.add(bucketLabels(spec.range));
  const bucket = group === 'hour'
    ? hourBucket(`(to_timestamp(t_start) AT TIME ZONE ${tz}::text)`)
    : `(${labels}::text[])[width_bucket(t_start, ARRAY(SELECT date_part('epoch', d::date::timestamp AT TIME ZONE ${tz}::text) FROM unnest(${labels}::text[]) AS d))]`;
  // The histogram bin: the first edge at or above the duration (the last bin past every edge), as
  // histogramBin: the number of edges below it, counted by width_bucket over the negated edges.
  const negated = p.add([...edges].reverse().map((e) => -e));
  const bin = `least(${edges.length}::int - width_bucket(-(t_end - t_start), ${negated}::float8[]), ${edges.length - 1}::int)`;
  const sql = `${base}
, s AS (
  SELECT key, reached, t_end - t_start AS dur, ${bucket} AS bucket, CASE WHEN reached = ${n}::int THEN ${bin} END AS bin
    FROM res
)
SELECT CASE GROUPING(key, bucket, bin) WHEN 1 THEN 'bucket' WHEN 3 THEN 'key' WHEN 6 THEN 'bin' ELSE 'all' END AS grouping,
       key, bucket, reached, bin::int AS bin, count(*)::int AS n, sum(dur)::float8 AS dur_sum,
       (percentile_disc(0.5) WITHIN GROUP (ORDER BY dur) FILTER (WHERE reached = ${n}::int))::float8 AS dur_median
  FROM s
 GROUP BY GROUPING SETS ((key, bucket, reached), (key, reached), (reached, bin), (reached))`;
  return (await analytic(db, (q) => q.query<AggregateRow>(sql, p.values))).rows;
}

/**
 * A funnel statement with room to sort in memory (the person arrays and window passes sort a few
 * hundred thousand rows on a large app), without JIT compilation (its set-up costs more than it
 * saves here), and with parallel workers for the scan and the sort of a large app's events: the
 * default cost of passing a row from a worker (0.1) keeps the planner from it, though the sorted
 * rows reach the window passes about twice as fast (docs/BENCHMARKS.md). In a read-only
 * transaction of its own when `db` is the pool.
 */
async function analytic<T>(db: Queryable, run: (q: Queryable) => Promise<T>): Promise<T> {
  if (!('totalCount' in db)) return run(db); // a client (perhaps inside a caller's transaction), not the pool
  return tx(db as Db, run, "BEGIN READ ONLY; SET LOCAL work_mem = '64MB'; SET LOCAL jit = off; SET LOCAL parallel_tuple_cost = 0.01");
}

export interface Selection { step: number; outcome: 'converted' | 'dropped'; breakdownValue?: string | undefined }

function selectionWhere(p: Params, sel: Selection, withKey: boolean): string {
  const reached = sel.outcome === 'converted' ? `reached >= ${p.add(sel.step)}::int` : `reached = ${p.add(sel.step - 1)}::int`;
  return withKey && sel.breakdownValue !== undefined ? `${reached} AND key = ${p.add(sel.breakdownValue)}::text` : reached;
}

export interface FunnelPersonRow { id: string; customer_id: string | null; email: string | null; country: string | null; os: string | null; started_at: Date; reached: number; total: number }

/** A page of the selected people (by start time) with how many there are in all. */
export async function funnelPeople(db: Queryable, spec: OutcomeSpec, sel: Selection, limit: number): Promise<{ total: number; rows: FunnelPersonRow[] }> {
  const p = new Params();
  const base = personOutcomes(p, spec);
  const where = selectionWhere(p, sel, spec.withBreakdown);
  const app = p.add(spec.appId);
  const sql = `${base}
, chosen AS (SELECT person_id, reached, t_start, count(*) OVER () AS total FROM res WHERE ${where})
SELECT c.person_id::text AS id, pe.customer_id, pe.email, pe.country, pe.os, to_timestamp(c.t_start) AS started_at, c.reached, c.total::int AS total
  FROM chosen c LEFT JOIN people pe ON pe.app_id = ${app}::uuid AND pe.id = c.person_id
 ORDER BY c.t_start, c.person_id
 LIMIT ${p.add(limit)}::int`;
  const rows = (await analytic(db, (q) => q.query<FunnelPersonRow>(sql, p.values))).rows;
  return { total: rows[0]?.total ?? 0, rows };
}

/** The selected people's ids as a parameterised SELECT (for `saveStaticAudience`). */
export function selectedPeopleQuery(spec: OutcomeSpec, sel: Selection): { text: string; values: unknown[] } {
  const p = new Params();
  const base = personOutcomes(p, spec);
  const where = selectionWhere(p, sel, spec.withBreakdown);
  return { text: `${base} SELECT person_id FROM res WHERE ${where}`, values: p.values };
}
