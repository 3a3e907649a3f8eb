/**
 * /behavior/people against real Postgres and the real ingestion API: search (customer id, e-mail,
 * device ids, prefixes, recent people), profile (fields, tags, devices, messages, counts), the
 * timeline's keyset pagination, merged people, and who may read whom.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, PEOPLE_LIMITS, type PersonSummary, type ResponseOf, type TimelineEvent } from '@gd/shared';
import {
  TestClient, createTestApp, ingest, registerAccount, startTestApi, type TestApi,
} from '../../api-server/src/testing/harness.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ INGEST_RATE_PER_SECOND: '1000', INGEST_RATE_BURST: '100000' });
});
afterAll(async () => {
  await api.stop();
});

type App = Awaited<ReturnType<typeof createTestApp>>;

async function freshApp() {
  const owner = await registerAccount(api);
  const app = await createTestApp(owner.client);
  return { client: owner.client, app };
}

async function search(client: TestClient, app: App, q: string): Promise<PersonSummary[]> {
  const answer = await client.call('searchPeople', undefined, { appId: app.id }, { q });
  expect(answer.body.status).toBe('OK');
  return answer.body.people as PersonSummary[];
}

const device = (over: Record<string, unknown> = {}) => ({ id: randomUUID(), os: 'iOS', osVersion: '17.4', appVersion: '2.1.0', country: 'ES', city: 'Madrid', ...over });
const event = (name: string, time: string | number, over: Record<string, unknown> = {}): { id: string; name: string; time: string | number; properties?: unknown } => ({ id: randomUUID(), name, time, ...over });

/** Sends a batch with the app key and fails the test unless every item was accepted. */
async function send(app: App, body: { device: ReturnType<typeof device>; events?: unknown[]; interactions?: unknown[] }) {
  const answer = await ingest(api, app.appKey, 'ingestBatch', body);
  expect(answer.body).toMatchObject({ status: 'OK', rejected: [] });
  return answer;
}
async function identify(app: App, dev: ReturnType<typeof device>, customerId: string, profile?: Record<string, unknown>) {
  const answer = await ingest(api, app.appKey, 'ingestIdentify', { device: dev, customerId, ...(profile ? { profile } : {}) });
  expect(answer.body.status).toBe('OK');
  return answer.body as unknown as { personId: string; merged: boolean };
}

describe('searching people', () => {
  it('finds a person by customer id, e-mail in any case, IDFA, SDK id and push token; exact matches before prefixes', async () => {
    const { client, app } = await freshApp();
    const idfa = randomUUID().toUpperCase();
    const ana = device({ idfa, pushToken: 'push-token-abcdef123456' });
    await send(app, { device: ana, events: [event('gd_install', Date.now() - 60_000)] });
    const { personId } = await identify(app, ana, 'cust-100', { email: 'Ana.Lopez@Example.com' });
    // Another person whose customer id starts with the same text.
    const other = device();
    await send(app, { device: other, events: [event('app_open', Date.now() - 30_000)] });
    await identify(app, other, 'cust-1000');

    for (const [q, match] of [['cust-100', 'customerId'], ['ana.lopez@example.COM', 'email'], [idfa, 'idfa'], [ana.id, 'deviceKey'], ['push-token-abcdef123456', 'pushToken'], [personId, 'personId']] as const) {
      const found = await search(client, app, q);
      expect(found[0], q).toMatchObject({ id: personId, customerId: 'cust-100', email: 'Ana.Lopez@Example.com', match });
    }
    const prefix = await search(client, app, 'cust-10');
    // Within one kind of match, the person seen last comes first.
    expect(prefix.map((p) => [p.customerId, p.match])).toEqual([['cust-1000', 'customerIdPrefix'], ['cust-100', 'customerIdPrefix']]);
    const exactFirst = await search(client, app, 'cust-100');
    expect(exactFirst.map((p) => [p.customerId, p.match])).toEqual([['cust-100', 'customerId'], ['cust-1000', 'customerIdPrefix']]);
    expect(await search(client, app, 'ana.l')).toMatchObject([{ id: personId, match: 'emailPrefix' }]);
    // Wildcards are literal: "%" matches nothing here.
    expect(await search(client, app, '%')).toEqual([]);
    expect(await search(client, app, 'nobody-like-this')).toEqual([]);
  });

  it('lists the people seen most recently when the search is empty, at most 50', async () => {
    const { client, app } = await freshApp();
    expect(await search(client, app, '')).toEqual([]);
    const devices = Array.from({ length: PEOPLE_LIMITS.searchResults + 3 }, () => device());
    for (const d of devices) await send(app, { device: d, events: [event('app_open', Date.now() - 1000)] });
    const recent = await search(client, app, '');
    expect(recent).toHaveLength(PEOPLE_LIMITS.searchResults);
    expect(recent.every((p) => p.match === 'recent' && p.lastSeenAt !== null)).toBe(true);
    const seen = recent.map((p) => Date.parse(p.lastSeenAt ?? ''));
    expect(seen).toEqual([...seen].sort((a, b) => b - a));
    // The last device to send anything is first.
    const latest = device();
    await send(app, { device: latest, events: [event('app_open', Date.now())] });
    expect((await search(client, app, ''))[0]?.deviceId).toBe(latest.id);
  });

  it('refuses a search text longer than the limit with 10001', async () => {
    const { client, app } = await freshApp();
    const answer = await client.call('searchPeople', undefined, { appId: app.id }, { q: 'x'.repeat(PEOPLE_LIMITS.maxQueryLength + 1) });
    expect(answer.body).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY });
  });
});

