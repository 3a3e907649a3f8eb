/**
 * SQL for native ad templates (migration 015). A scope is one app's templates, or the platform's
 * (rows without an app). Every change runs in a transaction holding the scope's advisory lock, so
 * "the first template becomes the default" and "moving the default" are decided one at a time.
 */
import type { NativeTemplate, NativeTemplateInput } from '@gd/shared/schemas/messageSettings';
import type { DbClient, Queryable } from '../../db/pool.ts';

/** One app's templates, or the platform's (null). */
export type Scope = { accountId: string; appId: string } | null;

export interface TemplateRow {
  id: string; app_id: string | null; name: string; fields: NativeTemplate['fields']; is_default: boolean; created_at: Date; updated_at: Date;
}
export const toTemplate = (r: TemplateRow): NativeTemplate => ({
  id: r.id, name: r.name, fields: r.fields, isDefault: r.is_default, scope: r.app_id === null ? 'platform' : 'app',
  createdAt: r.created_at.toISOString(), updatedAt: r.updated_at.toISOString(),
});
const COLUMNS = 'id, app_id, name, fields, is_default, created_at, updated_at';
/** `app_id` of the scope: $1 the app id, or null for the platform. */
const IN_SCOPE = 'app_id IS NOT DISTINCT FROM $1::uuid';
const appOf = (scope: Scope) => scope?.appId ?? null;

/** Templates of the scope, the default first, then by name. */
export async function listTemplates(db: Queryable, scope: Scope): Promise<NativeTemplate[]> {
  const { rows } = await db.query<TemplateRow>(`SELECT ${COLUMNS} FROM native_ad_templates WHERE ${IN_SCOPE} ORDER BY is_default DESC, lower(name), id`, [appOf(scope)]);
  return rows.map(toTemplate);
}

/** Serialises changes to one scope's templates until the transaction ends. */
export async function lockScope(client: DbClient, scope: Scope): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`native_ad_templates:${appOf(scope) ?? 'platform'}`]);
}

export async function findTemplate(db: Queryable, scope: Scope, id: string): Promise<TemplateRow | undefined> {
  return (await db.query<TemplateRow>(`SELECT ${COLUMNS} FROM native_ad_templates WHERE ${IN_SCOPE} AND id = $2`, [appOf(scope), id])).rows[0];
}

export async function hasDefault(db: Queryable, scope: Scope): Promise<boolean> {
  return ((await db.query(`SELECT 1 FROM native_ad_templates WHERE ${IN_SCOPE} AND is_default`, [appOf(scope)])).rowCount ?? 0) > 0;
}

/** The scope's default stops being one (before another becomes it). */
export async function clearDefault(db: Queryable, scope: Scope): Promise<void> {
  await db.query(`UPDATE native_ad_templates SET is_default = false, updated_at = now() WHERE ${IN_SCOPE} AND is_default`, [appOf(scope)]);
}

export async function insertTemplate(db: Queryable, scope: Scope, input: { userId: string; template: NativeTemplateInput; isDefault: boolean }): Promise<NativeTemplate> {
  const { rows } = await db.query<TemplateRow>(
    `INSERT INTO native_ad_templates (account_id, app_id, name, fields, is_default, created_by)
     VALUES ($1, $2, $3, $4::jsonb, $5, $6) RETURNING ${COLUMNS}`,
    [scope?.accountId ?? null, appOf(scope), input.template.name, JSON.stringify(input.template.fields), input.isDefault, input.userId],
  );
  const row = rows[0];
  if (!row) throw new Error('inserted template not returned');
  return toTemplate(row);
}

export async function updateTemplate(db: Queryable, scope: Scope, id: string, input: { template: NativeTemplateInput; isDefault: boolean }): Promise<NativeTemplate | undefined> {
  const { rows } = await db.query<TemplateRow>(
    `UPDATE native_ad_templates SET name = $3, fields = $4::jsonb, is_default = $5, updated_at = now()
      WHERE ${IN_SCOPE} AND id = $2 RETURNING ${COLUMNS}`,
    [appOf(scope), id, input.template.name, JSON.stringify(input.template.fields), input.isDefault],
  );
  return rows[0] && toTemplate(rows[0]);
}

export async function deleteTemplate(db: Queryable, scope: Scope, id: string): Promise<void> {
  await db.query(`DELETE FROM native_ad_templates WHERE ${IN_SCOPE} AND id = $2`, [appOf(scope), id]);
}
