/**
 * All SQL of cohorts: the retention cells of a query and the people of one cell. One statement
 * builds, per person, the cohorts they are in (`cohort`: person, cohort index, breakdown key) and the
 * buckets they returned in (`rets`), and counts the cells; the pure rules of
 * shared/src/analytics/retention.ts then make the table (`assembleRetention`).
 *
 * Sources, chosen per side:
 * - Without property filters (and, for the start, without a property breakdown) a side reads
 *   `event_person_months` (migration 034: per person, event and month a bitmask of local days,
 *   name '' = any event). Bits become buckets through `masks`: per month and bucket index the mask
 *   of that month's days in the bucket, so a month row is tested against at most 6 masks instead of
 *   being expanded to 31 days. Bucket indexes count from the grid's first bucket (negative before).
 * - With filters or a property breakdown it reads the events table (local days with AT TIME ZONE).
 * - The bitmap path (`bitmapGroups`), taken when both sides read the bitmaps and cohorts + periods fit
 *   a bigint: one pass over the start and return rows of the grid's months, grouped per person into a
 *   bigint of cohort buckets and one of return buckets (monthMasks.ts), then counted per distinct
 *   pair; Node expands the pairs into cells. This is what keeps 12 weeks over a million people
 *   under a second. The CTE path above remains for filters, property breakdowns and long grids.
 * Every query is scoped by app_id. Person attributes come from `people` (the latest value).
 */
import { PERSON_ATTRIBUTES, type CohortPeriod, type PersonBreakdown, type PropertyFilter, type StepEvent, NUMERIC_TEXT_PATTERN } from '@gd/shared';
import pg from 'pg';
import { tx, type Queryable } from '../../db/pool.ts';
import { BEFORE_BIT, LATER_BIT, MASK_SLOTS, monthMasks, type BitmapGroup } from './monthMasks.ts';

/** Slices of people the bitmap path counts side by side (one per core of the database server). */
const COHORT_SLICES = 2;
/** Below this many people ids the bitmap path runs as one pass (starting workers would cost more). */
export const SLICE_MIN_PEOPLE = 50_000;

/** Collects parameter values and answers their `$n` placeholders. */
class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
  /** A placeholder added on first use (Postgres cannot type a parameter the SQL never uses). */
  lazy(value: unknown): () => string {
    let placeholder: string | undefined;
    return () => (placeholder ??= this.add(value));
  }
}

export interface CohortSqlSpec {
  appId: string;
  timezone: string;
  period: CohortPeriod;
  /** First day of the grid's first bucket, of its last cohort bucket's last day, and today (local). */
  first: string;
  lastCohortDay: string;
  today: string;
  /** Cohort indexes 0..cohorts-1. */
  cohorts: number;
  periods: number;
  mode: 'first' | 'recurring';
  returnOn: 'on' | 'onOrAfter';
  start: StepEvent;
  return: StepEvent | null;
  breakdown: PersonBreakdown | undefined;
  /** UTC instants: start of the grid's first day, end of the last cohort day, end of today. */
  bounds: { from: Date; cohortsTo: Date; todayTo: Date };
}

/** The SQL of a property filter on `properties` (the rule of matchesFilter in analyticsQuery.ts). */
function filterSql(p: Params, f: PropertyFilter): string {
  const key = p.add(f.property);
  const raw = `properties -> ${key}`;
  const text = `(CASE WHEN jsonb_typeof(${raw}) IN ('object', 'array') THEN NULL ELSE properties ->> ${key} END)`;
  switch (f.op) {
    case 'set':
      return `(${raw} IS NOT NULL AND jsonb_typeof(${raw}) <> 'null')`;
    case 'notSet':
      return `(${raw} IS NULL OR jsonb_typeof(${raw}) = 'null')`;
    case 'eq':
      return `${text} = ${p.add(String(f.value))}`;
    case 'neq':
      return `${text} IS DISTINCT FROM ${p.add(String(f.value))}`;
    case 'contains':
      return `strpos(lower(${text}), lower(${p.add(String(f.value))})) > 0`;
    case 'gt':
    case 'lt': {
      const pattern = p.add(NUMERIC_TEXT_PATTERN);
      const value = p.add(Number(f.value));
      return `(CASE WHEN ${text} ~ ${pattern} THEN ${text}::numeric ${f.op === 'gt' ? '>' : '<'} ${value}::numeric ELSE false END)`;
    }
    default: {
      const never: never = f.op;
      throw new Error(`unknown filter ${String(never)}`);
    }
  }
}

