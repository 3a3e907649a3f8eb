/**
 * "Last seen" is the person's last activity (issue 11): the latest event time their SDK sent, not
 * when data arrived. Through the real ingestion API and the screens' endpoints: the profile, its
 * devices, the people seen most recently, search ties and a segment's sample, with an offline
 * SDK's late batch arriving after newer ones, and identify/profile calls arriving now.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createGroupNode, type PersonSummary, type ResponseOf, type SamplePerson } from '@gd/shared';
import { createTestApp, ingest, registerAccount, startTestApi, type TestApi } from '../../testing/harness.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ INGEST_RATE_PER_SECOND: '1000', INGEST_RATE_BURST: '100000' });
});
afterAll(async () => {
  await api.stop();
});

const DAY = 86_400_000;
const device = () => ({ id: randomUUID(), os: 'Android', osVersion: '14', appVersion: '3.0.0', country: 'ES' });
const event = (name: string, time: string) => ({ id: randomUUID(), name, time });

it('is the latest event time on the profile, its devices, the recent list, search and segment samples, whatever the order data arrives in', async () => {
  const { client } = await registerAccount(api);
  const app = await createTestApp(client);
  const send = async (name: 'ingestBatch' | 'ingestIdentify' | 'ingestProfile', body: Record<string, unknown>) =>
    expect((await ingest(api, app.appKey, name, body)).body).toMatchObject({ status: 'OK' });
  const base = Date.now() - 20 * DAY;
  const at = (days: number) => new Date(base + days * DAY).toISOString();

  // Ana was active until day 10, then an offline phone sends her older days 2–4 after everything else.
  const ana = device();
  await send('ingestBatch', { device: ana, events: [event('gd_start_session', at(9)), event('product_view', at(10))] });
  await send('ingestIdentify', { device: ana, customerId: 'last-seen-ana', profile: { email: 'ana@example.com' } });
  // Ben was active on day 12, before Ana's late batch and profile update arrive.
  const ben = device();
  await send('ingestBatch', { device: ben, events: [event('product_view', at(12))] });
  await send('ingestIdentify', { device: ben, customerId: 'last-seen-ben' });
  await send('ingestBatch', { device: ana, events: [event('product_view', at(4)), event('gd_start_session', at(2))] });
  await send('ingestProfile', { device: ana, profile: { attributes: { first_name: 'Ana' } }, tags: { plan: 'gold' } });
  // Cleo only identified: no activity known.
  await send('ingestIdentify', { device: device(), customerId: 'last-seen-cleo' });

  const get = <T>(name: 'searchPeople' | 'getPerson', params: Record<string, string>, q?: string) => client.ok<T>(name, undefined, params, { q });
  const recent = (await get<{ people: PersonSummary[] }>('searchPeople', { appId: app.id }, '')).people;
  expect(recent.map((p) => [p.customerId, p.lastSeenAt])).toEqual([
    ['last-seen-ben', at(12)], ['last-seen-ana', at(10)], ['last-seen-cleo', null],
  ]);
  // Search ranks ties by last seen the same way.
  const found = (await get<{ people: PersonSummary[] }>('searchPeople', { appId: app.id }, 'last-seen-')).people;
  expect(found.map((p) => [p.customerId, p.lastSeenAt])).toEqual([
    ['last-seen-ben', at(12)], ['last-seen-ana', at(10)], ['last-seen-cleo', null],
  ]);

  const anaId = recent[1]!.id;
  const profile = await get<ResponseOf<'getPerson'>>('getPerson', { appId: app.id, personId: anaId });
  expect(profile.summary).toMatchObject({ firstSeenAt: at(2), lastSeenAt: at(10), events: 4 });
  expect(profile.devices.map((d) => [d.deviceKey, d.firstSeenAt, d.lastSeenAt])).toEqual([[ana.id, at(2), at(10)]]);
  const cleo = await get<ResponseOf<'getPerson'>>('getPerson', { appId: app.id, personId: recent[2]!.id });
  expect(cleo.summary.lastSeenAt).toBeNull();

  const { sample } = await client.ok<{ sample: SamplePerson[] }>('estimateSegment', { segment: { rootKey: 'root', nodes: [createGroupNode('root')] } }, { appId: app.id });
  expect(Object.fromEntries(sample.map((p) => [p.customerId, p.lastSeenAt]))).toEqual({
    'last-seen-ana': at(10), 'last-seen-ben': at(12), 'last-seen-cleo': null,
  });
});

it("lists a person's devices seen most recently first, and devices never seen (no event yet) last", async () => {
  const { client } = await registerAccount(api);
  const app = await createTestApp(client);
  const send = async (name: 'ingestBatch' | 'ingestIdentify', body: Record<string, unknown>) =>
    expect((await ingest(api, app.appKey, name, body)).body).toMatchObject({ status: 'OK' });
  const now = Date.now();
  const at = (daysAgo: number) => new Date(now - daysAgo * DAY).toISOString();
  // Dana's old phone was active 5 days ago, her tablet 3 days ago; her new phone only signed in
  // (just now, so it was first seen after both were last seen).
  const [old, tablet, fresh] = [device(), device(), device()];
  await send('ingestBatch', { device: old, events: [event('product_view', at(5))] });
  await send('ingestIdentify', { device: old, customerId: 'devices-dana' });
  await send('ingestBatch', { device: tablet, events: [event('product_view', at(3))] });
  await send('ingestIdentify', { device: tablet, customerId: 'devices-dana' });
  await send('ingestIdentify', { device: fresh, customerId: 'devices-dana' });

  const { people } = await client.ok<{ people: PersonSummary[] }>('searchPeople', undefined, { appId: app.id }, { q: 'devices-dana' });
  expect(people.map((p) => p.customerId)).toEqual(['devices-dana']);
  const profile = await client.ok<ResponseOf<'getPerson'>>('getPerson', undefined, { appId: app.id, personId: people[0]!.id });
  expect(profile.devices.map((d) => d.deviceKey)).toEqual([tablet.id, old.id, fresh.id]);
  expect(profile.devices.map((d) => d.lastSeenAt).slice(0, 2)).toEqual([at(3), at(5)]);
  // The new phone shows when it was first seen, later than the others' activity: still last.
  const shown = profile.devices[2]!;
  expect(shown.lastSeenAt).toBe(shown.firstSeenAt);
  expect(Date.parse(shown.firstSeenAt)).toBeGreaterThan(Date.parse(at(3)));
});
