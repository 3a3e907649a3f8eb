/**
 * In-app messages and native ads through the SDK (issue 13) against real Postgres and the real
 * pipeline: playing an in-app message writes the audience's rows, and the SDK endpoint offers each
 * person what is eligible now (the variant they drew, their language, position and shown time),
 * marks the first offer delivered, honours life, max_redeems, frequency caps, clicks, dismissals
 * and pauses, and refuses other keys; coupon redemptions count once per client id; native ads are
 * filled through their template; web pages are held by the web plugin.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints, type DeliveryRun, type MessageContent, type MessageDraft, type MessageMetrics, type MessageSummary } from '@gd/shared';
import type { InAppMessage, NativeAd } from '@gd/shared/schemas/sdkMessages';
import { createTestApp, ingest, registerAccount, type ApiAnswer, type TestApi } from '../../api-server/src/testing/harness.ts';
import { approvedMessage, startApiWithSync, until, statusOf as statusAs, type DeliveryWorld } from '../support/delivery.ts';

let world: DeliveryWorld;
let api: TestApi;
let owner: Awaited<ReturnType<typeof registerAccount>>;
let app: { id: string; appKey: string };
let other: { id: string; appKey: string };

beforeAll(async () => {
  world = await startApiWithSync({ DELIVERY_IN_PROCESS: 'on' });
  api = world.api;
  owner = await registerAccount(api);
  await owner.client.ok('updateApprovalPolicy', { required: 1, authorsMayApprove: true });
  app = await createTestApp(owner.client, { name: 'Shop app', timezone: 'Europe/Madrid' });
  other = await createTestApp(owner.client, { name: 'Other app' });
});
afterAll(async () => {
  await world.stop();
});

let n = 0;
/** People who each identified from their own device (so the SDK can name them), in a new audience. */
async function peopleOf(count: number, language?: string): Promise<{ audienceId: string; devices: string[]; personIds: string[] }> {
  n += 1;
  const devices: string[] = [];
  const personIds: string[] = [];
  for (let i = 0; i < count; i++) {
    const device = `device-${n}-${i}-${Date.now()}`;
    const answer = await ingest(api, app.appKey, 'ingestIdentify', { device: { id: device, os: 'Web' }, customerId: `c-${n}-${i}`, ...(language ? { profile: { attributes: { language } } } : {}) });
    expect(answer.body.status).toBe('OK');
    devices.push(device);
    personIds.push(String(answer.body.personId));
  }
  const audience = await api.db.query<{ id: string }>(
    `INSERT INTO audiences (account_id, app_id, name, status, source_type, person_count) VALUES ($1, $2, $3, 'ready', 'csv', $4) RETURNING id`,
    [owner.accountId, app.id, `In-app ${n}`, count]);
  const audienceId = audience.rows[0]!.id;
  await api.db.query('INSERT INTO audience_members (app_id, audience_id, person_id) SELECT $1, $2, unnest($3::bigint[])', [app.id, audienceId, personIds]);
  return { audienceId, devices, personIds };
}

const ids = (m: MessageSummary) => ({ appId: app.id, messageId: m.id });
const statusOf = (m: MessageSummary) => statusAs(owner.client, app.id, m);

/** An in-app message to the audience, approved and played; waits until its rows are written. */
async function played(type: MessageContent['type'], name: string, audienceId: string, content: Partial<MessageContent>, change?: (d: MessageDraft) => MessageDraft): Promise<MessageSummary> {
  const message = await approvedMessage(owner.client, world, { appId: app.id, type, name, audienceId, content, ...(change ? { change } : {}) });
  await owner.client.ok('transitionMessage', { action: 'play' }, ids(message));
  await until(async () => (await statusOf(message)) === 'Sending', `${name} to be sending`);
  return message;
}

