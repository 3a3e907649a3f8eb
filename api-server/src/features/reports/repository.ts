/**
 * SQL of scheduled reports (migration 038): reports and their runs, every query scoped by the app
 * (or, for the background jobs, by the claimed row's id and its lease). The run's own progress
 * writes are in run.ts; the SFTP secret is read only by `reportSecret` (the delivery). An SFTP
 * target's pinned host key is the column sftp_host_key (migration 056), read fresh by the delivery
 * (`pinnedHostKey`) and written on first use by `recordHostKey`.
 */
import type { ExportFormat, ExportStatus, Report, ReportKind, ReportRange, ReportRun, ReportSchedule, ReportTarget } from '@gd/shared';
import type { Queryable } from '../../db/pool.ts';

/** The stored target: no secrets (they are in `secret`). */
export type StoredTarget =
  | { type: 'email'; mailProviderId: string | null; recipients: string[] }
  | { type: 'sftp'; host: string; port: number; username: string; path: string };

export interface ReportRow {
  id: string; account_id: string; app_id: string; name: string; kind: ReportKind; query: Record<string, unknown>; range: ReportRange;
  schedule: ReportSchedule; format: ExportFormat; target: StoredTarget; has_password: boolean; has_private_key: boolean; sftp_host_key: string | null; active: boolean;
  queue: string; run_at: Date | null; created_by: string | null; created_at: Date; updated_at: Date; timezone: string;
}

export interface RunRow {
  id: string; account_id: string; app_id: string; report_id: string; slot: Date | null; trigger: 'schedule' | 'manual';
  start_day: string; end_day: string; status: ExportStatus; row_count: string | null; byte_size: string | null; file_name: string | null;
  delivered_at: Date | null; warning: string | null; error_message: string | null; last_error: string | null; attempts: number;
  max_attempts: number; run_at: Date | null; created_at: Date; finished_at: Date | null;
}

const REPORT_COLUMNS = `r.id, r.account_id, r.app_id, r.name, r.kind, r.query, r.range, r.schedule, r.format, r.target,
  coalesce(r.secret_kinds @> ARRAY['password'], false) AS has_password, coalesce(r.secret_kinds @> ARRAY['privateKey'], false) AS has_private_key,
  r.sftp_host_key, r.active, r.queue, r.run_at, r.created_by, r.created_at, r.updated_at, a.timezone`;
const RUN_COLUMNS = `id, account_id, app_id, report_id, slot, trigger, to_char(start_day, 'YYYY-MM-DD') AS start_day, to_char(end_day, 'YYYY-MM-DD') AS end_day,
  status, row_count, byte_size, file_name, delivered_at, warning, error_message, last_error, attempts, max_attempts, run_at, created_at, finished_at`;

export async function listReports(db: Queryable, appId: string): Promise<(ReportRow & { last_run: RunRow | null })[]> {
  const { rows } = await db.query<ReportRow & { last_run: RunRow | null }>(
    `SELECT ${REPORT_COLUMNS},
            (SELECT row_to_json(x) FROM (SELECT ${RUN_COLUMNS} FROM report_runs l WHERE l.report_id = r.id AND l.app_id = r.app_id ORDER BY l.created_at DESC, l.id LIMIT 1) x) AS last_run
       FROM scheduled_reports r JOIN apps a ON a.id = r.app_id
      WHERE r.app_id = $1 AND r.deleted_at IS NULL ORDER BY lower(r.name), r.id`,
    [appId],
  );
  return rows;
}

export async function findReport(db: Queryable, appId: string, id: string): Promise<ReportRow | undefined> {
  return (await db.query<ReportRow>(
    `SELECT ${REPORT_COLUMNS} FROM scheduled_reports r JOIN apps a ON a.id = r.app_id WHERE r.id = $1 AND r.app_id = $2 AND r.deleted_at IS NULL`,
    [id, appId],
  )).rows[0];
}

