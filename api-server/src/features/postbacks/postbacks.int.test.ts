/**
 * Provider postbacks against real Postgres (issue 16, piece D): queued from attributions (also
 * through the attribution engine) and from tracked events that ingestion put in the trigger inbox,
 * every macro filled, sent to a loopback receiver through the guarded client, retried with backoff,
 * private addresses refused, exactly one delivery after a worker died mid-lease, and the routes
 * (trackers, a campaign's calls) with their refusals.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes, randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, ingest, registerAccount, startTestApi, type TestApi, type TestClient } from '../../testing/harness.ts';
import { allowList, publicOnly, type NetPolicy } from '../../net/index.ts';
import { tx } from '../../db/pool.ts';
import { recordClicks } from '../links/clicks.ts';
import { attributePending } from '../attribution/engine.ts';
import { queueAttributionPostbacks } from './enqueue.ts';
import { backoffMs, drainInbox, sendDuePostbacks, MAX_ATTEMPTS } from './send.ts';
import { postbackRandom } from './values.ts';

const log = pino({ level: 'silent' });

interface Received { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }

let api: TestApi;
let owner: TestClient;
let accountId: string;
let server: http.Server;
let port: number;
const received: Received[] = [];
let answers: number[] = [];

beforeAll(async () => {
  api = await startTestApi();
  ({ client: owner, accountId } = await registerAccount(api));
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => { body += c.toString(); });
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      res.statusCode = answers.shift() ?? 200;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await api.stop();
});
beforeEach(() => {
  received.length = 0;
  answers = [];
});

const loopback = (): NetPolicy => ({ allow: allowList('127.0.0.1') });

interface World { appId: string; appKey: string; appName: string; providerId: string; sourceId: string; campaignId: string; otherCampaignId: string }

/** An app with a provider (its URLs), a source of it and two campaigns. Written as the apptracker screens would. */
async function world(urls: { install?: string | null; event?: string | null; method?: 'GET' | 'POST' } = {}): Promise<World> {
  const app = await createTestApp(owner, { os: 'Android' });
  const appName = (await api.db.query<{ name: string }>('SELECT name FROM apps WHERE id = $1', [app.id])).rows[0]!.name;
  const db = api.db;
  const providerId = (await db.query<{ id: string }>(
    `INSERT INTO account_providers (account_id, name, kind, install_postback_url, event_postback_url, postback_method) VALUES ($1, $2, 'social', $3, $4, $5) RETURNING id`,
    [accountId, `Net ${randomBytes(3).toString('hex')}`, urls.install === undefined ? `http://127.0.0.1:${port}/install?click={click_id}` : urls.install,
      urls.event ?? null, urls.method ?? 'GET'])).rows[0]!.id;
  const sourceId = (await db.query<{ id: string }>(
    `INSERT INTO acq_sources (app_id, name, type, account_provider_id) VALUES ($1, 'Network', 'adnetwork', $2) RETURNING id`, [app.id, providerId])).rows[0]!.id;
  const campaign = async (name: string) => (await db.query<{ id: string }>(
    `INSERT INTO acq_campaigns (app_id, name, source_id, pricing_model, cost_value, deep_link) VALUES ($1, $2, $3, 'cpi', 1.5, 'myapp://promo/42') RETURNING id`,
    [app.id, name, sourceId])).rows[0]!.id;
  return { appId: app.id, appKey: app.appKey, appName, providerId, sourceId, campaignId: await campaign('Spring'), otherCampaignId: await campaign('Summer') };
}

/** A person and device through the ingestion API (an ordinary event, so nothing waits for attribution). */
async function person(w: World, device: { id: string; gaid?: string; model?: string; country?: string }, customerId?: string) {
  const answer = await ingest(api, w.appKey, 'ingestBatch', { device, events: [{ id: randomUUID(), name: 'app_opened', time: new Date().toISOString() }] });
  expect(answer.body.status).toBe('OK');
  if (customerId) expect((await ingest(api, w.appKey, 'ingestIdentify', { device: { id: device.id }, customerId })).body.status).toBe('OK');
  const { rows } = await api.db.query<{ person_id: string; device_id: string }>(
    'SELECT person_id::text, id::text AS device_id FROM devices WHERE app_id = $1 AND device_key = $2', [w.appId, device.id]);
  return rows[0]!;
}

