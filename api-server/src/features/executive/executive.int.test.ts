/**
 * The executive view through the real API on real Postgres, on data fed through the real
 * ingestion API (and outbox rows written as the delivery worker writes them): every figure of two
 * apps in different time zones, their total, the previous period, what is left out (test sends,
 * queued ones, another account's apps, an app whose disallowed list takes the route away) and bad
 * ranges refused.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@gd/shared';
import { createTestApp, ingest, registerAccount, startTestApi, type TestApi } from '../../testing/harness.ts';

let api: TestApi;
let owner: Awaited<ReturnType<typeof registerAccount>>;
let appA: { id: string; appKey: string };
let appB: { id: string; appKey: string };

const RANGE = { startDay: '2026-11-10', endDay: '2026-11-16' };

async function send(app: { appKey: string }, device: string, events: { name: string; time: string; revenue?: number; currency?: string; sessionId?: string }[]) {
  const answer = await ingest(api, app.appKey, 'ingestBatch', {
    device: { id: `device-${device}`, os: 'Android', country: 'ES' },
    events: events.map((e) => ({ id: randomUUID(), ...e })),
  });
  expect(answer.body, JSON.stringify(answer.body)).toMatchObject({ status: 'OK', rejected: [] });
}

/**
 * Outbox rows as sends leave them. Rows not sent are due in 2100: the test database is shared, and a
 * delivery worker of another test file (deliveryCrash) leases every due row.
 */
async function outbox(app: { id: string }, rows: { status: string; test: boolean; sentAt: string | null }[]) {
  const { message } = await owner.client.ok<{ message: { id: string } }>('createMessage', { name: `Message ${randomUUID()}`, type: 'push', campaignName: 'Campaign' }, { appId: app.id });
  const send = (await api.deps.db.query<{ id: string }>(
    `INSERT INTO message_sends (account_id, app_id, message_id, definition, kind, origin) VALUES ($1, $2, $3, '{}', 'test', 'classic') RETURNING id`,
    [owner.accountId, app.id, message.id])).rows[0]!.id;
  for (const [i, r] of rows.entries()) {
    await api.deps.db.query(
      `INSERT INTO message_outbox (send_id, app_id, message_id, person_id, channel, address, variant_id, language, time_zone, test, idempotency_key, status, run_at, sent_at)
       VALUES ($1, $2, $3, $4, 'push', 'token', 'a', 'en', 'UTC', $5, $6, $7, coalesce($8::timestamptz, '2100-01-01T00:00:00Z'), $8)`,
      [send, app.id, message.id, i + 1, r.test, randomUUID(), r.status, r.sentAt]);
  }
}

interface Pair { current: number; previous: number }
interface AppFigures { appId: string; name: string; currency: string | null; figures: Record<string, Pair> }
interface Answer { range: typeof RANGE; previous: typeof RANGE; apps: AppFigures[]; total: { currency: string | null; figures: Record<string, Pair> } }

beforeAll(async () => {
  api = await startTestApi();
  owner = await registerAccount(api);
  appA = await createTestApp(owner.client, { name: 'Alpha shop', timezone: 'UTC' });
  appB = await createTestApp(owner.client, { name: 'Beta shop', timezone: 'America/New_York' });

  // App A (UTC). d1: installs, a session, buys and signs up in the range. d2: the same in the previous period.
  await send(appA, 'd1', [
    { name: 'gd_install', time: '2026-11-10T10:00:00Z' },
    { name: 'gd_start_session', time: '2026-11-10T10:01:00Z', sessionId: 's1' },
    { name: 'purchase', time: '2026-11-11T12:00:00Z', revenue: 10, currency: 'EUR' },
    { name: 'signup', time: '2026-11-12T12:00:00Z' },
  ]);
  await send(appA, 'd2', [
    { name: 'gd_install', time: '2026-11-05T10:00:00Z' },
    { name: 'gd_start_session', time: '2026-11-05T10:01:00Z', sessionId: 's2' },
    { name: 'purchase', time: '2026-11-05T12:00:00Z', revenue: 5, currency: 'EUR' },
  ]);
  // d3: active on the last second of the previous period and the last minutes of the range.
  await send(appA, 'd3', [{ name: 'view', time: '2026-11-09T23:59:59Z' }, { name: 'view', time: '2026-11-16T23:30:00Z' }, { name: 'view', time: '2026-11-17T00:00:00Z' }]);
  await owner.client.ok('updateEventDefinition', { conversionType: 'register' }, { appId: appA.id, eventName: 'signup' });
  await outbox(appA, [
    { status: 'sent', test: false, sentAt: '2026-11-10T00:00:00Z' },
    { status: 'sent', test: false, sentAt: '2026-11-12T08:00:00Z' },
    { status: 'sent', test: false, sentAt: '2026-11-16T23:59:59Z' },
    { status: 'sent', test: true, sentAt: '2026-11-12T08:00:00Z' },
    { status: 'queued', test: false, sentAt: null },
    { status: 'failed', test: false, sentAt: null },
    { status: 'sent', test: false, sentAt: '2026-11-09T23:00:00Z' },
  ]);

  // App B (New York, UTC-5 in November): its days start at 05:00 UTC.
  await send(appB, 'e1', [
    { name: 'gd_install', time: '2026-11-10T03:00:00Z' }, // 9 November, 22:00 local: previous period
    { name: 'purchase', time: '2026-11-17T03:00:00Z', revenue: 20, currency: 'USD' }, // 16 November, 22:00 local: in the range
  ]);
  // e2 buys through the SDK's purchase (the built-in transaction event): a conversion without a catalogue mark.
  await send(appB, 'e2', [{ name: 'view', time: '2026-11-10T06:00:00Z' }, { name: 'gd_transaction', time: '2026-11-12T15:00:00Z', revenue: 4, currency: 'USD' }]);
  await outbox(appB, [{ status: 'sent', test: false, sentAt: '2026-11-10T04:00:00Z' }]); // 9 November local

  // Another account's app with data of the same days: never counted.
  const other = await registerAccount(api);
  const foreign = await createTestApp(other.client);
  await send(foreign, 'f1', [{ name: 'gd_install', time: '2026-11-11T10:00:00Z' }, { name: 'purchase', time: '2026-11-11T10:00:00Z', revenue: 999, currency: 'EUR' }]);
});

