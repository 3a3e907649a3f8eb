/**
 * Web push (issue 13): an app's VAPID keys, the subscriptions browsers register, and sending to
 * them (migration 025; the SDK side is sdk-web/src/webPush.ts and sw.ts).
 *
 * - Keys: made with `web-push`'s generateVAPIDKeys when web push is enabled for the app; the
 *   private key sealed like the APNs/FCM keys (`sealSecrets`, "<app>/webpush" as additional data).
 * - Subscriptions: a device's `push_token` is the subscription's endpoint and `web_push` its keys
 *   (migration 025), so push reach, segments, the what-if and the retirement of dead tokens treat
 *   it as any push address; the outbox row's platform is 'web' (resolve.ts).
 * - Endpoints must be https on a public host (SPEC.md 5, shared `isPublicUrl`), except the push
 *   services a test server names in WEB_PUSH_ALLOW_HOSTS (loopback only, http allowed).
 * - Sending: `web-push`'s generateRequestDetails encrypts the payload (RFC 8291 aes128gcm) and signs
 *   the VAPID JWT (RFC 8292, ES256, aud = the endpoint's origin, 12 h); the request itself goes
 *   through src/net `guardedRequest` rather than web-push's own https.request, so the push service's
 *   address is checked at connect time like every outgoing connection (api-server CONTEXT.md), with
 *   its timeouts. Answers (RFC 8030 and the big services' docs): 201/202 sent; 404/410 the
 *   subscription is gone: retire; 413 the payload is too large: failed; 429 and 5xx: retry (with
 *   Retry-After); 401/403 (our JWT, or a subscription made with a key rotated since) and other 4xx:
 *   failed, never retired, so a configuration mistake cannot wipe every subscriber.
 */
import { createHash } from 'node:crypto';
import webpush from 'web-push';
import type { MessageDraft } from '@gd/shared';
import { isPublicUrl } from '@gd/shared';
import type { PushSubscriptionInput, WebPushPayload, WebPushSettings } from '@gd/shared/schemas/webPush';
import type { Queryable } from '../../../db/pool.ts';
import { guardedRequest, readBody, type NetPolicy } from '../../../net/index.ts';
import { openSecrets, sealSecrets } from '../../imports/secretBox.ts';
import { contentFor } from '../email.ts';
import { classifyNetworkError, parseRetryAfter, type PushResult } from './result.ts';

/** The outbox platform of a web push subscription. */
export const WEB_PLATFORM = 'web';

const rowId = (appId: string) => `${appId}/webpush`;

interface StoredRow { public_key: string; subject: string; secret: Buffer; updated_at: string }

const view = (r: { public_key: string; subject: string; updated_at: string }): WebPushSettings =>
  ({ publicKey: r.public_key, subject: r.subject, updatedAt: new Date(r.updated_at).toISOString() });

export async function webPushSettings(db: Queryable, appId: string): Promise<WebPushSettings | null> {
  const { rows } = await db.query<StoredRow>('SELECT public_key, subject, updated_at::text FROM app_web_push WHERE app_id = $1', [appId]);
  return rows[0] ? view(rows[0]) : null;
}

/** Enables web push with a new key pair, or changes the subject of the pair the app has. */
export async function enableWebPush(db: Queryable, serverSecret: string, appId: string, subject: string): Promise<WebPushSettings> {
  const keys = webpush.generateVAPIDKeys();
  const { rows } = await db.query<StoredRow>(
    `INSERT INTO app_web_push (app_id, public_key, subject, secret) VALUES ($1, $2, $3, $4)
     ON CONFLICT (app_id) DO UPDATE SET subject = EXCLUDED.subject, updated_at = clock_timestamp()
     RETURNING public_key, subject, updated_at::text`,
    [appId, keys.publicKey, subject, sealSecrets(serverSecret, rowId(appId), { privateKey: keys.privateKey })]);
  const row = rows[0];
  if (!row) throw new Error('web push settings not written');
  return view(row);
}

/** A new key pair for an app that has web push; null when it has none. */
export async function rotateWebPushKeys(db: Queryable, serverSecret: string, appId: string): Promise<WebPushSettings | null> {
  const keys = webpush.generateVAPIDKeys();
  const { rows } = await db.query<StoredRow>(
    `UPDATE app_web_push SET public_key = $2, secret = $3, updated_at = clock_timestamp() WHERE app_id = $1 RETURNING public_key, subject, updated_at::text`,
    [appId, keys.publicKey, sealSecrets(serverSecret, rowId(appId), { privateKey: keys.privateKey })]);
  return rows[0] ? view(rows[0]) : null;
}

export async function disableWebPush(db: Queryable, appId: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM app_web_push WHERE app_id = $1', [appId]);
  return (rowCount ?? 0) > 0;
}

