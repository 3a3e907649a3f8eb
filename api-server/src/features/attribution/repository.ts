/** SQL of the deferred deep link call (the engine's own SQL is engine.ts). */
import type { Queryable } from '../../db/pool.ts';

/** The device's id (`devices.id`) for the SDK's install id, or null when it never sent anything. */
export async function deviceOf(db: Queryable, appId: string, deviceKey: string): Promise<string | null> {
  const { rows } = await db.query<{ id: string }>('SELECT id::text FROM devices WHERE app_id = $1 AND device_key = $2', [appId, deviceKey]);
  return rows[0]?.id ?? null;
}

/**
 * Hands over the deep link of the device's latest install or reinstall, once: the row is marked
 * delivered by the same statement that reads it (`delivered_at IS NULL` re-checked under the row
 * lock, so two calls at once deliver it once). Null when there is none or it was delivered.
 */
export async function deliverDeepLink(db: Queryable, appId: string, deviceId: string): Promise<{ deepLink: string; params: Record<string, unknown> | null } | null> {
  const { rows } = await db.query<{ deep_link: string; deep_link_params: Record<string, unknown> | null }>(
    `WITH latest AS (
       SELECT id FROM acq_attributions
        WHERE app_id = $1 AND device_id = $2 AND kind IN ('install', 'reinstall')
        ORDER BY event_time DESC, id DESC LIMIT 1
     )
     UPDATE acq_attributions a SET delivered_at = now() FROM latest
      WHERE a.app_id = $1 AND a.id = latest.id AND a.deep_link IS NOT NULL AND a.delivered_at IS NULL
     RETURNING a.deep_link, a.deep_link_params`,
    [appId, deviceId],
  );
  const row = rows[0];
  return row ? { deepLink: row.deep_link, params: row.deep_link_params } : null;
}