/** For the background jobs: a report by id (the claimed row), deleted ones excluded. */
export async function findReportById(db: Queryable, id: string): Promise<ReportRow | undefined> {
  return (await db.query<ReportRow>(`SELECT ${REPORT_COLUMNS} FROM scheduled_reports r JOIN apps a ON a.id = r.app_id WHERE r.id = $1 AND r.deleted_at IS NULL`, [id])).rows[0];
}

/** The sealed SFTP secret of a report of the app (undefined: no such report). */
export async function reportSecret(db: Queryable, appId: string, id: string): Promise<{ secret: Buffer | null } | undefined> {
  return (await db.query<{ secret: Buffer | null }>('SELECT secret FROM scheduled_reports WHERE id = $1 AND app_id = $2 AND deleted_at IS NULL', [id, appId])).rows[0];
}

export interface ReportWrite {
  name: string; kind: ReportKind; query: Record<string, unknown>; range: ReportRange; schedule: ReportSchedule; format: ExportFormat;
  target: StoredTarget; secret: Buffer | null; secretKinds: string[]; active: boolean; runAt: Date | null;
  /** The SFTP host key fingerprint to pin (null: none, the first delivery pins one); undefined on an update keeps the pinned one. */
  hostKey: string | null | undefined;
}

export async function insertReport(db: Queryable, r: ReportWrite & { id: string; accountId: string; appId: string; queue: string; createdBy: string }): Promise<void> {
  await db.query(
    `INSERT INTO scheduled_reports (id, account_id, app_id, name, kind, query, range, schedule, format, target, secret, secret_kinds, active, queue, run_at, created_by, sftp_host_key)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)`,
    [r.id, r.accountId, r.appId, r.name, r.kind, r.query, r.range, r.schedule, r.format, r.target, r.secret, r.secretKinds, r.active, r.queue, r.runAt, r.createdBy, r.hostKey ?? null],
  );
}

/** Replaces the report's settings; the schedule restarts from `runAt` (a running claim keeps its lease). */
export async function updateReport(db: Queryable, appId: string, id: string, r: ReportWrite): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE scheduled_reports SET name = $3, kind = $4, query = $5, range = $6, schedule = $7, format = $8, target = $9, secret = $10, secret_kinds = $11,
            active = $12, run_at = $13, attempts = 0, sftp_host_key = CASE WHEN $14 THEN $15::text ELSE sftp_host_key END, updated_at = now()
      WHERE id = $1 AND app_id = $2 AND deleted_at IS NULL`,
    [id, appId, r.name, r.kind, r.query, r.range, r.schedule, r.format, r.target, r.secret, r.secretKinds, r.active, r.runAt, r.hostKey !== undefined, r.hostKey ?? null],
  );
  return rowCount === 1;
}

/** For the delivery: the report's pinned SFTP host key as it is now (null: none yet). */
export async function pinnedHostKey(db: Queryable, reportId: string): Promise<string | null> {
  return (await db.query<{ sftp_host_key: string | null }>('SELECT sftp_host_key FROM scheduled_reports WHERE id = $1', [reportId])).rows[0]?.sftp_host_key ?? null;
}

/**
 * Trust on first use: pins the host key the delivery's login met, only while none is pinned and the
 * report still targets the server that was reached (an edit meanwhile changes nothing). Answers
 * whether it was recorded.
 */
export async function recordHostKey(db: Queryable, reportId: string, server: { host: string; port: number }, fingerprint: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE scheduled_reports SET sftp_host_key = $4
      WHERE id = $1 AND sftp_host_key IS NULL AND target->>'type' = 'sftp' AND target->>'host' = $2 AND (target->>'port')::int = $3`,
    [reportId, server.host, server.port, fingerprint],
  );
  return rowCount === 1;
}

