/**
 * Event properties marked as breakdowns in the catalogue (/manage/events) and the job that
 * backfills their rollup (`event_property_daily`, migration 034).
 *
 * No double counting against live batches: a mark gets a cut-over `since` CUTOVER_LEAD_MS after it
 * is set. Ingestion counts the events of batches received (their `received_at`, the instant the
 * API took the request) at or after the cut-over; the backfill counts the events received before
 * it. The lead guarantees that a batch received after the cut-over sees the committed mark (its
 * statement starts later than the mark's commit), and the job runs BACKFILL_DELAY_MS after the
 * cut-over, when every batch received before it has committed (a request lasts far less). The
 * backfill is one transaction (a crash rolls it back, the next claim runs it whole) and the mark
 * becomes `ready` in the same one, so explore switches to the rollup only once it is complete.
 * Assumes the API servers' clocks agree within the lead (NTP).
 *
 * Unmarking deletes the mark and its rollup rows; marking again starts over with a new cut-over.
 *
 * A backfill that fails (its transaction rolled back, nothing counted) is tried again a minute
 * later, up to the row's max_attempts runs (runner.ts counts a run when it claims the row). Then
 * the mark is `failed` (`markState`): the runner never claims it again, explore keeps reading the
 * events table for it (right, only slower), and the catalogue shows the last error. A retry
 * (`retryMark`, by a person with api:events.edit) clears the attempts and the error and makes it
 * due at once; the cut-over stays, since ingestion has counted every batch received after it all
 * along, so the backfill still has exactly the events received before it to count.
 */
import type { Logger } from 'pino';
import type { BreakdownMark, BreakdownState } from '@gd/shared';
import type { Db, Queryable } from '../../db/pool.ts';
import { tx } from '../../db/pool.ts';
import type { Claimed, JobKind } from '../../jobs/runner.ts';

export const CUTOVER_LEAD_MS = 5_000;
export const BACKFILL_DELAY_MS = 30_000;

/** What `markState` reads of a mark's row. */
export interface MarkProgress {
  backfilled: boolean;
  attempts: number;
  maxAttempts: number;
  /** A runner holds an unexpired lease on the row: a run is under way. */
  leased: boolean;
}

/**
 * The state of a mark's backfill. Every run counts as an attempt when it is claimed, so a row with
 * all its attempts used is `failed` only once no run holds it: the last attempt may still be
 * running (`counting`). A run cut off without an error (its worker died) leaves its lease to
 * expire; with no attempt left it is `failed` too, with whatever error an earlier run left.
 */
export function markState(p: MarkProgress): BreakdownState {
  if (p.backfilled) return 'ready';
  if (p.attempts >= p.maxAttempts && !p.leased) return 'failed';
  return 'counting';
}

interface MarkRow { id: string; name: string; property: string; backfilled: boolean; attempts: number; max_attempts: number; leased: boolean; error: string | null }
const MARK_COLUMNS = `id, name, property, backfilled_at IS NOT NULL AS backfilled, attempts, max_attempts,
  coalesce(locked_until > now(), false) AS leased, error`;

const stateOf = (r: MarkRow) => markState({ backfilled: r.backfilled, attempts: r.attempts, maxAttempts: r.max_attempts, leased: r.leased });
const toMark = (r: MarkRow): BreakdownMark => {
  const state = stateOf(r);
  return { property: r.property, ready: state === 'ready', state, attempts: r.attempts, maxAttempts: r.max_attempts, error: state === 'ready' ? null : r.error };
};

/** The marks of an app's events, by event name. */
export async function marksByEvent(db: Queryable, appId: string): Promise<Map<string, BreakdownMark[]>> {
  const { rows } = await db.query<MarkRow>(`SELECT ${MARK_COLUMNS} FROM event_breakdowns WHERE app_id = $1 ORDER BY name, property`, [appId]);
  const out = new Map<string, BreakdownMark[]>();
  for (const r of rows) out.set(r.name, [...(out.get(r.name) ?? []), toMark(r)]);
  return out;
}

/**
 * Starts a failed mark's backfill over: attempts and error cleared, due now. `missing` when the
 * property is not marked; `unchanged` when the mark is not failed (still counting, or ready), so
 * calling it twice does the same as once. The update only applies while the attempts are the ones
 * read, so two retries at once reset the row once and never under a run a runner just claimed.
 */