describe('a person profile', () => {
  it('answers every user field, tags with their type, devices with a masked push token, messages grouped per message and counts', async () => {
    const { client, app } = await freshApp();
    const phone = device({ idfa: 'IDFA-1', gaid: undefined, pushToken: 'secret-push-token-XYZ789', pushEnabled: true, model: 'iPhone15,2', carrier: 'Movistar', latitude: 40.4, longitude: -3.7 });
    const t0 = Date.now() - 3 * 86_400_000;
    await send(app, {
      device: phone,
      events: [
        event('gd_install', t0, { source: 'Facebook', campaign: 'spring' }),
        event('gd_start_session', t0 + 1000, { sessionId: 's1' }),
        event('gd_transaction', t0 + 2000, { revenue: 12.5, currency: 'EUR' }),
        event('product_view', t0 + 3000, { properties: { sku: 'A1' } }),
      ],
      interactions: [
        { id: randomUUID(), time: t0 + 4000, channel: 'push', kind: 'impression', campaignId: 'c1', messageId: 'm1' },
        { id: randomUUID(), time: t0 + 5000, channel: 'push', kind: 'click', campaignId: 'c1', messageId: 'm1' },
        { id: randomUUID(), time: t0 + 6000, channel: 'inapp', kind: 'impression', campaignId: 'c2', messageId: 'm2' },
      ],
    });
    const { personId } = await identify(app, phone, 'cust-7', { email: 'seven@example.com', birthday: '1990-05-17', attributes: { plan: 'gold' } });
    const tags = await ingest(api, app.appKey, 'ingestProfile', { device: phone, tags: { level: 7, nickname: 'Sev', joined: '2024-01-02' } });
    expect(tags.body).toMatchObject({ status: 'OK' });

    const answer = await client.call('getPerson', undefined, { appId: app.id, personId });
    expect(answer.body.status).toBe('OK');
    const body = answer.body as unknown as ResponseOf<'getPerson'>;
    expect(body).toMatchObject({ requestedId: personId, merged: false });
    expect(body.person).toMatchObject({
      id: personId, customerId: 'cust-7', email: 'seven@example.com', deviceId: phone.id, os: 'iOS', osVersion: '17.4',
      carrier: 'Movistar', appVersion: '2.1.0', country: 'ES', city: 'Madrid', latitude: 40.4, longitude: -3.7,
      conversions: 1, revenue: 12.5, inactive: false, fromSource: 'Facebook', fromCampaign: 'spring', birthday: '1990-05-17',
      attributes: { plan: 'gold' }, installAt: new Date(t0).toISOString(), lastSessionAt: new Date(t0 + 1000).toISOString(),
    });
    for (const field of ['ip', 'uninstallAt', 'registeredAt', 'firstLoginAt', 'lastLoginAt', 'state', 'referrerId', 'sdkVersion']) {
      expect(body.person, field).toHaveProperty(field);
    }
    expect(body.tags).toEqual([
      expect.objectContaining({ name: 'joined', kind: 'user_tag', valueType: 'date', value: '2024-01-02' }),
      expect.objectContaining({ name: 'level', kind: 'user_tag', valueType: 'number', value: 7 }),
      expect.objectContaining({ name: 'nickname', kind: 'user_tag', valueType: 'text', value: 'Sev' }),
    ]);
    expect(body.devices).toHaveLength(1);
    expect(body.devices[0]).toMatchObject({ deviceKey: phone.id, idfa: 'IDFA-1', model: 'iPhone15,2', pushEnabled: true });
    expect(body.devices[0]?.pushToken?.endsWith('XYZ789')).toBe(true);
    expect(body.devices[0]?.pushToken).not.toContain('secret');
    expect(body.messages).toEqual([
      { channel: 'inapp', campaignId: 'c2', messageId: 'm2', impressions: 1, clicks: 0, opens: 0, dismissed: 0, lastAt: new Date(t0 + 6000).toISOString() },
      { channel: 'push', campaignId: 'c1', messageId: 'm1', impressions: 1, clicks: 1, opens: 0, dismissed: 0, lastAt: new Date(t0 + 5000).toISOString() },
    ]);
    expect(body.summary).toMatchObject({ events: 4, sessions: 1 });
    expect(body.summary.firstSeenAt).not.toBeNull();
    expect(body.eventNames).toHaveLength(4);
  });

  it('answers NOT_EXIST for an id that is not a person of the app, and for a malformed id', async () => {
    const { client, app } = await freshApp();
    const sibling = await createTestApp(client);
    const d = device();
    await send(sibling, { device: d, events: [event('app_open', Date.now())] });
    const [elsewhere] = await search(client, sibling, d.id);
    expect(elsewhere).toBeDefined();
    for (const personId of [elsewhere?.id ?? '', '999999999999', 'abc', '99999999999999999999']) {
      const answer = await client.call('getPerson', undefined, { appId: app.id, personId });
      expect(answer.body, personId).toMatchObject({ status: 'KO', code: ErrorCode.NOT_EXIST });
      const timeline = await client.call('personTimeline', undefined, { appId: app.id, personId });
      expect(timeline.body, personId).toMatchObject({ status: 'KO', code: ErrorCode.NOT_EXIST });
    }
  });
});

