/**
 * Push through the send pipeline (issue 13): an approved push message played reaches iOS devices
 * through a loopback APNs server and Android devices through a loopback FCM server (both real
 * HTTP/2 over TLS, verifying the ES256 provider token and the RS256 service-account assertion);
 * a token APNs answers Unregistered is retired (the device loses it, the person's push reach
 * follows); a 429 is retried; a disabled device gets nothing.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DeliveryRun } from '@gd/shared';
import { registerAccount, type TestApi } from '../../api-server/src/testing/harness.ts';
import { startDelivery, type Delivery } from '../../api-server/src/features/delivery/pipeline.ts';
import { BATCH, PUSH_SENDS_IN_FLIGHT, SENDERS } from '../../api-server/src/features/delivery/send.ts';
import { closePushClients, fcmCredentialsFromServiceAccount, savePushCredentials } from '../../api-server/src/features/delivery/push/credentials.ts';
import { APNS_FAILURES, startApnsServer, type ApnsFixture } from '../../api-server/src/features/delivery/push/testing/apnsServer.ts';
import { startFcmServer, type FcmFixture } from '../../api-server/src/features/delivery/push/testing/fcmServer.ts';
import { apnsKey, loopbackPolicy, serviceAccountKey } from '../../api-server/src/features/delivery/push/testing/keys.ts';
import { loopbackCert } from '../../api-server/src/features/delivery/push/testing/tls.ts';
import { approvedMessage, startApiWithSync, statusOf, until, type DeliveryWorld } from '../support/delivery.ts';

let world: DeliveryWorld;
let api: TestApi;
let apns: ApnsFixture;
let fcm: FcmFixture;
let delivery: Delivery;
const apnsKeys = apnsKey();
const saKeys = serviceAccountKey();

beforeAll(async () => {
  // The API does not deliver; this test's own loop does, trusting the loopback servers' certificate.
  world = await startApiWithSync({ DELIVERY_IN_PROCESS: 'off' });
  api = world.api;
  const tls = await loopbackCert();
  apns = await startApnsServer({ teamId: 'TEAM000001', keyId: 'KEY0000001', publicKey: apnsKeys.publicKey, bundleId: 'com.example.shop', tls });
  fcm = await startFcmServer({ projectId: 'shop-project', clientEmail: 'sender@shop-project.iam.gserviceaccount.com', publicKey: saKeys.publicKey, tls });
  delivery = startDelivery({ db: api.db, log: api.deps.log, secret: api.deps.secret, baseUrl: api.url, netPolicy: loopbackPolicy(apns.ca) }, { intervalMs: 100 });
});
afterAll(async () => {
  await delivery.stop();
  await closePushClients();
  await world.stop();
  await apns.close();
  await fcm.close();
});

it('sends an approved push message through APNs and FCM, retires an unregistered token, retries a 429, skips disabled devices', async () => {
  const owner = await registerAccount(api);
  await owner.client.ok('updateApprovalPolicy', { required: 1, authorsMayApprove: true });
  const { app } = await owner.client.ok<{ app: { id: string } }>('createApp', { name: 'Shop', os: 'iOS' });
  const appId = app.id;
  expect(await savePushCredentials(api.db, api.deps.secret, appId, {
    provider: 'apns', privateKeyPem: apnsKeys.privateKeyPem,
    settings: { keyId: 'KEY0000001', teamId: 'TEAM000001', bundleId: 'com.example.shop', environment: 'sandbox', endpoint: apns.url },
  })).toMatchObject({ ok: true });
  const service = fcmCredentialsFromServiceAccount(JSON.stringify({
    type: 'service_account', project_id: 'shop-project', client_email: 'sender@shop-project.iam.gserviceaccount.com', private_key: saKeys.privateKeyPem, token_uri: fcm.tokenUri,
  }));
  expect(await savePushCredentials(api.db, api.deps.secret, appId, { ...service!, settings: { ...service!.settings, endpoint: fcm.url } })).toMatchObject({ ok: true });

  // Four people: an iPhone, an iPhone whose token is gone, an Android phone, an Android phone with push off.
  const tokens = { ios: 'a1'.repeat(32), gone: 'b2'.repeat(32), android: `fcm-${randomUUID()}`, off: `fcm-${randomUUID()}` };
  const people: Record<string, string> = {};
  for (const [who, token] of Object.entries(tokens)) {
    const person = (await api.db.query<{ id: string }>(`INSERT INTO people (app_id, id) VALUES ($1, nextval('people_id_seq')) RETURNING id::text`, [appId])).rows[0]!.id;
    people[who] = person;
    await api.db.query(`INSERT INTO devices (app_id, device_key, person_id, push_token, push_enabled, os) VALUES ($1, $2, $3, $4, $5, $6)`,
      [appId, `dev-${who}-${randomUUID()}`, person, token, who !== 'off', who === 'ios' || who === 'gone' ? 'iOS' : 'Android']);
  }
  const accountId = (await api.db.query<{ account_id: string }>('SELECT account_id FROM apps WHERE id = $1', [appId])).rows[0]!.account_id;
  const audienceId = (await api.db.query<{ id: string }>(`INSERT INTO audiences (account_id, app_id, name, status, source_type) VALUES ($1, $2, 'Phones', 'ready', 'csv') RETURNING id`, [accountId, appId])).rows[0]!.id;
  await api.db.query('INSERT INTO audience_members (app_id, audience_id, person_id) SELECT $1, $2, unnest($3::bigint[])', [appId, audienceId, Object.values(people)]);
  apns.failToken(tokens.gone, APNS_FAILURES.Unregistered);
  fcm.failNext(1, { kind: 'QUOTA_EXCEEDED', retryAfterSeconds: 1 });

  const message = await approvedMessage(owner.client, world, { appId, type: 'push', name: 'Flash sale', audienceId, content: { title: 'Flash sale', message: 'Two hours only', life: 3600 } });
  const ids = { appId, messageId: message.id };
  await owner.client.ok('transitionMessage', { action: 'play' }, ids);
  delivery.wake();
  await until(async () => (await statusOf(owner.client, appId, message)) === 'Finished', 'the push message to finish');

  expect(apns.accepted.map((n) => n.deviceToken)).toEqual([tokens.ios]);
  const sent = apns.accepted[0]!;
  expect(sent).toMatchObject({ topic: 'com.example.shop', pushType: 'alert' });
  expect(sent.payload).toMatchObject({ aps: { alert: { title: 'Flash sale', body: 'Two hours only' } }, gd_message: message.id });
  expect(sent.collapseId).toBe(sent.apnsId);
  expect(sent.expiration).toBeGreaterThan(Date.now() / 1000);
  expect(fcm.accepted.map((m) => m.token)).toEqual([tokens.android]);

  const rows = await api.db.query<{ address: string; status: string; attempts: number }>('SELECT address, status, attempts FROM message_outbox WHERE message_id = $1 ORDER BY address', [message.id]);
  expect(Object.fromEntries(rows.rows.map((r) => [r.address, [r.status, r.attempts]]))).toEqual({
    [tokens.ios]: ['sent', 1], [tokens.gone]: ['retired', 1], [tokens.android]: ['sent', 2],
  });
  // The dead token is gone from its device, and its person can no longer be reached by push.
  const gone = await api.db.query<{ push_token: string | null; push_devices: number }>(
    'SELECT d.push_token, p.push_devices FROM devices d JOIN people p ON p.app_id = d.app_id AND p.id = d.person_id WHERE d.app_id = $1 AND d.person_id = $2', [appId, people.gone]);
  expect(gone.rows).toEqual([{ push_token: null, push_devices: 0 }]);
  const { runs } = await owner.client.ok<{ runs: DeliveryRun[] }>('messageDelivery', undefined, ids);
  expect(runs[0]?.counts).toEqual({ queued: 0, sent: 2, failed: 0, retired: 1, skipped: 0 });
  expect(runs[0]?.problems).toEqual([{ status: 'retired', reason: 'Unregistered', count: 1 }]);
});

/** An app with APNs credentials and `phones` people with an iPhone each, in an audience; answers their ids. */
async function phones(owner: Awaited<ReturnType<typeof registerAccount>>, name: string, count: number) {
  const { app } = await owner.client.ok<{ app: { id: string } }>('createApp', { name, os: 'iOS' });
  const appId = app.id;
  expect(await savePushCredentials(api.db, api.deps.secret, appId, {
    provider: 'apns', privateKeyPem: apnsKeys.privateKeyPem,
    settings: { keyId: 'KEY0000001', teamId: 'TEAM000001', bundleId: 'com.example.shop', environment: 'sandbox', endpoint: apns.url },
  })).toMatchObject({ ok: true });
  const accountId = (await api.db.query<{ account_id: string }>('SELECT account_id FROM apps WHERE id = $1', [appId])).rows[0]!.account_id;
  const people = (await api.db.query<{ id: string }>(`INSERT INTO people (app_id, id) SELECT $1, nextval('people_id_seq') FROM generate_series(1, $2::int) RETURNING id::text`, [appId, count])).rows.map((r) => r.id);
  await api.db.query(`INSERT INTO devices (app_id, device_key, person_id, push_token, push_enabled, os) SELECT $1, 'many-' || p, p, lpad(to_hex(p), 64, 'c'), true, 'iOS' FROM unnest($2::bigint[]) p`, [appId, people]);
  const audienceId = (await api.db.query<{ id: string }>(`INSERT INTO audiences (account_id, app_id, name, status, source_type) VALUES ($1, $2, $3, 'ready', 'csv') RETURNING id`, [accountId, appId, name])).rows[0]!.id;
  await api.db.query('INSERT INTO audience_members (app_id, audience_id, person_id) SELECT $1, $2, unnest($3::bigint[])', [appId, audienceId, people]);
  return { appId, audienceId };
}

