/** SQL for apps and their test devices. */
import type { App, AppOs, DeviceIdType, TestDevice } from '@gd/shared';
import { single, statement, type Queryable } from '../../db/pool.ts';
import { categoryFilterSql } from '../categories/repository.ts';

interface AppRow {
  id: string; account_id: string; name: string; os: AppOs; bundle_id: string | null; timezone: string;
  app_key: string; restricted: string[]; created_at: Date; created_by: string | null;
}
interface DeviceRow { id: string; app_id: string; name: string; id_type: DeviceIdType; device_id: string; created_at: Date; created_by: string | null }

const toApp = (r: AppRow): App => ({
  id: r.id, accountId: r.account_id, name: r.name, os: r.os, bundleId: r.bundle_id, timezone: r.timezone,
  appKey: r.app_key, restricted: r.restricted, createdAt: r.created_at.toISOString(), createdBy: r.created_by,
});
const toDevice = (r: DeviceRow): TestDevice => ({
  id: r.id, appId: r.app_id, name: r.name, idType: r.id_type, deviceId: r.device_id, createdAt: r.created_at.toISOString(), createdBy: r.created_by,
});

/** The account's apps; with `categoryId`, only those with that category (categories/repository.ts). */
export async function listApps(db: Queryable, accountId: string, categoryId?: string): Promise<App[]> {
  const { rows } = await db.query<AppRow>(categoryId === undefined
    ? statement('list_apps', 'SELECT * FROM apps WHERE account_id = $1 ORDER BY created_at, lower(name)', [accountId])
    : { text: `SELECT * FROM apps WHERE account_id = $1 AND ${categoryFilterSql([['app', 'apps.id']], 2)} ORDER BY created_at, lower(name)`, values: [accountId, categoryId] });
  return rows.map(toApp);
}
export async function findApp(db: Queryable, accountId: string, id: string): Promise<App | undefined> {
  const row = (await db.query<AppRow>('SELECT * FROM apps WHERE id = $1 AND account_id = $2', [id, accountId])).rows[0];
  return row && toApp(row);
}
export interface AppFields { name: string; os: AppOs; bundleId?: string | null | undefined; timezone: string; restricted?: string[] | undefined }
export async function insertApp(db: Queryable, accountId: string, createdBy: string | null, appKey: string, a: AppFields): Promise<App> {
  const row = single((await db.query<AppRow>(
    `INSERT INTO apps (account_id, name, os, bundle_id, timezone, app_key, restricted, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
    [accountId, a.name, a.os, a.bundleId ?? null, a.timezone, appKey, a.restricted ?? [], createdBy],
  )).rows);
  return toApp(row);
}
export async function updateApp(db: Queryable, accountId: string, id: string, a: AppFields): Promise<App | undefined> {
  const row = (await db.query<AppRow>(
    `UPDATE apps SET name = $3, os = $4, bundle_id = $5, timezone = $6, restricted = COALESCE($7, restricted)
     WHERE id = $1 AND account_id = $2 RETURNING *`,
    [id, accountId, a.name, a.os, a.bundleId ?? null, a.timezone, a.restricted ?? null],
  )).rows[0];
  return row && toApp(row);
}
export async function setAppKey(db: Queryable, accountId: string, id: string, appKey: string): Promise<App | undefined> {
  const row = (await db.query<AppRow>('UPDATE apps SET app_key = $3 WHERE id = $1 AND account_id = $2 RETURNING *', [id, accountId, appKey])).rows[0];
  return row && toApp(row);
}
export async function deleteApp(db: Queryable, accountId: string, id: string): Promise<boolean> {
  return ((await db.query('DELETE FROM apps WHERE id = $1 AND account_id = $2', [id, accountId])).rowCount ?? 0) > 0;
}

export async function listDevices(db: Queryable, appId: string): Promise<TestDevice[]> {
  return (await db.query<DeviceRow>('SELECT * FROM test_devices WHERE app_id = $1 ORDER BY created_at', [appId])).rows.map(toDevice);
}
export async function insertDevice(db: Queryable, appId: string, createdBy: string, d: { name: string; idType: DeviceIdType; deviceId: string }): Promise<TestDevice> {
  const row = single((await db.query<DeviceRow>(
    'INSERT INTO test_devices (app_id, name, id_type, device_id, created_by) VALUES ($1, $2, $3, $4, $5) RETURNING *',
    [appId, d.name, d.idType, d.deviceId, createdBy],
  )).rows);
  return toDevice(row);
}
export async function updateDevice(db: Queryable, appId: string, id: string, d: { name: string; idType: DeviceIdType; deviceId: string }): Promise<TestDevice | undefined> {
  const row = (await db.query<DeviceRow>(
    'UPDATE test_devices SET name = $3, id_type = $4, device_id = $5 WHERE id = $1 AND app_id = $2 RETURNING *',
    [id, appId, d.name, d.idType, d.deviceId],
  )).rows[0];
  return row && toDevice(row);
}
export async function deleteDevice(db: Queryable, appId: string, id: string): Promise<boolean> {
  return ((await db.query('DELETE FROM test_devices WHERE id = $1 AND app_id = $2', [id, appId])).rowCount ?? 0) > 0;
}
