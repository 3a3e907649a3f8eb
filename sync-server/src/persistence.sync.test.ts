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
