/**
 * Behaviour analytics against real Postgres, fed through the real ingestion API: an app in
 * America/New_York (UTC-5 in January) with events on both sides of local midnight, so days, hours
 * and the previous period are checked in the app's time zone, not in UTC.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMPTY_SENTINEL, ErrorCode, OTHER_SENTINEL, fillPath, endpoints, type EndpointName } from '@gd/shared';
import {
  addMember, createTestApp, ingest, registerAccount, startTestApi, type ApiAnswer, type TestApi, type TestClient,
} from '../../api-server/src/testing/harness.ts';

interface Series { key: string | null; values: number[]; total: number; previous?: number[]; previousTotal?: number }
interface ExploreBody { buckets: string[]; series: Series[]; source: string; previous: { startDay: string; endDay: string } | null }

let api: TestApi;
let owner: Awaited<ReturnType<typeof registerAccount>>;
let app: { id: string; appKey: string };

const RANGE = { startDay: '2025-01-10', endDay: '2025-01-12' };
const COUNTRIES = ['AR', 'BR', 'CL', 'DE', 'FR', 'GB', 'IT', 'JP', 'MX', 'NL', 'PT', 'SE'];

/** One device's batch of events, through the ingestion API. */
async function send(device: Record<string, unknown>, events: { name: string; time: string; revenue?: number; properties?: Record<string, unknown> }[]) {
  const body = {
    device: { id: randomUUID(), os: 'Android', appVersion: '1.0.0', ...device },
    events: events.map((e) => ({ id: randomUUID(), ...(e.revenue === undefined ? {} : { currency: 'EUR' }), ...e })),
  };
  const answer = await ingest(api, app.appKey, 'ingestBatch', body);
  expect(answer.body, JSON.stringify(answer.body)).toMatchObject({ status: 'OK', rejected: [] });
  expect(answer.body.accepted).toHaveLength(events.length);
}

async function get<T>(client: TestClient, name: EndpointName, query: Record<string, string | number | boolean>, params: Record<string, string> = { appId: app.id }): Promise<T & ApiAnswer['body']> {
  return (await client.call(name, undefined, params, query)).body as T & ApiAnswer['body'];
}
const totalsOf = (series: Series[]) => new Map(series.map((s) => [s.key, s.total]));
const exploreOf = (query: Record<string, string | number | boolean>) => get<ExploreBody>(owner.client, 'explore', { ...RANGE, ...query });

beforeAll(async () => {
  api = await startTestApi();
  owner = await registerAccount(api);
  app = await createTestApp(owner.client, { timezone: 'America/New_York' });

  // purchase: person A (ES) and B (US) in the range, C (no country) in the previous period.
  await send({ country: 'ES' }, [
    { name: 'purchase', time: '2025-01-10T04:30:00Z', revenue: 10, properties: { plan: 'pro' } }, // 2025-01-09 23:30 local: previous period
    { name: 'purchase', time: '2025-01-10T05:30:00Z', revenue: 20, properties: { plan: 'pro' } }, // 2025-01-10 00:30
    { name: 'purchase', time: '2025-01-11T15:00:00Z', revenue: 30, properties: { plan: 'pro' } }, // 2025-01-11 10:00
  ]);
  await send({ country: 'US', os: 'iOS' }, [
    { name: 'purchase', time: '2025-01-10T12:00:00Z', revenue: 5, properties: { plan: 'free' } }, // 2025-01-10 07:00
    { name: 'purchase', time: '2025-01-13T04:59:00Z', revenue: 7 }, // 2025-01-12 23:59
    { name: 'purchase', time: '2025-01-13T05:00:00Z', revenue: 100, properties: { plan: 'pro' } }, // 2025-01-13 00:00: after the range
  ]);
  await send({}, [{ name: 'purchase', time: '2025-01-08T12:00:00Z', revenue: 1 }]); // 2025-01-08 07:00: previous period

  // view: 12 countries sending 1..12 events on 2025-01-11, and 20 from a device with no country.
  for (const [i, country] of COUNTRIES.entries()) {
    await send({ country }, Array.from({ length: i + 1 }, () => ({ name: 'view', time: '2025-01-11T17:00:00Z', properties: { screen: 'home' } })));
  }
  await send({}, Array.from({ length: 20 }, () => ({ name: 'view', time: '2025-01-11T17:00:00Z' })));
  await send({}, [{ name: 'gd_start_session', time: '2025-01-11T17:00:00Z' }]);
  // 2025-03-09 is a 23-hour day in New York (02:00 EST jumps to 03:00 EDT).
  await send({}, [
    { name: 'dst', time: '2025-03-09T04:59:00Z' }, // 2025-03-08 23:59 EST: the day before
    { name: 'dst', time: '2025-03-09T06:30:00Z' }, // 01:30 EST
    { name: 'dst', time: '2025-03-09T07:30:00Z' }, // 03:30 EDT
    { name: 'dst', time: '2025-03-10T03:59:00Z' }, // 23:59 EDT
    { name: 'dst', time: '2025-03-10T04:00:00Z' }, // 2025-03-10 00:00 EDT: the day after
  ]);
});

