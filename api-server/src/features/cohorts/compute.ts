/**
 * runCohort: a retention query answered for an app (the cohort screen, dashboards and reports use
 * it). Resolves the range (default: the last 7 days including today, app time zone), the grid of
 * cohorts (whole buckets overlapping the range, none after today) and the number of periods, reads
 * the counted cells (repository.ts) and assembles the table with the shared rules
 * (shared/src/analytics/retention.ts), so the SQL and the reference computation share one assembly.
 */
import {
  ErrorCode, assembleRetention, bucketLastDay, bucketOffset, cohortGrid, fail, ok, resolvePeriods, shiftBucket,
  type CohortAnswer, type CohortQuery, type Result,
} from '@gd/shared';
import type { Queryable } from '../../db/pool.ts';
import { resolveRange } from '../analytics/range.ts';
import { todayIn, utcBounds } from '../analytics/repository.ts';
import { cellsFromBitmaps } from './monthMasks.ts';
import {
  bitmapGroups, bitmapMembersSql, bitmapPath, cellMembersSql, retentionCells, returnFromBitmaps, startFromBitmaps, type CohortSqlSpec,
} from './repository.ts';

type App = { id: string; timezone: string };

interface Prepared { spec: CohortSqlSpec; grid: ReturnType<typeof cohortGrid>; periods: number; range: { startDay: string; endDay: string } }

async function prepare(db: Queryable, app: App, query: CohortQuery): Promise<Prepared> {
  const today = await todayIn(db, app.timezone);
  const resolved = resolveRange(query, today);
  const grid = cohortGrid(resolved, query.period, today);
  const periods = resolvePeriods(query.period, query.periods);
  const lastCohort = grid.count > 0 ? shiftBucket(grid.first, grid.count - 1, query.period) : grid.first;
  const lastCohortDay = bucketLastDay(lastCohort, query.period) < today ? bucketLastDay(lastCohort, query.period) : today;
  const [cohortsBounds, todayBounds] = await Promise.all([
    utcBounds(db, grid.first, lastCohortDay, app.timezone),
    utcBounds(db, grid.first, today, app.timezone),
  ]);
  const spec: CohortSqlSpec = {
    appId: app.id, timezone: app.timezone, period: query.period, first: grid.first, lastCohortDay, today, cohorts: grid.count, periods,
    mode: query.mode, returnOn: query.returnOn, start: query.start, return: query.return, breakdown: query.breakdown,
    bounds: { from: cohortsBounds.from, cohortsTo: cohortsBounds.to, todayTo: todayBounds.to },
  };
  const range = { startDay: grid.first, endDay: grid.count > 0 ? bucketLastDay(lastCohort, query.period) : grid.first };
  return { spec, grid, periods, range };
}

/** `sliceFrom`: how many people ids an app needs for the bitmap path to run in slices (repository.ts). */
export async function runCohort(db: Queryable, app: App, query: CohortQuery, opts: { sliceFrom?: number } = {}): Promise<CohortAnswer> {
  const { spec, grid, periods, range } = await prepare(db, app, query);
  const cells = bitmapPath(spec)
    ? cellsFromBitmaps(await bitmapGroups(db, spec, opts.sliceFrom), spec.cohorts, periods, query.returnOn)
    : await retentionCells(db, spec);
  const table = assembleRetention({ grid, periods, today: spec.today, returnOn: query.returnOn, breakdown: query.breakdown !== undefined, cells });
  return {
    range, period: query.period, periods, mode: query.mode, returnOn: query.returnOn, today: spec.today, ...table,
    source: startFromBitmaps(spec) && returnFromBitmaps(spec) ? 'bitmaps' : 'events',
  };
}

/**
 * The SELECT of the people of one cell (cohort = its bucket start, period 0 = the whole cohort), or
 * a refusal: a day that does not start one of the query's cohorts, a period past the query's, or a
 * period that has not begun yet (10001 with the field).
 */
export async function cohortCellMembers(db: Queryable, app: App, query: CohortQuery, cohort: string, period: number): Promise<Result<{ text: string; values: unknown[] }>> {
  const { spec, grid, periods } = await prepare(db, app, query);
  const index = bucketOffset(grid.first, cohort, query.period);
  if (shiftBucket(grid.first, index, query.period) !== cohort || index < 0 || index >= grid.count) {
    return fail(ErrorCode.MANDATORY, 'Not a cohort of this query', [{ path: 'cohort', message: 'Not a cohort of this query' }]);
  }
  if (period > periods || shiftBucket(cohort, period, query.period) > spec.today) {
    return fail(ErrorCode.MANDATORY, 'That period has not begun', [{ path: 'period', message: 'That period has not begun' }]);
  }
  return ok(bitmapPath(spec) ? bitmapMembersSql(spec, index, period) : cellMembersSql(spec, index, period));
}
