/**
 * Explore's fast sources (migration 034) against the events table, on the same data fed through
 * the real ingestion API: every answer of the property breakdown rollup and of the person
 * structures equals the events-table answer of the same query (`explore(..., { eventsTable: true })`),
 * over day, week and month buckets, with the previous period, in a time zone with daylight saving,
 * with more than ten property values (`__other__`), missing and null values (`__empty__`), and people
 * merged by identify. The breakdown mark's cut-over: events received before it are counted by the
 * backfill, those after by ingestion, none twice, and the mark is used only once ready; the job
 * runner claims and runs the backfill.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMPTY_SENTINEL, ErrorCode, ExploreQuery, OTHER_SENTINEL } from '@gd/shared';
import { createTestApp, ingest, registerAccount, startTestApi, type TestApi } from '../../testing/harness.ts';
import { wakeJobRunners } from '../../jobs/runner.ts';
import { backfillMark } from './breakdowns.ts';
import { explore } from './explore.ts';
import { resolveRange } from './range.ts';

let api: TestApi;
let owner: Awaited<ReturnType<typeof registerAccount>>;
let app: { id: string; appKey: string; timezone: string };

const TZ = 'Europe/Madrid';
const DAY = 86_400_000;
/** 2025-02-20 .. 2025-04-10: weeks and months, and the change to summer time on 2025-03-30. */
const START = Date.UTC(2025, 1, 20);
const PLANS = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n'];

/** A small deterministic generator (same data on every run). */
function lcg(seed: number) {
  let x = seed;
  return (n: number) => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return (x >>> 8) % n;
  };
}

async function send(deviceId: string, events: { name: string; time: number; revenue?: number; properties?: Record<string, unknown> }[]) {
  const body = {
    device: { id: deviceId, os: 'Android', country: 'ES' },
    events: events.map((e) => ({ id: randomUUID(), name: e.name, time: new Date(e.time).toISOString(), properties: e.properties, ...(e.revenue === undefined ? {} : { revenue: e.revenue, currency: 'EUR' }) })),
  };
  const answer = await ingest(api, app.appKey, 'ingestBatch', body);
  expect(answer.body, JSON.stringify(answer.body)).toMatchObject({ status: 'OK', rejected: [] });
}

/** A batch of purchases and views of `devices`, random days and hours of the window, plan values skewed to the first letters. */
async function feed(seed: number, devices: string[], batches: number) {
  const r = lcg(seed);
  for (let b = 0; b < batches; b++) {
    const events = Array.from({ length: 1 + r(6) }, () => {
      const time = START + r(50) * DAY + r(24) * 3_600_000 + r(60) * 60_000;
      const pick = r(20);
      const plan = pick < 2 ? undefined : pick < 3 ? null : pick < 4 ? 7 : PLANS[Math.min(r(PLANS.length), r(PLANS.length))];
      return r(3) === 0
        ? { name: 'view', time }
        : { name: 'purchase', time, revenue: 1 + r(50), properties: plan === undefined ? {} : { plan } };
    });
    await send(devices[r(devices.length)] ?? devices[0]!, events);
  }
}

const exploreBoth = async (q: Record<string, unknown>) => {
  const query = ExploreQuery.parse(q);
  const range = resolveRange(query, query.startDay ?? '2025-04-10');
  const fast = await explore(api.deps.db, app, range, query);
  const slow = await explore(api.deps.db, app, range, query, { eventsTable: true });
  return { fast, slow };
};

const markProperty = (properties: string[]) =>
  owner.client.call('setEventBreakdowns', { properties }, { appId: app.id, eventName: 'purchase' });

beforeAll(async () => {
  api = await startTestApi();
  owner = await registerAccount(api);
  app = await createTestApp(owner.client, { timezone: TZ });
  const devices = Array.from({ length: 12 }, () => randomUUID());
  await feed(1, devices, 40);
  // Two anonymous devices merge into a known person who was active on some of the same days.
  await ingest(api, app.appKey, 'ingestIdentify', { device: { id: devices[0] }, customerId: 'known' });
  await ingest(api, app.appKey, 'ingestIdentify', { device: { id: devices[1] }, customerId: 'known' });
});

afterAll(async () => {
  await api.stop();
});