async function click(w: World, extra: { gaid?: string; params?: Record<string, string>; at?: Date; campaignId?: string } = {}) {
  const at = extra.at ?? new Date(Date.now() - 60_000);
  const [id] = await recordClicks(api.db, [{
    appId: w.appId, clickedAt: at, linkId: randomUUID(), campaignId: extra.campaignId ?? w.campaignId, sourceId: w.sourceId, ip: '203.0.113.9',
    userAgent: 'Mozilla/5.0 (Linux; Android 14)', platform: 'android', device: 'Pixel 8', country: 'ES', gaid: extra.gaid ?? null, params: extra.params ?? {},
  }]);
  return { id: id!, at };
}

/** An attribution as the engine writes it. */
async function attribution(w: World, p: { person_id: string; device_id: string }, c: { id: string; at: Date } | null, opts: { kind?: string; at?: Date; campaignId?: string } = {}) {
  const { rows } = await api.db.query<{ id: string }>(
    `INSERT INTO acq_attributions (app_id, kind, event_time, person_id, device_id, campaign_id, source_id, click_id, clicked_at, match, mode)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'last_click') RETURNING id::text`,
    [w.appId, opts.kind ?? 'install', opts.at ?? new Date(Date.now() - 30_000), p.person_id, p.device_id, c ? (opts.campaignId ?? w.campaignId) : null,
      c ? w.sourceId : null, c?.id ?? null, c?.at ?? null, c ? 'device_id' : 'organic']);
  return rows[0]!.id;
}

const postbacks = (appId: string) => api.db.query<{ id: string; kind: string; dedup_key: string; method: string; url: string; body: string | null; status: string; attempts: number; response_status: number | null; error: string | null }>(
  'SELECT id::text, kind, dedup_key, method, url, body, status, attempts, response_status, error FROM acq_postbacks WHERE app_id = $1 ORDER BY id', [appId]).then((r) => r.rows);

const send = (w: World, policy: NetPolicy = loopback(), now?: Date) =>
  sendDuePostbacks({ db: api.db, log, netPolicy: policy, appIds: [w.appId], ...(now ? { now: () => now } : {}) }, `test-${randomBytes(3).toString('hex')}`);

