/** SQL for import tasks and object storage integrations (the run's own writes are in run.ts). */
import { ImportConfig, type ImportStatus, type ImportTask, type ImportTaskType, type S3Integration } from '@gd/shared';
import type { Queryable } from '../../db/pool.ts';

export interface ImportTaskRow {
  id: string; account_id: string; app_id: string; audience_id: string | null; audience_name: string | null; name: string;
  type: ImportTaskType; config: unknown; secret: Buffer | null; has_upload: boolean; status: ImportStatus;
  /** SFTP: the pinned host key fingerprint (migration 056); null until given or met on the first login. */
  sftp_host_key: string | null;
  rows_read: number; rows_matched: number; rows_unmatched: number; bytes_read: number; bytes_total: number | null;
  person_count: number | null; warning: string | null; error_name: string | null; error_message: string | null; error_line: number | null;
  queue: string; attempts: number; max_attempts: number; run_at: Date | null; locked_by: string | null; locked_until: Date | null;
  started_at: Date | null; finished_at: Date | null; created_by: string | null; created_by_name: string | null; created_at: Date; updated_at: Date;
}

const TASK_SELECT = `SELECT t.*, a.name AS audience_name, u.name AS created_by_name
  FROM import_tasks t
  LEFT JOIN audiences a ON a.id = t.audience_id AND a.deleted_at IS NULL
  LEFT JOIN users u ON u.id = t.created_by`;

export async function listTasks(db: Queryable, appId: string): Promise<ImportTaskRow[]> {
  return (await db.query<ImportTaskRow>(`${TASK_SELECT} WHERE t.app_id = $1 ORDER BY t.created_at DESC, t.id LIMIT 500`, [appId])).rows;
}

export async function findTask(db: Queryable, appId: string, id: string): Promise<ImportTaskRow | undefined> {
  return (await db.query<ImportTaskRow>(`${TASK_SELECT} WHERE t.id = $1 AND t.app_id = $2`, [id, appId])).rows[0];
}

export async function findTaskById(db: Queryable, id: string): Promise<ImportTaskRow | undefined> {
  return (await db.query<ImportTaskRow>(`${TASK_SELECT} WHERE t.id = $1`, [id])).rows[0];
}

export interface NewTask {
  id: string; accountId: string; appId: string; audienceId: string; name: string; type: ImportTaskType; config: ImportConfig;
  secret: Buffer | null; hasUpload: boolean; queue: string; runNow: boolean; maxAttempts: number; createdBy: string;
  /** SFTP: a host key fingerprint given in advance (null or absent: the first login pins one). */
  hostKey?: string | null | undefined;
}

export async function insertTask(db: Queryable, t: NewTask): Promise<void> {
  await db.query(
    `INSERT INTO import_tasks (id, account_id, app_id, audience_id, name, type, config, secret, has_upload, queue, run_at, max_attempts, created_by, sftp_host_key)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, CASE WHEN $11 THEN now() END, $12, $13, $14)`,
    [t.id, t.accountId, t.appId, t.audienceId, t.name, t.type, JSON.stringify(t.config), t.secret, t.hasUpload, t.queue, t.runNow, t.maxAttempts, t.createdBy, t.hostKey ?? null],
  );
}

/** `secret` and `hostKey`: undefined keeps the stored value, null clears it. */
export async function updateTask(db: Queryable, id: string, patch: {
  name?: string | undefined; config?: ImportConfig | undefined; secret?: Buffer | null | undefined; hostKey?: string | null | undefined;
}): Promise<void> {
  await db.query(
    `UPDATE import_tasks SET name = coalesce($2, name), config = coalesce($3::jsonb, config),
       secret = CASE WHEN $4 THEN $5::bytea ELSE secret END, sftp_host_key = CASE WHEN $6 THEN $7::text ELSE sftp_host_key END, updated_at = now()
     WHERE id = $1`,
    [id, patch.name ?? null, patch.config ? JSON.stringify(patch.config) : null, patch.secret !== undefined, patch.secret ?? null, patch.hostKey !== undefined, patch.hostKey ?? null],
  );
}

/**
 * Trust on first use: pins the host key an SFTP login met, only while none is pinned and the task
 * still names the server that was reached (an edit in between changes nothing). Answers whether it
 * was recorded.
 */
