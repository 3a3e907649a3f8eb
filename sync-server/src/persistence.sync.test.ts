/**
 * Loading: the initial content is made on the server and stored at once (the first stored state wins
 * when two processes seed the same document), and older stored documents are migrated on load.
 */
import { initJourneyDoc, parseDocName } from '@gd/shared';
import { afterAll, beforeAll, expect, it } from 'vitest';
import * as Y from 'yjs';
import { openLiveDocState } from './live.ts';
import { openClient, synced, waitFor, type TestClient } from './testing/clients.ts';
import { createFixture, type Fixture } from './testing/fixtures.ts';
import { startSync, storedDoc, type RunningSync } from './testing/server.ts';

let one: RunningSync;
let two: RunningSync;
let fx: Fixture;
const clients: TestClient[] = [];
const open = (server: RunningSync, name: string) => {
  const c = openClient({ url: server.url, name, token: () => fx.token(fx.users.manager, { doc: name }) });
  clients.push(c);
  return c;
};

beforeAll(async () => {
  // Two processes without Redis, each with a long debounce: only load-time stores reach the database.
  const slow = { debounceMs: 60_000, maxDebounceMs: 120_000 };
  [one, two] = await Promise.all([startSync(slow), startSync(slow)]);
  fx = await createFixture(one.db);
});
afterAll(async () => {
  for (const c of clients) c.destroy();
  await Promise.all([one.stop(), two.stop()]);
});

it('seeds a new document once, even when two processes load it at the same time', async () => {
  const name = await fx.newJourneyDoc();
  // Both loads start in the same tick: both find no row, both seed, one insert wins.
  const [fromOne, fromTwo] = await Promise.all([openLiveDocState(one.sync, name), openLiveDocState(two.sync, name)]);
  const stored = (await storedDoc(one.db, name))!;
  // Both processes serve exactly the stored seed: same items (same client ids), not two seeds.
  expect(fromOne.stateVector).toEqual(Y.encodeStateVector(stored));
  expect(fromTwo.stateVector).toEqual(Y.encodeStateVector(stored));
  expect(stored.getMap('meta').get('kind')).toBe('journey');

  const [a, b] = [open(one, name), open(two, name)];
  await waitFor(() => synced(a) && synced(b), 'synced');
  expect(Y.encodeStateVector(a.doc)).toEqual(Y.encodeStateVector(stored));
  expect(Y.encodeStateVector(b.doc)).toEqual(Y.encodeStateVector(stored));
});

it('migrates an older stored document on load and stores the result at once', async () => {
  const name = await fx.newJourneyDoc();
  const old = new Y.Doc();
  initJourneyDoc(old, name);
  old.getMap('meta').delete('schemaVersion'); // a version-0 document
  const state = Y.encodeStateAsUpdate(old);
  const parts = parseDocName(name)!;
  await one.db.query(
    `INSERT INTO documents (name, account_id, app_id, kind, entity_id, state, size_bytes) VALUES ($1, $2, $3, 'journey', $4, $5, $6)`,
    [name, parts.accountId, parts.appId, parts.id, Buffer.from(state), state.byteLength]);

  const a = open(one, name);
  await waitFor(() => synced(a), 'synced');
  expect(a.doc.getMap('meta').get('schemaVersion')).toBe(1);
  expect((await storedDoc(one.db, name))?.getMap('meta').get('schemaVersion')).toBe(1);
});

const logged = async (name: string) =>
  Number((await one.db.query<{ n: string }>('SELECT count(*) AS n FROM document_updates WHERE name = $1', [name])).rows[0]?.n);

it('two processes storing the same document keep both edits (neither overwrites the other)', async () => {
  const name = await fx.newJourneyDoc();
  const [a, b] = [open(one, name), open(two, name)]; // no Redis: neither sees the other's edit
  await waitFor(() => synced(a) && synced(b), 'synced');
  a.doc.getMap('layout').set('fromOne', 1);
  b.doc.getMap('layout').set('fromTwo', 2);
  await waitFor(() => !a.provider.hasUnsyncedChanges && !b.provider.hasUnsyncedChanges, 'both confirmed');
  expect(await logged(name)).toBe(2);
  // Each process stores its full state; the second finds the first's newer row and merges it first.
  for (const server of [one, two]) {
    const document = server.sync.hocuspocus.documents.get(name)!;
    await server.sync.hocuspocus.storeDocumentHooks(document, {
      instance: server.sync.hocuspocus, document, documentName: name, clientsCount: 1, lastContext: {}, lastTransactionOrigin: { source: 'local' },
    }, true);
  }
  expect((await storedDoc(one.db, name))!.getMap('layout').toJSON()).toEqual({ fromOne: 1, fromTwo: 2 });
  expect(await logged(name)).toBe(0); // both logged updates are in the stored state: compacted
});

it('loads logged updates that were never compacted, then compacts them', async () => {
  const name = await fx.newJourneyDoc();
  // Stored by a process that died before compacting: a state and a log, and nobody has it loaded.
  const extra = new Y.Doc();
  initJourneyDoc(extra, name);
  const parts = parseDocName(name)!;
  await one.db.query(`INSERT INTO documents (name, account_id, app_id, kind, entity_id, state, size_bytes) VALUES ($1, $2, $3, 'journey', $4, $5, 1)`,
    [name, parts.accountId, parts.appId, parts.id, Buffer.from(Y.encodeStateAsUpdate(extra))]);
  const before = Y.encodeStateVector(extra);
  extra.getMap('layout').set('onlyInTheLog', true);
  await one.db.query('INSERT INTO document_updates (name, "update") VALUES ($1, $2), ($1, $3)',
    [name, Buffer.from(Y.encodeStateAsUpdate(extra, before)), Buffer.from([1, 2, 3])]); // and a broken row
  const c = open(one, name);
  await waitFor(() => synced(c), 'synced');
  expect(c.doc.getMap('layout').get('onlyInTheLog')).toBe(true);
  expect((await storedDoc(one.db, name))!.getMap('layout').get('onlyInTheLog')).toBe(true);
  expect(await logged(name)).toBe(1); // the broken row is kept for inspection, never applied
});