afterAll(async () => {
  await api.stop();
});

const figuresOf = (a: { figures: Record<string, Pair> }) => Object.fromEntries(Object.entries(a.figures).map(([k, v]) => [k, [v.current, v.previous]]));

describe('the executive view', () => {
  it('answers every figure of every app, in each app\'s days, with the previous period and the total', async () => {
    const answer = await owner.client.ok<Answer>('getExecutive', undefined, undefined, RANGE);
    expect(answer.range).toEqual(RANGE);
    expect(answer.previous).toEqual({ startDay: '2026-11-03', endDay: '2026-11-09' });
    expect(answer.apps.map((a) => a.name)).toEqual(['Alpha shop', 'Beta shop']);
    const [a, b] = answer.apps as [AppFigures, AppFigures];
    expect(figuresOf(a)).toEqual({
      installs: [1, 1], activePeople: [2, 2], sessions: [1, 1], revenue: [10, 5], arpu: [5, 2.5], messagesSent: [3, 1], conversions: [1, 0],
    });
    expect(a.currency).toBe('EUR');
    expect(figuresOf(b)).toEqual({
      installs: [0, 1], activePeople: [2, 1], sessions: [0, 0], revenue: [24, 0], arpu: [12, 0], messagesSent: [0, 1], conversions: [1, 0],
    });
    expect(b.currency).toBe('USD');
    expect(figuresOf(answer.total)).toEqual({
      installs: [1, 2], activePeople: [4, 3], sessions: [1, 1], revenue: [34, 5], arpu: [8.5, 5 / 3], messagesSent: [3, 2], conversions: [2, 0],
    });
    // Two currencies: the total names none.
    expect(answer.total.currency).toBeNull();
  });

  it('leaves out an app whose disallowed list takes the executive view away', async () => {
    await owner.client.ok('updateApp', { name: 'Beta shop', os: 'Android', restricted: ['route:/main/executive'] }, { appId: appB.id });
    try {
      const answer = await owner.client.ok<Answer>('getExecutive', undefined, undefined, RANGE);
      expect(answer.apps.map((a) => a.name)).toEqual(['Alpha shop']);
      expect(answer.total.figures.revenue).toEqual({ current: 10, previous: 5 });
      expect(answer.total.currency).toBe('EUR');
    } finally {
      await owner.client.ok('updateApp', { name: 'Beta shop', os: 'Android', restricted: [] }, { appId: appB.id });
    }
  });

  it('answers the last 7 days by default and refuses half or reversed ranges', async () => {
    const answer = await owner.client.ok<Answer>('getExecutive');
    const today = new Date().toISOString().slice(0, 10);
    expect(answer.range.endDay).toBe(today);
    expect(Date.parse(answer.range.endDay) - Date.parse(answer.range.startDay)).toBe(6 * 86_400_000);
    for (const query of [{ startDay: '2026-11-10' }, { startDay: '2026-11-16', endDay: '2026-11-10' }, { startDay: '2026-13-01', endDay: '2026-13-02' }]) {
      const refused = await owner.client.call('getExecutive', undefined, undefined, query);
      expect(refused.body).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY });
    }
  });

  it('a new account with no apps gets an empty view', async () => {
    const fresh = await registerAccount(api);
    const answer = await fresh.client.ok<Answer>('getExecutive', undefined, undefined, RANGE);
    expect(answer.apps).toEqual([]);
    expect(answer.total.figures.installs).toEqual({ current: 0, previous: 0 });
  });
});
