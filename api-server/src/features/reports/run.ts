/**
 * The two durable jobs of scheduled reports (jobs/runner.ts claims rows FOR UPDATE SKIP LOCKED,
 * with leases, so any number of API and worker processes share them and a restart loses nothing):
 *
 * 1. `report-schedule` (table scheduled_reports, run_at = the next slot): a due report records ONE
 *    run for the latest due slot (schedule.ts latestDueSlot: a report that missed runs while the
 *    service was down runs once, not once per missed slot) and moves run_at to the next slot, in one
 *    transaction. The run is keyed (report, slot) UNIQUE: a claim taken over after a crash records
 *    nothing twice.
 * 2. `report-run` (table report_runs): computes the tables (tables.ts) over the days its range gave
 *    at the slot, writes the file (files.ts) into stored chunks under the run's id, delivers it
 *    (deliver.ts), then sets the status: ready, or warning (no data, or some recipients refused),
 *    or error with its reason.
 *
 * Exactly once, as far as the target allows: `delivered_at` is written as soon as the target took
 * the file; a run taken over after that (its worker died) finishes without delivering again. Only a
 * death between the target's acceptance and that one UPDATE can deliver twice.
 *
 * Retries: a failed delivery (or an unexpected failure) is retried RETRY_DELAYS_S later (30 s, 2
 * min, 10 min), then the run is an error. A refused report (kind not available) and a permanent
 * delivery failure (no mail provider, unreadable credentials) are errors at once. The file of a run
 * whose delivery failed is kept: it can still be downloaded.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Db } from '../../db/pool.ts';
import { tx } from '../../db/pool.ts';
import { wakeJobRunners, type Claimed, type JobContext, type JobKind } from '../../jobs/runner.ts';
import { deleteFile, readFile, storeStream } from '../../jobs/storedFiles.ts';
import type { NetPolicy } from '../../net/index.ts';
import { REPORT_LIMITS } from '@gd/shared';
import { DeliveryFailed, deliver } from './deliver.ts';
import { reportBaseName, reportFile, type ReportFile } from './files.ts';
import * as repo from './repository.ts';
import { latestDueSlot, localDay, nextSlot, rangeDays } from './schedule.ts';
import { ReportRefused, reportTables } from './tables.ts';

export const RETRY_DELAYS_S = [30, 120, 600] as const;

export interface ReportJobDeps {
  db: Db; log: Logger; secret: string; net: NetPolicy;
  /** Tests only: awaited after the file is stored, after it is sent and after the delivery is recorded (a crash there never resolves). */
  hooks?: { afterFile?: (runId: string) => Promise<void>; afterSend?: (runId: string) => Promise<void>; afterDelivery?: (runId: string) => Promise<void> } | undefined;
}

export function reportScheduleJobKind(deps: ReportJobDeps): JobKind {
  return { name: 'report-schedule', table: 'scheduled_reports', runnable: `active AND deleted_at IS NULL`, run: (job, ctx) => scheduleDue(deps, job, ctx) };
}

export function reportRunJobKind(deps: ReportJobDeps): JobKind {
  return { name: 'report-run', table: 'report_runs', runnable: `status = 'processing'`, run: (job, ctx) => runReport(deps, job, ctx) };
}

/** The days a run at instant `at` covers, in the report's time zone. */
export const runDays = (report: Pick<repo.ReportRow, 'range' | 'timezone'>, at: number) => rangeDays(report.range, localDay(at, report.timezone));

/** Records the run of the latest due slot and moves the report to its next slot. */
export async function scheduleDue(deps: ReportJobDeps, job: Claimed, ctx: JobContext): Promise<void> {
  const { db } = deps;
  const report = await repo.findReportById(db, job.id);
  if (!report?.run_at) return;
  try {
    const now = Date.now();
    const slot = latestDueSlot(report.schedule, report.timezone, report.run_at.getTime(), now);
    const next = nextSlot(report.schedule, report.timezone, Math.max(slot, now));
    const days = runDays(report, slot);
    const recorded = await tx(db, async (client) => {
      const { rowCount } = await client.query('SELECT 1 FROM scheduled_reports WHERE id = $1 AND locked_by = $2 FOR UPDATE', [report.id, ctx.workerId]);
      if (rowCount !== 1) return false;
      const inserted = await repo.insertRun(client, {
        id: randomUUID(), accountId: report.account_id, appId: report.app_id, reportId: report.id, slot: new Date(slot), trigger: 'schedule',
        ...days, queue: report.queue, createdBy: null,
      });
      await client.query(
        'UPDATE scheduled_reports SET run_at = $3, attempts = 0, locked_by = NULL, locked_until = NULL WHERE id = $1 AND locked_by = $2',
        [report.id, ctx.workerId, new Date(next)],
      );
      return inserted;
    });
    if (recorded) wakeJobRunners();
  } catch (error) {
    deps.log.error({ err: error, report: report.id }, 'report schedule failed');
    await db.query(
      `UPDATE scheduled_reports SET run_at = now() + interval '1 minute', locked_by = NULL, locked_until = NULL WHERE id = $1 AND locked_by = $2`,
      [report.id, ctx.workerId],
    );
  }
}