const filtersSql = (p: Params, step: StepEvent) => step.filters.map((f) => ` AND ${filterSql(p, f)}`).join('');

/** Whether the start side can read the bitmaps. */
export const startFromBitmaps = (spec: Pick<CohortSqlSpec, 'start' | 'breakdown'>) => spec.start.filters.length === 0 && spec.breakdown?.kind !== 'property';
export const returnFromBitmaps = (spec: Pick<CohortSqlSpec, 'return'>) => !spec.return || spec.return.filters.length === 0;

/** The CTEs `masks`, `cohort (person_id, c, key)` and `rets (person_id, r)` of a query. */
function cohortCtes(spec: CohortSqlSpec, p: Params): string {
  const app = p.add(spec.appId);
  const firstP = p.lazy(spec.first);
  const tzP = p.lazy(spec.timezone);
  const idx = (d: string) => {
    const first = firstP();
    switch (spec.period) {
      case 'day':
        return `((${d}) - ${first}::date)`;
      case 'week':
        return `((date_trunc('week', (${d})::timestamp)::date - ${first}::date) / 7)`;
      case 'month':
        return `((extract(year FROM ${d})::int * 12 + extract(month FROM ${d})::int) - (extract(year FROM ${first}::date)::int * 12 + extract(month FROM ${first}::date)::int))`;
      default: {
        const never: never = spec.period;
        throw new Error(`unknown period ${String(never)}`);
      }
    }
  };
  const lastCohort = p.add(spec.cohorts - 1);
  const monthFromP = p.lazy(`${spec.first.slice(0, 7)}-01`);
  const lastCohortMonthP = p.lazy(`${spec.lastCohortDay.slice(0, 7)}-01`);
  const monthFrom = monthFromP();
  const today = p.add(spec.today);
  const ctes: string[] = [];
  ctes.push(`masks AS (
    SELECT date_trunc('month', g.d)::date AS month, ${idx('g.d')} AS idx, bit_or(1 << (extract(day FROM g.d)::int - 1)) AS mask
      FROM (SELECT ${monthFrom}::date + i AS d FROM generate_series(0, ${today}::date - ${monthFrom}::date) i) g
     GROUP BY 1, 2)`);

  const b = spec.breakdown;
  const attribute = b?.kind === 'attribute' ? (PERSON_ATTRIBUTES.find((a) => a === b.field) ?? null) : null;
  if (startFromBitmaps(spec)) {
    const name = p.add(spec.start.event);
    const members = spec.mode === 'first'
      ? `SELECT f.person_id, min(m.idx) AS c FROM (
           SELECT DISTINCT ON (person_id) person_id, month, days FROM event_person_months
            WHERE app_id = ${app} AND name = ${name} AND month <= ${lastCohortMonthP()} ORDER BY person_id, month
         ) f JOIN masks m ON m.month = f.month AND f.days & m.mask <> 0
         GROUP BY f.person_id`
      : `SELECT DISTINCT e.person_id, m.idx AS c FROM event_person_months e JOIN masks m ON m.month = e.month AND e.days & m.mask <> 0
          WHERE e.app_id = ${app} AND e.name = ${name} AND e.month >= ${monthFrom} AND e.month <= ${lastCohortMonthP()} AND m.idx BETWEEN 0 AND ${lastCohort}`;
    ctes.push(`members AS (${members})`);
    ctes.push(attribute
      ? `cohort AS (SELECT x.person_id, x.c, coalesce(pp.${attribute}, '') AS key FROM members x
           LEFT JOIN people pp ON pp.app_id = ${app} AND pp.id = x.person_id WHERE x.c BETWEEN 0 AND ${lastCohort})`
      : `cohort AS (SELECT person_id, c, ''::text AS key FROM members WHERE c BETWEEN 0 AND ${lastCohort})`);
  } else {
    const name = p.add(spec.start.event);
    const keySql = b?.kind === 'property' ? `coalesce(properties ->> ${p.add(b.property)}, '')` : `''::text`;
    const cohortsTo = p.add(spec.bounds.cohortsTo);
    const window = spec.mode === 'recurring' ? ` AND event_time >= ${p.add(spec.bounds.from)}` : '';
    const starts = `SELECT person_id, event_time, ${idx(`(event_time AT TIME ZONE ${tzP()})::date`)} AS c, ${keySql} AS key FROM events
       WHERE app_id = ${app} AND name = ${name} AND event_time < ${cohortsTo}${window}${filtersSql(p, spec.start)}`;
    const members = spec.mode === 'first'
      ? `SELECT DISTINCT ON (person_id) person_id, c, key FROM (${starts}) s ORDER BY person_id, event_time`
      : `SELECT DISTINCT ON (person_id, c) person_id, c, key FROM (${starts}) s ORDER BY person_id, c, event_time`;
    ctes.push(`members AS (${members})`);
    ctes.push(attribute
      ? `cohort AS (SELECT x.person_id, x.c, coalesce(pp.${attribute}, '') AS key FROM members x
           LEFT JOIN people pp ON pp.app_id = ${app} AND pp.id = x.person_id WHERE x.c BETWEEN 0 AND ${lastCohort})`
      : `cohort AS (SELECT person_id, c, key FROM members WHERE c BETWEEN 0 AND ${lastCohort})`);
  }

  const latest = spec.returnOn === 'onOrAfter';
  if (returnFromBitmaps(spec)) {
    const name = p.add(spec.return?.event ?? '');
    ctes.push(`rets AS (
      SELECT e.person_id, ${latest ? 'max(m.idx)' : 'm.idx'} AS r
        FROM event_person_months e JOIN masks m ON m.month = e.month AND e.days & m.mask <> 0
       WHERE e.app_id = ${app} AND e.name = ${name} AND e.month >= ${monthFrom} AND m.idx >= 1
         AND e.person_id IN (SELECT person_id FROM cohort)
       GROUP BY e.person_id${latest ? '' : ', m.idx'})`);
  } else {
    const ret = spec.return as StepEvent;
    const name = p.add(ret.event);
    const r = idx(`(event_time AT TIME ZONE ${tzP()})::date`);
    ctes.push(`rets AS (
      SELECT person_id, ${latest ? `max(${r})` : r} AS r FROM events
       WHERE app_id = ${app} AND name = ${name} AND event_time >= ${p.add(spec.bounds.from)} AND event_time < ${p.add(spec.bounds.todayTo)}${filtersSql(p, ret)}
         AND person_id IN (SELECT person_id FROM cohort)
       GROUP BY person_id${latest ? '' : ', 2'})`);
  }
  return `WITH ${ctes.join(',\n')}`;
}