/** Soft-deletes the report (the name is free again) and deletes its runs; answers the runs' ids (their files go too). */
export async function deleteReport(db: Queryable, appId: string, id: string): Promise<string[] | undefined> {
  const { rowCount } = await db.query(
    `UPDATE scheduled_reports SET deleted_at = now(), active = false, run_at = NULL, locked_by = NULL, locked_until = NULL WHERE id = $1 AND app_id = $2 AND deleted_at IS NULL`,
    [id, appId],
  );
  if (rowCount !== 1) return undefined;
  const { rows } = await db.query<{ id: string }>('DELETE FROM report_runs WHERE report_id = $1 AND app_id = $2 RETURNING id', [id, appId]);
  return rows.map((r) => r.id);
}

export interface NewRun { id: string; accountId: string; appId: string; reportId: string; slot: Date | null; trigger: 'schedule' | 'manual'; startDay: string; endDay: string; queue: string; createdBy: string | null }

/** Records a run; a scheduled slot already recorded is not recorded again (false). */
export async function insertRun(db: Queryable, r: NewRun): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO report_runs (id, account_id, app_id, report_id, slot, trigger, start_day, end_day, queue, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT (report_id, slot) WHERE slot IS NOT NULL DO NOTHING`,
    [r.id, r.accountId, r.appId, r.reportId, r.slot, r.trigger, r.startDay, r.endDay, r.queue, r.createdBy],
  );
  return rowCount === 1;
}

export async function listRuns(db: Queryable, appId: string, reportId: string): Promise<RunRow[]> {
  return (await db.query<RunRow>(`SELECT ${RUN_COLUMNS} FROM report_runs WHERE app_id = $1 AND report_id = $2 ORDER BY created_at DESC, id LIMIT 100`, [appId, reportId])).rows;
}

export async function findRun(db: Queryable, appId: string, reportId: string, runId: string): Promise<RunRow | undefined> {
  return (await db.query<RunRow>(`SELECT ${RUN_COLUMNS} FROM report_runs WHERE id = $1 AND app_id = $2 AND report_id = $3`, [runId, appId, reportId])).rows[0];
}

/** For the background job: the claimed run. */
export async function findRunById(db: Queryable, id: string): Promise<RunRow | undefined> {
  return (await db.query<RunRow>(`SELECT ${RUN_COLUMNS} FROM report_runs WHERE id = $1`, [id])).rows[0];
}

const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());
const num = (v: string | number | null): number | null => (v === null ? null : Number(v));

export const toReportRun = (r: RunRow): ReportRun => ({
  id: r.id, reportId: r.report_id, slot: iso(r.slot), trigger: r.trigger, startDay: r.start_day, endDay: r.end_day, status: r.status,
  rowCount: num(r.row_count), byteSize: num(r.byte_size), fileName: r.file_name, deliveredAt: iso(r.delivered_at), warning: r.warning,
  errorMessage: r.error_message, lastError: r.status === 'processing' ? r.last_error : null, attempts: r.attempts,
  retryAt: r.status === 'processing' && r.last_error ? iso(r.run_at) : null, createdAt: iso(r.created_at) ?? '', finishedAt: iso(r.finished_at),
});

export function toReport(r: ReportRow, lastRun: RunRow | null): Report {
  const target: ReportTarget = r.target.type === 'email'
    ? { type: 'email', mailProviderId: r.target.mailProviderId, recipients: r.target.recipients }
    : {
        type: 'sftp', host: r.target.host, port: r.target.port, username: r.target.username, path: r.target.path, hasPassword: r.has_password, hasPrivateKey: r.has_private_key,
        hostKeyFingerprint: r.sftp_host_key,
      };
  return {
    id: r.id, appId: r.app_id, name: r.name, kind: r.kind, query: r.query, range: r.range,
    schedule: { frequency: r.schedule.frequency, minute: r.schedule.minute, hour: r.schedule.hour, weekday: r.schedule.weekday, monthDay: r.schedule.monthDay },
    format: r.format, target, active: r.active, nextRunAt: r.active ? iso(r.run_at) : null, timezone: r.timezone,
    lastRun: lastRun ? toReportRun(lastRun) : null, createdBy: r.created_by, createdAt: iso(r.created_at) ?? '', updatedAt: iso(r.updated_at) ?? '',
  };
}