async function sdkGet(path: string, key: string | null, query: Record<string, string>, headers: Record<string, string> = {}): Promise<ApiAnswer> {
  const res = await fetch(`${api.url}/api${path}?${new URLSearchParams(query).toString()}`, { headers: { ...(key === null ? {} : { 'x-app-key': key }), ...headers } });
  return { httpStatus: res.status, body: (await res.json()) as ApiAnswer['body'] };
}
const inApp = async (device: string, query: Record<string, string> = {}, key = app.appKey, headers: Record<string, string> = {}) => {
  const answer = await sdkGet(endpoints.sdkInApp.path, key, { deviceId: device, ...query }, headers);
  expect(answer.body.status, JSON.stringify(answer.body)).toBe('OK');
  return answer.body.messages as InAppMessage[];
};
async function redeem(device: string, messageId: string, clientId: string): Promise<ApiAnswer> {
  const res = await fetch(`${api.url}/api${endpoints.sdkRedeem.path}`, {
    method: 'POST', headers: { 'content-type': 'application/json', 'x-app-key': app.appKey }, body: JSON.stringify({ device: { id: device }, messageId, clientId }),
  });
  return { httpStatus: res.status, body: (await res.json()) as ApiAnswer['body'] };
}
async function interact(device: string, m: { messageId: string; variantId: string; campaignId: string }, kind: 'impression' | 'click' | 'dismissed_click') {
  const answer = await ingest(api, app.appKey, 'ingestBatch', {
    device: { id: device }, interactions: [{ id: randomUUID(), time: new Date().toISOString(), channel: 'inapp', kind, ...m }],
  });
  expect(answer.body).toMatchObject({ status: 'OK', interactions: { rejected: [] } });
}
const rows = async (messageId: string) =>
  (await api.db.query<{ status: string; n: number }>(`SELECT status, count(*)::int AS n FROM message_outbox WHERE message_id = $1 AND channel = 'inApp' GROUP BY status ORDER BY status`, [messageId])).rows;

const bannerContent = (title: string): Partial<MessageContent> => ({
  title, message: 'Hello {{customer_id}}', position: 'top', shown_time: 8,
  buttons: [{ text: 'See', action: 'customUrl', target_url: 'https://shop.example.com/sale', open_in: 'browser' }],
});

