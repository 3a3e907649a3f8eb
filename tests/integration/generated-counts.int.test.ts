/**
 * Generated activity through the whole path: ~300 people over 14 days of an app in Europe/Madrid
 * (the window crosses the end of summer time on 2026-10-25, a 25-hour local day) are sent through
 * the real ingestion API, then every count the behaviour screens' API answers is compared with a
 * count computed from the generated requests alone (ExpectedCounts), never from the database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMPTY_SENTINEL, OTHER_SENTINEL, type EndpointName } from '@gd/shared';
import { createTestApp, registerAccount, startTestApi, type TestApi } from '../../api-server/src/testing/harness.ts';
import { sendPeople } from '../../api-server/src/seed/behaviour.ts';
import { ExpectedCounts, addDays, generatePeople, type Dimension, type GeneratedPerson, type GeneratorConfig } from '../../api-server/src/seed/generator/index.ts';

interface Series { key: string | null; values: number[]; total: number }
interface ExploreBody { buckets: string[]; series: Series[]; source: 'rollup' | 'events' | 'peopleRollup' | 'propertyRollup' }
interface EventSummary { name: string; events: number; people: number; revenue: number }

const config: GeneratorConfig = { seed: 20_261_101, people: 300, days: 14, endDate: '2026-11-01', timezone: 'Europe/Madrid', appOs: 'iOS' };
const RANGE = { startDay: addDays(config.endDate, 1 - config.days), endDay: config.endDate };

let api: TestApi;
let owner: Awaited<ReturnType<typeof registerAccount>>;
let app: { id: string; appKey: string };
const people: GeneratedPerson[] = [...generatePeople(config)];
const expected = new ExpectedCounts(config.timezone);
for (const p of people) expected.addPerson(p);

const get = <T>(name: EndpointName, query: Record<string, string | number | boolean>) => owner.client.ok<T>(name, undefined, { appId: app.id }, { ...RANGE, ...query });
const explore = (query: Record<string, string | number | boolean>) => get<ExploreBody>('explore', { timeGroup: 'day', ...query });
const cents = (n: number) => Math.round(n * 100);

/** Series of a breakdown against expected values: top values one by one, the rest under __other__. */
function checkBreakdown(series: Series[], want: Map<string, number>) {
  const shown = new Map(series.map((s) => [s.key ?? '', s.total]));
  let other = 0;
  for (const [value, count] of want) {
    const key = value === '' ? EMPTY_SENTINEL : value;
    if (shown.has(key)) expect(shown.get(key), key).toBe(count);
    else other += count;
  }
  expect(shown.get(OTHER_SENTINEL) ?? 0).toBe(other);
  const smallestShown = Math.min(...series.filter((s) => s.key !== OTHER_SENTINEL).map((s) => s.total));
  for (const [value, count] of want) if (!shown.has(value === '' ? EMPTY_SENTINEL : value)) expect(count).toBeLessThanOrEqual(smallestShown);
  for (const s of series) expect(s.values.reduce((a, b) => a + b, 0)).toBe(s.total);
}

beforeAll(async () => {
  api = await startTestApi();
  owner = await registerAccount(api);
  app = await createTestApp(owner.client, { os: config.appOs, timezone: config.timezone });
  const stats = await sendPeople({ url: api.url, appKey: app.appKey }, people, { concurrency: 4 });
  expect(stats.accepted).toBe(expected.totalEvents);
  expect(stats.duplicates).toBe(0);
}, 180_000);

afterAll(async () => {
  await api.stop();
});

