/**
 * Revenue in its currency, against real Postgres with events sent through the ingestion API: the
 * events list, explore's revenue and a person's profile name the one currency their revenue
 * events named, and none when those named several (features/analytics/currency.ts). Also: explore
 * may read the events list (it opens on the most frequent event) where the events screen is
 * restricted.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, type EndpointName } from '@gd/shared';
import { createTestApp, ingest, registerAccount, startTestApi, type ApiAnswer, type TestApi, type TestClient } from '../../api-server/src/testing/harness.ts';

let api: TestApi;
let owner: Awaited<ReturnType<typeof registerAccount>>;
let app: { id: string; appKey: string };
const RANGE = { startDay: '2025-03-10', endDay: '2025-03-16' };
const euroBuyer = randomUUID();
const mixedBuyer = randomUUID();

type Event = { name: string; time: string; revenue?: number; currency?: string };
async function send(appKey: string, deviceId: string, events: Event[]) {
  const body = { device: { id: deviceId, os: 'Android', appVersion: '1.0.0' }, events: events.map((e) => ({ id: randomUUID(), ...e })) };
  const answer = await ingest(api, appKey, 'ingestBatch', body);
  expect(answer.body, JSON.stringify(answer.body)).toMatchObject({ status: 'OK', rejected: [] });
}
async function get(client: TestClient, name: EndpointName, query: Record<string, string | boolean>, appId = app.id): Promise<ApiAnswer['body']> {
  return (await client.call(name, undefined, { appId }, query)).body;
}
const currencyOf = async (query: Record<string, string | boolean>) => (await get(owner.client, 'explore', { ...RANGE, metric: 'revenue', ...query })).currency;

beforeAll(async () => {
  api = await startTestApi();
  owner = await registerAccount(api);
  app = await createTestApp(owner.client, { timezone: 'UTC' });
  // purchase: in euros only. subscription: euros and dollars. refund: revenue without a currency.
  // level_up: no revenue. In the week before the range a purchase in dollars (the previous period).
  await send(app.appKey, euroBuyer, [
    { name: 'purchase', time: '2025-03-11T10:00:00Z', revenue: 9.99, currency: 'EUR' },
    { name: 'purchase', time: '2025-03-12T10:00:00Z', revenue: 20, currency: 'EUR' },
    { name: 'level_up', time: '2025-03-12T11:00:00Z' },
    { name: 'purchase', time: '2025-03-05T10:00:00Z', revenue: 3, currency: 'USD' },
  ]);
  await send(app.appKey, mixedBuyer, [
    { name: 'subscription', time: '2025-03-13T10:00:00Z', revenue: 5, currency: 'EUR' },
    { name: 'subscription', time: '2025-03-14T10:00:00Z', revenue: 6, currency: 'USD' },
    { name: 'refund', time: '2025-03-14T12:00:00Z', revenue: -2 },
  ]);
});

afterAll(async () => {
  await api.stop();
});

describe('the currency of revenue', () => {
  it('is named per event in the events list: the one its revenue events named, none for several, none sent or no revenue', async () => {
    const body = (await get(owner.client, 'listEvents', { ...RANGE, people: false })) as unknown as { events: { name: string; revenue: number; currency: string | null }[] };
    const byName = new Map(body.events.map((e) => [e.name, e]));
    expect(byName.get('purchase')).toMatchObject({ revenue: 29.99, currency: 'EUR' });
    expect(byName.get('subscription')).toMatchObject({ revenue: 11, currency: null });
    expect(byName.get('refund')).toMatchObject({ revenue: -2, currency: null });
    expect(byName.get('level_up')).toMatchObject({ revenue: 0, currency: null });
  });

  it('is named by explore for revenue over the range, and over the previous period too when comparing', async () => {
    expect(await currencyOf({ event: 'purchase' })).toBe('EUR');
    expect(await currencyOf({ event: 'purchase', breakdown: 'country' })).toBe('EUR');
    expect(await currencyOf({ event: 'purchase', timeGroup: 'hour' })).toBe('EUR');
    // The previous week's purchase was in dollars: compared, the figures mix two currencies.
    expect(await currencyOf({ event: 'purchase', compare: true })).toBeNull();
    expect(await currencyOf({ event: 'subscription' })).toBeNull();
    expect(await currencyOf({ event: 'level_up' })).toBeNull();
    // Other metrics count events, not money.
    expect((await get(owner.client, 'explore', { ...RANGE, event: 'purchase', metric: 'events' })).currency).toBeNull();
  });

  it("is named on a person's profile when all their transactions were in one currency", async () => {
    const personOf = async (deviceId: string) => {
      const found = (await get(owner.client, 'searchPeople', { q: deviceId })) as unknown as { people: { id: string }[] };
      const answer = await owner.client.call('getPerson', undefined, { appId: app.id, personId: found.people[0]?.id ?? '' });
      return (answer.body as unknown as { person: { revenue: number; revenueCurrency: string | null } }).person;
    };
    // The profile's revenue adds up the person's transactions (gd_transaction), whenever they were.
    const loyal = randomUUID();
    await send(app.appKey, loyal, [
      { name: 'gd_transaction', time: '2025-03-11T10:00:00Z', revenue: 4, currency: 'GBP' },
      { name: 'gd_transaction', time: '2025-02-11T10:00:00Z', revenue: 5, currency: 'GBP' },
      { name: 'subscription', time: '2025-03-12T10:00:00Z', revenue: 1, currency: 'USD' },
    ]);
    expect(await personOf(loyal)).toMatchObject({ revenue: 9, revenueCurrency: 'GBP' });
    const traveller = randomUUID();
    await send(app.appKey, traveller, [
      { name: 'gd_transaction', time: '2025-03-11T10:00:00Z', revenue: 4, currency: 'GBP' },
      { name: 'gd_transaction', time: '2025-03-12T10:00:00Z', revenue: 5, currency: 'EUR' },
    ]);
    expect(await personOf(traveller)).toMatchObject({ revenue: 9, revenueCurrency: null });
    // Other events' revenue is not the profile's: a person without transactions has no currency.
    expect(await personOf(euroBuyer)).toMatchObject({ revenue: 0, revenueCurrency: null });
  });
});

describe('the events list for explore', () => {
  it('answers where the app restricts the events screen but not explore, and refuses where both are', async () => {
    const onlyExplore = await createTestApp(owner.client, { timezone: 'UTC' });
    await owner.client.ok('updateApp', { name: 'Explore only', os: 'Android', timezone: 'UTC', restricted: ['route:/behavior/events'] }, { appId: onlyExplore.id });
    await send(onlyExplore.appKey, randomUUID(), [{ name: 'level_up', time: '2025-03-12T11:00:00Z' }]);
    expect(await get(owner.client, 'listEvents', { ...RANGE, people: false }, onlyExplore.id)).toMatchObject({ status: 'OK', events: [{ name: 'level_up', events: 1 }] });

    const neither = await createTestApp(owner.client);
    await owner.client.ok('updateApp', { name: 'Neither', os: 'Android', restricted: ['route:/behavior/events', 'route:/behavior/explore'] }, { appId: neither.id });
    expect(await get(owner.client, 'listEvents', RANGE, neither.id)).toMatchObject({ status: 'KO', code: ErrorCode.NO_PERMISSION });
  });
});