afterAll(async () => {
  await api.stop();
});

describe('events in the app time zone', () => {
  it('counts events by local day, with events near midnight on the right side', async () => {
    const body = await exploreOf({ event: 'purchase', timeGroup: 'day' });
    expect(body.status).toBe('OK');
    expect(body.source).toBe('rollup');
    expect(body.buckets).toEqual(['2025-01-10', '2025-01-11', '2025-01-12']);
    expect(body.series).toEqual([{ key: null, values: [2, 1, 1], total: 4 }]);
  });

  it('answers the same days from the person structures (people metric) as from the rollup', async () => {
    const body = await exploreOf({ event: 'purchase', metric: 'people', timeGroup: 'day' });
    expect(body.source).toBe('peopleRollup');
    expect(body.series).toEqual([{ key: null, values: [2, 1, 1], total: 2 }]);
    const perPerson = await exploreOf({ event: 'purchase', metric: 'eventsPerPerson' });
    expect(perPerson.series[0]).toMatchObject({ values: [1, 1, 1], total: 2 });
    const revenue = await exploreOf({ event: 'purchase', metric: 'revenue', timeGroup: 'week' });
    expect(revenue).toMatchObject({ source: 'rollup', buckets: ['2025-01-10'], series: [{ key: null, values: [62], total: 62 }] });
  });

  it('compares with the previous period of the same length, aligned on the buckets', async () => {
    const body = await exploreOf({ event: 'purchase', compare: true });
    expect(body.previous).toEqual({ startDay: '2025-01-07', endDay: '2025-01-09' });
    expect(body.series).toEqual([{ key: null, values: [2, 1, 1], total: 4, previous: [0, 1, 1], previousTotal: 2 }]);
    const people = await exploreOf({ event: 'purchase', metric: 'people', compare: true });
    expect(people.series).toEqual([{ key: null, values: [2, 1, 1], total: 2, previous: [0, 1, 1], previousTotal: 2 }]);
  });

  it('has 24 hour buckets labelled HH:00 in local time', async () => {
    const day = await exploreOf({ event: 'purchase', timeGroup: 'hour', startDay: '2025-01-10', endDay: '2025-01-10' });
    expect(day.buckets, JSON.stringify(day)).toHaveLength(24);
    expect(day.buckets[0]).toBe('00:00');
    const values = day.series[0]?.values ?? [];
    expect(values[0]).toBe(1);
    expect(values[7]).toBe(1);
    expect(values.reduce((a, b) => a + b, 0)).toBe(2);
    const range = await exploreOf({ event: 'purchase', timeGroup: 'hour' });
    const hours = range.buckets.flatMap((bucket, i) => (range.series[0]?.values[i] ? [`${bucket}=${range.series[0].values[i]}`] : []));
    expect(hours).toEqual(['00:00=1', '07:00=1', '10:00=1', '23:00=1']);
  });

  it('keeps local days and hours right across a daylight-saving change', async () => {
    const day = { event: 'dst', startDay: '2025-03-09', endDay: '2025-03-09' };
    expect((await exploreOf({ ...day, timeGroup: 'day' })).series[0]?.values).toEqual([3]);
    const hours = await exploreOf({ ...day, timeGroup: 'hour', metric: 'people' });
    expect(hours.buckets.flatMap((b, i) => (hours.series[0]?.values[i] ? [b] : []))).toEqual(['01:00', '03:00', '23:00']);
    expect((await exploreOf({ event: 'dst', startDay: '2025-03-08', endDay: '2025-03-10', metric: 'people' })).series[0]?.values).toEqual([1, 1, 1]);
  });

  it('breaks down by country: top 10, (empty) for missing, the rest as other', async () => {
    const body = await exploreOf({ event: 'view', breakdown: 'country' });
    expect(body.source).toBe('rollup');
    const totals = totalsOf(body.series);
    expect(body.series).toHaveLength(11);
    expect(totals.get(EMPTY_SENTINEL)).toBe(20);
    expect(totals.get('SE')).toBe(12);
    expect(totals.has('BR')).toBe(false);
    expect(totals.get(OTHER_SENTINEL)).toBe(1 + 2 + 3);
    expect(body.series.at(-1)?.key).toBe(OTHER_SENTINEL);
    expect(body.series[0]?.values).toEqual([0, 20, 0]);
    const people = await exploreOf({ event: 'view', breakdown: 'country', metric: 'people' });
    expect(people.source).toBe('events');
    expect(totalsOf(people.series).get(OTHER_SENTINEL)).toBe(3);
  });

  it('breaks down by a property from the events table', async () => {
    const body = await exploreOf({ event: 'purchase', breakdown: 'property', property: 'plan' });
    expect(body.source).toBe('events');
    expect(body.series.map((s) => [s.key, s.values, s.total])).toEqual([
      ['pro', [1, 1, 0], 2], [EMPTY_SENTINEL, [0, 0, 1], 1], ['free', [1, 0, 0], 1],
    ]);
  });

  it('lists every event with events, people, revenue and the previous period', async () => {
    const body = await get<{ events: { name: string; builtIn: boolean; events: number; people: number; revenue: number; previousEvents: number }[] }>(owner.client, 'listEvents', RANGE);
    const byName = Object.fromEntries(body.events.map((e) => [e.name, e]));
    expect(byName.purchase).toMatchObject({ builtIn: false, events: 4, people: 2, revenue: 62, previousEvents: 2 });
    expect(byName.view).toMatchObject({ events: 98, people: 13, previousEvents: 0 });
    expect(byName.gd_start_session).toMatchObject({ builtIn: true, events: 1, people: 1 });
    expect(body.events[0]?.name).toBe('view');
    const quick = await get<{ events: { name: string; events: number; people: number | null }[] }>(owner.client, 'listEvents', { ...RANGE, people: false });
    expect(quick.events.find((e) => e.name === 'purchase')).toMatchObject({ events: 4, people: null });
  });

  it('gives one event\'s trend and its top properties', async () => {
    const trend = await get<{ buckets: string[]; events: number[]; people: number[] }>(owner.client, 'eventTrend', { ...RANGE, name: 'purchase' });
    expect(trend).toMatchObject({ buckets: ['2025-01-10', '2025-01-11', '2025-01-12'], events: [2, 1, 1], people: [2, 1, 1] });
    const props = await get<{ sampled: number; properties: { name: string; count: number; values: { value: string; count: number }[] }[] }>(owner.client, 'eventProperties', { ...RANGE, name: 'purchase' });
    expect(props.sampled).toBe(4);
    expect(props.properties).toEqual([{ name: 'plan', count: 3, distinct: 2, values: [{ value: 'pro', count: 2 }, { value: 'free', count: 1 }] }]);
  });

  it('refuses bad queries with 10001', async () => {
    const cases: Record<string, string | number | boolean>[] = [
      { event: 'purchase', startDay: '2024-01-01', endDay: '2025-01-02' },
      { event: 'purchase', startDay: '2025-01-02', endDay: '2025-01-01' },
      { event: 'purchase', metric: 'clicks' },
      { event: 'purchase', breakdown: 'property' },
      { event: 'purchase', timeGroup: 'year' },
      { startDay: '2025-01-01', endDay: '2025-01-02' },
    ];
    for (const query of cases) {
      const answer = await owner.client.call('explore', undefined, { appId: app.id }, query);
      expect(answer.body.code, JSON.stringify(query)).toBe(ErrorCode.MANDATORY);
    }
  });
});

