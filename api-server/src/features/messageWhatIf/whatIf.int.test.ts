/**
 * The message what-if through the real API and Postgres: reach per channel for an audience and a
 * segment, the channel of each draft type (an A/B test's variants), send times per time zone for
 * each schedule basis, the app's test devices, no target, another account's audience and segment
 * (answered as unused ids), and bodies the schema refuses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import * as Y from 'yjs';
import { ErrorCode, applySegmentToDoc, initSegmentDoc, type Segment } from '@gd/shared';
import { createPool, type Db } from '../../db/pool.ts';
import { createTestApp, registerAccount, startTestApi, type TestApi, type TestClient } from '../../testing/harness.ts';
import { insertDocument } from '../documents/repository.ts';
import { seeder, single } from '../segments/testing/data.ts';

interface WhatIf {
  total: number; reachable: { push: number; email: number; inApp: number }; channels: string[]; channel: number;
  timeZones: { timeZone: string; people: number; sendsAt: string }[];
  otherTimeZones: { zones: number; people: number; firstSendsAt: string | null; lastSendsAt: string | null };
  unknownTimeZone: number; appTimeZone: string; computedAt: string; computedInMs: number;
}

let api: TestApi;
let db: Db;
let owner: Awaited<ReturnType<typeof registerAccount>>;
let appId: string;
let audienceId: string;
let segmentId: string;

const DAYS = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAYS).toISOString();
const byCountry = (country: string): Segment => single({ type: 'attribute', id: 'country', condition: 'equals', input: country });
const AT = { kind: 'at', at: '2026-12-01T09:00', basis: 'deviceLocal' } as const;

const ask = (client: TestClient, body: Record<string, unknown>, app = appId) =>
  client.call('messageWhatIf', { type: 'push', schedule: { kind: 'now' }, ...body }, { appId: app });
const whatIf = async (body: Record<string, unknown>) => {
  const answer = await ask(owner.client, body);
  expect(answer.body, JSON.stringify(answer.body)).toMatchObject({ status: 'OK' });
  return answer.body as unknown as WhatIf;
};

/** Stores a segment's document as the sync server would. */
async function createSegment(client: TestClient, app: string, accountId: string, name: string, content: Segment): Promise<string> {
  const { segment } = await client.ok<{ segment: { id: string; docName: string } }>('createSegment', { name }, { appId: app });
  const doc = new Y.Doc();
  initSegmentDoc(doc, segment.docName);
  applySegmentToDoc(doc, content);
  await db.query('DELETE FROM documents WHERE name = $1', [segment.docName]);
  await insertDocument(db, { name: segment.docName, accountId, appId: app, kind: 'segment', entityId: segment.id, state: Y.encodeStateAsUpdate(doc) });
  return segment.id;
}