export interface Vapid { publicKey: string; privateKey: string; subject: string }
export type VapidLoad = { ok: true; vapid: Vapid } | { ok: false; reason: 'not_configured' | 'unreadable' };

const vapidCache = new Map<string, { at: number; value: VapidLoad }>();

/** The app's VAPID details for sending (read again after 30 s, so a rotation or a change of subject takes over). */
export async function loadVapid(db: Queryable, serverSecret: string, appId: string, now = Date.now()): Promise<VapidLoad> {
  const cached = vapidCache.get(appId);
  if (cached && now - cached.at < 30_000) return cached.value;
  const { rows } = await db.query<StoredRow>('SELECT public_key, subject, secret, updated_at::text FROM app_web_push WHERE app_id = $1', [appId]);
  const row = rows[0];
  let value: VapidLoad;
  if (!row) value = { ok: false, reason: 'not_configured' };
  else {
    const privateKey = openSecrets(serverSecret, rowId(appId), row.secret)?.privateKey;
    value = privateKey ? { ok: true, vapid: { publicKey: row.public_key, privateKey, subject: row.subject } } : { ok: false, reason: 'unreadable' };
  }
  if (vapidCache.size > 1000) vapidCache.clear();
  vapidCache.set(appId, { at: now, value });
  return value;
}

/** Forgets the kept VAPID details (tests that rotate keys). */
export const forgetVapid = (appId?: string) => (appId ? vapidCache.delete(appId) : vapidCache.clear());

// ---- subscription endpoints

/**
 * WEB_PUSH_ALLOW_HOSTS: push service hosts ("host:port", or "host" for any port; comma-separated) a subscription may name
 * although they are loopback and plain http (tests' loopback push service). Only loopback hosts may
 * be listed: anything else fails at start-up, as OUTGOING_ALLOW_LOOPBACK does.
 */
export function webPushAllowHosts(spec: string | undefined): ReadonlySet<string> {
  const hosts = new Set<string>();
  for (const entry of (spec ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean)) {
    const host = entry.replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
    if (!/^127(\.\d{1,3}){3}$/.test(host) && host !== 'localhost' && host !== '::1') {
      throw new Error(`WEB_PUSH_ALLOW_HOSTS: ${entry} is not a loopback host (only a test's loopback push service may be listed)`);
    }
    hosts.add(entry);
  }
  return hosts;
}

/** Why a subscription endpoint is refused, or null: https on a public host, or an allowed test push service. */
export function endpointProblem(endpoint: string, allowHosts: ReadonlySet<string>): string | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'not a URL';
  }
  if (url.username || url.password) return 'an endpoint carries no user or password';
  // An entry names one origin's host and port, or a host on any port.
  if ((url.protocol === 'https:' || url.protocol === 'http:') && (allowHosts.has(url.host.toLowerCase()) || allowHosts.has(url.hostname.toLowerCase()))) return null;
  if (url.protocol !== 'https:') return 'an endpoint is an https: address';
  return isPublicUrl(endpoint, ['https:']) ? null : 'the endpoint names a private or local address';
}

/** Stores the subscription as the device's push address; the same endpoint leaves any other device of the app. */
export async function saveSubscription(db: Queryable, appId: string, deviceId: string, s: PushSubscriptionInput): Promise<void> {
  await db.query(`UPDATE devices SET push_token = NULL, web_push = NULL WHERE app_id = $1 AND push_token = $2 AND id <> $3`, [appId, s.endpoint, deviceId]);
  await db.query(
    `UPDATE devices SET push_token = $3, push_enabled = true, web_push = jsonb_build_object('endpoint', $3::text, 'p256dh', $4::text, 'auth', $5::text)
      WHERE app_id = $1 AND id = $2`,
    [appId, deviceId, s.endpoint, s.keys.p256dh, s.keys.auth]);
}

