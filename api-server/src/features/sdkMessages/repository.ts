/** SQL of the SDK's message endpoints: the device's person, their in-app rows, deliveries, redemptions. */
import type { NativeTemplate } from '@gd/shared/schemas/messageSettings';
import { DELIVERING_STATUSES, STANDING_STATUSES } from '@gd/shared/message/lifecycle';
import type { DbClient, Queryable } from '../../db/pool.ts';
import type { Candidate } from './eligibility.ts';
import type { RunDefinitions } from '../delivery/runDefinitions.ts';

/** The person of a device the SDK named (null: the device never sent anything), with their zone. */
export async function personOfDevice(db: Queryable, appId: string, deviceKey: string): Promise<{ personId: string; customerId: string | null } | null> {
  const { rows } = await db.query<{ person_id: string; customer_id: string | null }>(
    `SELECT d.person_id::text, p.customer_id FROM devices d JOIN people p ON p.app_id = d.app_id AND p.id = d.person_id
      WHERE d.app_id = $1 AND d.device_key = $2`, [appId, deviceKey]);
  const row = rows[0];
  return row ? { personId: row.person_id, customerId: row.customer_id } : null;
}

export interface PluginSettings { enabled: boolean; domains: string[]; position: 'top' | 'middle' | 'bottom'; accent_color: string; z_index: number; close_button: boolean }

/**
 * The person of a device (null: the device never sent anything) and the app's web plugin settings
 * (null: never saved, the defaults), in one round trip: the in-app endpoint needs both on every
 * page view. The plugin is read fresh, so a change applies to the next page at once.
 */
export async function personAndPlugin(db: Queryable, appId: string, deviceKey: string): Promise<{ person: { personId: string; customerId: string | null } | null; plugin: PluginSettings | null }> {
  const { rows } = await db.query<{ person_id: string | null; customer_id: string | null } & { [K in keyof PluginSettings]: PluginSettings[K] | null }>(
    `SELECT p.id::text AS person_id, p.customer_id, w.enabled, w.domains, w.position, w.accent_color, w.z_index, w.close_button
       FROM (SELECT $1::uuid AS app_id) a
       LEFT JOIN (devices d JOIN people p ON p.app_id = d.app_id AND p.id = d.person_id) ON d.app_id = a.app_id AND d.device_key = $2
       LEFT JOIN web_plugin_settings w ON w.app_id = a.app_id`, [appId, deviceKey]);
  const r = rows[0];
  if (!r) return { person: null, plugin: null };
  const plugin = r.enabled === null ? null
    : { enabled: r.enabled, domains: r.domains ?? [], position: r.position ?? 'bottom', accent_color: r.accent_color ?? '', z_index: r.z_index ?? 0, close_button: r.close_button ?? true };
  return { person: r.person_id === null ? null : { personId: r.person_id, customerId: r.customer_id }, plugin };
}

interface CandidateRow {
  id: string; send_id: string; message_id: string; campaign_id: string; variant_id: string; language: string; status: 'queued' | 'sent'; test: boolean;
  run_at: Date; expires_at: Date | null; time_zone: string; message_status: string; standing: boolean; run_started: Date; redeems: number; clicked: boolean; dismissed: boolean;
}

/** Rows offered at most: a person with more in-app rows on offer sees the newest. */
export const MAX_ROWS = 100;

/**
 * The person's in-app rows still on offer (queued or delivered), newest first, with what the
 * rules need (eligibility.ts); the runs' definitions come from `runs` (immutable, cached, the
 * missing ones in one round trip).
 *
 * Rows past their life and rows of messages that no longer deliver (test rows excepted, as
 * eligibility.ts `refusal` says) are left out BEFORE the MAX_ROWS cut: delivered rows stay in
 * the `message_outbox_in_app` index for good, and old ones must never push a live message out.
 * eligibility.ts checks the same rules again at `now`.
 */
export async function candidatesOf(db: Queryable, appId: string, personId: string, now: Date, runs: RunDefinitions): Promise<{ candidates: Candidate[]; timeZone: string | null }> {
  const { rows } = await db.query<CandidateRow>(
    `SELECT o.id::text, o.send_id::text, o.message_id::text, m.campaign_id::text, o.variant_id, o.language, o.status, o.test, o.run_at, o.expires_at,
            o.time_zone, m.status AS message_status, s.kind IN ('journey', 'rule') AS standing, s.created_at AS run_started,
            (SELECT count(*)::int FROM message_redemptions r WHERE r.message_id = o.message_id AND r.person_id = o.person_id) AS redeems,
            EXISTS (SELECT 1 FROM message_interactions i WHERE i.app_id = o.app_id AND i.person_id = o.person_id AND i.event_time >= s.created_at
                       AND i.message_id = o.message_id::text AND i.kind = 'click') AS clicked,
            EXISTS (SELECT 1 FROM message_interactions i WHERE i.app_id = o.app_id AND i.person_id = o.person_id AND i.event_time >= s.created_at
                       AND i.message_id = o.message_id::text AND i.kind = 'dismissed_click') AS dismissed
       FROM message_outbox o JOIN messages m ON m.id = o.message_id JOIN message_sends s ON s.id = o.send_id
      WHERE o.app_id = $1 AND o.person_id = $2 AND o.channel = 'inApp' AND o.status IN ('queued', 'sent') AND m.deleted_at IS NULL
        AND (o.expires_at IS NULL OR o.expires_at > $3::timestamptz)
        AND (o.test OR (s.kind IN ('journey', 'rule') AND m.status = ANY($5::text[])) OR (s.kind NOT IN ('journey', 'rule') AND m.status = ANY($4::text[])))
      ORDER BY o.run_at DESC, o.id DESC LIMIT ${MAX_ROWS}`,
    [appId, personId, now, DELIVERING_STATUSES, STANDING_STATUSES]);
  const definitions = await runs.many(db, rows.map((r) => r.send_id));
  const candidates: Candidate[] = [];
  for (const r of rows) {
    const run = definitions.get(r.send_id);
    if (!run) throw new Error(`run ${r.send_id} is gone`);
    candidates.push({
      rowId: r.id, messageId: r.message_id, campaignId: r.campaign_id, variantId: r.variant_id, language: r.language, status: r.status, test: r.test,
      runAt: r.run_at, expiresAt: r.expires_at, messageStatus: r.message_status, standing: r.standing, definition: run.definition,
      redeems: r.redeems, clicked: r.clicked, dismissed: r.dismissed,
    });
  }
  return { candidates, timeZone: rows[0]?.time_zone ?? null };
}

