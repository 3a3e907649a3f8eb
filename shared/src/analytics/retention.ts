/**
 * Retention (cohorts, /behavior/cohort): the rules, pure. The API computes the same table in SQL
 * (api-server/src/features/cohorts) and assembles it with `assembleRetention`; `computeRetention`
 * is the reference over plain per-person activity, which the tests compare the SQL with.
 *
 * Decisions (SPEC leaves them open; chosen as Mixpanel/Amplitude users expect):
 * - Buckets are days, ISO weeks (from Monday) or calendar months of the app's time zone. The range
 *   chooses the cohorts: every bucket overlapping `startDay..endDay` is a cohort, whole. Buckets
 *   that begin after today are not cohorts (nothing can be in them yet).
 * - `first`: a person is in the cohort of the bucket of the first time they ever did the start
 *   event (with its filters), if that bucket is one of the range's; earlier history counts, so a
 *   person who started before the range is in no cohort. `recurring`: in every range bucket where
 *   they did it.
 * - Period 0 is the start bucket itself, 100% by definition. Period n counts the cohort's people who
 *   did the return event in bucket start+n (`on`), or in bucket start+n or any later bucket up to
 *   today (`onOrAfter`, unbounded retention). A return in the start bucket does not count for n ≥ 1.
 * - A period is complete when its bucket has fully elapsed today (its last day is before today, in
 *   the app's time zone); an incomplete one still shows its count so far (marked). A period whose
 *   bucket begins after today has no count (null).
 * - The curve weights cohorts by size: period n = retained people of the cohorts whose period n is
 *   complete over their sizes; incomplete periods are left out. Period 0 is 100% whenever some
 *   cohort has people.
 * - Breakdown: a person's value is the breakdown's at the start event that put them in the cohort
 *   (the first one in the bucket for `recurring`); '' and null are EMPTY_SENTINEL; values past the
 *   top ANALYTICS_LIMITS.breakdownTop by cohort people are added up under OTHER_SENTINEL.
 */
import { EMPTY_SENTINEL, OTHER_SENTINEL } from '../behaviour/events.ts';
import { addDays } from '../dateRange.ts';
import { ANALYTICS_LIMITS } from '../schemas/behaviour.ts';
import {
  DEFAULT_COHORT_PERIODS, type CohortAnswer, type CohortMode, type CohortPeriod, type CohortRow, type CohortSegment, type CurvePoint,
  type ReturnOn,
} from '../schemas/cohorts.ts';

const DAY_MS = 86_400_000;
const epochDay = (day: string) => Math.round(Date.parse(`${day}T00:00:00Z`) / DAY_MS);
const fromEpochDay = (n: number) => new Date(n * DAY_MS).toISOString().slice(0, 10);

/** First day of the bucket holding `day`. */
export function bucketStart(day: string, period: CohortPeriod): string {
  switch (period) {
    case 'day':
      return day;
    case 'week': {
      const n = epochDay(day);
      const weekday = (new Date(n * DAY_MS).getUTCDay() + 6) % 7; // 0 = Monday
      return fromEpochDay(n - weekday);
    }
    case 'month':
      return `${day.slice(0, 7)}-01`;
    default: {
      const never: never = period;
      throw new Error(`unknown period ${String(never)}`);
    }
  }
}

/** First day of the bucket `n` buckets after the one starting on `start`. */
export function shiftBucket(start: string, n: number, period: CohortPeriod): string {
  if (period === 'day') return addDays(start, n);
  if (period === 'week') return addDays(start, 7 * n);
  const [y, m] = start.split('-').map(Number) as [number, number];
  const months = y * 12 + (m - 1) + n;
  return `${String(Math.floor(months / 12)).padStart(4, '0')}-${String((months % 12) + 1).padStart(2, '0')}-01`;
}

/** Last day of the bucket starting on `start`. */
export const bucketLastDay = (start: string, period: CohortPeriod) => addDays(shiftBucket(start, 1, period), -1);

/** Buckets from the one starting on `from` to the one holding `day` (negative when before). */
export function bucketOffset(from: string, day: string, period: CohortPeriod): number {
  const start = bucketStart(day, period);
  if (period === 'day') return epochDay(start) - epochDay(from);
  if (period === 'week') return Math.round((epochDay(start) - epochDay(from)) / 7);
  const months = (d: string) => Number(d.slice(0, 4)) * 12 + Number(d.slice(5, 7));
  return months(start) - months(from);
}