describe('install postbacks', () => {
  it('fills every macro of the provider template, once per attribution, and sends it', async () => {
    const every = ['exid', 'camid', 'app_name', 'app_cats', 'dp', 'udid', 'ip', 'device', 'country', 'customer_id', 'user_id', 'click_id', 'campaign_id',
      'network_id', 'provider_id', 'order_id', 'amount', 'random', 'unix_time', ...Array.from({ length: 25 }, (_, i) => `eat_sub${i + 1}`)];
    const template = `http://127.0.0.1:${port}/i?${every.map((m) => `${m}={${m}}`).join('&')}&unknown={nope}`;
    const w = await world({ install: template });
    // app_cats: the app's categories (/manage/categories) by name, comma separated; a campaign's category is not the app's.
    const category = async (name: string, entityTypes: string[]) =>
      (await owner.ok<{ category: { id: string; name: string } }>('createCategory', { name: `${name} ${randomBytes(3).toString('hex')}`, colour: '#336699', entityTypes })).category;
    const [shopping, games, promo] = [await category('Shopping', ['app']), await category('games', ['app', 'campaign']), await category('Promo', ['campaign'])];
    await owner.ok('setCategoryAssignments', { entityType: 'app', entityId: w.appId, categoryIds: [shopping.id, games.id] }, { appId: w.appId });
    await owner.ok('setCategoryAssignments', { entityType: 'campaign', entityId: w.campaignId, categoryIds: [promo.id] }, { appId: w.appId });
    const p = await person(w, { id: `dev-${randomUUID()}`, gaid: 'gaid-1', model: 'Pixel 8', country: 'FR' }, 'cust 7');
    const c = await click(w, { gaid: 'gaid-1', params: { tid: 'net-click-9', cid: 'net-camp-3', p1: 'one & two', p9: 'nine' } });
    const installAt = new Date(Math.floor(Date.now() / 1000) * 1000 - 30_000);
    const id = await attribution(w, p, c, { at: installAt });

    expect(await tx(api.db, (client) => queueAttributionPostbacks(client, w.appId, [id]))).toBe(1);
    expect(await tx(api.db, (client) => queueAttributionPostbacks(client, w.appId, [id]))).toBe(0);
    const [row] = await postbacks(w.appId);
    expect(row).toMatchObject({ kind: 'install', dedup_key: `install:${id}`, method: 'GET', status: 'pending' });
    const q = new URL(row!.url).searchParams;
    const got = Object.fromEntries(every.map((m) => [m, q.get(m)]));
    expect(got).toEqual({
      exid: 'net-click-9', camid: 'net-camp-3', app_name: w.appName, app_cats: `${games.name},${shopping.name}`, dp: 'myapp://promo/42', udid: 'gaid-1', ip: '127.0.0.1', device: 'Pixel 8',
      country: 'FR', customer_id: 'cust 7', user_id: p.person_id, click_id: c.id, campaign_id: w.campaignId, network_id: w.sourceId, provider_id: w.providerId,
      order_id: '', amount: '', random: postbackRandom(`install:${id}`), unix_time: String(installAt.getTime() / 1000),
      ...Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`eat_sub${i + 1}`, i === 0 ? 'one & two' : i === 8 ? 'nine' : ''])),
    });
    expect(q.get('unknown')).toBe('');

    expect(await send(w)).toBe(1);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: 'GET', url: new URL(row!.url).pathname + new URL(row!.url).search });
    expect(received[0]!.headers['idempotency-key']).toBe(`acq-postback-${row!.id}`);
    expect((await postbacks(w.appId))[0]).toMatchObject({ status: 'ok', attempts: 1, response_status: 200, error: null });
    expect(await send(w)).toBe(0);
    expect(received).toHaveLength(1);
  });

  it('queues nothing for organic installs, campaigns of providers without a URL, or another app', async () => {
    const w = await world();
    const bare = await world({ install: null });
    const p = await person(w, { id: `dev-${randomUUID()}` });
    const organic = await attribution(w, p, null);
    const q = await person(bare, { id: `dev-${randomUUID()}` });
    const noUrl = await attribution(bare, q, await click(bare));
    const mine = await attribution(w, p, await click(w), { kind: 'reinstall' });
    expect(await tx(api.db, (client) => queueAttributionPostbacks(client, w.appId, [organic, noUrl, mine]))).toBe(1);
    expect(await tx(api.db, (client) => queueAttributionPostbacks(client, bare.appId, [noUrl]))).toBe(0);
    expect((await postbacks(w.appId)).map((r) => r.dedup_key)).toEqual([`reinstall:${mine}`]);
  });

  it('is queued by the attribution engine in its transaction', async () => {
    const w = await world();
    const p = await person(w, { id: `dev-${randomUUID()}`, gaid: `g-${randomUUID()}` });
    const gaid = (await api.db.query<{ gaid: string }>('SELECT gaid FROM devices WHERE id = $1 AND app_id = $2', [p.device_id, w.appId])).rows[0]!.gaid;
    await click(w, { gaid });
    await api.db.query('DELETE FROM acq_pending WHERE app_id = $1', [w.appId]);
    await api.db.query(`INSERT INTO acq_pending (app_id, kind, event_time, person_id, device_id, ip) VALUES ($1, 'install', now(), $2, $3, '198.51.100.1')`,
      [w.appId, p.person_id, p.device_id]);
    await attributePending(api.db, { appId: w.appId });
    const rows = await postbacks(w.appId);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.kind).toBe('install');
  });
});