describe('who may read people', () => {
  it("never shows another account's people: search, profile and timeline answer 10004", async () => {
    const { client, app } = await freshApp();
    const d = device({ idfa: 'SHARED-IDFA' });
    await send(app, { device: d, events: [event('app_open', Date.now())] });
    const { personId } = await identify(app, d, 'private-customer');
    const stranger = await registerAccount(api);
    const strangerApp = await createTestApp(stranger.client);
    for (const [name, params] of [['searchPeople', { appId: app.id }], ['getPerson', { appId: app.id, personId }], ['personTimeline', { appId: app.id, personId }]] as const) {
      const answer = await stranger.client.call(name, undefined, params, name === 'searchPeople' ? { q: 'private-customer' } : undefined);
      expect(answer.body, name).toMatchObject({ status: 'KO', code: ErrorCode.NO_PERMISSION });
    }
    // Their own app does not reach the person either.
    expect(await search(stranger.client, strangerApp, 'private-customer')).toEqual([]);
    const viaOwnApp = await stranger.client.call('getPerson', undefined, { appId: strangerApp.id, personId });
    expect(viaOwnApp.body).toMatchObject({ status: 'KO', code: ErrorCode.NOT_EXIST });
    // The owner still can.
    expect((await client.call('getPerson', undefined, { appId: app.id, personId })).body.status).toBe('OK');
  });

  it('answers 10004 when the app withholds the people screen', async () => {
    const { client, app } = await freshApp();
    await client.ok('updateApp', { name: 'Restricted', os: 'Android', timezone: 'UTC', restricted: ['route:/behavior/people'] }, { appId: app.id });
    const answer = await client.call('searchPeople', undefined, { appId: app.id }, { q: '' });
    expect(answer.body).toMatchObject({ status: 'KO', code: ErrorCode.NO_PERMISSION });
  });

  it('refuses a call without a session', async () => {
    const { app } = await freshApp();
    const anonymous = new TestClient(api.url);
    const answer = await anonymous.call('searchPeople', undefined, { appId: app.id });
    expect(answer.body).toMatchObject({ status: 'KO', code: ErrorCode.ACCESS_TOKEN_MISSING });
  });
});

