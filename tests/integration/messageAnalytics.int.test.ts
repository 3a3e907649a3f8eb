/**
 * Message analytics (issue 13) against real Postgres, the real sync server and an SMTP sink on
 * loopback: a played e-mail message, its open pixel and click redirect, and purchases make direct
 * and indirect conversions and revenue land in the right buckets and variant; a purchase outside
 * the window or before the message does not count; test sends do not count; the conversion goal
 * and window are the approved version's; the reports list the message and the performance report
 * reads the import's figures; another account reads nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessageDraft, MessageMetrics, MessageReport, MessageSummary, PerformanceReport } from '@gd/shared';
import { registerAccount, type TestApi, type TestClient } from '../../api-server/src/testing/harness.ts';
import { startSmtpSink, type SmtpSink } from '../../api-server/src/features/delivery/testing/smtpSink.ts';
import { performanceSql } from '../../api-server/src/features/imports/performance.ts';
import { approvedMessage, audienceOf, startApiWithSync, statusOf, until, type DeliveryWorld, emailAccount } from '../support/delivery.ts';

let world: DeliveryWorld;
let api: TestApi;
let sink: SmtpSink;
let owner: Awaited<ReturnType<typeof registerAccount>>;
let appId: string;
let today: string;

beforeAll(async () => {
  sink = await startSmtpSink();
  world = await startApiWithSync({ OUTGOING_ALLOW_LOOPBACK: '127.0.0.1', DELIVERY_IN_PROCESS: 'on' });
  api = world.api;
  ({ owner, appId } = await emailAccount(api, sink.port, { name: 'Analytics', timezone: 'Europe/Madrid' }));
  today = (await api.db.query<{ d: string }>(`SELECT (now() AT TIME ZONE 'Europe/Madrid')::date::text AS d`)).rows[0]!.d;
});
afterAll(async () => {
  await world.stop();
  await sink.close();
});

const ids = (m: MessageSummary) => ({ appId, messageId: m.id });
let batch = 0;

/** An approved e-mail message to `n` new people, played until finished; answers it and the people (ids, e-mails). */
async function playedEmail(client: TestClient, n: number, change?: (d: MessageDraft) => MessageDraft) {
  batch += 1;
  const emails = Array.from({ length: n }, (_, i) => `a${batch}-${i}@example.com`);
  const { audienceId, personIds } = await audienceOf(api, appId, emails.map((email) => ({ email })), `Analytics ${batch}`);
  const message = await approvedMessage(client, world, {
    appId, type: 'email', name: `Analytics mail ${batch}`, audienceId, ...(change ? { change } : {}),
    content: { sender_name: 'Team', sender_email: 'news@example.com', subject: 'Sale', html_body: '<p>Hi</p><p><a href="https://shop.example.com/sale">Sale</a></p>' },
  });
  await client.ok('transitionMessage', { action: 'play' }, ids(message));
  await until(async () => (await statusOf(client, appId, message)) === 'Finished', 'the message to finish');
  return { message, emails, personIds };
}

/** The open pixel and click link of the mail `email` received. */
function linksOf(email: string): { pixel: string; click: string } {
  const html = sink.to(email)[0]!.raw.replace(/=\r\n/g, '').replace(/=3D/g, '=');
  const click = /href="(http:\/\/127\.0\.0\.1:\d+\/api\/email\/click\/[^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, '&');
  const pixel = /src="(http:\/\/127\.0\.0\.1:\d+\/api\/email\/open\/[^"]+\.gif)"/.exec(html)?.[1];
  if (!click || !pixel) throw new Error('no tracked links');
  return { pixel, click };
}

/** A purchase (or another event) of a person, `offset` after now (a Postgres interval). */
async function event(personId: string, offset: string, revenue: number | null, name = 'gd_transaction'): Promise<void> {
  await api.db.query(
    `INSERT INTO events (app_id, event_time, received_at, client_id, person_id, device_id, name, revenue, currency)
     VALUES ($1, now() + $2::interval, now(), gen_random_uuid()::text, $3, 0, $4, $5, CASE WHEN $5::numeric IS NULL THEN NULL ELSE 'EUR' END)`,
    [appId, offset, personId, name, revenue]);
}

const metricsOf = async (client: TestClient, message: MessageSummary) =>
  (await client.ok<{ metrics: MessageMetrics }>('messageMetrics', undefined, ids(message))).metrics;

