/**
 * Push credentials on real Postgres (migration 019): the key sealed at rest, a ready client loaded
 * from the row that really sends to the loopback servers, kept while the row is unchanged and
 * replaced when it changes.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPool, type Db } from '../../../db/pool.ts';
import { closePushClients, fcmCredentialsFromServiceAccount, loadPushClient, pushCredentialSettings, savePushCredentials } from './credentials.ts';
import { startApnsServer, type ApnsFixture } from './testing/apnsServer.ts';
import { startFcmServer, type FcmFixture } from './testing/fcmServer.ts';
import { apnsKey, loopbackPolicy, serviceAccountKey } from './testing/keys.ts';
import { loopbackCert } from './testing/tls.ts';

const SECRET = `test-secret-${randomBytes(8).toString('hex')}`;
const apns = apnsKey();
const sa = serviceAccountKey();
let db: Db;
let appId: string;
let apnsServer: ApnsFixture;
let fcmServer: FcmFixture;

beforeAll(async () => {
  db = createPool(inject('databaseUrl'), 2);
  const account = await db.query<{ id: string }>(`INSERT INTO accounts (name, plan) VALUES ($1, 'growth') RETURNING id`, [`push-${randomBytes(4).toString('hex')}`]);
  const app = await db.query<{ id: string }>(
    `INSERT INTO apps (account_id, name, os, bundle_id, app_key) VALUES ($1, 'Push app', 'iOS', 'com.example.push', $2) RETURNING id`,
    [account.rows[0]!.id, randomBytes(16).toString('hex')]);
  appId = app.rows[0]!.id;
  // One certificate for both servers: the process trusts one extra CA (OUTGOING_EXTRA_CA_FILE).
  const tls = await loopbackCert();
  apnsServer = await startApnsServer({ teamId: 'TEAM000001', keyId: 'KEY0000001', publicKey: apns.publicKey, bundleId: 'com.example.push', tls });
  fcmServer = await startFcmServer({ projectId: 'push-project', clientEmail: 'sender@push-project.iam.gserviceaccount.com', publicKey: sa.publicKey, tls });
});
afterAll(async () => {
  await closePushClients();
  await apnsServer.close();
  await fcmServer.close();
  await db.end();
});

const apnsInput = (endpoint: string, privateKeyPem = apns.privateKeyPem) => ({
  provider: 'apns' as const, privateKeyPem,
  settings: { keyId: 'KEY0000001', teamId: 'TEAM000001', bundleId: 'com.example.push', environment: 'sandbox' as const, endpoint },
});

describe('push credentials', () => {
  it('seals the keys at rest: the table bytes hold neither key, and the settings hold no secret', async () => {
    expect(await savePushCredentials(db, SECRET, appId, apnsInput(apnsServer.url))).toMatchObject({ ok: true });
    const fcm = fcmCredentialsFromServiceAccount(JSON.stringify({
      type: 'service_account', project_id: 'push-project', client_email: 'sender@push-project.iam.gserviceaccount.com', private_key: sa.privateKeyPem, token_uri: fcmServer.tokenUri,
    }));
    expect(fcm).not.toBeNull();
    expect(await savePushCredentials(db, SECRET, appId, { ...fcm!, settings: { ...fcm!.settings, endpoint: fcmServer.url } })).toMatchObject({ ok: true });

    const { rows } = await db.query<{ dump: string }>(`SELECT to_jsonb(c)::text || encode(secret, 'escape') AS dump FROM app_push_credentials c WHERE app_id = $1`, [appId]);
    expect(rows).toHaveLength(2);
    const body = (pem: string) => pem.split('\n').filter((l) => l && !l.startsWith('-----')).join('');
    for (const { dump } of rows) {
      expect(dump).not.toContain('PRIVATE KEY');
      for (const pem of [apns.privateKeyPem, sa.privateKeyPem]) {
        expect(dump).not.toContain(body(pem).slice(0, 40));
        expect(dump).not.toContain(Buffer.from(body(pem), 'base64').subarray(0, 24).toString('hex'));
      }
    }
    const settings = await pushCredentialSettings(db, appId);
    expect(settings.map((s) => s.provider)).toEqual(['apns', 'fcm']);
    expect(JSON.stringify(settings)).not.toContain('PRIVATE');
  });

  it('refuses a key of the wrong kind and settings that do not parse', async () => {
    expect(await savePushCredentials(db, SECRET, appId, apnsInput(apnsServer.url, sa.privateKeyPem))).toMatchObject({ ok: false, reason: 'invalid_key' });
    expect(await savePushCredentials(db, SECRET, appId, { ...apnsInput(apnsServer.url), settings: { ...apnsInput(apnsServer.url).settings, bundleId: '' } })).toMatchObject({ ok: false, reason: 'invalid_settings' });
    expect(await savePushCredentials(db, SECRET, appId, { provider: 'fcm', privateKeyPem: apns.privateKeyPem, settings: { projectId: 'p', clientEmail: 'a@b.co' } })).toMatchObject({ ok: false, reason: 'invalid_key' });
  });

  it('loads ready clients that send, the same client while the row is unchanged, a new one after a change', async () => {
    const policy = loopbackPolicy(apnsServer.ca);
    const a = await loadPushClient(db, SECRET, appId, 'apns', { policy });
    const f = await loadPushClient(db, SECRET, appId, 'fcm', { policy });
    if (!a.ok || !f.ok) throw new Error('clients not loaded');
    expect((await a.client.send({ token: randomBytes(32).toString('hex'), title: 'from the row' })).outcome).toBe('sent');
    expect((await f.client.send({ token: 'fcm-token-1', title: 'from the row' })).outcome).toBe('sent');

    const again = await loadPushClient(db, SECRET, appId, 'apns', { policy });
    expect(again.ok && again.client).toBe(a.client);

    // A new key uploaded: a new client, signing with the new key (which this server does not know: renewed once, then failed).
    const rotated = apnsKey();
    expect(await savePushCredentials(db, SECRET, appId, apnsInput(apnsServer.url, rotated.privateKeyPem))).toMatchObject({ ok: true });
    const fresh = await loadPushClient(db, SECRET, appId, 'apns', { policy });
    if (!fresh.ok) throw new Error('client not loaded');
    expect(fresh.client).not.toBe(a.client);
    expect(await fresh.client.send({ token: randomBytes(32).toString('hex'), title: 't' })).toEqual({ outcome: 'failed', reason: 'InvalidProviderToken' });
  });

  it('answers not_configured and unreadable (another server secret) instead of throwing', async () => {
    const policy = loopbackPolicy(apnsServer.ca);
    expect(await loadPushClient(db, SECRET, '00000000-0000-4000-8000-000000000000', 'apns', { policy })).toEqual({ ok: false, reason: 'not_configured' });
    await closePushClients();
    expect(await loadPushClient(db, 'another-secret', appId, 'fcm', { policy })).toEqual({ ok: false, reason: 'unreadable' });
  });
});