describe('the timeline', () => {
  it('pages through every event exactly once, newest first, across months and equal times', async () => {
    const { client, app } = await freshApp();
    const d = device();
    const base = Date.UTC(2025, 10, 28, 12); // late November, so the events span two monthly partitions
    // 137 events; every third shares its time with the previous one (ties broken by event id).
    const events = Array.from({ length: 137 }, (_, i) => event(i % 5 === 0 ? 'gd_start_session' : 'product_view', base + Math.floor(i - i / 3) * 3_600_000, { properties: { i } }));
    await send(app, { device: d, events: events.slice(0, 70) });
    await send(app, { device: d, events: events.slice(70) });
    const [person] = await search(client, app, d.id);
    if (!person) throw new Error('person not found');

    const seen: TimelineEvent[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const answer = await client.call('personTimeline', undefined, { appId: app.id, personId: person.id }, cursor ? { cursor } : {});
      expect(answer.body.status).toBe('OK');
      const page = answer.body.events as TimelineEvent[];
      expect(page.length).toBeLessThanOrEqual(PEOPLE_LIMITS.timelinePage);
      seen.push(...page);
      cursor = answer.body.nextCursor as string | null;
      pages++;
    } while (cursor);
    expect(pages).toBe(Math.ceil(137 / PEOPLE_LIMITS.timelinePage));
    const expected = [...events].sort((a, b) => (Number(b.time) - Number(a.time)) || (b.id < a.id ? -1 : b.id > a.id ? 1 : 0));
    expect(seen.map((e) => e.id)).toEqual(expected.map((e) => e.id));
    expect(seen[0]).toMatchObject({ name: expected[0]?.name, time: new Date(Number(expected[0]?.time)).toISOString(), properties: expected[0]?.properties });

    // Filtered by name: only those events, still each once.
    const sessions: TimelineEvent[] = [];
    cursor = null;
    do {
      const answer = await client.call('personTimeline', undefined, { appId: app.id, personId: person.id }, { name: 'gd_start_session', ...(cursor ? { cursor } : {}) });
      sessions.push(...(answer.body.events as TimelineEvent[]));
      cursor = answer.body.nextCursor as string | null;
    } while (cursor);
    expect(sessions.map((e) => e.id)).toEqual(expected.filter((e) => e.name === 'gd_start_session').map((e) => e.id));
  });

  it('refuses a cursor it did not make with 10001', async () => {
    const { client, app } = await freshApp();
    const d = device();
    await send(app, { device: d, events: [event('app_open', Date.now())] });
    const [person] = await search(client, app, d.id);
    for (const cursor of ['bm90LWEtY3Vyc29y', 'has spaces']) {
      const answer = await client.call('personTimeline', undefined, { appId: app.id, personId: person?.id ?? '' }, { cursor });
      expect(answer.body, cursor).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY });
    }
  });
});

describe('merged people', () => {
  it('resolves a merged id to the person it merged into, with both histories, and never lists it', async () => {
    const { client, app } = await freshApp();
    const phone = device();
    const tablet = device({ idfa: 'TABLET-IDFA' });
    await send(app, { device: phone, events: [event('gd_install', Date.now() - 5000)] });
    const known = await identify(app, phone, 'cust-merge');
    await send(app, { device: tablet, events: [event('tablet_event', Date.now() - 4000), event('tablet_event', Date.now() - 3000)] });
    const [anonymous] = await search(client, app, tablet.id);
    if (!anonymous) throw new Error('anonymous person not found');
    expect(anonymous.customerId).toBeNull();
    const merge = await identify(app, tablet, 'cust-merge');
    expect(merge).toMatchObject({ personId: known.personId, merged: true });

    const profile = await client.call('getPerson', undefined, { appId: app.id, personId: anonymous.id });
    expect(profile.body).toMatchObject({ status: 'OK', requestedId: anonymous.id, merged: true, person: { id: known.personId, customerId: 'cust-merge' } });
    expect((profile.body.devices as unknown[]).length).toBe(2);
    const timeline = await client.call('personTimeline', undefined, { appId: app.id, personId: anonymous.id });
    expect(timeline.body).toMatchObject({ status: 'OK', personId: known.personId });
    expect((timeline.body.events as TimelineEvent[]).map((e) => e.name)).toEqual(['tablet_event', 'tablet_event', 'gd_install']);

    // The merged row is never listed: the tablet's ids and the old person id find the known person.
    for (const q of [tablet.id, 'TABLET-IDFA', anonymous.id, '']) {
      const found = await search(client, app, q);
      expect(found.map((p) => p.id), q).toEqual([known.personId]);
    }
  });
});