describe('sending', () => {
  it('retries a 5xx with backoff, sending the same request each time, then records the answer', async () => {
    const w = await world({ method: 'POST' });
    const p = await person(w, { id: `dev-${randomUUID()}` });
    const id = await attribution(w, p, await click(w));
    await tx(api.db, (client) => queueAttributionPostbacks(client, w.appId, [id]));
    answers = [503, 500];
    const t0 = new Date();
    expect(await send(w, loopback(), t0)).toBe(1);
    expect((await postbacks(w.appId))[0]).toMatchObject({ status: 'pending', attempts: 1, response_status: 503, error: 'http_503' });
    expect(await send(w, loopback(), new Date(t0.getTime() + backoffMs(1) - 1000))).toBe(0);
    expect(await send(w, loopback(), new Date(t0.getTime() + backoffMs(1) + 1000))).toBe(1);
    const t2 = new Date(t0.getTime() + backoffMs(1) + backoffMs(2) + 5000);
    expect(await send(w, loopback(), t2)).toBe(1);
    expect(received).toHaveLength(3);
    expect(new Set(received.map((r) => `${r.method} ${r.url} ${r.body} ${String(r.headers['idempotency-key'])}`)).size).toBe(1);
    expect(received[0]!.method).toBe('POST');
    expect((await postbacks(w.appId))[0]).toMatchObject({ status: 'ok', attempts: 3, response_status: 200 });
  });

  it(`gives up after ${MAX_ATTEMPTS} attempts, and fails a 4xx at once`, async () => {
    const w = await world();
    const p = await person(w, { id: `dev-${randomUUID()}` });
    const a = await attribution(w, p, await click(w), { kind: 'install' });
    await tx(api.db, (client) => queueAttributionPostbacks(client, w.appId, [a]));
    answers = Array.from({ length: MAX_ATTEMPTS }, () => 500);
    let at = Date.now();
    for (let i = 1; i <= MAX_ATTEMPTS; i++) {
      expect(await send(w, loopback(), new Date(at))).toBe(1);
      at += backoffMs(i) + 1000;
    }
    expect((await postbacks(w.appId))[0]).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS, response_status: 500 });
    expect(await send(w, loopback(), new Date(at + 86_400_000))).toBe(0);

    const b = await attribution(w, p, await click(w), { kind: 'reinstall' });
    await tx(api.db, (client) => queueAttributionPostbacks(client, w.appId, [b]));
    answers = [404];
    expect(await send(w)).toBe(1);
    expect((await postbacks(w.appId))[1]).toMatchObject({ status: 'failed', attempts: 1, response_status: 404, error: 'http_404' });
  });

  it('refuses private addresses, literal or resolved, as a permanent failure with the reason', async () => {
    const w = await world({ install: 'http://postback.example.com/i?c={click_id}' });
    const p = await person(w, { id: `dev-${randomUUID()}` });
    const a = await attribution(w, p, await click(w));
    await tx(api.db, (client) => queueAttributionPostbacks(client, w.appId, [a]));
    // DNS answering a private address (rebinding): refused at connect time.
    const rebinding: NetPolicy = { ...publicOnly(), resolve: () => Promise.resolve([{ address: '10.1.2.3', family: 4 }]) };
    expect(await send(w, rebinding)).toBe(1);
    const [row] = await postbacks(w.appId);
    expect(row).toMatchObject({ status: 'failed', attempts: 1, response_status: null });
    expect(row!.error).toMatch(/^refused_address: .*10\.1\.2\.3/);

    // Loopback without the tests' allowance: refused too, and the receiver hears nothing.
    const v = await world();
    const q = await person(v, { id: `dev-${randomUUID()}` });
    await tx(api.db, async (client) => queueAttributionPostbacks(client, v.appId, [await attribution(v, q, await click(v))]));
    expect(await send(v, publicOnly())).toBe(1);
    expect((await postbacks(v.appId))[0]!.error).toMatch(/^refused_address/);
    expect(received).toHaveLength(0);
  });

  it('delivers exactly once after a worker died holding the lease', async () => {
    const w = await world();
    const p = await person(w, { id: `dev-${randomUUID()}` });
    await tx(api.db, async (client) => queueAttributionPostbacks(client, w.appId, [await attribution(w, p, await click(w))]));
    // A worker leases the row and dies before calling.
    const { rows: leased } = await api.db.query(
      `UPDATE acq_postbacks SET locked_by = 'dead-worker', locked_until = now() + interval '60 seconds', attempts = attempts + 1 WHERE app_id = $1 RETURNING id`, [w.appId]);
    expect(leased).toHaveLength(1);
    expect(await send(w)).toBe(0);
    expect(received).toHaveLength(0);
    // Its lease runs out: another worker takes the row over and calls once.
    await api.db.query(`UPDATE acq_postbacks SET locked_until = now() - interval '1 second' WHERE app_id = $1`, [w.appId]);
    expect(await send(w)).toBe(1);
    expect(await send(w)).toBe(0);
    expect(received).toHaveLength(1);
    expect((await postbacks(w.appId))[0]).toMatchObject({ status: 'ok', attempts: 2 });
    // The dead worker's late outcome is not recorded over it.
    const { rowCount } = await api.db.query(`UPDATE acq_postbacks SET status = 'failed' WHERE app_id = $1 AND locked_by = 'dead-worker'`, [w.appId]);
    expect(rowCount).toBe(0);
  });
});

