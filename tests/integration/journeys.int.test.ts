/**
 * Journeys across services: the real API with the real sync server attached at /collab, real
 * providers editing over WebSockets, and launch reading the live document (not the stored copy).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { randomUUID } from 'node:crypto';
import { DOC_SUMMARY_CHANGED, ErrorCode, addStepAfter, applyJourneyToDoc, journeyFingerprint, journeyFromDoc, normalizeJourney, updateStep, type JourneyStep } from '@gd/shared';
import { createSyncServer, inProcessLiveDocs, openLiveDocState, type SyncServer } from '@gd/sync-server';
import { remoteLiveDocs } from '../../api-server/src/features/documents/liveDocs.ts';
import { single } from '../../api-server/src/features/segments/testing/data.ts';
import { addMember, ingest, registerAccount, startTestApi, type TestApi } from '../../api-server/src/testing/harness.ts';
import { editJourneySource, openApiDoc, openClient, synced, waitFor, type TestClient as DocClient } from '../../sync-server/src/testing/clients.ts';

interface Summary { id: string; name: string; status: string; docName: string; liveVersion: number | null; draftChanged: boolean }

let api: TestApi;
let sync: SyncServer;
let owner: Awaited<ReturnType<typeof registerAccount>>;
let appId: string;
const docs: DocClient[] = [];

const member = (builtIn: string) => addMember(api, owner.client, builtIn);

beforeAll(async () => {
  api = await startTestApi();
  sync = createSyncServer({ db: api.db, secret: api.deps.secret, debounceMs: 200, maxDebounceMs: 1000 });
  sync.attach(api.httpServer, '/collab');
  api.deps.liveDocs = inProcessLiveDocs(sync);
  owner = await registerAccount(api);
  const created = (await owner.client.ok<{ app: { id: string; appKey: string } }>('createApp', { name: 'Journeys', os: 'iOS' })).app;
  appId = created.id;
  // The events the journeys below start on are in the app's catalogue (launch refuses others).
  const events = ['purchase', 'register', 'refund', 'cart_abandoned', 'other'].map((name, i) => ({ id: `seed-${i}`, name, time: new Date().toISOString() }));
  await ingest(api, created.appKey, 'ingestBatch', { device: { id: 'journeys-seed-device' }, events });
});
afterAll(async () => {
  for (const d of docs) d.destroy();
  await sync.shutdown();
  await api.stop();
});

describe('journeys', () => {
  it('a new journey opens with server-made content, refuses to launch with its problems, launches once fixed', async () => {
    const { journey } = await owner.client.ok<{ journey: Summary }>('createJourney', { name: 'Welcome series' }, { appId });
    expect(journey).toMatchObject({ status: 'draft', liveVersion: null, draftChanged: false });
    const doc = await openApiDoc(owner.client, journey.docName, docs);
    expect(doc.access).toBe('write');
    expect(journeyFromDoc(doc.doc).steps.map((s) => s.type).sort()).toEqual(['end', 'sourceEvents']);

    const refused = await owner.client.call('launchJourney', undefined, { appId, journeyId: journey.id });
    expect(refused.body).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY });
    expect(JSON.stringify(refused.body.details)).toContain('source_events_missing');

    // The fix is live on the sync server but not yet stored: launch must still see it.
    await editJourneySource(doc, (s) => ({ ...s, eventIds: ['purchase'] } as JourneyStep));
    const launched = await owner.client.ok<{ journey: Summary; version: number }>('launchJourney', undefined, { appId, journeyId: journey.id });
    expect(launched).toMatchObject({ version: 1, journey: { status: 'live', liveVersion: 1 } });
    const stored = await api.db.query<{ definition: { steps: { type: string; eventIds?: string[] }[] } }>(
      'SELECT definition FROM journey_versions WHERE journey_id = $1 AND version = 1', [journey.id]);
    expect(stored.rows[0]!.definition.steps.find((s) => s.type === 'sourceEvents')?.eventIds).toEqual(['purchase']);

    // Versions are immutable.
    await expect(api.db.query('UPDATE journey_versions SET sha256 = $2 WHERE journey_id = $1', [journey.id, 'x'])).rejects.toThrow(/immutable/);

    // The launched version as the launch review reads it; a version that does not exist is refused.
    const v1 = await owner.client.ok<{ version: number; definition: unknown; launchedByName: string | null }>('getJourneyVersion', undefined, { appId, journeyId: journey.id, version: '1' });
    expect(v1).toMatchObject({ version: 1, definition: stored.rows[0]!.definition });
    expect(v1.launchedByName).toBeTruthy();
    expect((await owner.client.call('getJourneyVersion', undefined, { appId, journeyId: journey.id, version: '2' })).body).toMatchObject({ status: 'KO', code: ErrorCode.NO_PERMISSION });

    // Launched only as reviewed: someone's edit after the review refuses the launch (nothing is
    // written); the journey as it is now launches.
    const reviewed = await journeyFingerprint(normalizeJourney(journeyFromDoc(doc.doc)));
    await editJourneySource(doc, (s) => ({ ...s, eventIds: ['purchase', 'refund'] } as JourneyStep));
    const stale = await owner.client.call('launchJourney', { reviewed }, { appId, journeyId: journey.id });
    expect(stale.httpStatus).toBe(409);
    expect(stale.body).toMatchObject({ status: 'KO', details: [{ path: 'reviewed', message: 'changed_since_review' }] });
    expect((await api.db.query('SELECT 1 FROM journey_versions WHERE journey_id = $1', [journey.id])).rowCount).toBe(1);
    const again = await journeyFingerprint(normalizeJourney(journeyFromDoc(doc.doc)));
    expect(await owner.client.ok<{ version: number }>('launchJourney', { reviewed: again }, { appId, journeyId: journey.id })).toMatchObject({ version: 2 });
    expect((await owner.client.call('launchJourney', { reviewed: 'not-a-fingerprint' }, { appId, journeyId: journey.id })).body).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY, details: [{ path: 'reviewed' }] });

    // A simulation run in the editor (written to the document's `simulation` root, so co-editors
    // see it) is no edit of the journey: once stored, the draft still equals the live version.
    doc.doc.getMap('simulation').set('last', { by: 'test', at: new Date().toISOString() });
    await waitFor(async () => {
      const { rows } = await api.db.query<{ state: Uint8Array }>('SELECT state FROM documents WHERE name = $1', [journey.docName]);
      const stored = new Y.Doc();
      if (rows[0]) Y.applyUpdate(stored, rows[0].state);
      return stored.getMap('simulation').has('last');
    }, 'simulation stored', 15_000);
    const afterSimulation = await owner.client.ok<{ journeys: Summary[] }>('listJourneys', undefined, { appId });
    expect(afterSimulation.journeys.find((j) => j.id === journey.id)?.draftChanged).toBe(false);

    // A later edit makes the draft differ from the live version once stored.
    await editJourneySource(doc, (s) => ({ ...s, eventIds: ['purchase', 'register'] } as JourneyStep));
    await waitFor(async () => {
      const { journeys } = await owner.client.ok<{ journeys: Summary[] }>('listJourneys', undefined, { appId });
      return journeys.find((j) => j.id === journey.id)?.draftChanged === true;
    }, 'draft marked as changed', 15_000);

    // Stop: out of the current scope, still in "all".
    await owner.client.ok('stopJourney', undefined, { appId, journeyId: journey.id });
    const current = await owner.client.ok<{ journeys: Summary[] }>('listJourneys', undefined, { appId });
    expect(current.journeys.map((j) => j.id)).not.toContain(journey.id);
    const all = await owner.client.call('listJourneys', undefined, { appId }, { scope: 'all' });
    expect((all.body.journeys as Summary[]).find((j) => j.id === journey.id)?.status).toBe('stopped');
  });

  it('launch refuses what the app does not have: an audience id, an event outside the catalogue, an audience a condition names', async () => {
    const { app } = await owner.client.ok<{ app: { id: string; appKey: string } }>('createApp', { name: 'References', os: 'Android' }, {});
    const { journey } = await owner.client.ok<{ journey: Summary }>('createJourney', { name: 'On references' }, { appId: app.id });
    const doc = await openApiDoc(owner.client, journey.docName, docs);
    const launch = () => owner.client.call('launchJourney', undefined, { appId: app.id, journeyId: journey.id });
    const details = async () => ((await launch()).body.details as { path: string; message: string }[] | undefined) ?? [];

    // An event the app never sent nor defined.
    await editJourneySource(doc, (s) => ({ ...s, eventIds: ['never_sent'] } as JourneyStep));
    expect(await details()).toEqual([{ path: 'steps.source.eventIds', message: 'event_not_found' }]);
    // Once the app has sent it, it is in the catalogue; built-in events always are.
    await ingest(api, app.appKey, 'ingestBatch', { device: { id: 'ref-device-0001' }, events: [{ id: 'r-1', name: 'never_sent', time: new Date().toISOString() }] });
    await editJourneySource(doc, (s) => ({ ...s, eventIds: ['never_sent', 'gd_install'] } as JourneyStep));
    expect((await launch()).body).toMatchObject({ status: 'OK', version: 1 });

    // An audience entry on an audience id that does not exist ("Android" was typed by hand).
    await editJourneySource(doc, (s) => ({ id: s.id, type: 'sourceAudience', next: 'next' in s ? s.next : null, audienceId: 'Android' } as JourneyStep));
    expect(await details()).toEqual([{ path: 'steps.source.audienceId', message: 'audience_not_found' }]);
    const { audience } = await owner.client.ok<{ audience: { id: string } }>('createAudience', { name: 'Real audience', source: { from: 'rules', rules: [{ kind: 'registered_yesterday' }] } }, { appId: app.id });
    await editJourneySource(doc, (s) => ({ ...s, audienceId: audience.id } as JourneyStep));
    expect((await launch()).body).toMatchObject({ status: 'OK', version: 2 });
    // Another app's audience does not exist here.
    const { audience: foreign } = await owner.client.ok<{ audience: { id: string } }>('createAudience', { name: 'Elsewhere', source: { from: 'rules', rules: [{ kind: 'registered_yesterday' }] } }, { appId });
    await editJourneySource(doc, (s) => ({ ...s, audienceId: foreign.id } as JourneyStep));
    expect(await details()).toEqual([{ path: 'steps.source.audienceId', message: 'audience_not_found' }]);

    // A split whose first path is for the members of an audience: launches while the audience
    // exists, and is refused on that path once the audience is deleted.
    await editJourneySource(doc, (s) => ({ ...s, audienceId: audience.id } as JourneyStep));
    const { audience: named } = await owner.client.ok<{ audience: { id: string } }>('createAudience', { name: 'Named by a split', source: { from: 'rules', rules: [{ kind: 'registered_yesterday' }] } }, { appId: app.id });
    const splitId = randomUUID();
    let edited = addStepAfter(journeyFromDoc(doc.doc), journeyFromDoc(doc.doc).entryId!, null, 'flowSplit', splitId);
    const split = edited.steps.find((s) => s.id === splitId) as Extract<JourneyStep, { type: 'flowSplit' }>;
    const members = single({ type: 'attribute', id: 'audience', condition: 'in_audience', input: named.id });
    edited = updateStep(edited, { ...split, paths: split.paths.map((p, i) => (i === 0 ? { ...p, segment: members } : p)) });
    applyJourneyToDoc(doc.doc, edited);
    await waitFor(() => !doc.provider.hasUnsyncedChanges, 'split acknowledged');
    expect((await launch()).body).toMatchObject({ status: 'OK', version: 3 });
    await owner.client.ok('deleteAudience', undefined, { appId: app.id, audienceId: named.id });
    expect(await details()).toEqual([{ path: `steps.${splitId}.paths.0.segment`, message: 'segment_reference_missing' }]);
  });

  it('clone forks the live content into a new document', async () => {
    const { journey } = await owner.client.ok<{ journey: Summary }>('createJourney', { name: 'Original' }, { appId });
    const doc = await openApiDoc(owner.client, journey.docName, docs);
    await editJourneySource(doc, (s) => ({ ...s, eventIds: ['cart_abandoned'] } as JourneyStep));
    const { journey: copy } = await owner.client.ok<{ journey: Summary }>('cloneJourney', { name: 'Copy' }, { appId, journeyId: journey.id });
    expect(copy.docName).not.toBe(journey.docName);
    const cloneDoc = await openApiDoc(owner.client, copy.docName, docs);
    const source = journeyFromDoc(cloneDoc.doc).steps.find((s) => s.type === 'sourceEvents');
    expect(source).toMatchObject({ eventIds: ['cart_abandoned'] });
    // Editing the copy leaves the original alone.
    await editJourneySource(cloneDoc, (s) => ({ ...s, eventIds: ['other'] } as JourneyStep));
    const live = new Y.Doc();
    Y.applyUpdate(live, (await openLiveDocState(sync, journey.docName)).state);
    expect(journeyFromDoc(live).steps.find((s) => s.type === 'sourceEvents')).toMatchObject({ eventIds: ['cart_abandoned'] });
  });

  it('authors edit only their own journeys and cannot launch; analysts only read', async () => {
    const { journey: ownersJourney } = await owner.client.ok<{ journey: Summary }>('createJourney', { name: 'Owner only' }, { appId });
    const author = await member('author');
    const { journey: mine } = await author.ok<{ journey: Summary }>('createJourney', { name: 'Author draft' }, { appId });
    await author.ok('renameJourney', { name: 'Author draft 2' }, { appId, journeyId: mine.id });
    expect((await author.call('renameJourney', { name: 'Taken over' }, { appId, journeyId: ownersJourney.id })).body.code).toBe(ErrorCode.NO_PERMISSION);
    expect((await author.call('launchJourney', undefined, { appId, journeyId: mine.id })).body.code).toBe(ErrorCode.NO_PERMISSION);
    expect((await author.ok<{ access: string }>('docToken', { name: mine.docName })).access).toBe('write');
    expect((await author.ok<{ access: string }>('docToken', { name: ownersJourney.docName })).access).toBe('read');

    const analyst = await member('analyst');
    expect((await analyst.ok<{ access: string }>('docToken', { name: ownersJourney.docName })).access).toBe('read');
    expect((await analyst.call('createJourney', { name: 'Nope' }, { appId })).body.code).toBe(ErrorCode.NO_PERMISSION);
    const { journeys } = await author.ok<{ journeys: Summary[] }>('listJourneys', undefined, { appId });
    expect(journeys.map((j) => j.name)).toEqual(expect.arrayContaining(['Author draft 2', 'Owner only']));
    const mineOnly = await author.call('listJourneys', undefined, { appId }, { owner: 'me' });
    expect((mineOnly.body.journeys as Summary[]).map((j) => j.name)).toEqual(['Author draft 2']);
  });

  it('names are unique per app (30) and delete hides the journey', async () => {
    const { journey } = await owner.client.ok<{ journey: Summary }>('createJourney', { name: 'Unique' }, { appId });
    expect((await owner.client.call('createJourney', { name: 'UNIQUE' }, { appId })).body.code).toBe(ErrorCode.NAME_DUPLICATED);
    await owner.client.ok('deleteJourney', undefined, { appId, journeyId: journey.id });
    const { journeys } = await owner.client.ok<{ journeys: Summary[] }>('listJourneys', undefined, { appId });
    expect(journeys.map((j) => j.id)).not.toContain(journey.id);
    await owner.client.ok('createJourney', { name: 'Unique' }, { appId });
  });

  it('with the sync server in its own process (SYNC_URL): launch reads the live document, and open editors hear of it', async () => {
    const standalone = createSyncServer({ db: api.db, secret: api.deps.secret, debounceMs: 60_000, maxDebounceMs: 120_000 });
    const { url } = await standalone.listen(0, '127.0.0.1');
    const inProcess = api.deps.liveDocs;
    api.deps.liveDocs = remoteLiveDocs(url, api.deps.secret);
    try {
      const { journey } = await owner.client.ok<{ journey: Summary }>('createJourney', { name: 'Separate sync' }, { appId });
      const doc = openClient({ url, name: journey.docName, token: async () => (await owner.client.ok<{ token: string }>('docToken', { name: journey.docName })).token });
      docs.push(doc);
      await waitFor(() => synced(doc), 'document synced');
      const heard: string[] = [];
      doc.provider.on('stateless', ({ payload }: { payload: string }) => heard.push(payload));
      // Not stored yet (a minute of debounce): only the live document has the fix.
      await editJourneySource(doc, (s) => ({ ...s, eventIds: ['purchase'] } as JourneyStep));
      const launched = await owner.client.ok<{ journey: Summary; version: number }>('launchJourney', undefined, { appId, journeyId: journey.id });
      expect(launched).toMatchObject({ version: 1, journey: { status: 'live' } });
      await waitFor(() => heard.includes(DOC_SUMMARY_CHANGED), 'the editor heard of the launch');
    } finally {
      api.deps.liveDocs = inProcess;
      await standalone.shutdown();
    }
  });

  it('with the separate sync server down: launch and clone answer 503 at once and write nothing; once it is back, the confirmed edits launch', async () => {
    const first = createSyncServer({ db: api.db, secret: api.deps.secret, debounceMs: 60_000, maxDebounceMs: 120_000 });
    const { url } = await first.listen(0, '127.0.0.1');
    const inProcess = api.deps.liveDocs;
    // Why each live read failed: a refused connection (known after three quick attempts), never
    // the answer timer (10 s), which is what a launch would wait for if refusals were not seen.
    const remote = remoteLiveDocs(url, api.deps.secret);
    const failures: string[] = [];
    api.deps.liveDocs = {
      read: (name) => remote.read(name).catch((error: unknown) => {
        failures.push(error instanceof Error ? error.message : String(error));
        throw error;
      }),
      announce: (name, payload) => remote.announce(name, payload),
    };
    let second: SyncServer | undefined;
    try {
      const { journey } = await owner.client.ok<{ journey: Summary }>('createJourney', { name: 'Sync goes down' }, { appId });
      const doc = openClient({ url, name: journey.docName, token: async () => (await owner.client.ok<{ token: string }>('docToken', { name: journey.docName })).token });
      docs.push(doc);
      await waitFor(() => synced(doc), 'document synced');
      await editJourneySource(doc, (s) => ({ ...s, eventIds: ['purchase'] } as JourneyStep));
      await first.shutdown(); // stores what it holds, then the port is closed

      const refused = await owner.client.call('launchJourney', undefined, { appId, journeyId: journey.id });
      expect(refused.httpStatus).toBe(503);
      expect(refused.body).toMatchObject({ status: 'KO', code: ErrorCode.GENERIC });
      expect((await owner.client.call('cloneJourney', { name: 'Clone while down' }, { appId, journeyId: journey.id })).httpStatus).toBe(503);
      expect(failures).toHaveLength(2);
      for (const failure of failures) expect(failure).toMatch(/is not reachable/);
      const { journeys } = await owner.client.ok<{ journeys: Summary[] }>('listJourneys', undefined, { appId });
      expect(journeys.find((j) => j.id === journey.id)).toMatchObject({ status: 'draft', liveVersion: null });
      expect(journeys.map((j) => j.name)).not.toContain('Clone while down');

      // Back on the same address: the launch reads what the editor had confirmed.
      second = createSyncServer({ db: api.db, secret: api.deps.secret, debounceMs: 60_000, maxDebounceMs: 120_000 });
      await second.listen(Number(new URL(url).port), '127.0.0.1');
      const launched = await owner.client.ok<{ version: number }>('launchJourney', undefined, { appId, journeyId: journey.id });
      const { definition } = await owner.client.ok<{ definition: { entryId: string; steps: (JourneyStep & { eventIds?: string[] })[] } }>('getJourneyVersion', undefined, { appId, journeyId: journey.id, version: String(launched.version) });
      expect(definition.steps.find((s) => s.id === definition.entryId)?.eventIds).toEqual(['purchase']);
    } finally {
      api.deps.liveDocs = inProcess;
      await second?.shutdown();
    }
  });
});