export interface CellRow { cohort: number; key: string; period: number; people: number }

/** Counted cells: period 0 = cohort sizes; then per period (`on`) or per last-return period clamped to `periods` (`onOrAfter`). */
export async function retentionCells(db: Queryable, spec: CohortSqlSpec): Promise<CellRow[]> {
  if (spec.cohorts <= 0) return [];
  const p = new Params();
  const ctes = cohortCtes(spec, p);
  const periods = p.add(spec.periods);
  const periodSql = spec.returnOn === 'on' ? `r.r - x.c` : `least(r.r - x.c, ${periods})`;
  const where = spec.returnOn === 'on' ? `r.r - x.c BETWEEN 1 AND ${periods}` : `r.r - x.c >= 1`;
  const { rows } = await withSettings(db, GENERIC_SETTINGS, (q) => q.query<{ cohort: number; key: string; period: number; people: string }>(
    `${ctes}
     SELECT c AS cohort, key, 0 AS period, count(*) AS people FROM cohort GROUP BY 1, 2
     UNION ALL
     SELECT x.c, x.key, ${periodSql}, count(*) FROM cohort x JOIN rets r ON r.person_id = x.person_id AND ${where} GROUP BY 1, 2, 3`,
    p.values,
  ));
  return rows.map((r) => ({ cohort: Number(r.cohort), key: r.key, period: Number(r.period), people: Number(r.people) }));
}