describe('trackers', () => {
  const trackersOf = (appId: string) => owner.ok<{ trackers: { id: string; name: string; sent: number; effectiveUrl: string | null }[]; providers: { id: string }[] }>('trackers', undefined, { appId });

  it('queues a tracked event of an attributed person with the tracker URL, the provider event and its macros', async () => {
    const w = await world({ event: `http://127.0.0.1:${port}/provider-event?c={click_id}` });
    const created = await owner.call('createTracker', {
      name: 'Purchases', event: 'gd_transaction', accountProviderId: w.providerId, campaignId: w.campaignId,
      postbackUrl: `https://postbacks.example.com/e?c={click_id}&amt={amount}`, providerEvent: 'af_purchase', macros: ['order_id', 'amount', 'eat_sub2'],
    }, { appId: w.appId });
    expect(created.body.status).toBe('OK');
    const trackerId = (created.body as unknown as { tracker: { id: string } }).tracker.id;
    // The same event tracked with the provider's own event URL, for any of its campaigns.
    expect((await owner.call('createTracker', { name: 'Any purchase', event: 'gd_transaction', accountProviderId: w.providerId }, { appId: w.appId })).body.status).toBe('OK');

    const device = { id: `dev-${randomUUID()}` };
    const p = await person(w, device);
    const c = await click(w);
    await attribution(w, p, c);
    await api.db.query('DELETE FROM acq_pending WHERE app_id = $1', [w.appId]);
    const eventId = randomUUID();
    const sent = await ingest(api, w.appKey, 'ingestBatch', { device, events: [
      { id: eventId, name: 'gd_transaction', time: new Date().toISOString(), revenue: 19.99, currency: 'EUR', properties: { order_id: 'A-17', eat_sub2: 'gold' } },
      { id: randomUUID(), name: 'untracked', time: new Date().toISOString() },
    ] });
    expect(sent.body.status).toBe('OK');
    await drainInbox(api.db);
    const rows = (await postbacks(w.appId)).filter((r) => r.kind === 'event');
    expect(rows).toHaveLength(2);
    const own = rows.find((r) => r.dedup_key === `event:${trackerId}:${eventId}`)!;
    expect(own.method).toBe('GET');
    const url = new URL(own.url);
    expect(url.host).toBe('postbacks.example.com');
    expect(Object.fromEntries(url.searchParams)).toEqual({ c: c.id, amt: '19.99', event: 'af_purchase', order_id: 'A-17', amount: '19.99', eat_sub2: 'gold' });
    const other = rows.find((r) => r !== own)!;
    expect(other.url).toBe(`http://127.0.0.1:${port}/provider-event?c=${c.id}`);
    // Draining again queues nothing more (the inbox rows went with the batch).
    await drainInbox(api.db);
    expect((await postbacks(w.appId)).filter((r) => r.kind === 'event')).toHaveLength(2);
    const list = await trackersOf(w.appId);
    expect(list.trackers.map((t) => t.name)).toEqual(['Any purchase', 'Purchases']);
  });

  it('sends nothing for organic people, other campaigns of a narrowed tracker, or after the tracker is deleted', async () => {
    const w = await world({ event: `http://127.0.0.1:${port}/e` });
    const t = await owner.ok<{ tracker: { id: string } }>('createTracker', { name: 'Signups', event: 'gd_register', accountProviderId: w.providerId, campaignId: w.campaignId }, { appId: w.appId });
    const organicDevice = { id: `dev-${randomUUID()}` };
    await attribution(w, await person(w, organicDevice), null);
    const otherDevice = { id: `dev-${randomUUID()}` };
    await attribution(w, await person(w, otherDevice), await click(w, { campaignId: w.otherCampaignId }), { campaignId: w.otherCampaignId });
    await api.db.query('DELETE FROM acq_pending WHERE app_id = $1', [w.appId]);
    for (const device of [organicDevice, otherDevice]) {
      await ingest(api, w.appKey, 'ingestBatch', { device, events: [{ id: randomUUID(), name: 'gd_register', time: new Date().toISOString() }] });
    }
    await drainInbox(api.db);
    expect(await postbacks(w.appId)).toHaveLength(0);
    expect((await owner.call('deleteTracker', undefined, { appId: w.appId, trackerId: t.tracker.id })).body.status).toBe('OK');
    const { rows } = await api.db.query(`SELECT 1 FROM trigger_interests WHERE app_id = $1 AND consumer = 'postbacks'`, [w.appId]);
    expect(rows).toHaveLength(0);
  });

  it('refuses bad input, unknown or foreign ids, duplicate names and a tracker with no URL at all', async () => {
    const w = await world({ event: null });
    const other = await world({ event: 'https://postbacks.example.com/e' });
    const base = { name: 'T', event: 'gd_register', accountProviderId: w.providerId, postbackUrl: 'https://postbacks.example.com/t?c={click_id}' };
    expect((await owner.call('createTracker', { ...base, postbackUrl: 'http://10.0.0.5/x' }, { appId: w.appId })).body.code).toBe(10001);
    expect((await owner.call('createTracker', { ...base, postbackUrl: null }, { appId: w.appId })).body.code).toBe(10001);
    expect((await owner.call('createTracker', { ...base, campaignId: other.campaignId }, { appId: w.appId })).body.code).toBe(10);
    expect((await owner.call('createTracker', { ...base, accountProviderId: randomUUID() }, { appId: w.appId })).body.code).toBe(10);
    const foreign = await registerAccount(api);
    const foreignApp = await createTestApp(foreign.client);
    expect((await foreign.client.call('createTracker', base, { appId: foreignApp.id })).body.code).toBe(10);
    const made = await owner.ok<{ tracker: { id: string } }>('createTracker', base, { appId: w.appId });
    expect((await owner.call('createTracker', { ...base, name: 't' }, { appId: w.appId })).body.code).toBe(30);
    expect((await owner.call('updateTracker', { ...base, name: 'Renamed', active: false }, { appId: other.appId, trackerId: made.tracker.id })).body.code).toBe(10);
    expect((await foreign.client.call('deleteTracker', undefined, { appId: foreignApp.id, trackerId: made.tracker.id })).body.code).toBe(10);
    const renamed = await owner.ok<{ tracker: { name: string; active: boolean } }>('updateTracker', { ...base, name: 'Renamed', active: false }, { appId: w.appId, trackerId: made.tracker.id });
    expect(renamed.tracker).toMatchObject({ name: 'Renamed', active: false });
  });
});

