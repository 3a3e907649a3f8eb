/**
 * Two sync-server instances joined through Redis serve the same document: a client on each
 * converges, the live state can be read from the instance the editors are not on, and what is
 * stored in the end contains every edit.
 */
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openLiveDocState } from './live.ts';
import { openClient, synced, waitFor, type TestClient } from './testing/clients.ts';
import { createFixture, type Fixture } from './testing/fixtures.ts';
import { REDIS_URL, redisPrefix, startSync, storedDoc, type RunningSync } from './testing/server.ts';
import * as Y from 'yjs';

let one: RunningSync;
let two: RunningSync;
let fx: Fixture;
const clients: TestClient[] = [];
const open = (server: RunningSync, name: string) => {
  const c = openClient({ url: server.url, name, token: () => fx.token(fx.users.manager, { doc: name }) });
  clients.push(c);
  return c;
};
const meta = (c: TestClient) => c.doc.getMap('layout');

beforeAll(async () => {
  const redis = { url: REDIS_URL, prefix: redisPrefix() };
  // A long debounce: whatever the clients see came through Redis, not through the database.
  one = await startSync({ redis, debounceMs: 60_000, maxDebounceMs: 120_000 });
  two = await startSync({ redis, debounceMs: 60_000, maxDebounceMs: 120_000 });
  fx = await createFixture(one.db);
});
afterAll(async () => {
  for (const c of clients) c.destroy();
  await Promise.all([one.stop(), two.stop()]);
});

it('converges with one client on each instance, and stores everything', async () => {
  const name = await fx.newJourneyDoc();
  const [a, b] = [open(one, name), open(two, name)];
  await waitFor(() => synced(a) && synced(b), 'synced');
  for (let i = 0; i < 30; i += 1) {
    meta(a).set(`a${i}`, i);
    meta(b).set(`b${i}`, i);
    meta(a).set('same', `a${i}`);
    meta(b).set('same', `b${i}`);
  }
  await waitFor(() => meta(a).has('b29') && meta(b).has('a29') && isDeepStrictEqual(meta(a).toJSON(), meta(b).toJSON()), 'convergence across instances');

  // The live state is readable on either instance before anything is stored.
  expect((await storedDoc(one.db, name))?.getMap('layout').has('a0')).toBe(false);
  const live = new Y.Doc();
  Y.applyUpdate(live, (await openLiveDocState(two.sync, name)).state);
  expect(live.getMap('layout').toJSON()).toEqual(meta(a).toJSON());

  const expected = meta(a).toJSON();
  a.destroy();
  b.destroy();
  await waitFor(async () => isDeepStrictEqual((await storedDoc(one.db, name))?.getMap('layout').toJSON(), expected), 'stored after both leave', 15_000);
});

it('lets a live read on one instance see edits made on the other only', async () => {
  const name = await fx.newJourneyDoc();
  const a = open(one, name);
  await waitFor(() => synced(a), 'synced');
  meta(a).set('onlyOnOne', true);
  // Once confirmed (what enables Launch in the editor), the edit is in every live read.
  await waitFor(() => !a.provider.hasUnsyncedChanges, 'confirmed');
  const live = new Y.Doc();
  Y.applyUpdate(live, (await openLiveDocState(two.sync, name)).state);
  expect(live.getMap('layout').get('onlyOnOne')).toBe(true);
});