/** The people of one cell, as the parameterised SELECT saveStaticAudience runs. */
export function cellMembersSql(spec: CohortSqlSpec, cohort: number, period: number): { text: string; values: unknown[] } {
  const p = new Params();
  const ctes = cohortCtes(spec, p);
  const c = p.add(cohort);
  if (period === 0) return { text: `${ctes} SELECT person_id FROM cohort WHERE c = ${c}`, values: p.values };
  const n = p.add(period);
  const op = spec.returnOn === 'on' ? '=' : '>=';
  return {
    text: `${ctes} SELECT x.person_id FROM cohort x JOIN rets r ON r.person_id = x.person_id WHERE x.c = ${c} AND r.r ${op} ${c} + ${n}`,
    values: p.values,
  };
}

// ---- The bitmap path: one pass over the person-month rows, grouped per person (monthMasks.ts) ----

/** Whether a query takes the bitmap path: both sides from the bitmaps, a grid that fits a bigint. */
export const bitmapPath = (spec: CohortSqlSpec) =>
  startFromBitmaps(spec) && returnFromBitmaps(spec) && spec.cohorts > 0 && spec.cohorts + spec.periods <= LATER_BIT;

const BIG = (bit: number) => (1n << BigInt(bit)).toString();

/**
 * The CTEs `a` (start bits per person), `b` (return bits per person), `x` (both) and
 * `p (person_id, s, r, key)`: each person's cohort bits and return bits. The month masks travel as
 * arrays indexed by the month's position from the grid's first month (1-based), so a row's bits
 * are an expression of the row alone: with the index (app_id, name, person_id, month) INCLUDE
 * (days) of migration 036 both sides are read in person order, aggregated as they stream and
 * merge-joined, with no hashing or sorting of a million people.
 */