describe('generated activity, counted by the API', () => {
  it('generated a window worth checking', () => {
    expect(expected.totalEvents).toBeGreaterThan(5_000);
    expect(expected.days()).toEqual(Array.from({ length: config.days }, (_, i) => addDays(RANGE.startDay, i)));
    expect(expected.identifiedPeople).toBeGreaterThan(20);
    expect(expected.devices.size).toBeGreaterThan(expected.people);
  });

  it('resending people stores nothing twice', async () => {
    const stats = await sendPeople({ url: api.url, appKey: app.appKey }, people.slice(0, 15));
    expect(stats.accepted).toBe(0);
    expect(stats.duplicates).toBe(stats.events);
    const list = await get<{ events: EventSummary[] }>('listEvents', {});
    expect(list.events.reduce((s, e) => s + e.events, 0)).toBe(expected.totalEvents);
  });

  it('lists every event with its events, distinct people and revenue over the range', async () => {
    const { events } = await get<{ events: EventSummary[] }>('listEvents', {});
    expect(events.map((e) => e.name).sort()).toEqual(expected.eventNames());
    for (const e of events) {
      expect(e.events, e.name).toBe(expected.events(e.name));
      expect(e.people, e.name).toBe(expected.uniquePeople(e.name));
      expect(cents(e.revenue), e.name).toBe(cents(expected.revenue(e.name)));
    }
  });

  it('counts events and distinct people of every event per local day', async () => {
    const days = expected.days();
    for (const name of expected.eventNames()) {
      const trend = await get<{ buckets: string[]; events: number[]; people: number[] }>('eventTrend', { name, timeGroup: 'day' });
      expect(trend.buckets).toEqual(days);
      expect(trend.events, name).toEqual(days.map((d) => expected.events(name, d)));
      expect(trend.people, name).toEqual(days.map((d) => expected.uniquePeople(name, d)));
    }
  });

  it('explores daily counts, revenue and people of an event, from the rollups kept by ingestion', async () => {
    const days = expected.days();
    const sessions = await explore({ event: 'gd_start_session' });
    expect(sessions.source).toBe('rollup');
    expect(sessions.series).toEqual([{ key: null, values: days.map((d) => expected.events('gd_start_session', d)), total: expected.events('gd_start_session') }]);
    const revenue = await explore({ event: 'gd_transaction', metric: 'revenue' });
    expect(revenue.series[0]?.values.map(cents)).toEqual(days.map((d) => cents(expected.revenue('gd_transaction', d))));
    expect(cents(revenue.series[0]?.total ?? 0)).toBe(cents(expected.revenue('gd_transaction')));
    const buyers = await explore({ event: 'gd_transaction', metric: 'people' });
    expect(buyers.source).toBe('peopleRollup');
    expect(buyers.series[0]?.values).toEqual(days.map((d) => expected.uniquePeople('gd_transaction', d)));
    expect(buyers.series[0]?.total).toBe(expected.uniquePeople('gd_transaction'));
  });

  it('breaks events down by country, source, OS and app version as the devices sent them', async () => {
    const cases: [string, Dimension][] = [['gd_start_session', 'country'], ['product_view', 'source'], ['gd_install', 'source'], ['e_screen_name', 'os'], ['gd_start_session', 'appVersion']];
    for (const [event, dim] of cases) {
      const body = await explore({ event, breakdown: dim });
      expect(body.source).toBe('rollup');
      checkBreakdown(body.series, expected.breakdown(dim, event));
    }
  });

  it('breaks an event down by a property from the events table', async () => {
    const want = new Map<string, number>();
    for (const p of people) {
      for (const r of p.requests) {
        if (r.kind !== 'batch') continue;
        for (const e of r.body.events) if (e.name === 'product_view') want.set(String(e.properties?.category), (want.get(String(e.properties?.category)) ?? 0) + 1);
      }
    }
    const body = await explore({ event: 'product_view', breakdown: 'property', property: 'category' });
    expect(body.source).toBe('events');
    checkBreakdown(body.series, want);
  });

  it('has one person per customer id, and one per device never identified', async () => {
    const { rows } = await api.db.query<{ people: string; known: string; devices: string }>(
      `SELECT (SELECT count(*) FROM people WHERE app_id = $1 AND merged_into IS NULL) AS people,
              (SELECT count(*) FROM people WHERE app_id = $1 AND merged_into IS NULL AND customer_id IS NOT NULL) AS known,
              (SELECT count(*) FROM devices WHERE app_id = $1) AS devices`,
      [app.id],
    );
    expect(Number(rows[0]?.people)).toBe(expected.people);
    expect(Number(rows[0]?.known)).toBe(expected.identifiedPeople);
    expect(Number(rows[0]?.devices)).toBe(expected.devices.size);
  });

  it('keeps the user tags and birthdays the app set', async () => {
    for (const tag of ['loyalty_tier', 'favourite_category']) {
      const { rows } = await api.db.query<{ value: string; people: string }>(
        `SELECT pt.value_text AS value, count(*) AS people FROM person_tags pt JOIN tags t ON t.id = pt.tag_id
          WHERE pt.app_id = $1 AND t.name = $2 GROUP BY 1`,
        [app.id, tag],
      );
      expect(new Map(rows.map((r) => [r.value, Number(r.people)])), tag).toEqual(expected.tagValues(tag));
    }
    const { rows } = await api.db.query<{ n: string; named: string }>(
      `SELECT count(*) FILTER (WHERE birthday IS NOT NULL) AS n, count(*) FILTER (WHERE attributes ? 'first_name') AS named
         FROM people WHERE app_id = $1 AND merged_into IS NULL`,
      [app.id],
    );
    expect(Number(rows[0]?.n)).toBe(expected.peopleWithBirthday);
    expect(Number(rows[0]?.named)).toBe([...expected.tagValues('loyalty_tier').values()].reduce((a, b) => a + b, 0));
  });
});