describe('in-app messages through the SDK', () => {
  it('offers a played banner to each person of its audience in their language, delivers it once, and keeps the run open', async () => {
    const { audienceId, devices } = await peopleOf(2);
    const message = await played('banner', 'Winter banner', audienceId, bannerContent('Winter'), (d) => ({
      ...d, variants: d.variants.map((v) => ({ ...v, content: { ...v.content, es: { ...v.content.es!, title: 'Invierno' } } })),
    }));
    expect(await rows(message.id)).toEqual([{ status: 'queued', n: 2 }]);
    const [offer, ...more] = await inApp(devices[0]!);
    expect(more).toEqual([]);
    expect(offer).toMatchObject({
      messageId: message.id, variantId: 'main', type: 'banner', title: 'Winter', message: 'Hello c-1-0', position: 'top', shown_time: 8, test: false, language: 'en',
      buttons: [{ text: 'See', action: 'customUrl', target_url: 'https://shop.example.com/sale', open_in: 'browser' }], redeemsLeft: null, expiresAt: null,
    });
    expect(offer!.campaignId).toMatch(/^[0-9a-f-]{36}$/);
    // The device's language now: Spanish content.
    expect((await inApp(devices[0]!, { lang: 'es-ES' }))[0]).toMatchObject({ title: 'Invierno', language: 'es' });
    expect(await rows(message.id)).toEqual([{ status: 'queued', n: 1 }, { status: 'sent', n: 1 }]);
    // Not in the audience, or a device never seen: nothing.
    expect(await inApp('device-never-seen')).toEqual([]);
    const { runs } = await owner.client.ok<{ runs: DeliveryRun[] }>('messageDelivery', undefined, ids(message));
    expect(runs[0]).toMatchObject({ state: 'sending', counts: { queued: 1, sent: 1, failed: 0, retired: 0, skipped: 0 } });
    // The run stays open while the message is on offer: the message does not finish.
    await new Promise((r) => setTimeout(r, 600));
    expect(await statusOf(message)).toBe('Sending');
  });

  it('refuses a missing or unknown key, and another app\'s key sees none of this app\'s people', async () => {
    const { audienceId, devices } = await peopleOf(1);
    await played('strip', 'Keys strip', audienceId, { title: 'Strip', position: 'middle' });
    expect((await sdkGet(endpoints.sdkInApp.path, null, { deviceId: devices[0]! })).body).toMatchObject({ status: 'KO', code: 10002 });
    expect((await sdkGet(endpoints.sdkInApp.path, 'not-a-key', { deviceId: devices[0]! })).body).toMatchObject({ status: 'KO', code: 10003 });
    expect(await inApp(devices[0]!, {}, other.appKey)).toEqual([]);
    expect((await redeem(devices[0]!, '00000000-0000-4000-8000-000000000000', 'x-1')).body).toMatchObject({ status: 'KO', code: 10 });
    expect((await inApp(devices[0]!)).map((m) => m.title)).toContain('Strip');
  });

  it('stops offering a paused message, and a clicked or dismissed one', async () => {
    const { audienceId, devices } = await peopleOf(2);
    const message = await played('default', 'Pause me', audienceId, { title: 'Modal', message: 'Body' });
    expect((await inApp(devices[0]!)).map((m) => m.messageId)).toContain(message.id);
    await owner.client.ok('transitionMessage', { action: 'pause' }, ids(message));
    expect((await inApp(devices[0]!)).map((m) => m.messageId)).not.toContain(message.id);
    await owner.client.ok('transitionMessage', { action: 'play' }, ids(message));
    await until(async () => (await statusOf(message)) === 'Sending', 'playing again');
    const [offer] = (await inApp(devices[0]!)).filter((m) => m.messageId === message.id);
    expect(offer).toBeDefined();
    await interact(devices[0]!, { messageId: message.id, variantId: offer!.variantId, campaignId: offer!.campaignId }, 'impression');
    expect((await inApp(devices[0]!)).map((m) => m.messageId)).toContain(message.id);
    await interact(devices[0]!, { messageId: message.id, variantId: offer!.variantId, campaignId: offer!.campaignId }, 'click');
    expect((await inApp(devices[0]!)).map((m) => m.messageId)).not.toContain(message.id);
    await interact(devices[1]!, { messageId: message.id, variantId: offer!.variantId, campaignId: offer!.campaignId }, 'dismissed_click');
    expect((await inApp(devices[1]!)).map((m) => m.messageId)).not.toContain(message.id);
    // The message's interactions are its metrics (messageMetrics; messageDelivery no longer counts them): people per kind.
    const { metrics } = await owner.client.ok<{ metrics: MessageMetrics }>('messageMetrics', undefined, ids(message));
    expect(metrics.total).toMatchObject({ impressions: 1, clicks: 1, opens: 0, redeems: 0 });
    const kinds = await api.db.query<{ kind: string; n: number }>('SELECT kind, count(*)::int AS n FROM message_interactions WHERE app_id = $1 AND message_id = $2 GROUP BY kind ORDER BY kind', [app.id, message.id]);
    expect(kinds.rows).toEqual([{ kind: 'click', n: 1 }, { kind: 'dismissed_click', n: 1 }, { kind: 'impression', n: 1 }]);
  });

  it('stops offering a message past its life, and its run finishes', async () => {
    const { audienceId, devices } = await peopleOf(1);
    const message = await played('adball', 'Short life', audienceId, { title: 'Ball', position: 'right', life: 3600 });
    const { rows: [row] } = await api.db.query<{ run_at: Date; expires_at: Date }>('SELECT run_at, expires_at FROM message_outbox WHERE message_id = $1', [message.id]);
    expect(row!.expires_at.getTime() - row!.run_at.getTime()).toBe(3600_000);
    expect((await inApp(devices[0]!)).map((m) => m.messageId)).toContain(message.id);
    await api.db.query(`UPDATE message_outbox SET expires_at = now() - interval '1 second' WHERE message_id = $1`, [message.id]);
    expect((await inApp(devices[0]!)).map((m) => m.messageId)).not.toContain(message.id);
    await until(async () => (await statusOf(message)) === 'Finished', 'the expired run to finish');
  });

  it('draws A/B variants per person and serves each person the content of theirs', async () => {
    const { audienceId, devices, personIds } = await peopleOf(12);
    const message = await played('test_ab', 'AB banners', audienceId, {}, (d) => ({
      ...d,
      variants: ['a', 'b'].map((id) => ({
        id, name: id.toUpperCase(), share: 50,
        content: Object.fromEntries(d.languages.map((lang) => [lang, { ...d.variants[0]!.content[lang]!, ...bannerContent(`Variant ${id}`), type: 'banner' as const }])),
      })),
    }));
    const drawn = new Map((await api.db.query<{ person_id: string; variant_id: string }>('SELECT person_id::text, variant_id FROM message_outbox WHERE message_id = $1', [message.id])).rows.map((r) => [r.person_id, r.variant_id]));
    expect(new Set(drawn.values())).toEqual(new Set(['a', 'b']));
    for (const [i, device] of devices.entries()) {
      const [offer] = (await inApp(device)).filter((m) => m.messageId === message.id);
      expect(offer).toMatchObject({ variantId: drawn.get(personIds[i]!), title: `Variant ${drawn.get(personIds[i]!)}` });
    }
  });

  it('holds to the frequency cap per local day on the in-app channel, counting each delivery once', async () => {
    const { audienceId, devices } = await peopleOf(1);
    const cap = (d: MessageDraft): MessageDraft => ({ ...d, delivery: { ...d.delivery, frequencyCap: 1 } });
    const first = await played('banner', 'Capped one', audienceId, bannerContent('One'), cap);
    const second = await played('banner', 'Capped two', audienceId, bannerContent('Two'), cap);
    const offered = (await inApp(devices[0]!)).map((m) => m.messageId);
    expect(offered).toHaveLength(1);
    // Asked again: the delivered one again, the other still held (queued, not skipped).
    expect((await inApp(devices[0]!)).map((m) => m.messageId)).toEqual(offered);
    const held = offered[0] === first.id ? second : first;
    expect(await rows(held.id)).toEqual([{ status: 'queued', n: 1 }]);
  });

  it('redeems a coupon once per client id and refuses past max_redeems', async () => {
    const { audienceId, devices } = await peopleOf(1);
    const message = await played('coupon', 'Coupon', audienceId, { title: '10% off', promo_code: 'SAVE10', max_redeems: 2 });
    const [offer] = (await inApp(devices[0]!)).filter((m) => m.messageId === message.id);
    expect(offer).toMatchObject({ type: 'coupon', promo_code: 'SAVE10', redeemsLeft: 2 });
    expect((await redeem(devices[0]!, message.id, 'r-1')).body).toMatchObject({ status: 'OK', counted: true, promoCode: 'SAVE10', redeems: 1, redeemsLeft: 1 });
    expect((await redeem(devices[0]!, message.id, 'r-1')).body).toMatchObject({ status: 'OK', counted: false, redeems: 1, redeemsLeft: 1 });
    // Clicking a coupon (copying the code) keeps it on offer.
    await interact(devices[0]!, { messageId: message.id, variantId: offer!.variantId, campaignId: offer!.campaignId }, 'click');
    expect((await inApp(devices[0]!)).filter((m) => m.messageId === message.id)).toMatchObject([{ redeemsLeft: 1 }]);
    expect((await redeem(devices[0]!, message.id, 'r-2')).body).toMatchObject({ status: 'OK', counted: true, redeems: 2, redeemsLeft: 0 });
    expect((await inApp(devices[0]!)).map((m) => m.messageId)).not.toContain(message.id);
    const refused = await redeem(devices[0]!, message.id, 'r-3');
    expect(refused.httpStatus).toBe(409);
    expect(refused.body).toMatchObject({ status: 'KO', code: 10004, details: [{ path: 'messageId', message: 'max_redeems_reached' }] });
    expect((await api.db.query('SELECT 1 FROM message_redemptions WHERE message_id = $1', [message.id])).rowCount).toBe(2);
  });

  it('fills native ads through the placement\'s template', async () => {
    const { audienceId, devices } = await peopleOf(1);
    const message = await played('native_ad', 'Native', audienceId, { title: 'Fresh coffee', message: 'Roasted this morning', image_url: 'https://cdn.example.com/c.png', target_url: 'https://shop.example.com/coffee' });
    const ads = async (placement: string) => {
      const answer = await sdkGet(endpoints.sdkNativeAds.path, app.appKey, { deviceId: devices[0]!, placement });
      expect(answer.body.status).toBe('OK');
      return answer.body.ads as NativeAd[];
    };
    expect(await ads('standard')).toEqual([{
      messageId: message.id, campaignId: expect.any(String) as string, variantId: 'main', test: false, templateId: expect.any(String) as string, templateName: 'Standard',
      fields: { headline: 'Fresh coffee', body: 'Roasted this morning', image: 'https://cdn.example.com/c.png', icon: '', call_to_action: '', click_url: 'https://shop.example.com/coffee' },
      clickUrl: 'https://shop.example.com/coffee',
    }]);
    expect(await ads('no such placement')).toEqual([]);
    // Native ads are not in-app messages.
    expect((await inApp(devices[0]!)).map((m) => m.messageId)).not.toContain(message.id);
  });

  it('marks delivered only the native ads it returns: the placement\'s, up to the limit', async () => {
    const { audienceId, devices } = await peopleOf(1);
    const sidebar = await api.db.query<{ id: string; name: string }>(
      `INSERT INTO native_ad_templates (account_id, app_id, name, fields) VALUES ($1, $2, $3, $4) RETURNING id::text, name`,
      [owner.accountId, app.id, `Sidebar ${Date.now()}`, JSON.stringify([{ key: 'headline', label: 'Headline', kind: 'text', required: true }])]);
    const side = sidebar.rows[0]!;
    const ad = (title: string): Partial<MessageContent> => ({ title, message: 'Body', image_url: 'https://cdn.example.com/a.png', target_url: 'https://shop.example.com/a' });
    const standardOne = await played('native_ad', 'Standard one', audienceId, ad('One'));
    const standardTwo = await played('native_ad', 'Standard two', audienceId, ad('Two'));
    const inSidebar = await played('native_ad', 'In the sidebar', audienceId, { ...ad('Side'), template_id: side.id });
    const ads = async (placement: string, limit: string) => {
      const answer = await sdkGet(endpoints.sdkNativeAds.path, app.appKey, { deviceId: devices[0]!, placement, limit });
      expect(answer.body.status, JSON.stringify(answer.body)).toBe('OK');
      return answer.body.ads as NativeAd[];
    };
    const standard = await ads('standard', '1');
    expect(standard).toHaveLength(1);
    expect(standard[0]).toMatchObject({ templateName: 'Standard' });
    const shown = standard[0]!.messageId;
    const notShown = shown === standardOne.id ? standardTwo.id : standardOne.id;
    expect([standardOne.id, standardTwo.id]).toContain(shown);
    // Only the ad returned was delivered: not the other one past the limit, not the other placement's.
    expect(await rows(shown)).toEqual([{ status: 'sent', n: 1 }]);
    expect(await rows(notShown)).toEqual([{ status: 'queued', n: 1 }]);
    expect(await rows(inSidebar.id)).toEqual([{ status: 'queued', n: 1 }]);
    // The sidebar's placement (by name) returns and delivers its own ad only.
    expect((await ads(side.name.toLowerCase(), '5')).map((a) => [a.messageId, a.templateId])).toEqual([[inSidebar.id, side.id]]);
    expect(await rows(inSidebar.id)).toEqual([{ status: 'sent', n: 1 }]);
    expect(await rows(notShown)).toEqual([{ status: 'queued', n: 1 }]);
  });

  it('offers a live message however many expired or no longer running rows the person has', async () => {
    const { audienceId, devices, personIds } = await peopleOf(1);
    const live = await played('banner', 'Long live', audienceId, bannerContent('Live'));
    const paused = await played('banner', 'Paused since', audienceId, bannerContent('Paused'));
    await owner.client.ok('transitionMessage', { action: 'pause' }, ids(paused));
    // The live row is old; since then the person got 150 newer rows: 75 past their life (of the
    // live message itself) and 75 of the paused message, delivered and left in the in-app index.
    await api.db.query(`UPDATE message_outbox SET run_at = now() - interval '1 day' WHERE message_id = $1`, [live.id]);
    await api.db.query(
      `INSERT INTO message_outbox (send_id, app_id, message_id, person_id, channel, address, variant_id, language, time_zone, test, idempotency_key, status, run_at, sent_at, expires_at)
       SELECT o.send_id, o.app_id, o.message_id, o.person_id, o.channel, o.address, o.variant_id, o.language, o.time_zone, o.test, o.idempotency_key || ':old:' || g,
              CASE WHEN o.message_id = $1 THEN 'queued' ELSE 'sent' END, now() - g * interval '1 second',
              CASE WHEN o.message_id = $1 THEN NULL ELSE now() - g * interval '1 second' END,
              CASE WHEN o.message_id = $1 THEN now() - interval '1 second' END
         FROM message_outbox o CROSS JOIN generate_series(1, 75) g
        WHERE o.message_id = ANY($2::uuid[]) AND o.person_id = $3 AND o.channel = 'inApp'`,
      [live.id, [live.id, paused.id], personIds[0]]);
    const recent = await api.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM message_outbox WHERE app_id = $1 AND person_id = $2 AND channel = 'inApp' AND status IN ('queued', 'sent') AND run_at > now() - interval '1 hour'`,
      [app.id, personIds[0]]);
    expect(recent.rows[0]!.n).toBeGreaterThan(100);
    expect((await inApp(devices[0]!)).map((m) => m.messageId)).toEqual([live.id]);
    const original = await api.db.query<{ status: string }>('SELECT status FROM message_outbox WHERE message_id = $1 AND expires_at IS NULL', [live.id]);
    expect(original.rows.map((r) => r.status)).toEqual(['sent']);
  });

  it('offers in-app messages to web pages only on the web plugin\'s domains', async () => {
    const { audienceId, devices } = await peopleOf(1);
    const message = await played('banner', 'Web banner', audienceId, bannerContent('Web'));
    const shop = { origin: 'https://shop.example.com' };
    expect(await inApp(devices[0]!, {}, app.appKey, shop)).toEqual([]);
    await owner.client.ok('updateWebPlugin', { enabled: true, domains: ['shop.example.com'], position: 'top', accentColor: '#112233', zIndex: 5000, closeButton: false }, { appId: app.id });
    const answer = await sdkGet(endpoints.sdkInApp.path, app.appKey, { deviceId: devices[0]! }, shop);
    expect(answer.body.plugin).toEqual({ position: 'top', accentColor: '#112233', zIndex: 5000, closeButton: false });
    expect((answer.body.messages as InAppMessage[]).map((m) => m.messageId)).toContain(message.id);
    expect(await inApp(devices[0]!, {}, app.appKey, { origin: 'https://elsewhere.example.org' })).toEqual([]);
    expect((await inApp(devices[0]!, {}, app.appKey, { origin: 'http://127.0.0.1:8123' })).map((m) => m.messageId)).toContain(message.id);
  });
});
