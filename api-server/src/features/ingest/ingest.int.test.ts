/** The ingestion API against real Postgres: dedupe, partial batches, keys, identify merges, profiles, limits. */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, INGEST_LIMITS, endpoints } from '@gd/shared';
import { createTestApp, ingest, registerAccount, startTestApi, type TestApi } from '../../testing/harness.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ INGEST_RATE_PER_SECOND: '1', INGEST_RATE_BURST: '1000' });
});
afterAll(async () => {
  await api.stop();
});

const device = (id = randomUUID()) => ({ id, os: 'Android', osVersion: '14', appVersion: '3.2.0', country: 'ES', gaid: randomUUID() });
const event = (name: string, over: Record<string, unknown> = {}) => ({ id: randomUUID(), name, time: new Date().toISOString(), ...over });

async function freshApp(timezone = 'UTC') {
  const { client } = await registerAccount(api);
  return createTestApp(client, { timezone });
}
const count = async (sql: string, params: unknown[]) => Number((await api.deps.db.query<{ n: string }>(sql, params)).rows[0]?.n);

describe('ingestion batches', () => {
  it('stores a resent batch once and reports the duplicates', async () => {
    const app = await freshApp();
    const body = { device: device(), events: [event('product_view'), event('product_view'), event('gd_start_session')] };
    const first = await ingest(api, app.appKey, 'ingestBatch', body);
    expect(first.body).toMatchObject({ status: 'OK', duplicates: [], rejected: [] });
    expect(first.body.accepted).toHaveLength(3);
    const again = await ingest(api, app.appKey, 'ingestBatch', body);
    expect(again.body).toMatchObject({ status: 'OK', accepted: [] });
    expect(again.body.duplicates).toEqual(body.events.map((e) => e.id));
    expect(await count('SELECT count(*) AS n FROM events WHERE app_id = $1', [app.id])).toBe(3);
    const daily = await api.deps.db.query<{ name: string; events: number }>('SELECT name, sum(events)::int AS events FROM event_daily WHERE app_id = $1 GROUP BY name ORDER BY name', [app.id]);
    expect(daily.rows).toEqual([{ name: 'gd_start_session', events: 1 }, { name: 'product_view', events: 2 }]);
  });

  it('stores exactly the good events of a batch with bad ones, and says why each bad one was refused', async () => {
    const app = await freshApp();
    const good = [event('add_to_cart', { properties: { sku: 'A1', price: 9.5 } }), event('gd_transaction', { revenue: 19.99, currency: 'EUR' })];
    const bad = [
      { id: randomUUID(), name: 'gd_made_up', time: new Date().toISOString() },
      { id: randomUUID(), name: '9 bad name', time: new Date().toISOString() },
      { id: randomUUID(), name: 'no_time' },
      { name: 'no_id', time: new Date().toISOString() },
      event('pay', { currency: 'EUR' }),
      event('big', { properties: Object.fromEntries(Array.from({ length: INGEST_LIMITS.maxPropertyKeys + 1 }, (_, i) => [`k${i}`, i])) }),
    ];
    const answer = await ingest(api, app.appKey, 'ingestBatch', { device: device(), events: [good[0], ...bad, good[1]] });
    expect(answer.body.status).toBe('OK');
    expect(answer.body.accepted).toEqual(good.map((e) => e.id));
    const rejected = answer.body.rejected as { index: number; id: string | null; code: number; reason: string }[];
    expect(rejected.map((r) => r.index)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(rejected.every((r) => r.code === ErrorCode.MANDATORY && r.reason.length > 0)).toBe(true);
    expect(rejected[0]?.reason).toMatch(/reserved/);
    expect(rejected[2]?.reason).toMatch(/^time/);
    const stored = await api.deps.db.query<{ client_id: string }>('SELECT client_id FROM events WHERE app_id = $1 ORDER BY event_time', [app.id]);
    expect(stored.rows.map((r) => r.client_id).sort()).toEqual(good.map((e) => e.id).sort());
    const person = await api.deps.db.query('SELECT conversions, revenue::float AS revenue, last_purchase_at IS NOT NULL AS bought FROM people WHERE app_id = $1', [app.id]);
    expect(person.rows).toEqual([{ conversions: 1, revenue: 19.99, bought: true }]);
  });

  it('keeps late event times and clamps far-future ones', async () => {
    const app = await freshApp();
    const late = event('late', { time: '2025-02-03T10:00:00Z' });
    const future = event('future', { time: Date.now() + 3 * 86_400_000 });
    const answer = await ingest(api, app.appKey, 'ingestBatch', { device: device(), events: [late, future] });
    const clamped = answer.body.clamped as { id: string; time: string }[];
    expect(clamped.map((c) => c.id)).toEqual([future.id]);
    const rows = await api.deps.db.query<{ name: string; event_time: Date; received_at: Date }>('SELECT name, event_time, received_at FROM events WHERE app_id = $1', [app.id]);
    const byName = Object.fromEntries(rows.rows.map((r) => [r.name, r]));
    expect(byName.late?.event_time.toISOString()).toBe('2025-02-03T10:00:00.000Z');
    expect(byName.future?.event_time.getTime()).toBe(byName.future?.received_at.getTime());
    // The device was last seen at its latest event (here the clamped one), not whenever a batch arrives.
    const seen = await api.deps.db.query<{ last_seen_at: Date }>('SELECT last_seen_at FROM devices WHERE app_id = $1', [app.id]);
    expect(seen.rows[0]?.last_seen_at.getTime()).toBe(byName.future?.received_at.getTime());
    const lateOnly = await freshApp();
    await ingest(api, lateOnly.appKey, 'ingestBatch', { device: device(), events: [late] });
    const lateSeen = await api.deps.db.query<{ last_seen_at: Date }>('SELECT last_seen_at FROM devices WHERE app_id = $1', [lateOnly.id]);
    expect(lateSeen.rows[0]?.last_seen_at.toISOString()).toBe('2025-02-03T10:00:00.000Z');
  });

  it("keeps a device's last seen at its latest event time: late, out-of-order, event-less and identify calls never move it back or to their arrival", async () => {
    const app = await freshApp();
    const dev = device();
    const seen = async () => (await api.deps.db.query<{ first_seen_at: Date; last_seen_at: Date | null }>(
      'SELECT first_seen_at, last_seen_at FROM devices WHERE app_id = $1 AND device_key = $2', [app.id, dev.id])).rows[0];
    const ok = async (name: 'ingestBatch' | 'ingestIdentify' | 'ingestProfile', body: Record<string, unknown>) =>
      expect((await ingest(api, app.appKey, name, { device: dev, ...body })).body).toMatchObject({ status: 'OK' });
    const day = 86_400_000;
    const base = Date.now() - 10 * day;
    const at = (days: number) => new Date(base + days * day).toISOString();

    // Identified before any event: no activity known yet, whatever the time the call arrived.
    await ok('ingestIdentify', { customerId: `c-${randomUUID()}` });
    expect((await seen())?.last_seen_at).toBeNull();
    // A batch whose events are out of order: the latest of them, not the last in the list nor the arrival.
    await ok('ingestBatch', { events: [event('view', { time: at(5) }), event('view', { time: at(3) })] });
    expect((await seen())?.last_seen_at?.toISOString()).toBe(at(5));
    expect((await seen())?.first_seen_at.toISOString()).toBe(at(3));
    // An offline SDK's older batch arrives afterwards: last seen stays, first seen goes back.
    await ok('ingestBatch', { events: [event('view', { time: at(1) }), event('view', { time: at(2) })] });
    expect((await seen())?.last_seen_at?.toISOString()).toBe(at(5));
    expect((await seen())?.first_seen_at.toISOString()).toBe(at(1));
    // Calls without events (identify, profile, interactions alone) arrive now and say nothing of when the person was active.
    await ok('ingestIdentify', { customerId: `c-${randomUUID()}` });
    await ok('ingestProfile', { profile: { city: 'Bilbao' }, tags: { plan: 'gold' } });
    await ok('ingestBatch', { events: [], interactions: [{ id: randomUUID(), time: Date.now(), channel: 'push', kind: 'impression' }] });
    expect((await seen())?.last_seen_at?.toISOString()).toBe(at(5));
    // A clock running fast within the tolerance keeps its time on the event, but last seen is not in the future.
    const ahead = event('ahead', { time: new Date(Date.now() + INGEST_LIMITS.futureToleranceMs / 2).toISOString() });
    const before = Date.now();
    await ok('ingestBatch', { events: [ahead] });
    const after = Date.now();
    const stored = await api.deps.db.query<{ event_time: Date }>('SELECT event_time FROM events WHERE app_id = $1 AND client_id = $2', [app.id, ahead.id]);
    expect(stored.rows[0]?.event_time.toISOString()).toBe(ahead.time);
    const last = (await seen())?.last_seen_at?.getTime() ?? 0;
    expect(last).toBeGreaterThanOrEqual(before);
    expect(last).toBeLessThanOrEqual(after);
  });

  it('refuses, one by one, events with text Postgres cannot store, storing the good ones (never a retry code)', async () => {
    const app = await freshApp();
    const bad = [
      event('nul_name\u0000'), event('lone', { properties: { note: 'half \ud83d' } }), event('lowkey', { properties: { ['k\udc00']: 1 } }),
      event('nested', { properties: { list: ['ok', 'b\u0000d'] } }), event('src', { source: 'ad\u0000net' }), event('camp', { campaign: '\udfff' }),
      event('ancient', { time: '0999-06-01T00:00:00Z' }),
    ];
    const good = [event('fine', { properties: { mood: '😀 ok' } }), event('also_fine')];
    const answer = await ingest(api, app.appKey, 'ingestBatch', { device: device(), events: [good[0], ...bad, good[1]] });
    expect(answer.httpStatus).toBe(200);
    expect(answer.body.accepted).toEqual(good.map((e) => e.id));
    const rejected = answer.body.rejected as { index: number; reason: string }[];
    expect(rejected.map((r) => r.index)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    for (const r of rejected.slice(0, 6)) expect(r.reason).toMatch(/NUL character or an unpaired surrogate/);
    expect(rejected[6]?.reason).toMatch(/^time: earlier than/);
    expect(await count('SELECT count(*) AS n FROM events WHERE app_id = $1', [app.id])).toBe(2);
  });

  it('refuses a device, identify or profile call with such text as a whole (4xx, never 5xx)', async () => {
    const app = await freshApp();
    const answers = [
      await ingest(api, app.appKey, 'ingestBatch', { device: { ...device(), model: 'Pixel\u0000' }, events: [event('x')] }),
      await ingest(api, app.appKey, 'ingestIdentify', { device: device(), customerId: 'c\ud800' }),
      await ingest(api, app.appKey, 'ingestProfile', { device: device(), profile: { city: 'Ma\u0000drid' } }),
      await ingest(api, app.appKey, 'ingestProfile', { device: device(), profile: { attributes: { ['k\u0000']: 'v' } } }),
      await ingest(api, app.appKey, 'ingestProfile', { device: device(), tags: { plan: 'gold\udc00' } }),
      await ingest(api, app.appKey, 'ingestProfile', { device: device(), profile: { birthday: '0999-01-01' } }),
    ];
    for (const a of answers) expect([a.httpStatus, a.body.status, a.body.code]).toEqual([400, 'KO', ErrorCode.MANDATORY]);
  });

  it('refuses event times more than two years before the app was created, and never creates a table for a request', async () => {
    const app = await freshApp();
    const tables = async () => count(`SELECT count(*) AS n FROM pg_class WHERE relkind IN ('r', 'p')`, []);
    const before = await tables();
    const created = new Date((await api.deps.db.query<{ created_at: Date }>('SELECT created_at FROM apps WHERE id = $1', [app.id])).rows[0]!.created_at);
    const edge = new Date(created.getTime() - INGEST_LIMITS.pastToleranceMs);
    const events = [
      event('too_old', { time: new Date(edge.getTime() - 1000).toISOString() }),
      event('oldest_kept', { time: new Date(edge.getTime() + 60_000).toISOString() }),
      ...Array.from({ length: 23 }, (_, i) => event(`month_${i}`, { time: new Date(Date.now() - i * 31 * 86_400_000).toISOString() })),
    ];
    const answer = await ingest(api, app.appKey, 'ingestBatch', { device: device(), events });
    expect((answer.body.rejected as { id: string }[]).map((r) => r.id)).toEqual([events[0]!.id]);
    expect(answer.body.accepted).toHaveLength(24);
    expect(await tables()).toBe(before);
    // Kept all the same: the months without their own partition are in the DEFAULT one.
    expect(await count('SELECT count(*) AS n FROM events WHERE app_id = $1', [app.id])).toBe(24);
    expect(await count('SELECT count(*) AS n FROM events_default WHERE app_id = $1', [app.id])).toBeGreaterThan(0);
  });

  it('rate-limits unknown app keys per address, before looking them up', async () => {
    const limited = await startTestApi();
    try {
      const codes: number[] = [];
      for (let i = 0; i < 30; i++) codes.push((await ingest(limited, `gd_guess_${i}`, 'ingestBatch', { device: device(), events: [] })).httpStatus);
      expect(codes.slice(0, 15).every((c) => c === 401)).toBe(true);
      expect(codes.slice(-5).every((c) => c === 429)).toBe(true);
    } finally {
      await limited.stop();
    }
  });

  it('refuses a missing, wrong or other app key, and never writes across apps', async () => {
    const mine = await freshApp();
    const other = await freshApp();
    const body = { device: device(), events: [event('x')] };
    expect((await ingest(api, null, 'ingestBatch', body)).body).toMatchObject({ status: 'KO', code: ErrorCode.API_KEY_MISSING });
    const wrong = await ingest(api, 'gd_not_a_real_key', 'ingestBatch', body);
    expect([wrong.httpStatus, wrong.body.code]).toEqual([401, ErrorCode.API_KEY_INVALID]);
    await ingest(api, other.appKey, 'ingestBatch', body);
    expect(await count('SELECT count(*) AS n FROM events WHERE app_id = $1', [mine.id])).toBe(0);
    expect(await count('SELECT count(*) AS n FROM events WHERE app_id = $1', [other.id])).toBe(1);
    // The same event ids under another app are that app's own events, not duplicates.
    expect((await ingest(api, mine.appKey, 'ingestBatch', body)).body.accepted).toEqual([body.events[0]?.id]);
  });

  it('refuses a malformed batch as a whole with a catalogue code, and an oversized one', async () => {
    const app = await freshApp();
    const noDevice = await ingest(api, app.appKey, 'ingestBatch', { events: [event('x')] });
    expect([noDevice.httpStatus, noDevice.body.code]).toEqual([400, ErrorCode.MANDATORY]);
    const tooMany = await ingest(api, app.appKey, 'ingestBatch', { device: device(), events: Array.from({ length: INGEST_LIMITS.maxEvents + 1 }, () => event('x')) });
    expect(tooMany.body.code).toBe(ErrorCode.MANDATORY);
    const huge = await ingest(api, app.appKey, 'ingestBatch', JSON.stringify({ device: device(), events: [event('x', { properties: { s: 'x'.repeat(INGEST_LIMITS.maxBodyBytes) } })] }));
    expect([huge.httpStatus, huge.body.code]).toEqual([413, ErrorCode.MANDATORY]);
    expect(await count('SELECT count(*) AS n FROM events WHERE app_id = $1', [app.id])).toBe(0);
  });

  it('applies the built-in events to the person, sessions and lifecycle once', async () => {
    const app = await freshApp('America/New_York');
    const dev = device();
    const sessionId = randomUUID();
    const events = [
      event('gd_install', { time: '2026-11-01T03:30:00Z', source: 'adnet_x', campaign: 'black-friday' }),
      event('gd_register', { time: '2026-11-01T03:35:00Z' }),
      event('gd_start_session', { time: '2026-11-01T03:31:00Z', sessionId }),
      event('gd_end_session', { time: '2026-11-01T03:50:00Z', sessionId }),
      event('gd_uninstall', { time: '2026-11-02T12:00:00Z' }),
    ];
    await ingest(api, app.appKey, 'ingestBatch', { device: dev, events });
    await ingest(api, app.appKey, 'ingestBatch', { device: dev, events });
    const person: unknown = (await api.deps.db.query('SELECT from_source, from_campaign, install_at, registered_at, uninstall_at, last_session_at FROM people WHERE app_id = $1', [app.id])).rows[0];
    expect(person).toMatchObject({ from_source: 'adnet_x', from_campaign: 'black-friday', install_at: new Date('2026-11-01T03:30:00Z'), uninstall_at: new Date('2026-11-02T12:00:00Z') });
    const sessions = await api.deps.db.query('SELECT started_at, ended_at FROM sessions WHERE app_id = $1', [app.id]);
    expect(sessions.rows).toEqual([{ started_at: new Date('2026-11-01T03:31:00Z'), ended_at: new Date('2026-11-01T03:50:00Z') }]);
    expect(await count('SELECT count(*) AS n FROM lifecycle_events WHERE app_id = $1', [app.id])).toBe(2);
    // 03:30 UTC on Nov 1 is still Oct 31 in New York: the rollup counts it on the local day.
    const day = await api.deps.db.query<{ day: string }>("SELECT to_char(day, 'YYYY-MM-DD') AS day FROM event_daily WHERE app_id = $1 AND name = 'gd_install'", [app.id]);
    expect(day.rows).toEqual([{ day: '2026-10-31' }]);
    await ingest(api, app.appKey, 'ingestBatch', { device: dev, events: [event('gd_reinstall', { time: '2026-11-05T12:00:00Z' })] });
    expect((await api.deps.db.query('SELECT uninstall_at FROM people WHERE app_id = $1', [app.id])).rows[0]).toEqual({ uninstall_at: null });
  });

  it('keeps built-in effects across batches: a session ended later, purchases and logins added to a known person', async () => {
    const app = await freshApp('UTC');
    const dev = device();
    const sessionId = randomUUID();
    await ingest(api, app.appKey, 'ingestBatch', { device: dev, events: [
      event('gd_start_session', { time: '2026-11-03T10:00:00Z', sessionId }),
      event('gd_transaction', { time: '2026-11-03T10:05:00Z', revenue: 10, currency: 'EUR' }),
    ] });
    const first = await api.deps.db.query('SELECT conversions, revenue::float AS revenue, first_login_at FROM people WHERE app_id = $1', [app.id]);
    expect(first.rows).toEqual([{ conversions: 1, revenue: 10, first_login_at: null }]);
    await ingest(api, app.appKey, 'ingestBatch', { device: dev, events: [
      event('gd_login', { time: '2026-11-03T10:07:00Z' }),
      event('gd_transaction', { time: '2026-11-03T10:08:00Z', revenue: 5.5, currency: 'EUR' }),
      event('gd_end_session', { time: '2026-11-03T10:20:00Z', sessionId }),
    ] });
    const person = await api.deps.db.query('SELECT conversions, revenue::float AS revenue, first_login_at, last_purchase_at, last_session_at FROM people WHERE app_id = $1', [app.id]);
    expect(person.rows).toEqual([{
      conversions: 2, revenue: 15.5, first_login_at: new Date('2026-11-03T10:07:00Z'),
      last_purchase_at: new Date('2026-11-03T10:08:00Z'), last_session_at: new Date('2026-11-03T10:00:00Z'),
    }]);
    const sessions = await api.deps.db.query('SELECT started_at, ended_at FROM sessions WHERE app_id = $1', [app.id]);
    expect(sessions.rows).toEqual([{ started_at: new Date('2026-11-03T10:00:00Z'), ended_at: new Date('2026-11-03T10:20:00Z') }]);
  });

  it('moves rollup days when the app changes its time zone', async () => {
    const { client } = await registerAccount(api);
    const app = await createTestApp(client, { timezone: 'UTC' });
    await ingest(api, app.appKey, 'ingestBatch', { device: device(), events: [event('late_night', { time: '2026-11-10T02:00:00Z' })] });
    const days = async () => (await api.deps.db.query<{ day: string }>("SELECT to_char(day, 'YYYY-MM-DD') AS day FROM event_daily WHERE app_id = $1", [app.id])).rows;
    expect(await days()).toEqual([{ day: '2026-11-10' }]);
    await client.ok('updateApp', { name: 'Renamed', os: 'Android', timezone: 'America/Los_Angeles' }, { appId: app.id });
    expect(await days()).toEqual([{ day: '2026-11-09' }]);
  });

  it('stores message interactions once, apart from events', async () => {
    const app = await freshApp();
    const interaction = { id: randomUUID(), time: new Date().toISOString(), channel: 'push', kind: 'open', campaignId: 'c1', messageId: 'm1' };
    const body = { device: device(), events: [event('x', { id: interaction.id })], interactions: [interaction, { ...interaction, id: randomUUID(), kind: 'bogus' }] };
    const answer = await ingest(api, app.appKey, 'ingestBatch', body);
    expect(answer.body.interactions).toMatchObject({ accepted: [interaction.id], duplicates: [], rejected: [{ index: 1 }] });
    expect(answer.body.accepted).toEqual([interaction.id]);
    expect((await ingest(api, app.appKey, 'ingestBatch', body)).body.interactions).toMatchObject({ accepted: [], duplicates: [interaction.id] });
    expect(await count('SELECT count(*) AS n FROM message_interactions WHERE app_id = $1', [app.id])).toBe(1);
  });
});

describe('partitions', () => {
  it('creates a new month\'s partitions once when many batches race for it', async () => {
    const month = new Date(Date.UTC(2031 + Math.floor(Math.random() * 50), Math.floor(Math.random() * 12), 15));
    const calls = Array.from({ length: 8 }, () => api.deps.db.query('SELECT gd_ensure_month_partitions($1, $1)', [month]));
    await expect(Promise.all(calls)).resolves.toHaveLength(8);
    const name = `events_${month.getUTCFullYear()}_${String(month.getUTCMonth() + 1).padStart(2, '0')}`;
    expect(Number((await api.deps.db.query<{ n: string }>('SELECT count(*) AS n FROM pg_class WHERE relname = $1', [name])).rows[0]?.n)).toBe(1);
  });
});

describe('identify and profiles', () => {
  it('merges an anonymous device into the known person with its history', async () => {
    const app = await freshApp();
    const phone = device(), tablet = device();
    await ingest(api, app.appKey, 'ingestIdentify', { device: phone, customerId: 'cust-42', profile: { email: 'ana@example.com' } });
    await ingest(api, app.appKey, 'ingestBatch', { device: tablet, events: [event('browse'), event('gd_install')] });
    await ingest(api, app.appKey, 'ingestProfile', { device: tablet, tags: { plan: 'gold' } });
    const merged = await ingest(api, app.appKey, 'ingestIdentify', { device: tablet, customerId: 'cust-42' });
    expect(merged.body).toMatchObject({ status: 'OK', merged: true });
    const personId = merged.body.personId as string;
    const people = await api.deps.db.query<{ id: string; merged_into: string | null; customer_id: string | null }>('SELECT id::text, merged_into::text, customer_id FROM people WHERE app_id = $1 ORDER BY id', [app.id]);
    expect(people.rows.filter((p) => p.merged_into === null)).toEqual([{ id: personId, merged_into: null, customer_id: 'cust-42' }]);
    expect(people.rows.filter((p) => p.merged_into === personId)).toHaveLength(1);
    expect(await count('SELECT count(DISTINCT person_id) AS n FROM devices WHERE app_id = $1', [app.id])).toBe(1);
    expect(await count('SELECT count(*) AS n FROM events WHERE app_id = $1 AND person_id = $2', [app.id, personId])).toBe(2);
    expect(await count('SELECT count(*) AS n FROM person_tags WHERE app_id = $1 AND person_id = $2', [app.id, personId])).toBe(1);
    const known: unknown = (await api.deps.db.query('SELECT email, install_at IS NOT NULL AS installed FROM people WHERE app_id = $1 AND id = $2', [app.id, personId])).rows[0];
    expect(known).toEqual({ email: 'ana@example.com', installed: true });
    // Identifying again is a no-op.
    expect((await ingest(api, app.appKey, 'ingestIdentify', { device: tablet, customerId: 'cust-42' })).body).toMatchObject({ personId, merged: false });
  });

  it('moves a shared device to another known user without taking the first one\'s history', async () => {
    const app = await freshApp();
    const shared = device();
    const first = await ingest(api, app.appKey, 'ingestIdentify', { device: shared, customerId: 'alice' });
    await ingest(api, app.appKey, 'ingestBatch', { device: shared, events: [event('alice_did_this')] });
    const second = await ingest(api, app.appKey, 'ingestIdentify', { device: shared, customerId: 'bob' });
    expect(second.body).toMatchObject({ merged: false });
    expect(second.body.personId).not.toBe(first.body.personId);
    await ingest(api, app.appKey, 'ingestBatch', { device: shared, events: [event('bob_did_this')] });
    const owners = await api.deps.db.query<{ name: string; customer_id: string }>(
      'SELECT e.name, p.customer_id FROM events e JOIN people p ON p.app_id = e.app_id AND p.id = e.person_id WHERE e.app_id = $1 ORDER BY e.name', [app.id]);
    expect(owners.rows).toEqual([{ name: 'alice_did_this', customer_id: 'alice' }, { name: 'bob_did_this', customer_id: 'bob' }]);
  });

  it('sets profile fields and typed tag values, refusing a value of the wrong type', async () => {
    const app = await freshApp();
    const dev = device();
    const first = await ingest(api, app.appKey, 'ingestProfile', {
      device: dev, profile: { email: 'eve@example.com', birthday: '1990-02-28', attributes: { tier: 'vip', old: 1 } },
      tags: { score: 12, since: '2024-05-01', nickname: 'evie' },
    });
    expect(first.body).toMatchObject({ status: 'OK', tags: { applied: ['score', 'since', 'nickname'], rejected: [] } });
    const second = await ingest(api, app.appKey, 'ingestProfile', { device: dev, profile: { attributes: { old: null } }, tags: { score: 'lots', since: null } });
    expect(second.body).toMatchObject({ tags: { applied: ['since'], rejected: [{ name: 'score' }] } });
    const tags = await api.deps.db.query(
      `SELECT t.name, t.value_type, pt.value_text, pt.value_number::float AS value_number FROM person_tags pt JOIN tags t ON t.id = pt.tag_id
        WHERE pt.app_id = $1 ORDER BY t.name`, [app.id]);
    expect(tags.rows).toEqual([
      { name: 'nickname', value_type: 'text', value_text: 'evie', value_number: null },
      { name: 'score', value_type: 'number', value_text: null, value_number: 12 },
    ]);
    const person: unknown = (await api.deps.db.query("SELECT email, to_char(birthday, 'YYYY-MM-DD') AS birthday, attributes FROM people WHERE app_id = $1", [app.id])).rows[0];
    expect(person).toEqual({ email: 'eve@example.com', birthday: '1990-02-28', attributes: { tier: 'vip' } });
  });
});

describe('rate limit', () => {
  it('answers 429 with Retry-After once an app key spends its burst, without touching other keys', async () => {
    const limited = await startTestApi({ INGEST_RATE_PER_SECOND: '0.001', INGEST_RATE_BURST: '2' });
    try {
      const { client } = await registerAccount(limited);
      const app = await createTestApp(client);
      const other = await createTestApp(client);
      const body = { device: device(), events: [] };
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await ingest(limited, app.appKey, 'ingestBatch', body)).httpStatus);
      expect(statuses).toEqual([200, 200, 429]);
      const res = await fetch(`${limited.url}/api/ingest/v1/batch`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-app-key': app.appKey }, body: JSON.stringify(body) });
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await ingest(limited, other.appKey, 'ingestBatch', body)).httpStatus).toBe(200);
    } finally {
      await limited.stop();
    }
  });

  it('gives an app ONE per-key budget across ingestion, the SDK\'s messages and web push', async () => {
    const limited = await startTestApi({ INGEST_RATE_PER_SECOND: '0.001', INGEST_RATE_BURST: '2' });
    try {
      const { client } = await registerAccount(limited);
      const sdk = async (appKey: string, path: string) => {
        const res = await fetch(`${limited.url}/api${path}`, { headers: { 'x-app-key': appKey } });
        return { status: res.status, retryAfter: Number(res.headers.get('retry-after')), body: (await res.json()) as { status: string; code?: number } };
      };
      const inApp = (appKey: string) => sdk(appKey, `${endpoints.sdkInApp.path}?deviceId=d-${randomUUID()}`);
      const webPushKey = (appKey: string) => sdk(appKey, '/ingest/v1/web-push/key');

      // Spent on ingestion: the SDK's endpoints and web push answer 429.
      const first = await createTestApp(client);
      for (let i = 0; i < 2; i++) expect((await ingest(limited, first.appKey, 'ingestBatch', { device: device(), events: [] })).httpStatus).toBe(200);
      for (const answer of [await inApp(first.appKey), await webPushKey(first.appKey)]) {
        expect([answer.status, answer.body.code]).toEqual([429, ErrorCode.NO_PERMISSION]);
        expect(answer.retryAfter).toBeGreaterThan(0);
      }
      // Spent on the SDK's messages: ingestion answers 429.
      const second = await createTestApp(client);
      for (let i = 0; i < 2; i++) expect((await inApp(second.appKey)).status).toBe(200);
      expect((await ingest(limited, second.appKey, 'ingestBatch', { device: device(), events: [] })).httpStatus).toBe(429);
      expect((await webPushKey(second.appKey)).status).toBe(429);
    } finally {
      await limited.stop();
    }
  });

  it('gives an address ONE allowance of unknown keys across the app-key endpoints', async () => {
    const limited = await startTestApi();
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 40 && statuses.at(-1) !== 429; i++) statuses.push((await ingest(limited, `gd_guess_${i}`, 'ingestBatch', { device: device(), events: [] })).httpStatus);
      expect(statuses.at(-1)).toBe(429);
      // The guesses went on to other endpoints: held all the same, before any lookup.
      const sdk = await fetch(`${limited.url}/api${endpoints.sdkInApp.path}?deviceId=x`, { headers: { 'x-app-key': 'gd_guess_sdk' } });
      expect(sdk.status).toBe(429);
      const webPush = await fetch(`${limited.url}/api/ingest/v1/web-push/key`, { headers: { 'x-app-key': 'gd_guess_push' } });
      expect(webPush.status).toBe(429);
    } finally {
      await limited.stop();
    }
  });

  it('answers CORS preflights for browsers on other sites', async () => {
    const res = await fetch(`${api.url}/api/ingest/v1/batch`, { method: 'OPTIONS', headers: { origin: 'https://shop.example', 'access-control-request-headers': 'x-app-key,content-type' } });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-headers')).toMatch(/x-app-key/);
  });
});
