/** SQL for audience exports (the run's own writes are in run.ts). */
import type { AudienceExport, ExportFormat, ExportStatus } from '@gd/shared';
import type { Queryable } from '../../db/pool.ts';

export interface ExportRow {
  id: string; account_id: string; app_id: string; audience_id: string | null; audience_name: string; format: ExportFormat; status: ExportStatus;
  row_count: number | null; expected_count: number | null; byte_size: number | null; file_name: string | null; warning: string | null;
  error_message: string | null; queue: string; attempts: number; max_attempts: number; created_by: string | null; created_by_name: string | null;
  created_at: Date; finished_at: Date | null;
}

const SELECT = `SELECT e.*, u.name AS created_by_name FROM audience_exports e LEFT JOIN users u ON u.id = e.created_by`;

export async function listExports(db: Queryable, appId: string, audienceId?: string): Promise<ExportRow[]> {
  return (await db.query<ExportRow>(
    `${SELECT} WHERE e.app_id = $1 AND ($2::uuid IS NULL OR e.audience_id = $2) ORDER BY e.created_at DESC, e.id LIMIT 200`,
    [appId, audienceId ?? null],
  )).rows;
}

export async function findExport(db: Queryable, appId: string, id: string): Promise<ExportRow | undefined> {
  return (await db.query<ExportRow>(`${SELECT} WHERE e.id = $1 AND e.app_id = $2`, [id, appId])).rows[0];
}

export async function findExportById(db: Queryable, id: string): Promise<ExportRow | undefined> {
  return (await db.query<ExportRow>(`${SELECT} WHERE e.id = $1`, [id])).rows[0];
}

export async function insertExport(db: Queryable, e: { id: string; accountId: string; appId: string; audienceId: string; audienceName: string; format: ExportFormat; queue: string; createdBy: string }): Promise<void> {
  await db.query(
    `INSERT INTO audience_exports (id, account_id, app_id, audience_id, audience_name, format, queue, created_by) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [e.id, e.accountId, e.appId, e.audienceId, e.audienceName, e.format, e.queue, e.createdBy],
  );
}

export async function deleteExport(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM audience_exports WHERE id = $1', [id]);
}

export const toAudienceExport = (r: ExportRow): AudienceExport => ({
  id: r.id, appId: r.app_id, audienceId: r.audience_id, audienceName: r.audience_name, format: r.format, status: r.status, rowCount: r.row_count,
  expectedCount: r.expected_count, byteSize: r.byte_size, fileName: r.file_name, warning: r.warning, errorMessage: r.error_message,
  createdBy: r.created_by, createdByName: r.created_by_name, createdAt: r.created_at.toISOString(), finishedAt: r.finished_at?.toISOString() ?? null,
});