/** The cohorts of a range: the first bucket's start and how many buckets (none after today). */
export interface CohortGrid { first: string; count: number; period: CohortPeriod }

export function cohortGrid(range: { startDay: string; endDay: string }, period: CohortPeriod, today: string): CohortGrid {
  const first = bucketStart(range.startDay, period);
  const lastDay = range.endDay < today ? range.endDay : today;
  const count = lastDay < range.startDay ? 0 : bucketOffset(first, lastDay, period) + 1;
  return { first, count, period };
}

export const resolvePeriods = (period: CohortPeriod, periods: number | undefined) => periods ?? DEFAULT_COHORT_PERIODS[period];

/**
 * A counted cell: `people` of cohort `cohort` (index in the grid) with breakdown value `key`, at
 * `period`. Period 0 is the cohort's size. For `on`, period n ≥ 1 is the people retained in period
 * n; for `onOrAfter`, the people whose last return falls in period n (n = `periods` also holds
 * everything later): assembling adds them up from the end.
 */
export interface RetentionCell { cohort: number; key: string; period: number; people: number }

export interface AssembleInput {
  grid: CohortGrid;
  periods: number;
  today: string;
  returnOn: ReturnOn;
  /** Whether the query had a breakdown (segments are given only then). */
  breakdown: boolean;
  cells: Iterable<RetentionCell>;
}

type Assembled = Pick<CohortAnswer, 'rows' | 'size' | 'curve' | 'segments'>;

function emptyCounts(periods: number): number[] {
  return Array.from({ length: periods + 1 }, () => 0);
}

/** Rows (one per cohort) from per-cohort period counts. */
function rowsOf(grid: CohortGrid, periods: number, today: string, returnOn: ReturnOn, counts: ReadonlyMap<number, number[]>): CohortRow[] {
  const rows: CohortRow[] = [];
  for (let c = 0; c < grid.count; c += 1) {
    const cohort = shiftBucket(grid.first, c, grid.period);
    const raw = counts.get(c) ?? emptyCounts(periods);
    const size = raw[0] ?? 0;
    const retained = [...raw];
    if (returnOn === 'onOrAfter') for (let n = periods - 1; n >= 1; n -= 1) retained[n] = (retained[n] ?? 0) + (retained[n + 1] ?? 0);
    const cells = retained.map((v, n) => {
      const bucket = shiftBucket(cohort, n, grid.period);
      return { count: bucket > today ? null : n === 0 ? size : v, complete: bucketLastDay(bucket, grid.period) < today };
    });
    rows.push({ cohort, size, counts: cells.map((x) => x.count), complete: cells.map((x) => x.complete) });
  }
  return rows;
}

/** The curve: per period, retained people over cohort sizes, complete periods only. */
export function retentionCurve(rows: readonly CohortRow[], periods: number): CurvePoint[] {
  const curve: CurvePoint[] = [];
  for (let n = 0; n <= periods; n += 1) {
    let people = 0;
    let cohortPeople = 0;
    for (const row of rows) {
      const count = row.counts[n];
      if (count === null || count === undefined) continue;
      if (n > 0 && !row.complete[n]) continue;
      people += count;
      cohortPeople += row.size;
    }
    curve.push({ period: n, people, cohortPeople, rate: cohortPeople > 0 ? people / cohortPeople : null });
  }
  return curve;
}

const keyOf = (key: string | null | undefined) => (key === null || key === undefined || key === '' ? EMPTY_SENTINEL : key);