describe('message metrics', () => {
  let message: MessageSummary;
  let personIds: string[];

  beforeAll(async () => {
    const played = await playedEmail(owner.client, 4);
    message = played.message;
    personIds = played.personIds;
    const [p0, p1, p2, p3] = personIds as [string, string, string, string];
    // p0 opens and clicks, then buys within the window: direct.
    const { pixel, click } = linksOf(played.emails[0]!);
    await fetch(pixel);
    await fetch(pixel); // a mail client fetching the pixel again is the same open
    expect((await fetch(click, { redirect: 'manual' })).status).toBe(302);
    await event(p0, '1 minute', 10);
    await event(p0, '2 hours', 2.5);
    // p1 buys a day later without opening: indirect.
    await event(p1, '1 day', 5);
    // p2 buys after the 3-day window; p3 bought before the message: neither counts.
    await event(p2, '4 days', 7);
    await event(p3, '-1 hour', 9);
    // A custom event is not the goal.
    await event(p1, '1 hour', null, 'add_to_cart');
    const send = (await api.db.query<{ send_id: string }>(`SELECT send_id FROM message_outbox WHERE message_id = $1 LIMIT 1`, [message.id])).rows[0]!.send_id;
    const row = (person: string, variant: string, status: string, test: boolean, error: string | null) => api.db.query(
      `INSERT INTO message_outbox (send_id, app_id, message_id, person_id, channel, address, variant_id, language, time_zone, test, idempotency_key, status, run_at, sent_at, error)
       VALUES ($1, $2, $3, $4, 'email', 'x@example.com', $5, 'en', 'UTC', $6, gen_random_uuid()::text, $7, now(), CASE WHEN $7 = 'sent' THEN now() END, $8)`,
      [send, appId, message.id, person, variant, test, status, error]);
    // A test send (counts nowhere), a failure, and a second variant's person who clicks and buys.
    await row(p2, 'main', 'sent', true, null);
    await row(p3, 'main', 'failed', false, '550 5.1.1 <p3@example.com>: unknown mailbox');
    const [p4] = (await audienceOf(api, appId, [{ email: `b${batch}@example.com` }], `Variant B ${batch}`)).personIds as [string];
    await row(p4, 'B', 'sent', false, null);
    await api.db.query(
      `INSERT INTO message_interactions (app_id, event_time, client_id, person_id, device_id, channel, kind, campaign_id, message_id, variant_id)
       VALUES ($1, now(), gen_random_uuid()::text, $2, 0, 'email', 'click', NULL, $3, 'B')`, [appId, p4, message.id]);
    await event(p4, '30 minutes', 3);
  });

  it('counts sends, opens, clicks, conversions and revenue in the right buckets and variants', async () => {
    const metrics = await metricsOf(owner.client, message);
    expect(metrics.conversion).toEqual({ eventName: 'gd_transaction', windowDays: 3 });
    expect(metrics.total).toMatchObject({
      sents: 5, delivered: 5, fails: 1, impressions: 0, opens: 1, clicks: 2, ctr: 0.4, redeems: 0,
      conversionsDirect: 2, conversionsIndirect: 1, revenueDirect: 15.5, revenueIndirect: 5,
    });
    expect(metrics.total.failReasons).toEqual([{ status: 'failed', reason: '550 5.1.1 …: unknown mailbox', count: 1 }]);
    expect(metrics.variants.main).toMatchObject({
      sents: 4, delivered: 4, fails: 1, opens: 1, clicks: 1, ctr: 0.25, conversionsDirect: 1, conversionsIndirect: 1, revenueDirect: 12.5, revenueIndirect: 5,
    });
    expect(metrics.variants.B).toMatchObject({ sents: 1, delivered: 1, fails: 0, opens: 0, clicks: 1, ctr: 1, conversionsDirect: 1, conversionsIndirect: 0, revenueDirect: 3, revenueIndirect: 0 });
    expect(Object.keys(metrics.variants).sort()).toEqual(['B', 'main']);
  });

  it('lists the message in the report with its figures, and the previous period empty', async () => {
    const { report } = await owner.client.ok<{ report: MessageReport }>('messageReport', undefined, { appId }, { startDay: today, endDay: today });
    const row = report.messages.find((m) => m.messageId === message.id);
    expect(row).toMatchObject({ name: message.name, type: 'email', status: 'Finished' });
    expect(row?.current).toMatchObject({ sents: 5, opens: 1, clicks: 2, conversionsDirect: 2, conversionsIndirect: 1, revenueDirect: 15.5 });
    expect(row?.previous).toMatchObject({ sents: 0, opens: 0, clicks: 0, conversionsDirect: 0 });
    expect(report.total.current.sents).toBeGreaterThanOrEqual(5);
  });

  it('reads the performance-report import\'s figures, by date group', async () => {
    const query = { startDay: today, endDay: today, timeGroup: 'day', kpiType: 'conversions', messageIds: [message.id] };
    const { report } = await owner.client.ok<{ report: PerformanceReport }>('performanceReport', undefined, { appId }, query);
    const imported = performanceSql({ kpiType: 'conversions', filters: { channels: [], campaignIds: [], messageIds: [message.id], journeyIds: [] }, dateRange: { startDay: today, endDay: today, timeGroup: 'day' } }, 1);
    const people = (await api.db.query(imported.sql, [appId, ...imported.params])).rowCount;
    expect(report.rows).toEqual([{ day: today, value: report.total }]);
    expect(report.total).toBe(people);
    // p0 opened and bought, p4 clicked and bought (within today's range unless run at midnight).
    expect(report.total).toBeGreaterThanOrEqual(1);
    const csv = await fetch(`${api.url}/api/apps/${appId}/performance-report/export?startDay=${today}&endDay=${today}&kpiType=conversions&messageIds[]=${message.id}`,
      { headers: { cookie: [...owner.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(await csv.text()).toBe(`date,conversions\r\n${today},${report.total}\r\ntotal,${report.total}\r\n`);
    const zip = await fetch(`${api.url}/api/apps/${appId}/performance-report/export?startDay=${today}&endDay=${today}&format=zip`,
      { headers: { cookie: [...owner.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
    expect(zip.headers.get('content-type')).toBe('application/zip');
    expect(Buffer.from(await zip.arrayBuffer()).subarray(0, 2).toString()).toBe('PK');
  });

  it('answers another account nothing', async () => {
    const other = await registerAccount(api);
    const own = (await other.client.ok<{ app: { id: string } }>('createApp', { name: 'Other', os: 'iOS', timezone: 'UTC' })).app.id;
    expect((await other.client.call('messageMetrics', undefined, ids(message))).body.code).toBe(10004);
    expect((await other.client.call('messageMetrics', undefined, { appId: own, messageId: message.id })).body.code).toBe(10004);
    expect((await other.client.call('messageReport', undefined, { appId }, { startDay: today, endDay: today })).body.code).toBe(10004);
    const { report } = await other.client.ok<{ report: MessageReport }>('messageReport', undefined, { appId: own }, { startDay: today, endDay: today });
    expect(report.messages).toEqual([]);
    const file = await fetch(`${api.url}/api/apps/${appId}/performance-report/export?startDay=${today}&endDay=${today}`,
      { headers: { cookie: [...other.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
    expect(((await file.json()) as { code: number }).code).toBe(10004);
  });
});

describe('conversion settings', () => {
  it('counts the approved version\'s goal within its window', async () => {
    const { message, personIds } = await playedEmail(owner.client, 2, (d) => ({ ...d, conversion: { eventName: 'signup_done', windowDays: 1 } }));
    const [p0, p1] = personIds as [string, string];
    await event(p0, '2 hours', null, 'signup_done'); // indirect, inside one day
    await event(p1, '30 hours', null, 'signup_done'); // outside one day
    await event(p1, '1 hour', 4); // a purchase is revenue, not this message's conversion
    const metrics = await metricsOf(owner.client, message);
    expect(metrics.conversion).toEqual({ eventName: 'signup_done', windowDays: 1 });
    expect(metrics.total).toMatchObject({ sents: 2, conversionsDirect: 0, conversionsIndirect: 1, revenueDirect: 0, revenueIndirect: 4 });
  });
});

/** A live outbox row of `messageId` (the run `sendId`) to a person, sent at `at` (a Postgres expression). */
async function sentRow(sendId: string, messageId: string, personId: string, at: string, test = false, app = appId): Promise<void> {
  await api.db.query(
    `INSERT INTO message_outbox (send_id, app_id, message_id, person_id, channel, address, variant_id, language, time_zone, test, idempotency_key, status, run_at, sent_at)
     VALUES ($1, $2, $3, $4, 'email', 'x@example.com', 'main', 'en', 'UTC', $5, gen_random_uuid()::text, 'sent', ${at}, ${at})`,
    [sendId, app, messageId, personId, test]);
}

async function interaction(messageId: string, personId: string, kind: 'impression' | 'open' | 'click', channel: string, at: string): Promise<void> {
  await api.db.query(
    `INSERT INTO message_interactions (app_id, event_time, client_id, person_id, device_id, channel, kind, campaign_id, message_id, variant_id)
     VALUES ($1, ${at}, gen_random_uuid()::text, $2, 0, $3, $4, NULL, $5, 'main')`, [appId, personId, channel, kind, messageId]);
}

const runOf = async (messageId: string) =>
  (await api.db.query<{ send_id: string }>(`SELECT send_id FROM message_outbox WHERE message_id = $1 LIMIT 1`, [messageId])).rows[0]!.send_id;

describe('test devices', () => {
  it('do not count: interactions and redemptions of people who only got test sends of the message', async () => {
    const { message, personIds } = await playedEmail(owner.client, 1);
    const [p0] = personIds as [string];
    const [device] = (await audienceOf(api, appId, [{ email: `device${batch}@example.com` }], `Devices ${batch}`)).personIds as [string];
    // A test run of the message to a test device (the person of the device).
    const testRun = (await api.db.query<{ id: string }>(
      `INSERT INTO message_sends (account_id, app_id, message_id, version, definition, kind, origin, state)
       SELECT account_id, app_id, id, NULL, '{}'::jsonb, 'test', 'classic', 'finished' FROM messages WHERE id = $1 RETURNING id`, [message.id])).rows[0]!.id;
    await sentRow(testRun, message.id, device, 'now()', true);
    await interaction(message.id, device, 'impression', 'inapp', 'now()');
    await interaction(message.id, device, 'click', 'inapp', 'now()');
    await api.db.query(`INSERT INTO message_redemptions (app_id, message_id, variant_id, person_id, client_id) VALUES ($1, $2, 'main', $3, gen_random_uuid()::text)`, [appId, message.id, device]);
    await event(device, '10 minutes', 8);
    // The live person's own click and redemption count.
    await interaction(message.id, p0, 'click', 'email', 'now()');
    await api.db.query(`INSERT INTO message_redemptions (app_id, message_id, variant_id, person_id, client_id) VALUES ($1, $2, 'main', $3, gen_random_uuid()::text)`, [appId, message.id, p0]);
    const metrics = await metricsOf(owner.client, message);
    expect(metrics.total).toMatchObject({ sents: 1, delivered: 1, impressions: 0, clicks: 1, redeems: 1, conversionsDirect: 0, conversionsIndirect: 0, revenueDirect: 0, revenueIndirect: 0 });
    expect(metrics.variants.main).toMatchObject({ sents: 1, delivered: 1, impressions: 0, clicks: 1, redeems: 1 });
  });
});

describe('conversions of a message that reached a person more than once', () => {
  it('count a goal event within the window after any of their sends, opens or clicks', async () => {
    const { message, personIds } = await playedEmail(owner.client, 3);
    const [p0, p1, p2] = personIds as [string, string, string];
    const send = await runOf(message.id);
    // The first occurrence went out ten days ago (its window is long over).
    await api.db.query(`UPDATE message_outbox SET sent_at = sent_at - interval '10 days', run_at = run_at - interval '10 days' WHERE message_id = $1`, [message.id]);
    // p0: a second occurrence now, and a purchase an hour later: indirect (after the second send).
    await sentRow(send, message.id, p0, 'now()');
    await event(p0, '1 hour', 4);
    // p1: clicked the first one back then, gets the second now and clicks it: a purchase after that click is direct.
    await interaction(message.id, p1, 'click', 'email', `now() - interval '10 days'`);
    await sentRow(send, message.id, p1, 'now()');
    await interaction(message.id, p1, 'click', 'email', 'now()');
    await event(p1, '2 hours', 6);
    // p2: only the first occurrence; a purchase now is outside its window.
    await event(p2, '1 hour', 9);
    const metrics = await metricsOf(owner.client, message);
    expect(metrics.total).toMatchObject({ sents: 5, clicks: 1, conversionsDirect: 1, conversionsIndirect: 1, revenueDirect: 6, revenueIndirect: 4 });
  });
});

describe('the messages report', () => {
  it('totals count a purchase once however many messages it follows, the previous total over the previous period\'s messages, and refuse long ranges', async () => {
    const other = await registerAccount(api);
    const app = (await other.client.ok<{ app: { id: string } }>('createApp', { name: 'Report', os: 'iOS', timezone: 'UTC' })).app.id;
    const day = (await api.db.query<{ d: string }>(`SELECT (now() AT TIME ZONE 'UTC')::date::text AS d`)).rows[0]!.d;
    const [p, q] = (await audienceOf(api, app, [{ email: 'both@example.com' }, { email: 'one@example.com' }], 'Report people')).personIds as [string, string];
    const created = async (name: string) => {
      const { message } = await other.client.ok<{ message: MessageSummary }>('createMessage', { name, type: 'email', campaignName: name }, { appId: app });
      const run = await api.db.query<{ id: string }>(
        `INSERT INTO message_sends (account_id, app_id, message_id, version, definition, kind, origin, state)
         SELECT account_id, app_id, id, NULL, '{}'::jsonb, 'test', 'classic', 'finished' FROM messages WHERE id = $1 RETURNING id`, [message.id]);
      return { message, send: run.rows[0]!.id };
    };
    const a = await created('Report A');
    const b = await created('Report B');
    const c = await created('Report C');
    await sentRow(a.send, a.message.id, p, 'now()', false, app);
    await sentRow(a.send, a.message.id, q, 'now()', false, app);
    await sentRow(b.send, b.message.id, p, 'now()', false, app);
    // C sent only yesterday (the previous period of a one-day range).
    await sentRow(c.send, c.message.id, q, `date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - interval '1 hour'`, false, app);
    const purchase = (person: string, revenue: number) => api.db.query(
      `INSERT INTO events (app_id, event_time, received_at, client_id, person_id, device_id, name, revenue, currency)
       VALUES ($1, now() + interval '1 minute', now(), gen_random_uuid()::text, $2, 0, 'gd_transaction', $3, 'EUR')`, [app, person, revenue]);
    await purchase(p, 10);
    await purchase(q, 5);
    const { report } = await other.client.ok<{ report: MessageReport }>('messageReport', undefined, { appId: app }, { startDay: day, endDay: day });
    expect(report.messages.map((m) => m.name)).toEqual(['Report A', 'Report B']);
    expect(report.messages.map((m) => m.current.conversionsIndirect)).toEqual([2, 1]);
    expect(report.messages.map((m) => m.current.revenueIndirect)).toEqual([15, 10]);
    // p's purchase follows A and B: one conversion, its revenue once.
    expect(report.total.current).toMatchObject({ sents: 3, conversionsDirect: 0, conversionsIndirect: 2, revenueIndirect: 15 });
    expect(report.truncated).toBe(false);
    // The previous total is C's (active then, not now); A's and B's previous figures are empty.
    expect(report.total.previous).toMatchObject({ sents: 1 });
    expect(report.messages.map((m) => m.previous.sents)).toEqual([0, 0]);
    // Ranges are bounded like the analytics' (at most 366 days), the filters like the import's.
    const year = await other.client.call('messageReport', undefined, { appId: app }, { startDay: '2025-01-01', endDay: '2026-01-01' });
    expect(year.body.status).toBe('OK');
    expect((await other.client.call('messageReport', undefined, { appId: app }, { startDay: '2025-01-01', endDay: '2026-01-02' })).body.status).toBe('KO');
    expect((await other.client.call('performanceReport', undefined, { appId: app }, { startDay: '2025-01-01', endDay: '2026-01-02' })).body.status).toBe('KO');
    const channels = { startDay: day, endDay: day, channels: ['push', 'inapp', 'email', 'native', 'push'] };
    expect((await other.client.call('performanceReport', undefined, { appId: app }, channels)).body.status).toBe('KO');
    expect((await other.client.call('performanceReport', undefined, { appId: app }, { ...channels, channels: ['push', 'email'] })).body.status).toBe('OK');
  });
});