export async function recordHostKey(db: Queryable, id: string, server: { host: string; port: number }, fingerprint: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE import_tasks SET sftp_host_key = $4, updated_at = now()
      WHERE id = $1 AND sftp_host_key IS NULL AND type = 'ftp' AND config->>'ftpHost' = $2 AND (config->>'ftpPort')::int = $3 AND (config->>'isSecureFtp')::boolean`,
    [id, server.host, server.port, fingerprint],
  );
  return rowCount === 1;
}

/** Queues the task to run (again) from the start: progress and errors cleared, tries reset. */
export async function queueTask(db: Queryable, id: string, opts: { hasUpload?: boolean } = {}): Promise<void> {
  await db.query(
    `UPDATE import_tasks SET status = 'new', run_at = now(), attempts = 0, locked_by = NULL, locked_until = NULL,
       rows_read = 0, rows_matched = 0, rows_unmatched = 0, bytes_read = 0, bytes_total = NULL, warning = NULL,
       error_name = NULL, error_message = NULL, error_line = NULL, started_at = NULL, finished_at = NULL,
       has_upload = coalesce($2, has_upload), updated_at = now()
     WHERE id = $1`,
    [id, opts.hasUpload ?? null],
  );
}

export async function deleteTask(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM import_tasks WHERE id = $1', [id]);
}

/** True while a worker holds the task (a live lease). */
export const isRunning = (row: ImportTaskRow) => row.status === 'in_progress' && row.locked_until !== null && row.locked_until.getTime() > Date.now();

export function toImportTask(r: ImportTaskRow): ImportTask {
  const config = ImportConfig.safeParse({ ...(r.config as object), type: r.type });
  const answered: ImportConfig = !config.success ? { type: 'csv' }
    : config.data.type === 'ftp' ? { ...config.data, ftpHostKeyFingerprint: config.data.isSecureFtp ? r.sftp_host_key : null } : config.data;
  return {
    id: r.id, appId: r.app_id, audienceId: r.audience_name === null ? null : r.audience_id, audienceName: r.audience_name, name: r.name, type: r.type,
    config: answered,
    hasPassword: r.type === 'ftp' && r.secret !== null, hasUpload: r.has_upload, status: r.status,
    progress: { rowsRead: r.rows_read, rowsMatched: r.rows_matched, rowsUnmatched: r.rows_unmatched, bytesRead: r.bytes_read, bytesTotal: r.bytes_total },
    personCount: r.person_count, warning: r.warning, errorName: r.error_name, errorMessage: r.error_message, errorLine: r.error_line,
    attempts: r.attempts, maxAttempts: r.max_attempts, createdBy: r.created_by, createdByName: r.created_by_name,
    createdAt: r.created_at.toISOString(), startedAt: r.started_at?.toISOString() ?? null, finishedAt: r.finished_at?.toISOString() ?? null,
    updatedAt: r.updated_at.toISOString(),
  };
}

// ---------------------------------------------------------------------------------------------
// Object storage integrations

export interface IntegrationRow {
  id: string; app_id: string; kind: 'object_storage'; name: string; config: { endpoint?: string; region?: string; bucket?: string; accessKeyId?: string };
  secret: Buffer | null; created_at: Date;
}

export async function listIntegrations(db: Queryable, appId: string): Promise<IntegrationRow[]> {
  return (await db.query<IntegrationRow>(`SELECT * FROM integrations WHERE app_id = $1 AND kind = 'object_storage' AND service = 's3' ORDER BY lower(name)`, [appId])).rows;
}

export async function findIntegration(db: Queryable, appId: string, id: string): Promise<IntegrationRow | undefined> {
  return (await db.query<IntegrationRow>(`SELECT * FROM integrations WHERE id = $1 AND app_id = $2 AND kind = 'object_storage' AND service = 's3'`, [id, appId])).rows[0];
}

/** An experience-platform integration of the app (the adobe import's source), or undefined. */
export async function findExperiencePlatform(db: Queryable, appId: string, id: string): Promise<{ id: string } | undefined> {
  return (await db.query<{ id: string }>(`SELECT id FROM integrations WHERE id = $1 AND app_id = $2 AND kind = 'experience_platform'`, [id, appId])).rows[0];
}

export async function insertIntegration(db: Queryable, i: { id: string; accountId: string; appId: string; name: string; config: IntegrationRow['config']; secret: Buffer; createdBy: string }): Promise<void> {
  await db.query(
    `INSERT INTO integrations (id, account_id, app_id, kind, service, auth, status, connected_at, name, config, secret, created_by) VALUES ($1, $2, $3, 'object_storage', 's3', 'keys', 'connected', now(), $4, $5, $6, $7)`,
    [i.id, i.accountId, i.appId, i.name, JSON.stringify(i.config), i.secret, i.createdBy],
  );
}

export async function deleteIntegration(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM integrations WHERE id = $1', [id]);
}

export const toS3Integration = (r: IntegrationRow): S3Integration => ({
  id: r.id, name: r.name, endpoint: r.config.endpoint ?? '', region: r.config.region ?? '', bucket: r.config.bucket ?? '',
  accessKeyId: r.config.accessKeyId ?? '', hasSecret: r.secret !== null, createdAt: r.created_at.toISOString(),
});