export function assembleRetention(input: AssembleInput): Assembled {
  const { grid, periods, today, returnOn } = input;
  const byKey = new Map<string, Map<number, number[]>>();
  const total = new Map<number, number[]>();
  const add = (target: Map<number, number[]>, cell: RetentionCell) => {
    let counts = target.get(cell.cohort);
    if (!counts) {
      counts = emptyCounts(periods);
      target.set(cell.cohort, counts);
    }
    const n = Math.min(cell.period, periods);
    counts[n] = (counts[n] ?? 0) + cell.people;
  };
  for (const cell of input.cells) {
    if (cell.cohort < 0 || cell.cohort >= grid.count || cell.period < 0) continue;
    add(total, cell);
    if (!input.breakdown) continue;
    const key = keyOf(cell.key);
    let target = byKey.get(key);
    if (!target) {
      target = new Map();
      byKey.set(key, target);
    }
    add(target, cell);
  }
  const rows = rowsOf(grid, periods, today, returnOn, total);
  const size = rows.reduce((a, r) => a + r.size, 0);
  let segments: CohortSegment[] | null = null;
  if (input.breakdown) {
    const sizeOf = (m: Map<number, number[]>) => [...m.values()].reduce((a, c) => a + (c[0] ?? 0), 0);
    const ranked = [...byKey.entries()].map(([key, m]) => ({ key, m, size: sizeOf(m) }))
      .sort((a, b) => b.size - a.size || a.key.localeCompare(b.key));
    const top = ranked.slice(0, ANALYTICS_LIMITS.breakdownTop);
    const rest = ranked.slice(ANALYTICS_LIMITS.breakdownTop);
    if (rest.length > 0) {
      const other = new Map<number, number[]>();
      for (const { m } of rest) {
        for (const [c, counts] of m) {
          const into = other.get(c) ?? emptyCounts(periods);
          counts.forEach((v, n) => { into[n] = (into[n] ?? 0) + v; });
          other.set(c, into);
        }
      }
      top.push({ key: OTHER_SENTINEL, m: other, size: sizeOf(other) });
    }
    segments = top.map(({ key, m, size: s }) => {
      const segmentRows = rowsOf(grid, periods, today, returnOn, m);
      return { key, size: s, rows: segmentRows, curve: retentionCurve(segmentRows, periods) };
    });
  }
  return { rows, size, curve: retentionCurve(rows, periods), segments };
}

/** One person's activity for the reference computation (days in the app's time zone). */
export interface PersonActivity {
  /** Days of the start event (with its filters), in time order, each with its breakdown value. */
  starts: readonly { day: string; key?: string | null }[];
  /** Days of the return event (with its filters; any event for a null return). */
  returns: readonly string[];
}

export interface RetentionParams {
  range: { startDay: string; endDay: string };
  period: CohortPeriod;
  periods?: number | undefined;
  mode: CohortMode;
  returnOn: ReturnOn;
  breakdown: boolean;
  today: string;
}

/** The cells of one person, by the rules above. */
export function personCells(person: PersonActivity, grid: CohortGrid, periods: number, p: Pick<RetentionParams, 'mode' | 'returnOn' | 'today'>): RetentionCell[] {
  const entered = new Map<number, string>();
  if (p.mode === 'first') {
    const first = person.starts.reduce<{ day: string; key?: string | null } | null>((best, s) => (best === null || s.day < best.day ? s : best), null);
    if (first) entered.set(bucketOffset(grid.first, first.day, grid.period), keyOf(first.key));
  } else {
    for (const s of person.starts) {
      const c = bucketOffset(grid.first, s.day, grid.period);
      if (!entered.has(c)) entered.set(c, keyOf(s.key));
    }
  }
  const returned = new Set(person.returns.filter((d) => d <= p.today).map((d) => bucketOffset(grid.first, d, grid.period)));
  const last = Math.max(-Infinity, ...returned);
  const cells: RetentionCell[] = [];
  for (const [c, key] of entered) {
    if (c < 0 || c >= grid.count) continue;
    cells.push({ cohort: c, key, period: 0, people: 1 });
    if (p.returnOn === 'on') {
      for (let n = 1; n <= periods; n += 1) if (returned.has(c + n)) cells.push({ cohort: c, key, period: n, people: 1 });
    } else if (last - c >= 1) {
      cells.push({ cohort: c, key, period: Math.min(last - c, periods), people: 1 });
    }
  }
  return cells;
}

/** The retention table of plain activity: the reference the SQL is tested against. */
export function computeRetention(people: Iterable<PersonActivity>, p: RetentionParams): Assembled & { grid: CohortGrid; periods: number } {
  const periods = resolvePeriods(p.period, p.periods);
  const grid = cohortGrid(p.range, p.period, p.today);
  const cells: RetentionCell[] = [];
  for (const person of people) cells.push(...personCells(person, grid, periods, p));
  return { grid, periods, ...assembleRetention({ grid, periods, today: p.today, returnOn: p.returnOn, breakdown: p.breakdown, cells }) };
}