describe('the breakdown mark and its backfill', () => {
  it('counts events before the cut-over by the backfill and after it by ingestion, once each, and is used only when ready', async () => {
    const marked = await markProperty(['plan']);
    expect(marked.body).toMatchObject({ status: 'OK', definition: { name: 'purchase', breakdowns: [{ property: 'plan', ready: false, state: 'counting', attempts: 0, error: null }] } });
    const q = { event: 'purchase', breakdown: 'property', property: 'plan', startDay: '2025-03-01', endDay: '2025-03-31', timeGroup: 'week' };
    expect((await exploreBoth(q)).fast.source).toBe('events');
    // Received before the cut-over (a few seconds ahead of the mark): left to the backfill.
    await feed(2, [randomUUID(), randomUUID()], 6);
    // The cut-over passes (moved back to now instead of waiting for it); the next batches are counted by ingestion.
    await api.deps.db.query(`UPDATE event_breakdowns SET since = clock_timestamp() WHERE app_id = $1`, [app.id]);
    await feed(3, [randomUUID(), randomUUID()], 6);
    const id = (await api.deps.db.query<{ id: string }>('SELECT id FROM event_breakdowns WHERE app_id = $1', [app.id])).rows[0]!.id;
    expect(await backfillMark(api.deps.db, id)).toBe('done');
    expect(await backfillMark(api.deps.db, id)).toBe('skipped'); // a second claim adds nothing
    const rollup = await api.deps.db.query(
      `SELECT day::text, value, events::int, revenue::float8 FROM event_property_daily WHERE app_id = $1 AND name = 'purchase' AND property = 'plan' ORDER BY 1, 2`, [app.id]);
    const recount = await api.deps.db.query(
      `SELECT (event_time AT TIME ZONE $2)::date::text AS day, coalesce(properties ->> 'plan', '') AS value, count(*)::int AS events, sum(revenue)::float8 AS revenue
         FROM events WHERE app_id = $1 AND name = 'purchase' GROUP BY 1, 2 ORDER BY 1, 2`, [app.id, TZ]);
    expect(rollup.rows).toEqual(recount.rows);
    const { fast, slow } = await exploreBoth(q);
    expect(fast.source).toBe('propertyRollup');
    expect(fast).toEqual({ ...slow, source: 'propertyRollup' });
    const definitions = await owner.client.ok<{ custom: { name: string; breakdowns: unknown[] }[] }>('listEventDefinitions', undefined, { appId: app.id });
    // backfillMark was called directly, not claimed by the runner: no attempt counted.
    expect(definitions.custom.find((d) => d.name === 'purchase')?.breakdowns).toEqual([{ property: 'plan', ready: true, state: 'ready', attempts: 0, maxAttempts: 5, error: null }]);
  });

  it('answers every bucket and period from the property rollup exactly as from the events table, sentinels included', async () => {
    for (const timeGroup of ['day', 'week', 'month']) {
      for (const metric of ['events', 'revenue']) {
        const { fast, slow } = await exploreBoth({ event: 'purchase', metric, breakdown: 'property', property: 'plan', startDay: '2025-03-10', endDay: '2025-04-09', timeGroup, compare: 'true' });
        expect(fast.source).toBe('propertyRollup');
        expect(fast).toEqual({ ...slow, source: 'propertyRollup' });
        const keys = fast.series.map((s) => s.key);
        expect(keys).toContain(EMPTY_SENTINEL);
        expect(keys.at(-1)).toBe(OTHER_SENTINEL);
        expect(keys).toHaveLength(11);
      }
    }
  });

  it('unmarks a property (its rollup goes), refuses built-in events, unknown events and more than five', async () => {
    expect((await owner.client.call('setEventBreakdowns', { properties: ['x', 'x'] }, { appId: app.id, eventName: 'purchase' })).body).toMatchObject({ code: ErrorCode.MANDATORY });
    expect((await owner.client.call('setEventBreakdowns', { properties: ['a', 'b', 'c', 'd', 'e', 'f'] }, { appId: app.id, eventName: 'purchase' })).body).toMatchObject({ status: 'KO' });
    expect((await owner.client.call('setEventBreakdowns', { properties: ['p'] }, { appId: app.id, eventName: 'gd_install' })).body).toMatchObject({ code: ErrorCode.NO_PERMISSION });
    expect((await owner.client.call('setEventBreakdowns', { properties: ['p'] }, { appId: app.id, eventName: 'never_sent' })).body).toMatchObject({ code: ErrorCode.NOT_EXIST });
    const other = await registerAccount(api);
    expect((await other.client.call('setEventBreakdowns', { properties: [] }, { appId: app.id, eventName: 'purchase' })).body).toMatchObject({ status: 'KO' });
    expect((await api.deps.db.query('SELECT 1 FROM event_breakdowns WHERE app_id = $1', [app.id])).rowCount).toBe(1);
    await markProperty(['plan', 'color']);
    const unmarked = await markProperty(['color']);
    expect(unmarked.body).toMatchObject({ definition: { breakdowns: [{ property: 'color', ready: false }] } });
    expect((await api.deps.db.query(`SELECT 1 FROM event_property_daily WHERE app_id = $1 AND property = 'plan'`, [app.id])).rowCount).toBe(0);
    const { fast } = await exploreBoth({ event: 'purchase', breakdown: 'property', property: 'plan', startDay: '2025-03-10', endDay: '2025-04-09' });
    expect(fast.source).toBe('events');
    await markProperty([]);
  });
});