/** Marks rows delivered (the first offer): only rows still queued, so a row is delivered once. */
export async function markDelivered(db: Queryable, rowIds: readonly string[], now: Date): Promise<void> {
  if (rowIds.length === 0) return;
  await db.query(`UPDATE message_outbox SET status = 'sent', sent_at = $2 WHERE id = ANY($1::bigint[]) AND status = 'queued'`, [rowIds, now]);
}

/** The app's templates and the platform's, with which one is the app's default (the platform's when the app has none). */
export async function templatesFor(db: Queryable, appId: string): Promise<{ templates: (Pick<NativeTemplate, 'id' | 'name' | 'fields'> & { appOwned: boolean; isDefault: boolean })[] }> {
  const { rows } = await db.query<{ id: string; name: string; fields: NativeTemplate['fields']; app_id: string | null; is_default: boolean }>(
    'SELECT id::text, name, fields, app_id, is_default FROM native_ad_templates WHERE app_id = $1 OR app_id IS NULL', [appId]);
  const appHasDefault = rows.some((r) => r.app_id !== null && r.is_default);
  return {
    templates: rows.map((r) => ({
      id: r.id, name: r.name, fields: r.fields, appOwned: r.app_id !== null,
      isDefault: r.is_default && (r.app_id !== null || !appHasDefault),
    })),
  };
}

export interface RedeemTarget { rowId: string; sendId: string; variantId: string; status: 'queued' | 'sent'; test: boolean; messageStatus: string; standing: boolean; runAt: Date; expiresAt: Date | null; language: string }

/**
 * The person's newest in-app row of the message, locked until the transaction ends: two
 * redemptions of one person and message are decided one at a time (max_redeems holds).
 */
export async function lockRow(client: DbClient, appId: string, personId: string, messageId: string): Promise<RedeemTarget | undefined> {
  const { rows } = await client.query<{ id: string; send_id: string; variant_id: string; status: 'queued' | 'sent'; test: boolean; message_status: string; standing: boolean; run_at: Date; expires_at: Date | null; language: string }>(
    `SELECT o.id::text, o.send_id::text, o.variant_id, o.status, o.test, m.status AS message_status, s.kind IN ('journey', 'rule') AS standing, o.run_at, o.expires_at, o.language
       FROM message_outbox o JOIN messages m ON m.id = o.message_id JOIN message_sends s ON s.id = o.send_id
      WHERE o.app_id = $1 AND o.person_id = $2 AND o.message_id = $3 AND o.channel = 'inApp' AND o.status IN ('queued', 'sent') AND m.deleted_at IS NULL
      ORDER BY o.run_at DESC, o.id DESC LIMIT 1 FOR UPDATE OF o`,
    [appId, personId, messageId]);
  const r = rows[0];
  return r && { rowId: r.id, sendId: r.send_id, variantId: r.variant_id, status: r.status, test: r.test, messageStatus: r.message_status, standing: r.standing, runAt: r.run_at, expiresAt: r.expires_at, language: r.language };
}

export async function redemptionByClientId(db: Queryable, appId: string, clientId: string): Promise<{ messageId: string; personId: string; promoCode: string | null } | undefined> {
  const { rows } = await db.query<{ message_id: string; person_id: string; promo_code: string | null }>(
    'SELECT message_id::text, person_id::text, promo_code FROM message_redemptions WHERE app_id = $1 AND client_id = $2', [appId, clientId]);
  const r = rows[0];
  return r && { messageId: r.message_id, personId: r.person_id, promoCode: r.promo_code };
}

export async function redeemCount(db: Queryable, messageId: string, personId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM message_redemptions WHERE message_id = $1 AND person_id = $2', [messageId, personId]);
  return rows[0]?.n ?? 0;
}

/** Inserts a redemption; false when its client id was already stored (a resend). */
export async function insertRedemption(db: Queryable, r: { appId: string; messageId: string; variantId: string; personId: string; promoCode: string; clientId: string; at: Date }): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO message_redemptions (app_id, message_id, variant_id, person_id, promo_code, client_id, at) VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (app_id, client_id) DO NOTHING`,
    [r.appId, r.messageId, r.variantId, r.personId, r.promoCode || null, r.clientId, r.at]);
  return (rowCount ?? 0) > 0;
}
