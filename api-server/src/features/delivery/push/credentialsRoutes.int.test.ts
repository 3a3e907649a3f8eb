/**
 * The push credentials routes (credentialsRoutes.ts) on a real server and Postgres: APNs and FCM
 * set through the API, listed without the key, updated without a key only when the environment
 * alone changes, refused for the wrong kind of key or a file that is not a service account (and
 * then left as they were), deleted; a user who may not edit the app and another account are refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@gd/shared';
import { addMember, createTestApp, registerAccount, startTestApi, type TestApi, type TestClient } from '../../../testing/harness.ts';
import { closePushClients, loadPushClient, savePushCredentials } from './credentials.ts';
import { apnsKey, loopbackPolicy, serviceAccountKey } from './testing/keys.ts';

const apns = apnsKey();
const sa = serviceAccountKey();
const serviceAccount = (over: Record<string, unknown> = {}) => JSON.stringify({
  type: 'service_account', project_id: 'push-project', private_key_id: 'abc123', private_key: sa.privateKeyPem,
  client_email: 'sender@push-project.iam.gserviceaccount.com', client_id: '1234567890',
  token_uri: 'https://oauth2.googleapis.com/token', ...over,
});
const apnsBody = (over: Record<string, unknown> = {}) => ({
  keyId: 'KEY0000001', teamId: 'TEAM000001', bundleId: 'com.example.push', environment: 'production', privateKeyPem: apns.privateKeyPem, ...over,
});

let api: TestApi;
let owner: TestClient;
let appId: string;
const p = () => ({ appId });

interface Listed { credentials: { provider: string; settings: Record<string, unknown>; ratePerSecond: number | null; updatedAt: string }[] }
const list = async () => (await owner.ok<Listed>('listPushCredentials', undefined, p())).credentials;

/** The answer refused with 10001 and a detail on `path` with this reason. */
function refused(answer: { body: Record<string, unknown> }, path: string, reason: string) {
  expect(answer.body).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY, details: [expect.objectContaining({ path, message: reason })] });
  expect(String(answer.body.message)).toContain(path);
}

beforeAll(async () => {
  api = await startTestApi();
  ({ client: owner } = await registerAccount(api));
  appId = (await createTestApp(owner, { os: 'iOS' })).id;
});
afterAll(async () => {
  await closePushClients();
  await api.stop();
});