describe('the backfill job', () => {
  it('is claimed and run by the job runner once the cut-over has passed, and the mark becomes ready', async () => {
    expect((await owner.client.call('setEventBreakdowns', { properties: ['screen'] }, { appId: app.id, eventName: 'view' })).body).toMatchObject({ status: 'OK' });
    // The cut-over and the job's start moved to now instead of waiting for them.
    await api.deps.db.query(`UPDATE event_breakdowns SET since = clock_timestamp(), run_at = now() WHERE app_id = $1 AND name = 'view'`, [app.id]);
    let ready = false;
    for (let i = 0; i < 200 && !ready; i++) {
      wakeJobRunners();
      await new Promise((r) => setTimeout(r, 50));
      const definitions = await owner.client.ok<{ custom: { name: string; breakdowns: { property: string; ready: boolean }[] }[] }>('listEventDefinitions', undefined, { appId: app.id });
      ready = definitions.custom.find((d) => d.name === 'view')?.breakdowns[0]?.ready ?? false;
    }
    expect(ready).toBe(true);
    const { fast, slow } = await exploreBoth({ event: 'view', breakdown: 'property', property: 'screen', startDay: '2025-03-01', endDay: '2025-04-09', timeGroup: 'month' });
    expect(fast.source).toBe('propertyRollup');
    expect(fast).toEqual({ ...slow, source: 'propertyRollup' });
    expect(fast.series.map((s) => s.key)).toEqual([EMPTY_SENTINEL]);
  });
});

describe('distinct people from the person structures', () => {
  it('equal the events table per day, week, month and period, with the previous period, for an event and for events per person', async () => {
    for (const timeGroup of ['day', 'week', 'month']) {
      for (const metric of ['people', 'eventsPerPerson']) {
        for (const event of ['purchase', 'view']) {
          const { fast, slow } = await exploreBoth({ event, metric, startDay: '2025-03-05', endDay: '2025-04-08', timeGroup, compare: 'true' });
          expect(fast.source).toBe('peopleRollup');
          expect(fast).toEqual({ ...slow, source: 'peopleRollup' });
          expect(fast.series[0]?.total).toBeGreaterThan(0);
        }
      }
    }
  });

  it('counts a person once over a range across months, while a per-day sum counts them every day', async () => {
    const { fast, slow } = await exploreBoth({ event: 'purchase', metric: 'people', startDay: '2025-02-20', endDay: '2025-04-10', timeGroup: 'day' });
    expect(fast).toEqual({ ...slow, source: 'peopleRollup' });
    const series = fast.series[0]!;
    const people = Number((await api.deps.db.query<{ n: string }>(`SELECT count(DISTINCT person_id) AS n FROM events WHERE app_id = $1 AND name = 'purchase'`, [app.id])).rows[0]?.n);
    expect(series.total).toBe(people);
    expect(series.values.reduce((a, b) => a + b, 0)).toBeGreaterThan(series.total);
  });

  it('keeps hours and people by a breakdown on the events table', async () => {
    expect((await exploreBoth({ event: 'purchase', metric: 'people', timeGroup: 'hour', startDay: '2025-03-10', endDay: '2025-03-12' })).fast.source).toBe('events');
    expect((await exploreBoth({ event: 'purchase', metric: 'people', breakdown: 'country', startDay: '2025-03-10', endDay: '2025-03-12' })).fast.source).toBe('events');
  });
});