/** Plays a push message to the audience with APNs taking `delayMs` per notification; answers the most notifications the server held at once. */
async function sendSlowly(owner: Awaited<ReturnType<typeof registerAccount>>, appId: string, audienceId: string, count: number, delayMs: number): Promise<number> {
  const message = await approvedMessage(owner.client, world, { appId, type: 'push', name: `Slow ${randomUUID()}`, audienceId, content: { title: 'Many', message: 'At once', life: 3600 } });
  apns.delayMs = delayMs;
  apns.maxInFlight = 0;
  const acceptedBefore = apns.accepted.length;
  try {
    await owner.client.ok('transitionMessage', { action: 'play' }, { appId, messageId: message.id });
    delivery.wake();
    await until(async () => (await statusOf(owner.client, appId, message)) === 'Finished', 'the message to finish', 60_000);
  } finally {
    apns.delayMs = 0;
  }
  expect(apns.accepted.length - acceptedBefore).toBe(count);
  return apns.maxInFlight;
}

it('has every notification of a batch in flight at once on the multiplexed connection, not twenty at a time like e-mail', async () => {
  const owner = await registerAccount(api);
  await owner.client.ok('updateApprovalPolicy', { required: 1, authorsMayApprove: true });
  const { appId, audienceId } = await phones(owner, 'Many phones', 150);
  // Each notification takes the server 300 ms: what is in flight together shows in the server's count.
  // One batch (BATCH, 200) holds all 150: they were all on the connection together, far past e-mail's 20 lanes.
  expect(await sendSlowly(owner, appId, audienceId, 150, 300)).toBeGreaterThanOrEqual(100);
});

it('adds push-only senders while a large push send is under way, so more is in flight than the two senders\' batches', async () => {
  const owner = await registerAccount(api);
  await owner.client.ok('updateApprovalPolicy', { required: 1, authorsMayApprove: true });
  const { appId, audienceId } = await phones(owner, 'More phones', 1_000);
  // SENDERS batches of 200 hold 400; with the PUSH_SENDERS beside them, (2 + 3) x 200.
  const most = await sendSlowly(owner, appId, audienceId, 1_000, 300);
  expect(most).toBeGreaterThan(SENDERS * BATCH);
  expect(most).toBeLessThanOrEqual(PUSH_SENDS_IN_FLIGHT);
});
