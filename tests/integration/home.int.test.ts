/**
 * The home screen's API against real Postgres: key figures computed from events sent through the
 * ingestion API (an app in America/New_York, events on both sides of local midnight, the previous
 * period of the same length), permissions (a role without the analytics screens, an app that
 * restricts them, another account's app), and "needs attention" from real launches on the real
 * sync server, a real failed import and a real failed audience refresh.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, type AttentionItem, type HomeAttention, type HomeSummary, type JourneyStep, type Segment } from '@gd/shared';
import { createSyncServer, inProcessLiveDocs, type SyncServer } from '@gd/sync-server';
import { addMember, createTestApp, ingest, registerAccount, startTestApi, type TestApi, type TestClient } from '../../api-server/src/testing/harness.ts';
import { single } from '../../api-server/src/features/segments/testing/data.ts';
import { editJourneySource, openApiDoc, waitFor, type TestClient as DocClient } from '../../sync-server/src/testing/clients.ts';

let api: TestApi;
let sync: SyncServer;
let owner: Awaited<ReturnType<typeof registerAccount>>;
let app: { id: string; appKey: string };
const docs: DocClient[] = [];

const RANGE = { startDay: '2025-01-10', endDay: '2025-01-12' };

type Event = { name: string; time: string; revenue?: number; currency?: string; sessionId?: string };
async function send(appKey: string, events: Event[]) {
  const body = { device: { id: randomUUID(), os: 'Android', appVersion: '1.0.0' }, events: events.map((e) => ({ id: randomUUID(), ...e })) };
  const answer = await ingest(api, appKey, 'ingestBatch', body);
  expect(answer.body, JSON.stringify(answer.body)).toMatchObject({ status: 'OK', rejected: [] });
}

const summary = (client: TestClient, appId: string, query: Record<string, string> = RANGE) => client.call('getHomeSummary', undefined, { appId }, query);
const figuresOf = async (query: Record<string, string> = RANGE, appId = app.id) => (await summary(owner.client, appId, query)).body as unknown as HomeSummary & { status: string };
const attentionOf = (client: TestClient, appId = app.id) => client.ok<HomeAttention>('getHomeAttention', undefined, { appId });

beforeAll(async () => {
  api = await startTestApi({ JOB_QUEUE: `it-home-${randomBytes(4).toString('hex')}` });
  sync = createSyncServer({ db: api.db, secret: api.deps.secret, debounceMs: 200, maxDebounceMs: 1000 });
  sync.attach(api.httpServer, '/collab');
  api.deps.liveDocs = inProcessLiveDocs(sync);
  owner = await registerAccount(api);
  app = await createTestApp(owner.client, { timezone: 'America/New_York' });

  // New York is UTC-5 in January. The range is 2025-01-10..12, the previous period 2025-01-07..09.
  // A: one event in the previous period, a session and a purchase in the range.
  await send(app.appKey, [
    { name: 'view', time: '2025-01-08T15:00:00Z' },
    { name: 'gd_start_session', time: '2025-01-10T05:30:00Z', sessionId: 'a-1' }, // 01-10 00:30 local
    { name: 'purchase', time: '2025-01-10T05:31:00Z', revenue: 20, currency: 'EUR' },
  ]);
  // B: a session, a view and a purchase at 23:59 on the last day; a purchase just after the range.
  await send(app.appKey, [
    { name: 'gd_start_session', time: '2025-01-11T17:00:00Z', sessionId: 'b-1' },
    { name: 'view', time: '2025-01-11T17:01:00Z' },
    { name: 'purchase', time: '2025-01-13T04:59:00Z', revenue: 5, currency: 'EUR' }, // 01-12 23:59 local
    { name: 'purchase', time: '2025-01-13T05:00:00Z', revenue: 100, currency: 'EUR' }, // 01-13 00:00 local: after
  ]);
  // C: a session and a purchase at 23:30 on the day before the range (04:30 UTC on the first day).
  await send(app.appKey, [
    { name: 'gd_start_session', time: '2025-01-10T04:30:00Z', sessionId: 'c-1' },
    { name: 'purchase', time: '2025-01-10T04:31:00Z', revenue: 10, currency: 'EUR' },
  ]);
  // D: one view in the previous period.
  await send(app.appKey, [{ name: 'view', time: '2025-01-07T12:00:00Z' }]);
  // 2025-02-01: revenue in two currencies.
  await send(app.appKey, [{ name: 'purchase', time: '2025-02-01T15:00:00Z', revenue: 3, currency: 'USD' }]);
  await send(app.appKey, [{ name: 'purchase', time: '2025-02-01T16:00:00Z', revenue: 4, currency: 'EUR' }]);
});

afterAll(async () => {
  for (const d of docs) d.destroy();
  await sync.shutdown();
  await api.stop();
});

describe('key figures', () => {
  it('counts people, sessions, events and revenue of the range and of the previous period in the app time zone', async () => {
    const body = await figuresOf();
    expect(body.status).toBe('OK');
    expect(body.range).toEqual(RANGE);
    expect(body.previous).toEqual({ startDay: '2025-01-07', endDay: '2025-01-09' });
    expect(body.figures).toEqual({
      people: { current: 2, previous: 3 }, // A, B | A, C, D
      sessions: { current: 2, previous: 1 }, // a-1, b-1 | c-1
      events: { current: 5, previous: 4 },
      revenue: { current: 25, previous: 10 },
    });
    expect(body.currency).toBe('EUR');
    expect(body.hasData).toBe(true);
  });

  it('answers no currency when the range has revenue in several, and none without revenue', async () => {
    const mixed = await figuresOf({ startDay: '2025-02-01', endDay: '2025-02-01' });
    expect(mixed.figures.revenue).toEqual({ current: 7, previous: 0 });
    expect(mixed.currency).toBeNull();
    const quiet = await figuresOf({ startDay: '2025-01-11', endDay: '2025-01-11' });
    // 01-11 (B's session and view) against 01-10 (A's session and purchase).
    expect(quiet.figures).toEqual({ people: { current: 1, previous: 1 }, sessions: { current: 1, previous: 1 }, events: { current: 2, previous: 2 }, revenue: { current: 0, previous: 20 } });
    expect(quiet.currency).toBeNull();
  });

  it('defaults to the last 7 days, and tells an app without any event', async () => {
    const fresh = await createTestApp(owner.client, { timezone: 'Asia/Tokyo' });
    const body = await figuresOf({}, fresh.id);
    expect(body.status).toBe('OK');
    const days = (Date.parse(body.range.endDay) - Date.parse(body.range.startDay)) / 86_400_000 + 1;
    expect(days).toBe(7);
    expect(Date.parse(body.range.startDay) - Date.parse(body.previous.endDay)).toBe(86_400_000);
    expect(body).toMatchObject({ hasData: false, currency: null });
    for (const figure of Object.values(body.figures)) expect(figure).toEqual({ current: 0, previous: 0 });
  });

  it('refuses a bad range with 10001', async () => {
    const answer = await summary(owner.client, app.id, { startDay: '2025-01-12', endDay: '2025-01-10' });
    expect(answer.body).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY });
  });

  it('needs the analytics screens: refused to a role without them and where the app restricts them, given to an analyst', async () => {
    const provider = await addMember(api, owner.client, 'provider');
    expect((await summary(provider, app.id)).body).toMatchObject({ status: 'KO', code: ErrorCode.NO_PERMISSION });
    expect((await provider.call('getHomeAttention', undefined, { appId: app.id })).body).toMatchObject({ status: 'KO', code: ErrorCode.NO_PERMISSION });

    const analyst = await addMember(api, owner.client, 'analyst');
    expect((await summary(analyst, app.id)).body).toMatchObject({ status: 'OK', figures: { events: { current: 5, previous: 4 } } });

    const restricted = await createTestApp(owner.client);
    await owner.client.ok('updateApp', { name: 'Restricted', os: 'Android', restricted: ['route:/behavior/events', 'route:/behavior/explore'] }, { appId: restricted.id });
    expect((await summary(owner.client, restricted.id)).body).toMatchObject({ status: 'KO', code: ErrorCode.NO_PERMISSION });
  });

  it("gives another account's app nothing (10004)", async () => {
    const stranger = await registerAccount(api);
    expect((await summary(stranger.client, app.id)).body).toMatchObject({ status: 'KO', code: ErrorCode.NO_PERMISSION });
    expect((await stranger.client.call('getHomeAttention', undefined, { appId: app.id })).body).toMatchObject({ status: 'KO', code: ErrorCode.NO_PERMISSION });
  });
});

describe('needs attention', () => {
  it('is empty ("all good") for an app with nothing wrong, and says what it looked at', async () => {
    const fresh = await createTestApp(owner.client);
    expect(await attentionOf(owner.client, fresh.id)).toMatchObject({ items: [], checked: { journeys: true, audiences: true, imports: true } });
  });

  it('lists live journeys whose launched version names a deleted audience or has unlaunched edits, audiences in error and failed imports', async () => {
    const target = await createTestApp(owner.client);
    const p = (extra: Record<string, string> = {}) => ({ appId: target.id, ...extra });
    await send(target.appKey, [{ name: 'purchase', time: new Date().toISOString() }]);
    const { audience: base } = await owner.client.ok<{ audience: { id: string } }>('createAudience', { name: 'Base', source: { from: 'rules', rules: [{ kind: 'registered_yesterday' }] } }, p());
    const { audience: derived } = await owner.client.ok<{ audience: { id: string } }>('createAudience', {
      name: 'Derived', source: { from: 'definition', segment: single({ type: 'attribute', id: 'audience', condition: 'in_audience', input: base.id }) },
    }, p());

    // Two live journeys: one starts on the Base audience, the other on an event.
    const { journey: onAudience } = await owner.client.ok<{ journey: { id: string; docName: string } }>('createJourney', { name: 'On Base' }, p());
    const audienceDoc = await openApiDoc(owner.client, onAudience.docName, docs);
    await editJourneySource(audienceDoc, (s) => ({ id: s.id, type: 'sourceAudience', next: 'next' in s ? s.next : null, audienceId: base.id } as JourneyStep));
    await owner.client.ok('launchJourney', undefined, p({ journeyId: onAudience.id }));
    const { journey: onEvent } = await owner.client.ok<{ journey: { id: string; docName: string } }>('createJourney', { name: 'On purchase' }, p());
    const eventDoc = await openApiDoc(owner.client, onEvent.docName, docs);
    await editJourneySource(eventDoc, (s) => ({ ...s, eventIds: ['purchase'] } as JourneyStep));
    await owner.client.ok('launchJourney', undefined, p({ journeyId: onEvent.id }));
    expect((await attentionOf(owner.client, target.id)).items).toEqual([]);

    // Since launch: Base is deleted (the live journey names it; Derived fails its refresh), the
    // other journey is edited and not launched again, and an import fails.
    await owner.client.ok('deleteAudience', undefined, p({ audienceId: base.id }));
    await owner.client.ok('refreshAudience', undefined, p({ audienceId: derived.id }));
    await editJourneySource(eventDoc, (s) => ({ ...s, eventIds: ['purchase', 'gd_install'] } as JourneyStep));
    const { task } = await owner.client.ok<{ task: { id: string; audienceId: string } }>('createImportTask', {
      name: 'Broken file', source: { type: 'csv', csvContent: 'customer_id,email\nc-1,a\n"c-2,b\n' },
    }, p());

    let items: AttentionItem[] = [];
    await waitFor(async () => {
      items = (await attentionOf(owner.client, target.id)).items;
      return items.length === 4;
    }, 'four things to look at', 20_000);
    expect(items.map((i) => i.type)).toEqual(['journey_problems', 'audience_error', 'import_failed', 'journey_unlaunched_edits']);
    expect(items[0]).toMatchObject({ journeyId: onAudience.id, name: 'On Base', version: 1, problems: [{ code: 'audience_not_found', path: 'audienceId', params: { id: base.id } }] });
    expect(items[1]).toMatchObject({ audienceId: derived.id, name: 'Derived', errorName: 'AudienceNotExist' });
    // The import's own audience failed too: told once, by the import.
    expect(items[2]).toMatchObject({ taskId: task.id, name: 'Broken file', audienceId: task.audienceId, errorName: 'CsvSyntaxError' });
    expect(items[3]).toMatchObject({ journeyId: onEvent.id, name: 'On purchase', version: 1 });

    // Launching the edits again clears that item.
    await owner.client.ok('launchJourney', undefined, p({ journeyId: onEvent.id }));
    await waitFor(async () => !(await attentionOf(owner.client, target.id)).items.some((i) => i.type === 'journey_unlaunched_edits'), 'relaunch noticed', 20_000);

    // A role that may see only its own journeys: nothing of the owner's, and no other area looked at.
    const roleId = randomUUID();
    await owner.client.ok('putRole', { name: `Own journeys ${roleId.slice(0, 6)}`, userType: 79, grants: ['ui:journey.view:owner'] }, { roleId });
    const limited = await addMember(api, owner.client, { roleId });
    expect(await attentionOf(limited, target.id)).toMatchObject({ items: [], checked: { journeys: true, audiences: false, imports: false } });
    expect((await summary(limited, target.id)).body).toMatchObject({ status: 'KO', code: ErrorCode.NO_PERMISSION });

    // An analyst reads every area.
    const analyst = await addMember(api, owner.client, 'analyst');
    const seen = await attentionOf(analyst, target.id);
    expect(seen.checked).toEqual({ journeys: true, audiences: true, imports: true });
    expect(seen.items.map((i) => i.type)).toEqual(['journey_problems', 'audience_error', 'import_failed']);
  });

  it('gives each of several live journeys exactly its own problems', async () => {
    const target = await createTestApp(owner.client);
    const p = (extra: Record<string, string> = {}) => ({ appId: target.id, ...extra });
    await send(target.appKey, [{ name: 'purchase', time: new Date().toISOString() }]);
    const audience = async (name: string) =>
      (await owner.client.ok<{ audience: { id: string } }>('createAudience', { name, source: { from: 'rules', rules: [{ kind: 'registered_yesterday' }] } }, p())).audience.id;
    const [first, second] = [await audience('First'), await audience('Second')];
    const { tag } = await owner.client.ok<{ tag: { id: string } }>('createTag', { name: 'plan', kind: 'user_tag', valueType: 'text' }, p());

    // Four live journeys: on each audience, on people with the tag (the entry's own conditions), on an event.
    const launched = async (name: string, source: (s: JourneyStep) => JourneyStep) => {
      const { journey } = await owner.client.ok<{ journey: { id: string; docName: string } }>('createJourney', { name }, p());
      let stepId = '';
      await editJourneySource(await openApiDoc(owner.client, journey.docName, docs), (s) => {
        stepId = s.id;
        return source(s);
      });
      await owner.client.ok('launchJourney', undefined, p({ journeyId: journey.id }));
      return { id: journey.id, stepId };
    };
    const entry = (s: JourneyStep, of: { audienceId: string | null; segment: Segment | null }): JourneyStep =>
      ({ id: s.id, type: 'sourceAudience', next: 'next' in s ? s.next : null, ...of });
    const onFirst = await launched('On First', (s) => entry(s, { audienceId: first, segment: null }));
    const onSecond = await launched('On Second', (s) => entry(s, { audienceId: second, segment: null }));
    const onTag = await launched('Tagged', (s) => entry(s, { audienceId: null, segment: single({ type: 'user_tag', id: tag.id, condition: 'is_set' }) }));
    await launched('On purchase', (s) => ({ ...s, eventIds: ['purchase'] } as JourneyStep));
    expect((await attentionOf(owner.client, target.id)).items).toEqual([]);

    // Since launch: both audiences and the tag are deleted.
    await owner.client.ok('deleteAudience', undefined, p({ audienceId: first }));
    await owner.client.ok('deleteAudience', undefined, p({ audienceId: second }));
    await owner.client.ok('deleteTag', undefined, p({ tagId: tag.id }));
    const { items } = await attentionOf(owner.client, target.id);
    expect(items.map((i) => i.type)).toEqual(['journey_problems', 'journey_problems', 'journey_problems']);
    const problems = Object.fromEntries(items.flatMap((i) => (i.type === 'journey_problems' ? [[i.journeyId, i.problems]] : [])));
    expect(problems).toEqual({
      [onFirst.id]: [{ stepId: onFirst.stepId, path: 'audienceId', code: 'audience_not_found', params: { id: first } }],
      [onSecond.id]: [{ stepId: onSecond.stepId, path: 'audienceId', code: 'audience_not_found', params: { id: second } }],
      [onTag.id]: [{ stepId: onTag.stepId, path: 'segment', code: 'segment_reference_missing' }],
    });
  });
});