/** Removes the device's web push subscription (only that endpoint, when named). */
export async function removeSubscription(db: Queryable, appId: string, deviceKey: string, endpoint: string | undefined): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE devices SET push_token = NULL, web_push = NULL
      WHERE app_id = $1 AND device_key = $2 AND web_push IS NOT NULL AND web_push->>'endpoint' = push_token AND ($3::text IS NULL OR push_token = $3)`,
    [appId, deviceKey, endpoint ?? null]);
  return (rowCount ?? 0) > 0;
}

// ---- sending

export interface WebPushSend {
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } };
  payload: WebPushPayload;
  vapid: Vapid;
  /** Seconds the push service keeps it for an offline browser (the message's `life`; 0: now or never). */
  ttlSeconds: number;
  /** A newer message with the same topic replaces this one at the push service (RFC 8030 5.4). */
  topic?: string;
  urgency?: 'very-low' | 'low' | 'normal' | 'high';
}

/** A push service's answer as a result (see the header). */
export function classifyWebPush(status: number, retryAfterMs?: number): PushResult {
  if (status >= 200 && status < 300) return { outcome: 'sent' };
  const reason = `http_${status}`;
  if (status === 404 || status === 410) return { outcome: 'retire', reason: status === 410 ? 'subscription_gone' : 'subscription_not_found' };
  if (status === 413) return { outcome: 'failed', reason: 'payload_too_large' };
  if (status === 429 || status >= 500) return retryAfterMs === undefined ? { outcome: 'retry', reason } : { outcome: 'retry', reason, retryAfterMs };
  return { outcome: 'failed', reason };
}

/** A topic (at most 32 URL-safe characters) from an idempotency key: a copy sent twice replaces the first. */
export const topicOf = (key: string): string => createHash('sha256').update(key).digest('base64url').slice(0, 32);

/** Encrypts and signs with web-push, sends through src/net. Never throws for an expected failure. */
export async function sendWebPush(n: WebPushSend, policy: NetPolicy): Promise<PushResult> {
  let details: ReturnType<typeof webpush.generateRequestDetails>;
  try {
    details = webpush.generateRequestDetails(n.subscription, JSON.stringify(n.payload), {
      vapidDetails: { subject: n.vapid.subject, publicKey: n.vapid.publicKey, privateKey: n.vapid.privateKey },
      TTL: Math.max(0, Math.floor(n.ttlSeconds)),
      contentEncoding: 'aes128gcm',
      urgency: n.urgency ?? 'normal',
      ...(n.topic ? { topic: n.topic } : {}),
    });
  } catch (error) {
    // A malformed key (the subscription's or ours) or payload: this send cannot go out as it is.
    return { outcome: 'failed', reason: `web_push_request: ${error instanceof Error ? error.message : String(error)}` };
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(details.headers)) headers[name] = String(value);
  try {
    const res = await guardedRequest(details.endpoint, policy, { method: 'POST', headers, body: details.body ?? new Uint8Array(), maxBytes: 64 * 1024, totalMs: 30_000 });
    await readBody(res).catch(() => undefined);
    return classifyWebPush(res.status, parseRetryAfter(res.headers['retry-after']));
  } catch (error) {
    return classifyNetworkError(error);
  }
}

/** What an outbox row needs besides itself. */
export interface WebPushRow { app_id: string; message_id: string; address: string; variant_id: string; language: string; idempotency_key: string; test: boolean }

const campaigns = new Map<string, string | null>();

/** One outbox row (platform 'web'): the device's keys, the app's VAPID keys, the message's content. */
export async function sendWebPushRow(deps: { db: Queryable; secret: string; policy: NetPolicy }, row: WebPushRow, definition: MessageDraft): Promise<PushResult> {
  const loaded = await loadVapid(deps.db, deps.secret, row.app_id);
  if (!loaded.ok) {
    return { outcome: 'retry', reason: loaded.reason === 'not_configured' ? 'web_push_not_configured: web push is off for the app' : 'web_push_keys_unreadable: rotate the VAPID keys' };
  }
  const { rows } = await deps.db.query<{ p256dh: string; auth: string }>(
    `SELECT web_push->>'p256dh' AS p256dh, web_push->>'auth' AS auth FROM devices WHERE app_id = $1 AND push_token = $2 AND web_push->>'endpoint' = $2 LIMIT 1`,
    [row.app_id, row.address]);
  const keys = rows[0];
  // Unsubscribed (or replaced) since the row was written: nothing to send to.
  if (!keys) return { outcome: 'retire', reason: 'unsubscribed' };
  const content = contentFor(definition, row.variant_id, row.language);
  if (!content) return { outcome: 'failed', reason: `no content for variant ${row.variant_id}` };
  if (!campaigns.has(row.message_id)) {
    if (campaigns.size > 1000) campaigns.clear();
    const m = await deps.db.query<{ campaign_id: string }>('SELECT campaign_id::text FROM messages WHERE id = $1', [row.message_id]);
    campaigns.set(row.message_id, m.rows[0]?.campaign_id ?? null);
  }
  const campaignId = campaigns.get(row.message_id);
  const payload: WebPushPayload = {
    title: content.title ?? '',
    ...(content.message ? { body: content.message } : {}),
    ...(content.image_url ? { image: content.image_url } : {}),
    ...(content.target_url ? { url: content.target_url } : {}),
    messageId: row.message_id, variantId: row.variant_id,
    ...(campaignId ? { campaignId } : {}),
    ...(row.test ? { test: true } : {}),
  };
  return sendWebPush({
    subscription: { endpoint: row.address, keys },
    payload, vapid: loaded.vapid,
    ttlSeconds: content.life ?? 0,
    topic: topicOf(row.idempotency_key),
    urgency: 'high',
  }, deps.policy);
}