function bitmapCtes(spec: CohortSqlSpec, p: Params, people?: PersonSlice): string {
  const masks = monthMasks({ first: spec.first, period: spec.period }, spec.cohorts + spec.periods, spec.today);
  const slots = Array.from({ length: MASK_SLOTS }, (_, k) => k);
  const monthFrom = `${spec.first.slice(0, 7)}-01`;
  // Per month a CASE arm of integer literals (computed here, never user input): a few comparisons
  // and bit operations per row, no lookups.
  const int = (n: number | bigint) => {
    const text = n.toString();
    if (!/^-?\d+$/.test(text)) throw new Error('not an integer');
    return text;
  };
  const hit = (mask: number, bit: string) => (mask === 0 ? null : `CASE WHEN e.days & ${int(mask)} <> 0 THEN ${bit}::bigint ELSE 0 END`);
  const arms = masks.map((m) => {
    const parts = m.masks.length && spec.period !== 'day'
      ? slots.map((k) => hit(m.masks[k] ?? 0, int(m.bits[k] ?? 0n)))
      : [m.inMask === 0 ? null : `(((e.days & ${int(m.inMask)})::bigint >> ${int(m.shr)}) << ${int(m.shl)})`];
    parts.push(hit(m.laterMask, BIG(LATER_BIT)), hit(m.beforeMask, BIG(BEFORE_BIT)));
    const expr = parts.filter((x): x is string => x !== null).join(' | ') || '0';
    return `WHEN DATE '${m.month}' THEN ${expr}`;
  });
  // Months before the grid's first month are all "before" (a first-time start there rules the person out); later ones, none.
  const bits = `(CASE WHEN e.month < DATE '${monthFrom}' THEN ${BIG(BEFORE_BIT)}::bigint ELSE CASE e.month ${arms.join(' ')} ELSE 0 END END)`;
  const app = p.add(spec.appId);
  const start = p.add(spec.start.event);
  const ret = p.add(spec.return?.event ?? '');
  const from = p.add(monthFrom);
  const cohortMask = `(${BIG(spec.cohorts)}::bigint - 1)`;
  const startMonths = spec.mode === 'first' ? '' : ` AND e.month >= ${from}`;
  const cohortBits = spec.mode === 'first' ? `(x.s & -x.s) & ${cohortMask}` : `x.s & ${cohortMask}`;
  const firstOnly = spec.mode === 'first' ? ` AND x.s & ${BIG(BEFORE_BIT)}::bigint = 0` : '';
  const b = spec.breakdown;
  const attribute = b?.kind === 'attribute' ? (PERSON_ATTRIBUTES.find((a) => a === b.field) ?? null) : null;
  const key = attribute ? `coalesce(pp.${attribute}, '')` : `''::text`;
  const join = attribute ? ` LEFT JOIN people pp ON pp.app_id = ${app} AND pp.id = x.person_id` : '';
  const slice = people ? `${people.from === null ? '' : ` AND e.person_id >= ${p.add(people.from)}`}${people.to === null ? '' : ` AND e.person_id < ${p.add(people.to)}`}` : '';
  return `WITH a AS (
      SELECT e.person_id, bit_or(${bits}) AS s FROM event_person_months e
       WHERE e.app_id = ${app} AND e.name = ${start}${startMonths}${slice} GROUP BY e.person_id
    ),
    b AS (
      SELECT e.person_id, bit_or(${bits}) AS r FROM event_person_months e
       WHERE e.app_id = ${app} AND e.name = ${ret} AND e.month >= ${from}${slice} GROUP BY e.person_id
    ),
    x AS (SELECT a.person_id, a.s, coalesce(b.r, 0) AS r FROM a LEFT JOIN b ON b.person_id = a.person_id),
    p AS (
      SELECT x.person_id, ${cohortBits} AS s, x.r & (${BIG(BEFORE_BIT)}::bigint - 1) AS r, ${key} AS key
        FROM x${join}
       WHERE ${cohortBits} <> 0${firstOnly}
    )`;
}

/**
 * Runs the per-person aggregate as it is meant to run: the two person-ordered streams merge-joined
 * (the planner, misjudging how many people pass, would hash them), in one process (parallel
 * workers each aggregate part of the people and lose the order), without JIT (its compilation
 * costs more than it saves here), with memory for the final count. In a read-only transaction when
 * `db` is the pool; a caller's own client runs it as it is.
 */
async function withSettings<T>(db: Queryable, settings: string, fn: (q: Queryable) => Promise<T>): Promise<T> {
  if (!(db instanceof pg.Pool)) return fn(db);
  return tx(db, fn, `BEGIN READ ONLY; ${settings}`);
}
const BITMAP_SETTINGS = `SET LOCAL work_mem = '128MB'; SET LOCAL jit = off; SET LOCAL max_parallel_workers_per_gather = 0; SET LOCAL enable_hashjoin = off`;
/**
 * The bitmap path in slices of people side by side (`bitmapGroups`): a Parallel Append hands each
 * slice, whole, to one process (no partial scans, which would split a person's rows between
 * processes), each runs the person-ordered pass above on its own people and counts its groups,
 * and the leader adds the counts up. Worker start-up is cheap next to a pass over a million
 * people; where no worker is free the leader runs the slices one after the other.
 */
const SLICED_SETTINGS = `SET LOCAL work_mem = '128MB'; SET LOCAL jit = off; SET LOCAL enable_hashjoin = off;
  SET LOCAL max_parallel_workers_per_gather = ${COHORT_SLICES}; SET LOCAL parallel_setup_cost = 0; SET LOCAL parallel_tuple_cost = 0;
  SET LOCAL min_parallel_index_scan_size = '1TB'; SET LOCAL min_parallel_table_scan_size = '1TB'`;
