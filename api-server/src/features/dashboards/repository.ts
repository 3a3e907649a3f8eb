/** SQL of dashboards: the rows (the widgets live in each dashboard's document). Every query is scoped by app. */
import type { DashboardSummary } from '@gd/shared';
import type { DashboardWindow } from '@gd/shared/dashboard/model';
import type { Queryable } from '../../db/pool.ts';

export interface DashboardRow {
  id: string; account_id: string; app_id: string; name: string; doc_name: string; window_type: DashboardWindow;
  created_by: string | null; created_by_name: string | null; created_at: Date; updated_at: Date;
}

const SELECT = 'SELECT d.*, u.name AS created_by_name FROM dashboards d LEFT JOIN users u ON u.id = d.created_by';

export async function listDashboards(db: Queryable, appId: string): Promise<DashboardRow[]> {
  return (await db.query<DashboardRow>(`${SELECT} WHERE d.app_id = $1 AND d.deleted_at IS NULL ORDER BY d.updated_at DESC, d.id`, [appId])).rows;
}

export async function findDashboard(db: Queryable, appId: string, id: string): Promise<DashboardRow | undefined> {
  return (await db.query<DashboardRow>(`${SELECT} WHERE d.id = $1 AND d.app_id = $2 AND d.deleted_at IS NULL`, [id, appId])).rows[0];
}

export async function insertDashboard(db: Queryable, d: { id: string; accountId: string; appId: string; name: string; docName: string; window: DashboardWindow; createdBy: string }): Promise<void> {
  await db.query(
    'INSERT INTO dashboards (id, account_id, app_id, name, doc_name, window_type, created_by) VALUES ($1, $2, $3, $4, $5, $6, $7)',
    [d.id, d.accountId, d.appId, d.name, d.docName, d.window, d.createdBy],
  );
}

export async function updateDashboard(db: Queryable, appId: string, id: string, change: { name?: string | undefined; window?: DashboardWindow | undefined }): Promise<void> {
  await db.query(
    `UPDATE dashboards SET name = coalesce($3, name), window_type = coalesce($4, window_type), updated_at = now()
      WHERE id = $1 AND app_id = $2 AND deleted_at IS NULL`,
    [id, appId, change.name ?? null, change.window ?? null],
  );
}

export async function softDeleteDashboard(db: Queryable, appId: string, id: string): Promise<void> {
  await db.query('UPDATE dashboards SET deleted_at = now() WHERE id = $1 AND app_id = $2 AND deleted_at IS NULL', [id, appId]);
}

export const toDashboardSummary = (r: DashboardRow): DashboardSummary => ({
  id: r.id, appId: r.app_id, name: r.name, window: r.window_type, docName: r.doc_name, createdBy: r.created_by,
  createdByName: r.created_by_name, createdAt: r.created_at.toISOString(), updatedAt: r.updated_at.toISOString(),
});