class Stop extends Error {}

/** One attempt of a run. */
export async function runReport(deps: ReportJobDeps, job: Claimed, ctx: JobContext): Promise<void> {
  const { db } = deps;
  const run = await repo.findRunById(db, job.id);
  if (!run) return;
  const progress = async (sql: string, values: unknown[]) => {
    const { rowCount } = await db.query(`${sql} WHERE id = $1 AND locked_by = $2`, [run.id, ctx.workerId, ...values]);
    if (rowCount !== 1) throw new Stop();
  };
  const fail = (message: string) => progress(
    `UPDATE report_runs SET status = 'error', error_message = left($3, 1000), last_error = NULL, finished_at = now(), run_at = NULL, locked_by = NULL, locked_until = NULL`,
    [message],
  );
  try {
    const report = await repo.findReportById(db, run.report_id);
    if (!report) return void (await fail('The report was deleted'));
    if (job.attempts > job.max_attempts) return void (await fail(`The run stopped unfinished ${job.max_attempts} times: ${run.last_error ?? 'its worker stopped'}`));
    const days = { startDay: run.start_day, endDay: run.end_day };
    let warning: string | null = run.warning;
    if (!run.delivered_at) {
      const answer = await reportTables(db, { id: report.app_id, timezone: report.timezone }, report.kind, report.query, days);
      const file: ReportFile = reportFile(report.format, reportBaseName(report.name, days.startDay, days.endDay), answer.tables);
      if (ctx.signal.aborted) throw new Stop();
      await storeStream(db, run.id, [file.bytes], REPORT_LIMITS.maxFileBytes);
      const noData = answer.empty ? 'The report has no data for its days' : null;
      await progress('UPDATE report_runs SET row_count = $3, byte_size = $4, file_name = $5, warning = $6', [file.rows, file.bytes.length, file.fileName, noData]);
      await deps.hooks?.afterFile?.(run.id);
      const secret = (await repo.reportSecret(db, report.app_id, report.id))?.secret ?? null;
      const partial = await deliver({
        db, serverSecret: deps.secret, net: deps.net, signal: ctx.signal, days, runId: run.id,
        report: { id: report.id, accountId: report.account_id, name: report.name, secret },
      }, report.target, file);
      // A worker that stops here (sent, not yet recorded) sends again when the run is taken over:
      // delivery is at least once; the e-mail's Message-ID is the run's, so mail clients show one.
      await deps.hooks?.afterSend?.(run.id);
      warning = [noData, partial].filter(Boolean).join('. ') || null;
      await progress('UPDATE report_runs SET delivered_at = now(), warning = $3', [warning]);
      await deps.hooks?.afterDelivery?.(run.id);
    }
    await progress(
      `UPDATE report_runs SET status = $3, error_message = NULL, last_error = NULL, finished_at = now(), run_at = NULL, locked_by = NULL, locked_until = NULL`,
      [warning ? 'warning' : 'ready'],
    );
  } catch (error) {
    if (error instanceof Stop || ctx.signal.aborted) return;
    const message = error instanceof Error ? error.message : String(error);
    const permanent = error instanceof ReportRefused || (error instanceof DeliveryFailed && error.permanent);
    deps.log.warn({ err: error, run: run.id }, 'report run failed');
    try {
      const delay = RETRY_DELAYS_S[job.attempts - 1];
      if (permanent || delay === undefined || job.attempts >= job.max_attempts) {
        if (!(error instanceof DeliveryFailed)) await deleteFile(db, run.id);
        await fail(message);
      } else {
        await progress(
          `UPDATE report_runs SET last_error = left($3, 1000), run_at = now() + make_interval(secs => $4), locked_by = NULL, locked_until = NULL`,
          [message, delay],
        );
      }
    } catch (inner) {
      if (!(inner instanceof Stop)) throw inner;
    }
  }
}

/** The stored file of a run, as a stream. */
export const runFile = (db: Db, runId: string) => readFile(db, runId);
