/**
 * Web push through the send pipeline (issue 13), with real Postgres and the loopback web push
 * service (push/testing/webPushService.ts), which verifies the VAPID JWT and decrypts the
 * aes128gcm payload with the subscription's private key as a browser would:
 * - the app's VAPID keys are made by the server and its public key answered to the SDK;
 * - subscriptions registered through the SDK endpoint get a played push message exactly once;
 * - a 410 retires the subscription (the device loses it, the person's push reach follows), a 429
 *   is retried after its Retry-After;
 * - a wrong or missing app key is refused, and endpoints that are not https on a public host are
 *   refused unless they are the push service WEB_PUSH_ALLOW_HOSTS names.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, type DeliveryRun } from '@gd/shared';
import { createTestApp, registerAccount, type TestApi } from '../../api-server/src/testing/harness.ts';
import { startDelivery, type Delivery } from '../../api-server/src/features/delivery/pipeline.ts';
import { allowList } from '../../api-server/src/net/index.ts';
import { startWebPushService, type WebPushServiceFixture, type WebPushSubscriptionJson } from '../../api-server/src/features/delivery/push/testing/webPushService.ts';
import { approvedMessage, startApiWithSync, statusOf, until, type DeliveryWorld } from '../support/delivery.ts';

let world: DeliveryWorld;
let api: TestApi;
let service: WebPushServiceFixture;
let delivery: Delivery;

beforeAll(async () => {
  service = await startWebPushService();
  world = await startApiWithSync({ DELIVERY_IN_PROCESS: 'off', WEB_PUSH_ALLOW_HOSTS: service.host });
  api = world.api;
  delivery = startDelivery({ db: api.db, log: api.deps.log, secret: api.deps.secret, baseUrl: api.url, netPolicy: { allow: allowList('127.0.0.1') } }, { intervalMs: 100 });
});
afterAll(async () => {
  await delivery.stop();
  await world.stop();
  await service.close();
});

/** A call to the SDK's web push endpoints, as the web SDK makes it (no cookies). */
async function sdk(appKey: string | null, path: 'key' | 'subscribe' | 'unsubscribe', body?: unknown) {
  const res = await fetch(`${api.url}/api/ingest/v1/web-push/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(appKey === null ? {} : { 'x-app-key': appKey }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as { status: string; code?: number; personId?: string; publicKey?: string; removed?: boolean; details?: { path: string }[] } };
}

const browser = () => ({ id: `browser-${randomUUID()}`, os: 'Web' });

async function webPushApp() {
  const owner = await registerAccount(api);
  await owner.client.ok('updateApprovalPolicy', { required: 1, authorsMayApprove: true });
  const app = await createTestApp(owner.client, { os: 'Web' });
  const { webPush } = await owner.client.ok<{ webPush: { publicKey: string; subject: string } }>('putWebPush', { subject: 'mailto:push@shop.example.com' }, { appId: app.id });
  return { owner, app, publicKey: webPush.publicKey };
}

describe('web push', () => {
  it('sends a played push message once to each subscription, decrypted and VAPID-verified; 410 retires, 429 retries', async () => {
    const { owner, app, publicKey } = await webPushApp();
    expect(publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
    expect((await sdk(app.appKey, 'key')).body).toEqual({ status: 'OK', publicKey });

    // Three browsers subscribe with the app's key: one keeps it, one drops it, one meets a busy service.
    const subs: Record<'kept' | 'gone' | 'busy', WebPushSubscriptionJson> = { kept: service.subscribe(publicKey), gone: service.subscribe(publicKey), busy: service.subscribe(publicKey) };
    const people: Record<string, string> = {};
    const devices: Record<string, string> = {};
    for (const [who, subscription] of Object.entries(subs)) {
      const device = browser();
      devices[who] = device.id;
      const answer = await sdk(app.appKey, 'subscribe', { device, subscription });
      expect(answer.status).toBe(200);
      people[who] = answer.body.personId!;
    }
    // Subscribing again (a page load) stores nothing twice.
    expect((await sdk(app.appKey, 'subscribe', { device: { id: devices.kept }, subscription: subs.kept })).body.personId).toBe(people.kept);
    const reach = await api.db.query<{ push_devices: number }>('SELECT push_devices FROM people WHERE app_id = $1 AND id = ANY($2::bigint[])', [app.id, Object.values(people)]);
    expect(reach.rows.map((r) => r.push_devices)).toEqual([1, 1, 1]);

    const accountId = (await api.db.query<{ account_id: string }>('SELECT account_id FROM apps WHERE id = $1', [app.id])).rows[0]!.account_id;
    const audienceId = (await api.db.query<{ id: string }>(`INSERT INTO audiences (account_id, app_id, name, status, source_type) VALUES ($1, $2, 'Browsers', 'ready', 'csv') RETURNING id`, [accountId, app.id])).rows[0]!.id;
    await api.db.query('INSERT INTO audience_members (app_id, audience_id, person_id) SELECT $1, $2, unnest($3::bigint[])', [app.id, audienceId, Object.values(people)]);
    service.drop(subs.gone.endpoint);
    service.failNext(1, { status: 429, retryAfterSeconds: 1 });

    const message = await approvedMessage(owner.client, world, {
      appId: app.id, type: 'push', name: 'Web flash sale', audienceId,
      content: { title: 'Flash sale', message: 'Two hours only', target_url: 'https://shop.example.com/sale', image_url: 'https://shop.example.com/sale.png', life: 3600 },
    });
    const ids = { appId: app.id, messageId: message.id };
    await owner.client.ok('transitionMessage', { action: 'play' }, ids);
    delivery.wake();
    await until(async () => (await statusOf(owner.client, app.id, message)) === 'Finished', 'the web push message to finish');

    // Exactly once per live subscription, decrypted with its private key, signed with the app's VAPID key.
    const got = service.received.filter((r) => r.endpoint === subs.kept.endpoint || r.endpoint === subs.busy.endpoint);
    expect(got.map((r) => r.endpoint).sort()).toEqual([subs.kept.endpoint, subs.busy.endpoint].sort());
    const campaignId = (await api.db.query<{ campaign_id: string }>('SELECT campaign_id::text FROM messages WHERE id = $1', [message.id])).rows[0]!.campaign_id;
    for (const r of got) {
      expect(JSON.parse(r.plaintext)).toEqual({
        title: 'Flash sale', body: 'Two hours only', url: 'https://shop.example.com/sale', image: 'https://shop.example.com/sale.png',
        messageId: message.id, variantId: expect.any(String) as string, campaignId,
      });
      expect(r.vapid).toMatchObject({ publicKey, aud: service.origin, sub: 'mailto:push@shop.example.com' });
      expect(r).toMatchObject({ ttl: 3600, urgency: 'high' });
      expect(r.topic).toMatch(/^[A-Za-z0-9_-]{32}$/);
    }
    // The 429 was the service's, not a refusal of ours: nothing else was refused but the dropped subscription.
    expect(service.refused.filter((r) => r.status !== 429).map((r) => [r.status, r.endpoint])).toEqual([[410, subs.gone.endpoint]]);

    const rows = await api.db.query<{ address: string; platform: string; status: string; attempts: number; error: string | null }>(
      'SELECT address, platform, status, attempts, error FROM message_outbox WHERE message_id = $1', [message.id]);
    const byAddress = Object.fromEntries(rows.rows.map((r) => [r.address, r]));
    expect(rows.rows.every((r) => r.platform === 'web')).toBe(true);
    expect(byAddress[subs.gone.endpoint]).toMatchObject({ status: 'retired', error: 'subscription_gone' });
    expect([byAddress[subs.kept.endpoint]?.status, byAddress[subs.busy.endpoint]?.status]).toEqual(['sent', 'sent']);
    // One of the two live rows met the 429 and went again.
    expect((byAddress[subs.kept.endpoint]?.attempts ?? 0) + (byAddress[subs.busy.endpoint]?.attempts ?? 0)).toBe(3);

    // The dropped subscription is gone from its device, and its person can no longer be reached by push.
    const gone = await api.db.query<{ push_token: string | null; web_push: unknown; push_devices: number }>(
      'SELECT d.push_token, d.web_push, p.push_devices FROM devices d JOIN people p ON p.app_id = d.app_id AND p.id = d.person_id WHERE d.app_id = $1 AND d.device_key = $2', [app.id, devices.gone]);
    expect(gone.rows).toEqual([{ push_token: null, web_push: null, push_devices: 0 }]);
    const { runs } = await owner.client.ok<{ runs: DeliveryRun[] }>('messageDelivery', undefined, ids);
    expect(runs[0]?.counts).toMatchObject({ queued: 0, sent: 2, failed: 0, retired: 1, skipped: 0 });
  });

  it('refuses a wrong or missing app key, and endpoints that are not https on a public host', async () => {
    const { app, publicKey } = await webPushApp();
    const subscription = service.subscribe(publicKey);
    const device = browser();

    const wrong = await sdk(`${app.appKey}x`, 'subscribe', { device, subscription });
    expect(wrong.body.code).toBe(ErrorCode.API_KEY_INVALID);
    expect((await sdk(null, 'subscribe', { device, subscription })).body.code).toBe(ErrorCode.API_KEY_MISSING);
    expect((await sdk(`${app.appKey}x`, 'key')).body.code).toBe(ErrorCode.API_KEY_INVALID);
    expect(await api.db.query('SELECT 1 FROM devices WHERE app_id = $1 AND device_key = $2', [app.id, device.id])).toMatchObject({ rowCount: 0 });

    const refused = ['http://push.example.com/push/a', 'https://127.0.0.1/push/a', 'https://10.1.2.3/push/a', 'https://[::1]/push/a', 'https://localhost/push/a',
      'https://user:pw@push.example.com/a', 'ftp://push.example.com/a', `http://127.0.0.1:1/push/a`, 'not a url'];
    for (const endpoint of refused) {
      const answer = await sdk(app.appKey, 'subscribe', { device, subscription: { ...subscription, endpoint } });
      expect([endpoint, answer.status, answer.body.code, answer.body.details?.[0]?.path]).toEqual([endpoint, 400, ErrorCode.MANDATORY, 'subscription.endpoint']);
    }
    const badKeys = await sdk(app.appKey, 'subscribe', { device, subscription: { ...subscription, keys: { p256dh: 'abc', auth: subscription.keys.auth } } });
    expect([badKeys.status, badKeys.body.code]).toEqual([400, ErrorCode.MANDATORY]);
    // A public https push service is taken (nothing connects to it when subscribing).
    expect((await sdk(app.appKey, 'subscribe', { device, subscription: { ...subscription, endpoint: 'https://fcm.googleapis.com/fcm/send/abc:def' } })).status).toBe(200);
    // The allowed loopback service replaces it; then the browser unsubscribes.
    const ok = await sdk(app.appKey, 'subscribe', { device, subscription });
    expect(ok.status).toBe(200);
    const stored = await api.db.query<{ push_token: string; web_push: unknown; push_devices: number }>(
      'SELECT d.push_token, d.web_push, p.push_devices FROM devices d JOIN people p ON p.app_id = d.app_id AND p.id = d.person_id WHERE d.app_id = $1 AND d.device_key = $2', [app.id, device.id]);
    expect(stored.rows).toEqual([{ push_token: subscription.endpoint, web_push: { endpoint: subscription.endpoint, ...subscription.keys }, push_devices: 1 }]);
    expect((await sdk(app.appKey, 'unsubscribe', { device: { id: device.id }, endpoint: subscription.endpoint })).body).toEqual({ status: 'OK', removed: true });
    const after = await api.db.query<{ push_devices: number }>('SELECT push_devices FROM people WHERE app_id = $1 AND id = $2', [app.id, ok.body.personId]);
    expect(after.rows[0]?.push_devices).toBe(0);

    // Pages on other origins may call it (CORS), without cookies.
    const preflight = await fetch(`${api.url}/api/ingest/v1/web-push/subscribe`, { method: 'OPTIONS', headers: { origin: 'https://shop.example.com', 'access-control-request-method': 'POST' } });
    expect([preflight.status, preflight.headers.get('access-control-allow-origin')]).toEqual([204, '*']);
  });

  it('makes, shows, rotates and deletes the VAPID keys; the SDK gets no key while web push is off', async () => {
    const owner = await registerAccount(api);
    const app = await createTestApp(owner.client, { os: 'Web' });
    expect(await owner.client.ok('getWebPush', undefined, { appId: app.id })).toMatchObject({ webPush: null });
    expect((await sdk(app.appKey, 'key')).body.code).toBe(ErrorCode.NOT_EXIST);
    const bad = await owner.client.call('putWebPush', { subject: 'push@shop.example.com' }, { appId: app.id });
    expect(bad.body.code).toBe(ErrorCode.MANDATORY);
    const { webPush } = await owner.client.ok<{ webPush: { publicKey: string } }>('putWebPush', { subject: 'https://shop.example.com/contact' }, { appId: app.id });
    // Changing the subject keeps the pair; rotating makes a new one.
    const again = await owner.client.ok<{ webPush: { publicKey: string; subject: string } }>('putWebPush', { subject: 'mailto:ops@shop.example.com' }, { appId: app.id });
    expect(again.webPush).toMatchObject({ publicKey: webPush.publicKey, subject: 'mailto:ops@shop.example.com' });
    const rotated = await owner.client.ok<{ webPush: { publicKey: string } }>('rotateWebPush', undefined, { appId: app.id });
    expect(rotated.webPush.publicKey).not.toBe(webPush.publicKey);
    expect((await sdk(app.appKey, 'key')).body.publicKey).toBe(rotated.webPush.publicKey);
    const sealed = await api.db.query<{ secret: Buffer }>('SELECT secret FROM app_web_push WHERE app_id = $1', [app.id]);
    expect(sealed.rows[0]?.secret.toString('latin1')).not.toContain(rotated.webPush.publicKey);
    await owner.client.ok('deleteWebPush', undefined, { appId: app.id });
    expect((await sdk(app.appKey, 'key')).body.code).toBe(ErrorCode.NOT_EXIST);
  });
});