beforeAll(async () => {
  api = await startTestApi();
  db = createPool(inject('databaseUrl'), 2);
  owner = await registerAccount(api);
  appId = (await createTestApp(owner.client, { timezone: 'Europe/Madrid' })).id;
  const seed = seeder(db, appId);
  const person = async (customer: string, fields: { country: string; email?: string; session?: string; timezone?: string; merged?: boolean }) => {
    const id = await seed.person({ customer_id: customer, country: fields.country, email: fields.email ?? null, last_session_at: fields.session ?? null });
    await db.query(`UPDATE people SET attributes = $3, merged_into = $4 WHERE app_id = $1 AND id = $2`, [
      appId, id, fields.timezone === undefined ? {} : { timezone: fields.timezone }, fields.merged ? id : null,
    ]);
    return id;
  };
  // Spain: ana (every channel, New York), bo (a disabled push token, an old session, Tokyo),
  // cy (e-mail and a recent session, no zone: the app's), di (nothing, a zone that is no zone).
  const ana = await person('ana', { country: 'ES', email: 'ana@example.com', session: ago(1), timezone: 'America/New_York' });
  await seed.device(ana, { key: 'ana-phone', push_token: 'tok-ana', push_enabled: true });
  await db.query(`UPDATE devices SET gaid = '38400000-8cf0-11bd-b23e-10b96e40000d' WHERE app_id = $1 AND device_key = 'ana-phone'`, [appId]);
  const bo = await person('bo', { country: 'ES', session: ago(40), timezone: 'asia/tokyo' });
  await seed.device(bo, { key: 'bo-phone', push_token: 'tok-bo', push_enabled: false });
  await person('cy', { country: 'ES', email: 'cy@example.com', session: ago(3) });
  await person('di', { country: 'ES', email: '', timezone: 'Mars/Olympus' });
  // A merged person is nobody; France is another target.
  const old = await person('old', { country: 'ES', email: 'old@example.com', timezone: 'America/New_York', merged: true });
  await seed.device(old, { key: 'old-phone', push_token: 'tok-old', push_enabled: true });
  const fr = await person('fr', { country: 'FR', email: 'fr@example.com', session: ago(2), timezone: 'Europe/Paris' });
  await seed.device(fr, { key: 'fr-phone', push_token: 'tok-fr', push_enabled: true });

  segmentId = await createSegment(owner.client, appId, owner.accountId, 'Spain', byCountry('ES'));
  const { audience } = await owner.client.ok<{ audience: { id: string } }>('createAudience', {
    name: 'France', source: { from: 'definition', segment: byCountry('FR') },
  }, { appId });
  audienceId = audience.id;
  // Test devices: ana's phone by its advertising id, fr's by its SDK id.
  await owner.client.ok('addTestDevice', { name: 'Ana', idType: 'gaid', deviceId: '38400000-8CF0-11BD-B23E-10B96E40000D' }, { appId });
  await owner.client.ok('addTestDevice', { name: 'Fr', idType: 'auto', deviceId: 'fr-phone' }, { appId });
});
afterAll(async () => {
  await db.end();
  await api.stop();
});

