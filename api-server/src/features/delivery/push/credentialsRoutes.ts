/**
 * The app's push credentials (/user/app, "Push notifications"; endpoints/pushCredentials.ts): list
 * the settings that are not secret, set or replace APNs and FCM, delete. Storage, the key check
 * and sealing are credentials.ts; the app in the path is already checked to be the caller's
 * (http/endpoint.ts), so another account's app answers 10004 before anything here runs.
 *
 * - Nothing a person sends sets an `endpoint` override: the request schemas have no such field, a
 *   save writes exactly the settings below, and APNs goes to the environment's host, FCM to
 *   Google's (an override set by the server's own code is dropped by a save through the API).
 * - APNs without a key keeps the stored key only when the key id, team and bundle are the stored
 *   ones (a key signs for both environments); anything else needs its key (10001 key_required).
 * - FCM takes the service-account file as downloaded; its token_uri must be Google's (the token
 *   exchange would otherwise post a signed assertion to whatever address the file names).
 * - Every check runs before the one upsert: a refused save leaves the stored credentials as they were.
 */
import type { Router } from 'express';
import { ErrorCode, fail, ok, type FieldIssue } from '@gd/shared';
import {
  ApnsSettings, FcmSettings, GOOGLE_TOKEN_URI, PushProvider, serviceAccountProblem, type PushCredential, type PushCredentialIssue,
} from '@gd/shared/schemas/pushCredentials';
import type { Deps } from '../../../http/context.ts';
import { route } from '../../../http/endpoint.ts';
import {
  deletePushCredentials, fcmCredentialsFromServiceAccount, pushCredentialSettings, savePushCredentials, setPushRate, storedPushCredentials,
} from './credentials.ts';

const ISSUE_TEXT: Record<PushCredentialIssue, string> = {
  invalid_key: 'the key is not a private key of the kind the provider signs with (APNs: the .p8 file, an EC P-256 key; FCM: the service account\'s RSA key)',
  key_required: 'send the .p8 key: there is no stored key to keep, or more than the environment changed',
  not_service_account: 'not a Google service-account JSON file (it needs project_id, client_email and private_key)',
  token_uri: `the service account's token_uri must be ${GOOGLE_TOKEN_URI}`,
  invalid_settings: 'a setting of the service account is not valid (client_email must be an e-mail address)',
};
const invalid = (path: 'privateKeyPem' | 'serviceAccount', issue: PushCredentialIssue, detail?: string) =>
  fail(ErrorCode.MANDATORY, `${path}: ${detail ?? ISSUE_TEXT[issue]}`, [{ path, message: issue } satisfies FieldIssue]);

/** Postgres' text of a timestamptz as an ISO instant. */
const iso = (text: string) => new Date(text).toISOString();

/** What an answer shows of a stored row: its settings that are not secret (null when they no longer parse: unusable, to be entered again). */
function view(provider: PushProvider, settings: unknown, updatedAt: string, ratePerSecond: number | null): PushCredential | null {
  if (provider === 'apns') {
    const s = ApnsSettings.safeParse(settings);
    if (!s.success) return null;
    const { keyId, teamId, bundleId, environment, endpoint } = s.data;
    return { provider, settings: { keyId, teamId, bundleId, environment, ...(endpoint ? { endpoint } : {}) }, ratePerSecond, updatedAt: iso(updatedAt) };
  }
  const s = FcmSettings.safeParse(settings);
  if (!s.success) return null;
  const { projectId, clientEmail, endpoint } = s.data;
  return { provider, settings: { projectId, clientEmail, ...(endpoint ? { endpoint } : {}) }, ratePerSecond, updatedAt: iso(updatedAt) };
}

/** The stored row of one provider as answered (after a save: its limit stays what it was). */
async function credentialOf(db: Deps['db'], appId: string, provider: PushProvider): Promise<PushCredential | null> {
  const row = (await pushCredentialSettings(db, appId)).find((r) => r.provider === provider);
  return row ? view(row.provider, row.settings, row.updatedAt, row.ratePerSecond) : null;
}