describe('a campaign\'s postbacks', () => {
  it('lists the calls newest first with totals; another app\'s campaign answers 10; a provider member sees only their own', async () => {
    const w = await world();
    const p = await person(w, { id: `dev-${randomUUID()}` });
    for (const kind of ['install', 'reinstall']) {
      await tx(api.db, async (client) => queueAttributionPostbacks(client, w.appId, [await attribution(w, p, await click(w), { kind })]));
    }
    answers = [200, 404];
    await send(w);
    const list = await owner.ok<{ postbacks: { kind: string; status: string; attempts: number; responseStatus: number | null; url: string }[]; totals: Record<string, number> }>(
      'campaignPostbacks', undefined, { appId: w.appId, campaignId: w.campaignId });
    expect(list.postbacks).toHaveLength(2);
    expect(list.totals).toEqual({ pending: 0, ok: 1, failed: 1 });
    expect(list.postbacks.every((b) => b.attempts === 1 && b.url.startsWith(`http://127.0.0.1:${port}/install?click=`))).toBe(true);
    const failed = await owner.ok<{ postbacks: unknown[] }>('campaignPostbacks', undefined, { appId: w.appId, campaignId: w.campaignId }, { status: 'failed' });
    expect(failed.postbacks).toHaveLength(1);

    const v = await world();
    expect((await owner.call('campaignPostbacks', undefined, { appId: v.appId, campaignId: w.campaignId })).body.code).toBe(10);
    expect((await owner.call('campaignPostbacks', undefined, { appId: w.appId, campaignId: 'nope' })).body.code).toBe(10);

    // A user tied to another provider does not see this campaign.
    const member = (await api.db.query<{ id: string }>('SELECT id FROM users WHERE account_id = $1 LIMIT 1', [accountId])).rows[0]!.id;
    await api.db.query('INSERT INTO provider_members (account_provider_id, user_id) VALUES ($1, $2)', [v.providerId, member]);
    try {
      expect((await owner.call('campaignPostbacks', undefined, { appId: w.appId, campaignId: w.campaignId })).body.code).toBe(10);
      expect((await owner.ok<{ postbacks: unknown[] }>('campaignPostbacks', undefined, { appId: v.appId, campaignId: v.campaignId })).postbacks).toHaveLength(0);
    } finally {
      await api.db.query('DELETE FROM provider_members WHERE user_id = $1', [member]);
    }
  });
});