/** The CTE path: its CTEs' sizes are unknown to the planner, which then loops over a million people; hash and merge joins only. */
const GENERIC_SETTINGS = `SET LOCAL work_mem = '128MB'; SET LOCAL jit = off; SET LOCAL enable_nestloop = off`;

/** People ids from `from` (inclusive) to `to` (exclusive); null: unbounded. */
interface PersonSlice { from: string | null; to: string | null }

/**
 * The app's people split into `COHORT_SLICES` equal ranges of ids between its first and last.
 * Ids are handed out in order across apps, so the slices hold about as many of the app's people
 * each when it gained them steadily, and fewer in one when it gained most in a burst (slower then,
 * never wrong). The first and the last are open-ended, so every person is in exactly one, whatever
 * the bounds. One slice below `minPeople` ids.
 */
async function personSlices(db: Queryable, appId: string, minPeople: number): Promise<PersonSlice[]> {
  const { rows } = await db.query<{ lo: string | null; hi: string | null; n: string }>(
    'SELECT min(id)::text AS lo, max(id)::text AS hi, (max(id) - min(id))::text AS n FROM people WHERE app_id = $1', [appId],
  );
  const lo = rows[0]?.lo, span = rows[0]?.n;
  if (lo === null || lo === undefined || span === null || span === undefined || BigInt(span) < BigInt(minPeople)) return [{ from: null, to: null }];
  const cuts = Array.from({ length: COHORT_SLICES - 1 }, (_, i) => (BigInt(lo) + (BigInt(span) * BigInt(i + 1)) / BigInt(COHORT_SLICES)).toString());
  return [null, ...cuts].map((from, i) => ({ from, to: cuts[i] ?? null }));
}

/**
 * People grouped by cohort bits, return bits and breakdown key; in slices side by side from
 * `sliceFrom` people ids on (the tests slice small apps too).
 */
export async function bitmapGroups(db: Queryable, spec: CohortSqlSpec, sliceFrom = SLICE_MIN_PEOPLE): Promise<BitmapGroup[]> {
  const slices = await personSlices(db, spec.appId, sliceFrom);
  const p = new Params();
  let text: string;
  if (slices.length === 1) {
    text = `${bitmapCtes(spec, p)} SELECT s, r, key, count(*) AS people FROM p GROUP BY 1, 2, 3`;
  } else {
    const parts = slices.map((slice) => `SELECT * FROM (${bitmapCtes(spec, p, slice)} SELECT s, r, key, count(*) AS people FROM p GROUP BY 1, 2, 3) AS part`);
    text = `SELECT s, r, key, sum(people) AS people FROM (${parts.join(' UNION ALL ')}) AS parts GROUP BY 1, 2, 3`;
  }
  const settings = slices.length === 1 ? BITMAP_SETTINGS : SLICED_SETTINGS;
  const { rows } = await withSettings(db, settings, (q) => q.query<{ s: string; r: string; key: string; people: string }>(text, p.values));
  return rows.map((row) => ({ s: BigInt(row.s), r: BigInt(row.r), key: row.key, people: Number(row.people) }));
}

/** The people of one cell on the bitmap path. */
export function bitmapMembersSql(spec: CohortSqlSpec, cohort: number, period: number): { text: string; values: unknown[] } {
  const p = new Params();
  const ctes = bitmapCtes(spec, p);
  const inCohort = `s & ${BIG(cohort)}::bigint <> 0`;
  if (period === 0) return { text: `${ctes} SELECT person_id FROM p WHERE ${inCohort}`, values: p.values };
  const bucket = BIG(cohort + period);
  const returned = spec.returnOn === 'on' ? `r & ${bucket}::bigint <> 0` : `r >= ${bucket}::bigint`;
  return { text: `${ctes} SELECT person_id FROM p WHERE ${inCohort} AND ${returned}`, values: p.values };
}