describe('push credentials of an app', () => {
  it('starts with none', async () => {
    expect(await list()).toEqual([]);
  });

  it('sets APNs and FCM; the list shows their settings and never a key', async () => {
    const put = await owner.ok<{ credential: { provider: string; updatedAt: string } }>('putApnsCredentials', apnsBody({ keyId: 'key0000001' }), p());
    expect(put.credential).toMatchObject({ provider: 'apns', settings: { keyId: 'KEY0000001', environment: 'production' } });
    await owner.ok('putFcmCredentials', { serviceAccount: serviceAccount() }, p());

    const answer = await owner.call('listPushCredentials', undefined, p());
    expect(answer.body.credentials).toEqual([
      { provider: 'apns', settings: { keyId: 'KEY0000001', teamId: 'TEAM000001', bundleId: 'com.example.push', environment: 'production' }, ratePerSecond: null, updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/) as unknown },
      { provider: 'fcm', settings: { projectId: 'push-project', clientEmail: 'sender@push-project.iam.gserviceaccount.com' }, ratePerSecond: null, updatedAt: expect.stringMatching(/Z$/) as unknown },
    ]);
    const text = JSON.stringify(answer.body);
    for (const pem of [apns.privateKeyPem, sa.privateKeyPem]) {
      const body = pem.split('\n').filter((l) => l && !l.startsWith('-----'));
      for (const line of body) expect(text).not.toContain(line);
    }
    expect(text).not.toMatch(/PRIVATE KEY|privateKey|private_key/i);
    // What was saved really loads as a client (the key opened with the server's secret).
    expect((await loadPushClient(api.db, api.deps.secret, appId, 'apns', { policy: loopbackPolicy('') })).ok).toBe(true);
    expect((await loadPushClient(api.db, api.deps.secret, appId, 'fcm', { policy: loopbackPolicy('') })).ok).toBe(true);
  });

  it('ignores an endpoint sent with the settings: APNs goes to the environment\'s host', async () => {
    await owner.ok('putApnsCredentials', { ...apnsBody(), endpoint: 'https://127.0.0.1:1' }, p());
    const saved = await api.db.query<{ settings: Record<string, unknown> }>(`SELECT settings FROM app_push_credentials WHERE app_id = $1 AND provider = 'apns'`, [appId]);
    expect(saved.rows[0]!.settings).not.toHaveProperty('endpoint');
  });

  it('keeps the stored key when only the environment changes', async () => {
    const before = (await list()).find((c) => c.provider === 'apns')!;
    const { privateKeyPem: _key, ...withoutKey } = apnsBody({ environment: 'sandbox' });
    const { credential } = await owner.ok<{ credential: { settings: { environment: string }; updatedAt: string } }>('putApnsCredentials', withoutKey, p());
    expect(credential.settings.environment).toBe('sandbox');
    expect(credential.updatedAt > before.updatedAt).toBe(true);
    expect((await loadPushClient(api.db, api.deps.secret, appId, 'apns', { policy: loopbackPolicy('') })).ok).toBe(true);
    // The same settings again without a key are fine too.
    await owner.ok('putApnsCredentials', withoutKey, p());
  });

  it('asks for the key when more than the environment changes, and changes nothing', async () => {
    const before = await list();
    for (const change of [{ keyId: 'KEY0000002' }, { teamId: 'TEAM000002' }, { bundleId: 'com.example.other' }]) {
      const { privateKeyPem: _key, ...withoutKey } = apnsBody({ environment: 'production', ...change });
      refused(await owner.call('putApnsCredentials', withoutKey, p()), 'privateKeyPem', 'key_required');
    }
    expect(await list()).toEqual(before);
  });

  it('refuses a key of the wrong kind (10001) and keeps the stored one', async () => {
    const before = await list();
    refused(await owner.call('putApnsCredentials', apnsBody({ privateKeyPem: sa.privateKeyPem }), p()), 'privateKeyPem', 'invalid_key');
    refused(await owner.call('putApnsCredentials', apnsBody({ privateKeyPem: 'not a key' }), p()), 'privateKeyPem', 'invalid_key');
    refused(await owner.call('putFcmCredentials', { serviceAccount: serviceAccount({ private_key: apns.privateKeyPem }) }, p()), 'serviceAccount', 'invalid_key');
    expect(await list()).toEqual(before);
  });

  it('refuses what is not a service account (10001), naming what is missing', async () => {
    const before = await list();
    const missing = await owner.call('putFcmCredentials', { serviceAccount: JSON.stringify({ type: 'authorized_user', client_id: 'x', refresh_token: 'y' }) }, p());
    refused(missing, 'serviceAccount', 'not_service_account');
    expect(missing.body.message).toMatch(/project_id, client_email, private_key missing/);
    refused(await owner.call('putFcmCredentials', { serviceAccount: 'hello' }, p()), 'serviceAccount', 'not_service_account');
    refused(await owner.call('putFcmCredentials', { serviceAccount: serviceAccount({ token_uri: 'https://127.0.0.1:9/token' }) }, p()), 'serviceAccount', 'token_uri');
    refused(await owner.call('putFcmCredentials', { serviceAccount: serviceAccount({ client_email: 'nobody' }) }, p()), 'serviceAccount', 'invalid_settings');
    expect(await list()).toEqual(before);
  });

  it('refuses settings that do not fit the schema (10001 on the field)', async () => {
    const answer = await owner.call('putApnsCredentials', apnsBody({ keyId: 'SHORT', environment: 'staging' }), p());
    expect(answer.body).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY });
    const paths = (answer.body.details as { path: string }[]).map((d) => d.path);
    expect(paths).toEqual(expect.arrayContaining(['keyId', 'environment']));
  });

  it('shows a server-set endpoint but a save through the API drops it', async () => {
    await savePushCredentials(api.db, api.deps.secret, appId, {
      provider: 'fcm', privateKeyPem: sa.privateKeyPem,
      settings: { projectId: 'push-project', clientEmail: 'sender@push-project.iam.gserviceaccount.com', endpoint: 'https://127.0.0.1:4443' },
    });
    expect((await list()).find((c) => c.provider === 'fcm')!.settings).toMatchObject({ endpoint: 'https://127.0.0.1:4443' });
    await owner.ok('putFcmCredentials', { serviceAccount: serviceAccount() }, p());
    expect((await list()).find((c) => c.provider === 'fcm')!.settings).not.toHaveProperty('endpoint');
  });

  it('sets and clears a provider\'s sending limit, which a new key leaves as it was; refuses a limit that is not 1 to 100,000', async () => {
    const set = await owner.ok<{ credential: { ratePerSecond: number | null } }>('setPushRateLimit', { ratePerSecond: 250 }, { appId, provider: 'apns' });
    expect(set.credential.ratePerSecond).toBe(250);
    expect((await list()).map((c) => [c.provider, c.ratePerSecond])).toEqual([['apns', 250], ['fcm', null]]);
    // Replacing the credentials keeps the limit.
    expect((await owner.ok<{ credential: { ratePerSecond: number | null } }>('putApnsCredentials', apnsBody(), p())).credential.ratePerSecond).toBe(250);
    for (const ratePerSecond of [0, 100_001, 2.5, '10']) {
      expect((await owner.call('setPushRateLimit', { ratePerSecond }, { appId, provider: 'apns' })).httpStatus).toBe(400);
    }
    expect((await owner.call('setPushRateLimit', { ratePerSecond: 5 }, { appId, provider: 'webpush' })).body).toMatchObject({ status: 'KO', code: ErrorCode.NOT_EXIST });
    await owner.ok('setPushRateLimit', { ratePerSecond: null }, { appId, provider: 'apns' });
    expect((await list()).map((c) => c.ratePerSecond)).toEqual([null, null]);
  });

  it('deletes one provider; deleting it again or an unknown provider answers 10', async () => {
    await owner.ok('deletePushCredentials', undefined, { appId, provider: 'fcm' });
    expect((await list()).map((c) => c.provider)).toEqual(['apns']);
    expect((await owner.call('deletePushCredentials', undefined, { appId, provider: 'fcm' })).body).toMatchObject({ status: 'KO', code: ErrorCode.NOT_EXIST });
    expect((await owner.call('deletePushCredentials', undefined, { appId, provider: 'webpush' })).body).toMatchObject({ status: 'KO', code: ErrorCode.NOT_EXIST });
    expect((await loadPushClient(api.db, api.deps.secret, appId, 'fcm', { policy: loopbackPolicy('') }))).toEqual({ ok: false, reason: 'not_configured' });
  });

  it('lets a user who may not edit the app read the settings but change nothing (10004)', async () => {
    const analyst = await addMember(api, owner, 'analyst');
    const before = await list();
    expect((await analyst.ok<Listed>('listPushCredentials', undefined, p())).credentials).toEqual(before);
    for (const answer of [
      await analyst.call('putApnsCredentials', apnsBody({ environment: 'sandbox' }), p()),
      await analyst.call('putFcmCredentials', { serviceAccount: serviceAccount() }, p()),
      await analyst.call('deletePushCredentials', undefined, { appId, provider: 'apns' }),
      await analyst.call('setPushRateLimit', { ratePerSecond: 1 }, { appId, provider: 'apns' }),
    ]) expect(answer.body).toMatchObject({ status: 'KO', code: ErrorCode.NO_PERMISSION });
    expect(await list()).toEqual(before);
  });

  it('answers another account\'s app as not found (10004), leaving it as it was', async () => {
    const before = await list();
    const { client: stranger } = await registerAccount(api);
    for (const answer of [
      await stranger.call('listPushCredentials', undefined, p()),
      await stranger.call('putApnsCredentials', apnsBody(), p()),
      await stranger.call('putFcmCredentials', { serviceAccount: serviceAccount() }, p()),
      await stranger.call('deletePushCredentials', undefined, { appId, provider: 'apns' }),
    ]) expect(answer.body).toMatchObject({ status: 'KO', code: ErrorCode.NO_PERMISSION, message: 'No permission for this app' });
    expect(await list()).toEqual(before);
  });
});