export async function retryMark(db: Queryable, a: { appId: string; name: string; property: string }): Promise<'retried' | 'unchanged' | 'missing'> {
  const row = (await db.query<MarkRow>(`SELECT ${MARK_COLUMNS} FROM event_breakdowns WHERE app_id = $1 AND name = $2 AND property = $3`, [a.appId, a.name, a.property])).rows[0];
  if (!row) return 'missing';
  if (stateOf(row) !== 'failed') return 'unchanged';
  const { rowCount } = await db.query(
    `UPDATE event_breakdowns SET attempts = 0, error = NULL, run_at = now(), locked_by = NULL, locked_until = NULL
      WHERE id = $1 AND attempts = $2 AND backfilled_at IS NULL`,
    [row.id, row.attempts],
  );
  return rowCount === 1 ? 'retried' : 'unchanged';
}

/** Whether a property of an event has a complete rollup (marked and backfilled). */
export async function breakdownReady(db: Queryable, appId: string, name: string, property: string): Promise<boolean> {
  const { rows } = await db.query(
    'SELECT 1 FROM event_breakdowns WHERE app_id = $1 AND name = $2 AND property = $3 AND backfilled_at IS NOT NULL',
    [appId, name, property],
  );
  return rows.length > 0;
}

/**
 * Replaces the marks of one event with `properties` (run in a transaction): removed marks and their
 * rollup rows go, new marks get a cut-over and a backfill job on `queue`, kept marks stay as they are.
 */
export async function setMarks(db: Queryable, a: { appId: string; name: string; properties: readonly string[]; userId: string | null; queue: string; now: Date }): Promise<void> {
  const since = new Date(a.now.getTime() + CUTOVER_LEAD_MS);
  const runAt = new Date(since.getTime() + BACKFILL_DELAY_MS);
  await db.query(
    `WITH gone AS (
       DELETE FROM event_breakdowns WHERE app_id = $1 AND name = $2 AND NOT (property = ANY($3::text[])) RETURNING property
     )
     DELETE FROM event_property_daily p USING gone WHERE p.app_id = $1 AND p.name = $2 AND p.property = gone.property`,
    [a.appId, a.name, [...a.properties]],
  );
  await db.query(
    `INSERT INTO event_breakdowns (app_id, name, property, since, created_by, queue, run_at, id)
     SELECT $1, $2, p, $4, $5, $6, $7, gen_random_uuid() FROM unnest($3::text[]) AS p
     ON CONFLICT (app_id, name, property) DO NOTHING`,
    [a.appId, a.name, [...a.properties], since, a.userId, a.queue, runAt],
  );
}

/**
 * Counts a mark's events received before its cut-over into the rollup (adding to what ingestion
 * counted since) and marks it ready, in one transaction; nothing when the mark is gone or ready.
 */
export async function backfillMark(db: Db, id: string): Promise<'done' | 'skipped'> {
  return tx(db, async (client) => {
    const mark = (await client.query<{ app_id: string; name: string; property: string; since: Date; timezone: string }>(
      `SELECT b.app_id, b.name, b.property, b.since, a.timezone FROM event_breakdowns b JOIN apps a ON a.id = b.app_id
        WHERE b.id = $1 AND b.backfilled_at IS NULL FOR UPDATE OF b`,
      [id],
    )).rows[0];
    if (!mark) return 'skipped';
    await client.query(
      `INSERT INTO event_property_daily AS pv (app_id, name, property, day, value, events, revenue)
       SELECT $1, $2, $3, (event_time AT TIME ZONE $5)::date, coalesce(properties ->> $3, ''), count(*), coalesce(sum(revenue), 0)
         FROM events WHERE app_id = $1 AND name = $2 AND received_at < $4
        GROUP BY 4, 5 ORDER BY 4, 5
       ON CONFLICT (app_id, name, property, day, value) DO UPDATE SET events = pv.events + excluded.events, revenue = pv.revenue + excluded.revenue`,
      [mark.app_id, mark.name, mark.property, mark.since, mark.timezone],
    );
    await client.query('UPDATE event_breakdowns SET backfilled_at = now(), error = NULL, locked_by = NULL, locked_until = NULL WHERE id = $1', [id]);
    return 'done';
  });
}

/** The backfill as a durable job: the mark row is the job row (runner.ts claims, leases, retries). */
export function breakdownBackfillJobKind(deps: { db: Db; log: Logger }): JobKind {
  return {
    name: 'breakdown-backfill',
    table: 'event_breakdowns',
    runnable: 'backfilled_at IS NULL AND attempts < max_attempts',
    async run(job: Claimed) {
      try {
        const outcome = await backfillMark(deps.db, job.id);
        deps.log.info({ job: job.id, outcome }, 'breakdown backfill');
      } catch (error) {
        deps.log.error({ err: error, job: job.id }, 'breakdown backfill failed');
        await deps.db.query(
          `UPDATE event_breakdowns SET error = $2, locked_by = NULL, locked_until = NULL, run_at = now() + interval '1 minute' WHERE id = $1`,
          [job.id, (error as Error).message.slice(0, 500)],
        );
      }
    },
  };
}
