/**
 * The explore structures of migration 034 against real Postgres, through the ingestion API: after
 * batches, resent batches, concurrent batches, identify merges and a time zone change, the person
 * month bitmaps, distinct people per day and the property breakdown rollup equal a recount from
 * the events table. A fast-check model drives random sequences of those operations.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, ingest, registerAccount, startTestApi, type TestApi } from '../../testing/harness.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ INGEST_RATE_PER_SECOND: '1000', INGEST_RATE_BURST: '100000' });
});
afterAll(async () => {
  await api.stop();
});

const DAY = 86_400_000;
/** Midnight UTC 40 days ago: events on days 0..39 after it cross at least one month boundary. */
const BASE = Math.floor(Date.now() / DAY) * DAY - 40 * DAY;
const device = (id = randomUUID()) => ({ id, os: 'Android', appVersion: '1.0', country: 'ES' });
const event = (name: string, time: number, properties: Record<string, string | number> = {}) => ({ id: randomUUID(), name, time: new Date(time).toISOString(), properties });

async function freshApp(timezone: string) {
  const { client } = await registerAccount(api);
  return { ...(await createTestApp(client, { timezone })), client };
}

type Rows = Record<string, unknown>[];
const rows = async (sql: string, params: unknown[]): Promise<Rows> => (await api.deps.db.query(sql, params)).rows as Rows;

/** The structures as stored and as recounted from the events, in the same shape. */
async function compare(appId: string) {
  const stored = {
    months: await rows(`SELECT name, month::text, person_id::text, days FROM event_person_months WHERE app_id = $1 ORDER BY 1, 2, 3`, [appId]),
    daily: await rows(`SELECT name, day::text, people::int FROM event_people_daily WHERE app_id = $1 AND people <> 0 ORDER BY 1, 2`, [appId]),
    property: await rows(`SELECT name, property, day::text, value, events::int, revenue::float8 FROM event_property_daily WHERE app_id = $1 ORDER BY 1, 2, 3, 4`, [appId]),
  };
  const recount = {
    months: await rows(`
      WITH d AS (SELECT e.name, (e.event_time AT TIME ZONE a.timezone)::date AS day, e.person_id FROM events e JOIN apps a ON a.id = e.app_id WHERE e.app_id = $1),
      x AS (SELECT name, day, person_id FROM d UNION ALL SELECT '', day, person_id FROM d)
      SELECT name, date_trunc('month', day)::date::text AS month, person_id::text, bit_or(1 << (extract(day FROM day)::int - 1)) AS days
        FROM x GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`, [appId]),
    daily: await rows(`
      WITH d AS (SELECT e.name, (e.event_time AT TIME ZONE a.timezone)::date AS day, e.person_id FROM events e JOIN apps a ON a.id = e.app_id WHERE e.app_id = $1),
      x AS (SELECT name, day, person_id FROM d UNION ALL SELECT '', day, person_id FROM d)
      SELECT name, day::text, count(DISTINCT person_id)::int AS people FROM x GROUP BY 1, 2 ORDER BY 1, 2`, [appId]),
    property: await rows(`
      SELECT e.name, b.property, (e.event_time AT TIME ZONE a.timezone)::date::text AS day, coalesce(e.properties ->> b.property, '') AS value,
             count(*)::int AS events, coalesce(sum(e.revenue), 0)::float8 AS revenue
        FROM event_breakdowns b JOIN apps a ON a.id = b.app_id JOIN events e ON e.app_id = b.app_id AND e.name = b.name
       WHERE b.app_id = $1 GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`, [appId]),
  };
  return { stored, recount };
}

async function expectExact(appId: string) {
  const { stored, recount } = await compare(appId);
  expect(stored.months).toEqual(recount.months);
  expect(stored.daily).toEqual(recount.daily);
  expect(stored.property).toEqual(recount.property);
}

const okBatch = async (appKey: string, body: unknown) => expect((await ingest(api, appKey, 'ingestBatch', body)).body).toMatchObject({ status: 'OK' });
const okIdentify = async (appKey: string, body: unknown) => expect((await ingest(api, appKey, 'ingestIdentify', body)).body).toMatchObject({ status: 'OK' });
/** Marks a property as a breakdown already in force (its cut-over in the past): ingestion counts every batch. */
const mark = (appId: string, name: string, property: string) =>
  api.deps.db.query(`INSERT INTO event_breakdowns (app_id, name, property, since, backfilled_at) VALUES ($1, $2, $3, now() - interval '1 day', now())`, [appId, name, property]);

