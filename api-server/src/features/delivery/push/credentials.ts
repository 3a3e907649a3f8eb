/**
 * Per-app push credentials at rest (migration 019) and the ready clients made from them.
 *
 * The private key (.p8 for APNs, the service account's key for FCM) is sealed with
 * `sealSecrets` under the server secret, the row's "<app>/<provider>" as additional data; the
 * settings that are not secret stay readable as jsonb. A key is checked when saved (it must import
 * as the kind the provider signs with: EC P-256 for ES256, RSA for RS256), so a bad upload is a
 * clear refusal at once rather than a failed send later.
 *
 * `loadPushClient` keeps one client per app and provider in the process, for as long as the row's
 * updated_at is unchanged: the HTTP/2 session, the APNs provider token and the FCM access token
 * are all reused across batches (reconnecting or re-signing per batch would cost throughput and,
 * for APNs, risk TooManyProviderTokenUpdates). Saving new credentials moves updated_at; the next
 * load sees it, builds a new client and closes the old one after its sends in flight.
 *
 * The zod schemas of the settings live in `@gd/shared/schemas/pushCredentials` with the settings
 * screen's request schemas (CONVENTIONS.md 2); the routes are pushCredentialsRoutes.ts.
 */
import { createPrivateKey } from 'node:crypto';
import { z } from 'zod';
import { ApnsSettings, FcmSettings, type PushProvider } from '@gd/shared/schemas/pushCredentials';
import type { Queryable } from '../../../db/pool.ts';
import type { NetPolicy } from '../../../net/index.ts';
import { openSecrets, sealSecrets } from '../../imports/secretBox.ts';
import { APNS_PRODUCTION, APNS_SANDBOX, createApnsClient } from './apns.ts';
import { FCM_ENDPOINT, createFcmClient } from './fcm.ts';
import type { PushClient } from './notification.ts';

export { ApnsSettings, FcmSettings, type PushProvider };

export type PushCredentialsInput =
  | { provider: 'apns'; settings: z.input<typeof ApnsSettings>; privateKeyPem: string }
  | { provider: 'fcm'; settings: z.input<typeof FcmSettings>; privateKeyPem: string };

export type SaveResult = { ok: true; updatedAt: string } | { ok: false; reason: 'invalid_settings' | 'invalid_key'; message: string };

/** A Google service-account JSON file (as downloaded from the console) as FCM credentials. */
export function fcmCredentialsFromServiceAccount(json: string): Extract<PushCredentialsInput, { provider: 'fcm' }> | null {
  try {
    const sa = JSON.parse(json) as { project_id?: unknown; client_email?: unknown; private_key?: unknown; token_uri?: unknown };
    if (typeof sa.project_id !== 'string' || typeof sa.client_email !== 'string' || typeof sa.private_key !== 'string') return null;
    return {
      provider: 'fcm', privateKeyPem: sa.private_key,
      settings: { projectId: sa.project_id, clientEmail: sa.client_email, ...(typeof sa.token_uri === 'string' ? { tokenUri: sa.token_uri } : {}) },
    };
  } catch {
    return null;
  }
}

/** The additional data binding a sealed key to its row. */
const rowId = (appId: string, provider: PushProvider) => `${appId}/${provider}`;

/** Whether the PEM is a private key of the kind the provider signs with. */
function keyProblem(provider: PushProvider, pem: string): string | null {
  try {
    const key = createPrivateKey(pem);
    if (provider === 'apns') {
      return key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1' ? null : 'the APNs key must be the .p8 file (an EC P-256 private key)';
    }
    return key.asymmetricKeyType === 'rsa' ? null : 'the service account key must be an RSA private key';
  } catch {
    return 'the key is not a PEM private key';
  }
}

/** Saves (or replaces) an app's credentials for one provider, the key sealed. */
export async function savePushCredentials(db: Queryable, serverSecret: string, appId: string, input: PushCredentialsInput): Promise<SaveResult> {
  const parsed = input.provider === 'apns' ? ApnsSettings.safeParse(input.settings) : FcmSettings.safeParse(input.settings);
  if (!parsed.success) return { ok: false, reason: 'invalid_settings', message: z.prettifyError(parsed.error) };
  const problem = keyProblem(input.provider, input.privateKeyPem);
  if (problem) return { ok: false, reason: 'invalid_key', message: problem };
  const secret = sealSecrets(serverSecret, rowId(appId, input.provider), { privateKeyPem: input.privateKeyPem });
  const { rows } = await db.query<{ updated_at: string }>(
    `INSERT INTO app_push_credentials (app_id, provider, settings, secret) VALUES ($1, $2, $3, $4)
     ON CONFLICT (app_id, provider) DO UPDATE SET settings = EXCLUDED.settings, secret = EXCLUDED.secret, updated_at = clock_timestamp()
     RETURNING updated_at::text`,
    [appId, input.provider, JSON.stringify(parsed.data), secret],
  );
  return { ok: true, updatedAt: rows[0]?.updated_at ?? '' };
}

export async function deletePushCredentials(db: Queryable, appId: string, provider: PushProvider): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM app_push_credentials WHERE app_id = $1 AND provider = $2', [appId, provider]);
  return (rowCount ?? 0) > 0;
}

