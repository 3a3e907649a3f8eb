/**
 * The web plugin's settings per app (migration 016): read with the plugin screen's route key,
 * changed with it and `ui:app.edit` (an app setting, like the app's own). Unsaved apps answer the
 * defaults (off, no domains).
 */
import type { Router } from 'express';
import { DEFAULT_WEB_PLUGIN, ok, type WebPluginSettings, type WebPluginSettingsInput } from '@gd/shared';
import type { Queryable } from '../../db/pool.ts';
import type { Deps } from '../../http/context.ts';
import { route } from '../../http/endpoint.ts';

interface Row { enabled: boolean; domains: string[]; position: WebPluginSettings['position']; accent_color: string; z_index: number; close_button: boolean; updated_at: Date; updated_by_name: string | null }

async function findSettings(db: Queryable, appId: string): Promise<WebPluginSettings> {
  const row = (await db.query<Row>(
    `SELECT w.enabled, w.domains, w.position, w.accent_color, w.z_index, w.close_button, w.updated_at, u.name AS updated_by_name
       FROM web_plugin_settings w LEFT JOIN users u ON u.id = w.updated_by WHERE w.app_id = $1`, [appId])).rows[0];
  if (!row) return DEFAULT_WEB_PLUGIN;
  return {
    enabled: row.enabled, domains: row.domains, position: row.position, accentColor: row.accent_color, zIndex: row.z_index,
    closeButton: row.close_button, updatedAt: row.updated_at.toISOString(), updatedByName: row.updated_by_name,
  };
}

async function saveSettings(db: Queryable, s: { appId: string; accountId: string; userId: string; input: WebPluginSettingsInput }): Promise<void> {
  const { input } = s;
  await db.query(
    `INSERT INTO web_plugin_settings (app_id, account_id, enabled, domains, position, accent_color, z_index, close_button, updated_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (app_id) DO UPDATE SET enabled = $3, domains = $4, position = $5, accent_color = $6, z_index = $7, close_button = $8,
       updated_by = $9, updated_at = now()`,
    [s.appId, s.accountId, input.enabled, input.domains, input.position, input.accentColor.toLowerCase(), input.zIndex, input.closeButton, s.userId]);
}

export function webPluginRoutes(router: Router, deps: Deps): void {
  const { db } = deps;
  route(router, deps, 'getWebPlugin', async ({ app }) => ok({ settings: await findSettings(db, app.id) }));
  route(router, deps, 'updateWebPlugin', async ({ app, principal, body }) => {
    await saveSettings(db, { appId: app.id, accountId: principal.account.id, userId: principal.user.id, input: body });
    return ok({ settings: await findSettings(db, app.id) });
  });
}
