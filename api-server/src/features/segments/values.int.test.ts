/**
 * Value suggestions of segment fields (issue 11: "Country 'Spain' finds nobody"): the most
 * frequent stored values of a field in the app, from data sent through the real ingestion API,
 * ordered by how many people have them, narrowed by a prefix; fields the catalogue does not know
 * or that have no values are refused with 10001; another account's app and a role without the
 * segment editor's permission with 10004.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEGMENT_VALUE_LIMITS, type SegmentValue } from '@gd/shared';
import { addMember, createTestApp, ingest, registerAccount, startTestApi, type TestApi, type TestClient } from '../../testing/harness.ts';
import { single } from './testing/data.ts';

let api: TestApi;
let owner: TestClient;
let app: { id: string; appKey: string };

/** People of the app: country, city, device OS and the plan their signup event carries. */
const PEOPLE = [
  { country: 'ES', city: 'Madrid', os: 'Android', plan: 'gold' },
  { country: 'ES', city: 'madrid', os: 'Android', plan: 'gold' },
  { country: 'ES', city: 'Sevilla', os: 'iOS', plan: 'silver' },
  { country: 'ES', city: 'Madrid', os: 'iOS', plan: ['gold', 'trial'] },
  { country: 'MX', city: 'Monterrey', os: 'Android', plan: 'silver' },
  { country: 'MX', city: 'Merida', os: 'Android', plan: 'gold' },
  { country: 'FR', city: 'Paris', os: 'Web', plan: 'bronze' },
] as const;

beforeAll(async () => {
  api = await startTestApi({ INGEST_RATE_PER_SECOND: '1000', INGEST_RATE_BURST: '100000' });
  owner = (await registerAccount(api)).client;
  app = await createTestApp(owner);
  for (const person of PEOPLE) {
    const device = { id: randomUUID(), os: person.os, osVersion: '14', appVersion: '3.0.0', country: person.country, city: person.city };
    const answer = await ingest(api, app.appKey, 'ingestBatch', {
      device,
      events: [{ id: randomUUID(), name: 'signup', time: new Date(Date.now() - 60_000).toISOString(), properties: { plan: person.plan } }],
    });
    expect(answer.body).toMatchObject({ status: 'OK' });
  }
});
afterAll(async () => {
  await api.stop();
});

const ask = (client: TestClient, appId: string, query: Record<string, string>) => client.call('segmentValues', undefined, { appId }, query);

async function values(query: Record<string, string>): Promise<SegmentValue[]> {
  const answer = await ask(owner, app.id, query);
  expect(answer.body).toMatchObject({ status: 'OK', sampled: false });
  return (answer.body as unknown as { values: SegmentValue[] }).values;
}

describe('the values of a field', () => {
  it('lists the countries of the ingested people, most frequent first, with how many people have each', async () => {
    expect(await values({ type: 'attribute', id: 'country' })).toEqual([
      { value: 'ES', count: 4 },
      { value: 'MX', count: 2 },
      { value: 'FR', count: 1 },
    ]);
  });

  it('counts what the estimate of the same condition counts', async () => {
    const [top] = await values({ type: 'attribute', id: 'country' });
    const { count } = await owner.ok<{ count: number }>('estimateSegment', { segment: single({ type: 'attribute', id: 'country', condition: 'equals', multiSelect: [top!.value] }) }, { appId: app.id });
    expect(count).toBe(top!.count);
  });

  it('groups spellings that differ only in case (the conditions ignore case), showing the most frequent one', async () => {
    expect(await values({ type: 'attribute', id: 'city' })).toEqual([
      { value: 'Madrid', count: 3 },
      { value: 'Merida', count: 1 },
      { value: 'Monterrey', count: 1 },
      { value: 'Paris', count: 1 },
      { value: 'Sevilla', count: 1 },
    ]);
  });

  it('narrows to the values starting with q, ignoring case, and to limit values', async () => {
    expect(await values({ type: 'attribute', id: 'city', q: 'MA' })).toEqual([{ value: 'Madrid', count: 3 }]);
    expect(await values({ type: 'attribute', id: 'city', q: 'm' })).toEqual([
      { value: 'Madrid', count: 3 },
      { value: 'Merida', count: 1 },
      { value: 'Monterrey', count: 1 },
    ]);
    expect(await values({ type: 'attribute', id: 'city', q: 'm', limit: '2' })).toEqual([
      { value: 'Madrid', count: 3 },
      { value: 'Merida', count: 1 },
    ]);
    expect(await values({ type: 'attribute', id: 'country', q: 'zz' })).toEqual([]);
  });

  it("lists the devices' operating systems and an event property's values (array elements included)", async () => {
    expect(await values({ type: 'device_os', id: 'os' })).toEqual([
      { value: 'Android', count: 4 },
      { value: 'iOS', count: 2 },
      { value: 'Web', count: 1 },
    ]);
    expect(await values({ type: 'user_event_tag', id: 'signup/plan' })).toEqual([
      { value: 'gold', count: 4 },
      { value: 'silver', count: 2 },
      { value: 'bronze', count: 1 },
      { value: 'trial', count: 1 },
    ]);
    expect(await values({ type: 'user_event', id: 'signup/plan', q: 'S' })).toEqual([{ value: 'silver', count: 2 }]);
  });
});