describe('event catalogue', () => {
  it('lists custom events and the built-in ones with their labels in the request language', async () => {
    const body = await owner.client.ok<{ custom: { name: string }[]; builtIn: { name: string; key: string; label: string }[] }>('listEventDefinitions', undefined, { appId: app.id });
    expect(body.custom.map((e) => e.name)).toEqual(['dst', 'purchase', 'view']);
    expect(body.builtIn.find((e) => e.key === 'transaction')).toEqual({ name: 'gd_transaction', key: 'transaction', label: 'Sale' });
    const es = await owner.client.raw('GET', fillPath(endpoints.listEventDefinitions.path, { appId: app.id }), { headers: { 'accept-language': 'es-ES,es;q=0.9' } });
    expect((es.body.builtIn as { key: string; label: string }[]).find((e) => e.key === 'transaction')?.label).toBe('Venta');
  });

  it('edits a custom event with api:events.edit, refuses it without, and never edits built-in events', async () => {
    const path = (name: string) => fillPath(endpoints.updateEventDefinition.path, { appId: app.id, eventName: name });
    const put = (client: TestClient, name: string, body: unknown) => client.raw('PUT', path(name), { body: JSON.stringify(body) });

    const saved = await put(owner.client, 'purchase', { label: 'Purchase completed', conversionType: 'paid' });
    expect(saved.body).toMatchObject({ status: 'OK', definition: { name: 'purchase', label: 'Purchase completed', conversionType: 'paid', hidden: false } });
    const hidden = await put(owner.client, 'purchase', { hidden: true });
    expect(hidden.body).toMatchObject({ definition: { label: 'Purchase completed', conversionType: 'paid', hidden: true } });

    const analyst = await addMember(api, owner.client, 'analyst');
    const refused = await put(analyst, 'purchase', { label: 'Changed by an analyst' });
    expect(refused.body.code).toBe(ErrorCode.NO_PERMISSION);
    const list = await analyst.ok<{ custom: { name: string; label: string | null; hidden: boolean }[] }>('listEventDefinitions', undefined, { appId: app.id });
    expect(list.custom.find((e) => e.name === 'purchase')).toMatchObject({ label: 'Purchase completed', hidden: true });

    expect((await put(owner.client, 'gd_transaction', { label: 'Sale!' })).body.code).toBe(ErrorCode.NO_PERMISSION);
    expect((await put(owner.client, 'never_sent', { label: 'x' })).body.code).toBe(ErrorCode.NOT_EXIST);
    expect((await put(owner.client, 'purchase', { conversionType: 'bribe' })).body.code).toBe(ErrorCode.MANDATORY);
    expect((await put(owner.client, 'purchase', {})).body.code).toBe(ErrorCode.MANDATORY);

    const events = await get<{ events: { name: string; label: string | null; hidden: boolean }[] }>(owner.client, 'listEvents', RANGE);
    expect(events.events.find((e) => e.name === 'purchase')).toMatchObject({ label: 'Purchase completed', hidden: true });
  });

  it('gives another account\'s app nothing', async () => {
    const stranger = await registerAccount(api);
    const answer = await get(stranger.client, 'explore', { ...RANGE, event: 'purchase' });
    expect(answer.code).toBe(ErrorCode.NO_PERMISSION);
  });
});
