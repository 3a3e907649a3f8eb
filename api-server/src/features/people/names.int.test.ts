/**
 * People lists carry the person's name (issue 11): search results, the people seen most recently,
 * a segment estimate's sample and an audience's members, computed by the API with the shared
 * `personName` rule from the profile attributes apps send (first and last name, or a whole name),
 * through the real ingestion API and the screens' endpoints.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createGroupNode, type PersonSummary, type SamplePerson } from '@gd/shared';
import { createTestApp, ingest, registerAccount, startTestApi, type TestApi } from '../../testing/harness.ts';
import { single } from '../segments/testing/data.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ INGEST_RATE_PER_SECOND: '1000', INGEST_RATE_BURST: '100000' });
});
afterAll(async () => {
  await api.stop();
});

const device = () => ({ id: randomUUID(), os: 'iOS', osVersion: '18', appVersion: '2.0.0', country: 'ES' });

it('shows the name from the profile attributes in search, the recent list, a segment sample and audience members', async () => {
  const { client } = await registerAccount(api);
  const app = await createTestApp(client);
  const send = async (name: 'ingestBatch' | 'ingestIdentify' | 'ingestProfile', body: Record<string, unknown>) =>
    expect((await ingest(api, app.appKey, name, body)).body).toMatchObject({ status: 'OK' });

  // Ana sends first and last names among other attributes; Ben a whole name; Cleo no name at all.
  const ana = device();
  await send('ingestBatch', { device: ana, events: [{ id: randomUUID(), name: 'product_view', time: new Date(Date.now() - 60_000).toISOString() }] });
  await send('ingestIdentify', { device: ana, customerId: 'names-ana', profile: { email: 'ana@example.com', attributes: { first_name: ' Ana ', last_name: 'López', plan: 'gold', name: 7 } } });
  const ben = device();
  await send('ingestIdentify', { device: ben, customerId: 'names-ben', profile: { attributes: { full_name: 'Ben  Okafor', first_name: 'B' } } });
  await send('ingestIdentify', { device: device(), customerId: 'names-cleo', profile: { attributes: { plan: 'silver' } } });

  const search = async (q: string) => (await client.ok<{ people: PersonSummary[] }>('searchPeople', undefined, { appId: app.id }, { q })).people;
  const names = (people: readonly { customerId: string | null; name: string | null }[]): Record<string, string | null> =>
    Object.fromEntries(people.map((p) => [p.customerId ?? '', p.name]));
  const expected = { 'names-ana': 'Ana López', 'names-ben': 'Ben Okafor', 'names-cleo': null };

  expect(names(await search(''))).toEqual(expected);
  expect(names(await search('names-'))).toEqual(expected);
  const [exact] = await search('ana@example.com');
  expect(exact).toMatchObject({ customerId: 'names-ana', name: 'Ana López', match: 'email' });
  // A list never carries anyone's other attributes.
  expect(exact).not.toHaveProperty('attributes');

  const { sample } = await client.ok<{ sample: SamplePerson[] }>('estimateSegment', { segment: { rootKey: 'root', nodes: [createGroupNode('root')] } }, { appId: app.id });
  expect(names(sample)).toEqual(expected);
  expect(sample[0]).not.toHaveProperty('attributes');

  const { audience } = await client.ok<{ audience: { id: string; status: string } }>('createAudience', {
    name: 'Spain', source: { from: 'definition', segment: single({ type: 'attribute', id: 'country', condition: 'equals', input: 'ES' }) },
  }, { appId: app.id });
  expect(audience.status).toBe('ready');
  const detail = await client.ok<{ sample: SamplePerson[] }>('getAudience', undefined, { appId: app.id, audienceId: audience.id });
  expect(names(detail.sample)).toEqual(expected);
});