describe('a sampled field', () => {
  it("reads the devices seen most recently: devices never seen (no event yet) do not fill the sample", async () => {
    const sampledApp = await createTestApp(owner);
    for (const os of ['Android', 'Android', 'Web']) {
      const answer = await ingest(api, sampledApp.appKey, 'ingestBatch', {
        device: { id: randomUUID(), os, osVersion: '14', appVersion: '3.0.0' },
        events: [{ id: randomUUID(), name: 'signup', time: new Date(Date.now() - 60_000).toISOString() }],
      });
      expect(answer.body).toMatchObject({ status: 'OK' });
    }
    // A person who only identified, on a whole sample's worth of devices that never sent an event.
    const identified = await ingest(api, sampledApp.appKey, 'ingestIdentify', { device: { id: randomUUID(), os: 'iOS' }, customerId: 'never-seen' });
    expect(identified.body).toMatchObject({ status: 'OK' });
    const inserted = await api.db.query(
      `INSERT INTO devices (app_id, device_key, person_id, os, last_seen_at)
       SELECT d.app_id, d.device_key || '-' || g, d.person_id, d.os, NULL
         FROM devices d CROSS JOIN generate_series(2, $2::int) g
        WHERE d.app_id = $1 AND d.last_seen_at IS NULL`,
      [sampledApp.id, SEGMENT_VALUE_LIMITS.scanRows],
    );
    expect(inserted.rowCount).toBe(SEGMENT_VALUE_LIMITS.scanRows - 1);
    const answer = await ask(owner, sampledApp.id, { type: 'device_os', id: 'os' });
    expect(answer.body).toMatchObject({
      status: 'OK', sampled: true,
      values: [{ value: 'Android', count: 2 }, { value: 'Web', count: 1 }, { value: 'iOS', count: 1 }],
    });
  });
});

describe('refusals', () => {
  it('refuses a field the catalogue does not know with 10001 naming the id', async () => {
    for (const query of [{ type: 'attribute', id: 'shoe_size' }, { type: 'device_os', id: 'colour' }, { type: 'user_tag', id: randomUUID() }]) {
      const answer = await ask(owner, app.id, query);
      expect(answer.httpStatus).toBe(400);
      expect(answer.body).toMatchObject({ status: 'KO', code: 10001, details: [{ path: 'id', message: 'unknown_target' }] });
    }
    const kind = await ask(owner, app.id, { type: 'shoe', id: 'country' });
    expect(kind.body).toMatchObject({ status: 'KO', code: 10001 });
  });

  it('refuses a known field without values to list (e-mail, dates) with 10001', async () => {
    for (const id of ['email', 'birthday', 'push_active']) {
      const answer = await ask(owner, app.id, { type: 'attribute', id });
      expect(answer.body).toMatchObject({ status: 'KO', code: 10001, details: [{ path: 'id', message: 'values_not_listed' }] });
    }
  });

  it("answers 10004 for another account's app, like a missing one", async () => {
    const other = await registerAccount(api);
    const foreign = await ask(other.client, app.id, { type: 'attribute', id: 'country' });
    expect(foreign.body).toMatchObject({ status: 'KO', code: 10004 });
    expect(foreign.body).not.toHaveProperty('values');
    const missing = await ask(owner, randomUUID(), { type: 'attribute', id: 'country' });
    expect(missing.body).toMatchObject({ status: 'KO', code: 10004 });
  });

  it("answers 10004 to a role without the segment editor's permission", async () => {
    const provider = await addMember(api, owner, 'provider');
    const answer = await ask(provider, app.id, { type: 'attribute', id: 'country' });
    expect(answer.body).toMatchObject({ status: 'KO', code: 10004 });
    const analyst = await addMember(api, owner, 'analyst');
    expect((await ask(analyst, app.id, { type: 'attribute', id: 'country' })).body).toMatchObject({ status: 'OK' });
  });
});