/** The refusal's text for a file that is not a service account, naming what it lacks. */
function notServiceAccount(text: string): string {
  const problem = serviceAccountProblem(text);
  return problem === 'not_json'
    ? 'not JSON: paste or choose the service-account .json file downloaded from the Firebase console'
    : `not a Google service-account JSON file: ${(problem ?? []).join(', ')} missing`;
}

export function pushCredentialRoutes(router: Router, deps: Deps): void {
  const { db } = deps;

  route(router, deps, 'listPushCredentials', async ({ app }) => {
    const rows = await pushCredentialSettings(db, app.id);
    return ok({ credentials: rows.map((r) => view(r.provider, r.settings, r.updatedAt, r.ratePerSecond)).filter((c) => c !== null) });
  });

  route(router, deps, 'putApnsCredentials', async ({ app, body }) => {
    const settings = { keyId: body.keyId, teamId: body.teamId, bundleId: body.bundleId, environment: body.environment };
    let privateKeyPem = body.privateKeyPem;
    if (privateKeyPem === undefined) {
      const stored = await storedPushCredentials(db, deps.secret, app.id, 'apns');
      const current = stored && stored !== 'unreadable' ? ApnsSettings.safeParse(stored.settings) : null;
      const same = current?.success === true && current.data.keyId === settings.keyId && current.data.teamId === settings.teamId && current.data.bundleId === settings.bundleId;
      if (!same || !stored || stored === 'unreadable') return invalid('privateKeyPem', 'key_required');
      privateKeyPem = stored.privateKeyPem;
    }
    const saved = await savePushCredentials(db, deps.secret, app.id, { provider: 'apns', settings, privateKeyPem });
    if (!saved.ok) return invalid('privateKeyPem', saved.reason, saved.reason === 'invalid_key' ? saved.message : undefined);
    return ok({ credential: (await credentialOf(db, app.id, 'apns')) ?? { provider: 'apns', settings, ratePerSecond: null, updatedAt: iso(saved.updatedAt) } });
  });

  route(router, deps, 'putFcmCredentials', async ({ app, body }) => {
    const input = fcmCredentialsFromServiceAccount(body.serviceAccount);
    if (!input) return invalid('serviceAccount', 'not_service_account', notServiceAccount(body.serviceAccount));
    if (input.settings.tokenUri !== undefined && input.settings.tokenUri !== GOOGLE_TOKEN_URI) return invalid('serviceAccount', 'token_uri');
    const settings = { projectId: input.settings.projectId, clientEmail: input.settings.clientEmail };
    const saved = await savePushCredentials(db, deps.secret, app.id, { provider: 'fcm', settings, privateKeyPem: input.privateKeyPem });
    if (!saved.ok) return invalid('serviceAccount', saved.reason, saved.reason === 'invalid_key' ? saved.message : undefined);
    return ok({ credential: (await credentialOf(db, app.id, 'fcm')) ?? { provider: 'fcm', settings, ratePerSecond: null, updatedAt: iso(saved.updatedAt) } });
  });

  route(router, deps, 'setPushRateLimit', async ({ app, params, body }) => {
    const provider = PushProvider.safeParse(params.provider);
    const set = provider.success && (await setPushRate(db, app.id, provider.data, body.ratePerSecond));
    const credential = set && provider.success ? await credentialOf(db, app.id, provider.data) : null;
    return credential ? ok({ credential }) : fail(ErrorCode.NOT_EXIST, `No ${provider.success ? provider.data : 'such provider\'s'} push credentials for this app`);
  });

  route(router, deps, 'deletePushCredentials', async ({ app, params }) => {
    const provider = PushProvider.safeParse(params.provider);
    const deleted = provider.success && (await deletePushCredentials(db, app.id, provider.data));
    return deleted ? ok({}) : fail(ErrorCode.NOT_EXIST, `No ${provider.success ? provider.data : 'such provider\'s'} push credentials for this app`);
  });
}