describe('messageWhatIf', () => {
  it('counts a segment\'s people reachable per channel, read from its stored definition', async () => {
    const answer = await whatIf({ target: { kind: 'segment', id: segmentId } });
    expect(answer).toMatchObject({ total: 4, reachable: { push: 1, email: 2, inApp: 2 }, channels: ['push'], channel: 1, appTimeZone: 'Europe/Madrid' });
    expect(answer.computedInMs).toBeGreaterThanOrEqual(0);
  });

  it('counts an audience\'s members', async () => {
    const answer = await whatIf({ target: { kind: 'audience', id: audienceId }, type: 'email' });
    expect(answer).toMatchObject({ total: 1, reachable: { push: 1, email: 1, inApp: 1 }, channels: ['email'], channel: 1 });
    expect(answer.timeZones).toEqual([{ timeZone: 'Europe/Paris', people: 1, sendsAt: answer.computedAt }]);
  });

  it('counts the channel of the draft\'s type: in-app types, and every variant\'s channel of an A/B test', async () => {
    const target = { kind: 'segment', id: segmentId };
    expect(await whatIf({ target, type: 'banner' })).toMatchObject({ channels: ['inApp'], channel: 2 });
    expect(await whatIf({ target, type: 'email' })).toMatchObject({ channels: ['email'], channel: 2 });
    expect(await whatIf({ target, type: 'test_ab', variantTypes: ['push', 'email'] })).toMatchObject({ channels: ['push', 'email'], channel: 1 });
    expect(await whatIf({ target, type: 'test_ab', variantTypes: ['strip', 'email'] })).toMatchObject({ channels: ['email', 'inApp'], channel: 2 });
  });

  it('groups people by time zone and times a device-local schedule in each', async () => {
    const answer = await whatIf({ target: { kind: 'segment', id: segmentId }, schedule: AT });
    // cy has no zone and di's is none: both count in the app's.
    expect(answer.timeZones).toEqual([
      { timeZone: 'Europe/Madrid', people: 2, sendsAt: '2026-12-01T08:00:00.000Z' },
      { timeZone: 'America/New_York', people: 1, sendsAt: '2026-12-01T14:00:00.000Z' },
      { timeZone: 'Asia/Tokyo', people: 1, sendsAt: '2026-12-01T00:00:00.000Z' },
    ]);
    expect(answer).toMatchObject({ unknownTimeZone: 2, otherTimeZones: { zones: 0, people: 0, firstSendsAt: null, lastSendsAt: null } });
  });

  it('sends at one instant, in the app\'s time zone, for the userTimezone basis and a recurring schedule\'s first send', async () => {
    const at = await whatIf({ target: { kind: 'segment', id: segmentId }, schedule: { ...AT, basis: 'userTimezone' } });
    expect(new Set(at.timeZones.map((z) => z.sendsAt))).toEqual(new Set(['2026-12-01T08:00:00.000Z']));
    const recurring = await whatIf({
      target: { kind: 'segment', id: segmentId }, schedule: { kind: 'recurring', startsAt: '2026-07-01T09:00', basis: 'deviceLocal', frequency: 'weekly', endsAt: null },
    });
    // Summer time: Madrid is UTC+2, New York UTC-4.
    expect(recurring.timeZones.map((z) => [z.timeZone, z.sendsAt])).toEqual([
      ['Europe/Madrid', '2026-07-01T07:00:00.000Z'], ['America/New_York', '2026-07-01T13:00:00.000Z'], ['Asia/Tokyo', '2026-07-01T00:00:00.000Z'],
    ]);
  });

  it('counts the people owning the app\'s test devices', async () => {
    const answer = await whatIf({ target: { kind: 'testDevices' } });
    expect(answer).toMatchObject({ total: 2, reachable: { push: 2, email: 2, inApp: 2 }, channel: 2 });
    expect(answer.timeZones.map((z) => z.timeZone).sort()).toEqual(['America/New_York', 'Europe/Paris']);
  });

  it('answers nobody for no target', async () => {
    expect(await whatIf({ target: { kind: 'none' } })).toMatchObject({
      total: 0, reachable: { push: 0, email: 0, inApp: 0 }, channel: 0, timeZones: [], otherTimeZones: { zones: 0, people: 0 },
    });
  });

  it('answers another account\'s audience and segment as unused ids', async () => {
    const other = await registerAccount(api);
    const otherApp = (await createTestApp(other.client)).id;
    const { audience } = await other.client.ok<{ audience: { id: string } }>('createAudience', { name: 'Theirs', source: { from: 'definition', segment: byCountry('ES') } }, { appId: otherApp });
    const segment = await createSegment(other.client, otherApp, other.accountId, 'Theirs', byCountry('ES'));
    const unused = '00000000-0000-4000-8000-000000000000';
    for (const kind of ['audience', 'segment'] as const) {
      const foreign = await ask(owner.client, { target: { kind, id: kind === 'audience' ? audience.id : segment } });
      const none = await ask(owner.client, { target: { kind, id: unused } });
      expect(foreign.body).toMatchObject({ status: 'KO', code: ErrorCode.NO_PERMISSION });
      expect(foreign).toEqual(none);
      expect((await ask(owner.client, { target: { kind, id: 'not-a-uuid' } })).body).toEqual(none.body);
    }
    // And the other account cannot ask in this app at all.
    expect((await ask(other.client, { target: { kind: 'testDevices' } })).body).toMatchObject({ status: 'KO', code: ErrorCode.NO_PERMISSION });
  });

  it('refuses a body the schema refuses with the catalogue code (10001)', async () => {
    for (const body of [
      { target: { kind: 'audience' } },
      { target: { kind: 'everyone' } },
      { target: { kind: 'none' }, type: 'fax' },
      { target: { kind: 'none' }, schedule: { kind: 'at', at: 'tomorrow', basis: 'deviceLocal' } },
      { target: { kind: 'none' }, schedule: { kind: 'at', at: '2026-12-01T09:00', basis: 'moon' } },
    ]) {
      const answer = await ask(owner.client, body);
      expect(answer.body, JSON.stringify(body)).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY });
    }
  });
});