describe('explore structures kept by ingestion', () => {
  it('equal a recount after batches over days, months and a late-night time zone edge, resent and concurrent batches', async () => {
    const app = await freshApp('America/New_York');
    await mark(app.id, 'product_view', 'category');
    const a = device(), b = device();
    // 03:30 UTC is the previous local day in New York; day 10 and 11 both fall on local day 10.
    const first = { device: a, events: [
      event('product_view', BASE + 10 * DAY + 20 * 3600_000, { category: 'shoes' }),
      event('product_view', BASE + 11 * DAY + 3.5 * 3600_000, { category: 'shoes' }),
      event('product_view', BASE + 12 * DAY + 15 * 3600_000),
      event('search', BASE + 35 * DAY + 12 * 3600_000),
    ] };
    await okBatch(app.appKey, first);
    await okBatch(app.appKey, first); // resent: all duplicates
    await expectExact(app.id);
    // The same person again on a day they already had, with one new event in the same batch.
    await okBatch(app.appKey, { device: a, events: [event('product_view', BASE + 10 * DAY + 21 * 3600_000, { category: 7 }), event('add_to_cart', BASE + 2 * DAY)] });
    // Concurrent batches of two devices on the same days (the counters' rows are shared).
    await Promise.all([
      okBatch(app.appKey, { device: b, events: Array.from({ length: 20 }, (_, i) => event('product_view', BASE + (i % 5) * DAY + i * 60_000, { category: i % 3 ? 'bags' : '' })) }),
      ...Array.from({ length: 6 }, () => okBatch(app.appKey, { device: device(), events: [event('product_view', BASE + 3 * DAY, { category: 'bags' }), event('search', BASE + 39 * DAY)] })),
    ]);
    await expectExact(app.id);
    const peopleOn = await rows(`SELECT people::int FROM event_people_daily WHERE app_id = $1 AND name = '' AND day = $2::date`, [app.id, new Date(BASE + 2 * DAY).toISOString().slice(0, 10)]);
    // Midnight UTC of day 3 is the evening of day 2 in New York: device b and the six others.
    expect(peopleOn).toEqual([{ people: 7 }]);
  });

  it('stay exact when an anonymous person merges into a known one (identify), days shared or not', async () => {
    const app = await freshApp('UTC');
    const known = device(), anon = device();
    const customerId = `c-${randomUUID()}`;
    await okIdentify(app.appKey, { device: known, customerId });
    await okBatch(app.appKey, { device: known, events: [event('view', BASE + 2 * DAY), event('view', BASE + 3 * DAY)] });
    await okBatch(app.appKey, { device: anon, events: [event('view', BASE + 3 * DAY + 60_000), event('view', BASE + 4 * DAY), event('buy', BASE + 4 * DAY)] });
    const viewsOn3 = async () => (await rows(`SELECT people::int FROM event_people_daily WHERE app_id = $1 AND name = 'view' AND day = $2::date`, [app.id, new Date(BASE + 3 * DAY).toISOString().slice(0, 10)]))[0];
    expect(await viewsOn3()).toEqual({ people: 2 });
    await okIdentify(app.appKey, { device: anon, customerId });
    expect(await viewsOn3()).toEqual({ people: 1 });
    await expectExact(app.id);
    // The merged device's later batches land on the known person.
    await okBatch(app.appKey, { device: anon, events: [event('view', BASE + 3 * DAY + 120_000)] });
    await expectExact(app.id);
  });

  it('are rebuilt in the new time zone when the app changes it', async () => {
    const app = await freshApp('UTC');
    await mark(app.id, 'late', 'kind');
    await okBatch(app.appKey, { device: device(), events: [event('late', BASE + 9 * DAY + 2 * 3600_000, { kind: 'x' }), event('late', BASE + 9 * DAY + 23 * 3600_000, { kind: 'y' })] });
    await expectExact(app.id);
    await app.client.ok('updateApp', { name: 'Renamed', os: 'Android', timezone: 'America/Los_Angeles' }, { appId: app.id });
    await expectExact(app.id);
    const days = await rows(`SELECT day::text FROM event_people_daily WHERE app_id = $1 AND name = 'late' ORDER BY day`, [app.id]);
    expect(days).toEqual([{ day: new Date(BASE + 8 * DAY).toISOString().slice(0, 10) }, { day: new Date(BASE + 9 * DAY).toISOString().slice(0, 10) }]);
  });

  it('equal a recount after any sequence of batches, resends and merges (property)', async () => {
    type Op = { kind: 'batch'; device: number; days: number[]; name: number } | { kind: 'resend' } | { kind: 'identify'; device: number; customer: number };
    const op: fc.Arbitrary<Op> = fc.oneof(
      { weight: 5, arbitrary: fc.record({ kind: fc.constant('batch' as const), device: fc.nat(3), days: fc.array(fc.nat(39), { minLength: 1, maxLength: 4 }), name: fc.nat(1) }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('resend' as const) }) },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('identify' as const), device: fc.nat(3), customer: fc.nat(1) }) },
    );
    await fc.assert(fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 10 }), fc.constantFrom('UTC', 'Asia/Tokyo'), async (ops, timezone) => {
      const app = await freshApp(timezone);
      await mark(app.id, 'e0', 'v');
      const devices = Array.from({ length: 4 }, () => device());
      const customers = [`a-${randomUUID()}`, `b-${randomUUID()}`];
      let last: unknown = null;
      for (const o of ops) {
        if (o.kind === 'batch') {
          last = { device: devices[o.device], events: o.days.map((d, i) => event(`e${o.name}`, BASE + d * DAY + i * 3_600_000, { v: d % 2 ? 'odd' : 'even' })) };
          await okBatch(app.appKey, last);
        } else if (o.kind === 'resend') {
          if (last) await okBatch(app.appKey, last);
        } else {
          await okIdentify(app.appKey, { device: devices[o.device], customerId: customers[o.customer] });
        }
      }
      await expectExact(app.id);
    }), { numRuns: 12 });
  });
});
