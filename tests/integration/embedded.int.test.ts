/**
 * The topology of `npm start`: one process, the embedded database (PGlite behind its loopback
 * socket) and the sync server attached at /collab, as scripts/serve.ts wires them. The main flows
 * run through it end to end: SDK ingestion, the event list and explore, people search and profile,
 * two people co-editing a journey over real WebSockets, launch reading the live document, and the
 * edits surviving a restart on the same data directory. (Segments, audiences, imports and exports on
 * PGlite: api-server/src/features/{segments,imports}/embedded.int.test.ts.)
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, expect, it } from 'vitest';
import * as Y from 'yjs';
import { addStepAfter, applyJourneyToDoc, journeyFromDoc, updateStep, type JourneyStep } from '@gd/shared';
import { createSyncServer, inProcessLiveDocs, openLiveDocState, type SyncServer } from '@gd/sync-server';
import { loadConfig } from '../../api-server/src/config.ts';
import { startServer, type RunningServer } from '../../api-server/src/server.ts';
import { TestClient, createTestApp, ingest, registerAccount } from '../../api-server/src/testing/harness.ts';
import { openApiDoc, waitFor, type TestClient as DocClient } from '../../sync-server/src/testing/clients.ts';

const dataDir = mkdtempSync(path.join(tmpdir(), 'gd-embedded-flows-'));
const docs: DocClient[] = [];
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

interface Running { api: RunningServer; sync: SyncServer; stop(): Promise<void> }

/** What scripts/serve.ts does, on the embedded database. */
async function startProduct(): Promise<Running> {
  const log = pino({ level: 'silent' });
  const api = await startServer(loadConfig({ PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), { log, worker: false });
  const sync = createSyncServer({ db: api.db, secret: api.deps.secret, log, debounceMs: 200, maxDebounceMs: 1000 });
  const detach = sync.attach(api.httpServer, '/collab');
  api.deps.liveDocs = inProcessLiveDocs(sync);
  return {
    api, sync,
    async stop() {
      for (const d of docs.splice(0)) d.destroy();
      await sync.shutdown();
      detach();
      await api.stop();
    },
  };
}

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

it('runs the main flows on the embedded database and keeps co-edited journeys across a restart', { timeout: 180_000 }, async () => {
  let product = await startProduct();
  let client: TestClient;
  let appId: string;
  let journeyId: string;
  let docName: string;
  try {
    const owner = await registerAccount(product.api);
    client = owner.client;
    const app = await createTestApp(client);
    appId = app.id;

    // SDK ingestion: two people, one of them known by a customer id, buying twice.
    const buyer = randomUUID();
    const now = Date.now();
    const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000).toISOString();
    expect((await ingest(product.api, app.appKey, 'ingestIdentify', { device: { id: buyer }, customerId: 'buyer-1' })).body.status).toBe('OK');
    for (const [device, events] of [
      [buyer, [{ name: 'purchase', time: at(30), revenue: 12.5, currency: 'EUR' }, { name: 'purchase', time: at(20), revenue: 7.5, currency: 'EUR' }]],
      [randomUUID(), [{ name: 'app_open', time: at(10) }]],
    ] as const) {
      const answer = await ingest(product.api, app.appKey, 'ingestBatch', { device: { id: device, os: 'Android', country: 'ES' }, events: events.map((e) => ({ id: randomUUID(), ...e })) });
      expect(answer.body, JSON.stringify(answer.body)).toMatchObject({ status: 'OK', rejected: [] });
    }

    // The event list and explore see them.
    const range = { startDay: day(-1), endDay: day(1) };
    const { events } = await client.ok<{ events: { name: string; events: number; people: number | null }[] }>('listEvents', undefined, { appId }, range);
    expect(events.find((e) => e.name === 'purchase')).toMatchObject({ events: 2, people: 1 });
    const explored = await client.ok<{ series: { total: number }[] }>('explore', undefined, { appId }, { ...range, event: 'purchase', metric: 'revenue' });
    expect(explored.series[0]?.total).toBe(20);

    // People: found by customer id, with the purchases on the profile's timeline.
    const { people } = await client.ok<{ people: { id: string; customerId: string | null }[] }>('searchPeople', undefined, { appId }, { q: 'buyer-1' });
    expect(people.map((p) => p.customerId)).toEqual(['buyer-1']);
    const timeline = await client.ok<{ events: { name: string }[] }>('personTimeline', undefined, { appId, personId: people[0]!.id });
    expect(timeline.events.map((e) => e.name)).toEqual(['purchase', 'purchase']);

    // A journey co-edited by two editors over WebSockets, then launched from the live document.
    const { journey } = await client.ok<{ journey: { id: string; docName: string } }>('createJourney', { name: 'Embedded journey' }, { appId });
    journeyId = journey.id;
    docName = journey.docName;
    const [a, b] = [await openApiDoc(client, docName, docs), await openApiDoc(client, docName, docs)];
    const before = journeyFromDoc(a.doc);
    const entryId = before.entryId!;
    const source = before.steps.find((s) => s.id === entryId)!;
    applyJourneyToDoc(a.doc, updateStep(before, { ...source, eventIds: ['purchase'] } as JourneyStep));
    await waitFor(() => (journeyFromDoc(b.doc).steps.find((s) => s.id === before.entryId) as { eventIds?: string[] }).eventIds?.[0] === 'purchase', 'B sees A\'s edit');
    const waitId = randomUUID();
    const withWait = addStepAfter(journeyFromDoc(b.doc), entryId, null, 'flowWait', waitId);
    expect(withWait.steps.length).toBe(before.steps.length + 1);
    applyJourneyToDoc(b.doc, withWait);
    await waitFor(() => journeyFromDoc(a.doc).steps.length === withWait.steps.length, 'A sees B\'s step');
    await waitFor(() => !a.provider.hasUnsyncedChanges && !b.provider.hasUnsyncedChanges, 'both confirmed');
    const launched = await client.ok<{ version: number; journey: { status: string } }>('launchJourney', undefined, { appId, journeyId });
    expect(launched).toMatchObject({ version: 1, journey: { status: 'live' } });
    const { definition } = await client.ok<{ definition: { steps: JourneyStep[] } }>('getJourneyVersion', undefined, { appId, journeyId, version: '1' });
    expect(definition.steps.map((s) => s.id).sort()).toEqual(withWait.steps.map((s) => s.id).sort());

    // One more edit after launch: it must be stored, and so survive the restart below.
    applyJourneyToDoc(a.doc, updateStep(journeyFromDoc(a.doc), { ...journeyFromDoc(a.doc).steps.find((s) => s.id === waitId)!, name: 'Cool down' }));
    await waitFor(() => !a.provider.hasUnsyncedChanges, 'last edit confirmed');
  } finally {
    await product.stop();
  }

  product = await startProduct();
  try {
    const doc = new Y.Doc();
    Y.applyUpdate(doc, (await openLiveDocState(product.sync, docName!)).state);
    expect(journeyFromDoc(doc).steps.map((s) => s.name)).toContain('Cool down');
    // The session cookie still works after the restart, and the journey reads as changed since launch.
    const again = new TestClient(product.api.url);
    again.cookies = client!.cookies;
    const { journeys } = await again.ok<{ journeys: { id: string; status: string; draftChanged: boolean }[] }>('listJourneys', undefined, { appId: appId! });
    expect(journeys.find((j) => j.id === journeyId!)).toMatchObject({ status: 'live', draftChanged: true });
  } finally {
    await product.stop();
  }
});