/** The non-secret settings of an app's credentials (for a settings screen), never the key. */
export async function pushCredentialSettings(db: Queryable, appId: string): Promise<{ provider: PushProvider; settings: unknown; ratePerSecond: number | null; updatedAt: string }[]> {
  const { rows } = await db.query<{ provider: PushProvider; settings: unknown; rate_per_second: number | null; updated_at: string }>(
    'SELECT provider, settings, rate_per_second, updated_at::text FROM app_push_credentials WHERE app_id = $1 ORDER BY provider', [appId]);
  return rows.map((r) => ({ provider: r.provider, settings: r.settings, ratePerSecond: r.rate_per_second, updatedAt: r.updated_at }));
}

/** Sets a provider's sending limit (send.ts reads it); false when the app has no credentials for it. */
export async function setPushRate(db: Queryable, appId: string, provider: PushProvider, ratePerSecond: number | null): Promise<boolean> {
  const { rowCount } = await db.query('UPDATE app_push_credentials SET rate_per_second = $3 WHERE app_id = $1 AND provider = $2', [appId, provider, ratePerSecond]);
  return (rowCount ?? 0) > 0;
}

/**
 * The stored settings and key of an app's provider, opened (for an update that keeps the key):
 * null when none are stored, 'unreadable' when the key does not open (the server secret changed).
 */
export async function storedPushCredentials(db: Queryable, serverSecret: string, appId: string, provider: PushProvider): Promise<{ settings: unknown; privateKeyPem: string } | 'unreadable' | null> {
  const { rows } = await db.query<{ settings: unknown; secret: Buffer }>(
    'SELECT settings, secret FROM app_push_credentials WHERE app_id = $1 AND provider = $2', [appId, provider]);
  const row = rows[0];
  if (!row) return null;
  const privateKeyPem = openSecrets(serverSecret, rowId(appId, provider), row.secret)?.privateKeyPem;
  return privateKeyPem ? { settings: row.settings, privateKeyPem } : 'unreadable';
}

export type LoadResult =
  | { ok: true; client: PushClient }
  /** not_configured: the app has no credentials for the provider; unreadable: the key does not open (the server secret changed) or the stored settings no longer parse: they must be entered again. */
  | { ok: false; reason: 'not_configured' | 'unreadable' };

export interface LoadOptions {
  /** What the client may connect to (src/net `netPolicy(config)`). */
  policy: NetPolicy;
  maxConcurrentStreams?: number;
}

const clients = new Map<string, { updatedAt: string; client: PushClient }>();

/** The ready client for an app's provider, the same one while its credentials are unchanged. */
export async function loadPushClient(db: Queryable, serverSecret: string, appId: string, provider: PushProvider, opts: LoadOptions): Promise<LoadResult> {
  const cacheKey = rowId(appId, provider);
  const { rows } = await db.query<{ settings: unknown; secret: Buffer; updated_at: string }>(
    'SELECT settings, secret, updated_at::text FROM app_push_credentials WHERE app_id = $1 AND provider = $2', [appId, provider]);
  const row = rows[0];
  const cached = clients.get(cacheKey);
  if (!row) {
    if (cached) retire(cacheKey, cached.client);
    return { ok: false, reason: 'not_configured' };
  }
  if (cached && cached.updatedAt === row.updated_at) return { ok: true, client: cached.client };
  const secrets = openSecrets(serverSecret, cacheKey, row.secret);
  const privateKeyPem = secrets?.privateKeyPem;
  if (!privateKeyPem) return { ok: false, reason: 'unreadable' };
  const limits = opts.maxConcurrentStreams !== undefined ? { maxConcurrentStreams: opts.maxConcurrentStreams } : {};
  let client: PushClient;
  if (provider === 'apns') {
    const s = ApnsSettings.safeParse(row.settings);
    if (!s.success) return { ok: false, reason: 'unreadable' };
    const endpoint = s.data.endpoint ?? (s.data.environment === 'sandbox' ? APNS_SANDBOX : APNS_PRODUCTION);
    client = createApnsClient({ keyId: s.data.keyId, teamId: s.data.teamId, bundleId: s.data.bundleId, privateKeyPem, endpoint, policy: opts.policy, ...limits });
  } else {
    const s = FcmSettings.safeParse(row.settings);
    if (!s.success) return { ok: false, reason: 'unreadable' };
    client = createFcmClient({ projectId: s.data.projectId, clientEmail: s.data.clientEmail, tokenUri: s.data.tokenUri, privateKeyPem, endpoint: s.data.endpoint ?? FCM_ENDPOINT, policy: opts.policy, ...limits });
  }
  if (cached) retire(cacheKey, cached.client);
  clients.set(cacheKey, { updatedAt: row.updated_at, client });
  return { ok: true, client };
}

/** Closes a replaced client once its sends in flight are done (close waits for them). */
function retire(cacheKey: string, client: PushClient): void {
  if (clients.get(cacheKey)?.client === client) clients.delete(cacheKey);
  client.close().catch(() => undefined);
}

/** Closes every kept client (process shutdown, tests). */
export async function closePushClients(): Promise<void> {
  const all = [...clients.values()];
  clients.clear();
  await Promise.all(all.map((c) => c.client.close().catch(() => undefined)));
}
