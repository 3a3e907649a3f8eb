/**
 * One process: the sync server attached to another HTTP server (the API's) at /collab, the live
 * state read in-process, and a shutdown that stores and lets the host server close.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import * as Y from 'yjs';
import { openLiveDocState } from './live.ts';
import { createPool } from './repository.ts';
import { createSyncServer, type SyncServer } from './server.ts';
import { openClient, synced, waitFor, type TestClient } from './testing/clients.ts';
import { TEST_SECRET, createFixture, type Fixture } from './testing/fixtures.ts';
import { databaseUrl, storedDoc } from './testing/server.ts';

const db = createPool(databaseUrl(), 2);
let host: http.Server;
let sync: SyncServer;
let base: string;
let fx: Fixture;
const clients: TestClient[] = [];

beforeAll(async () => {
  fx = await createFixture(db);
  host = http.createServer((_req, res) => res.end('the API'));
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  base = `ws://127.0.0.1:${(host.address() as AddressInfo).port}`;
  sync = createSyncServer({ db, secret: TEST_SECRET, log: pino({ level: 'silent' }), debounceMs: 60_000, maxDebounceMs: 120_000 });
  sync.attach(host, '/collab');
});
afterAll(async () => {
  for (const c of clients) c.destroy();
  await sync.shutdown();
  await db.end();
});

it('serves documents at /collab of the host server, and reads the live state in-process', async () => {
  const name = await fx.newJourneyDoc();
  const [a, b] = [0, 1].map(() => openClient({ url: `${base}/collab`, name, token: () => fx.token(fx.users.manager, { doc: name }) }));
  clients.push(a!, b!);
  await waitFor(() => synced(a!) && synced(b!), 'synced through the host server');
  a!.doc.getMap('layout').set('live', 'not stored yet');
  await waitFor(() => b!.doc.getMap('layout').get('live') === 'not stored yet', 'edit exchanged');

  const { state, stateVector } = await openLiveDocState(sync, name);
  const live = new Y.Doc();
  Y.applyUpdate(live, state);
  expect(live.getMap('layout').get('live')).toBe('not stored yet');
  expect(Y.encodeStateVector(live)).toEqual(stateVector);
  expect((await storedDoc(db, name))?.getMap('layout').has('live')).toBe(false);
  await expect(openLiveDocState(sync, 'not/a/doc')).rejects.toThrow(/unknown document name/);
});

it('shuts down storing pending edits, so the host server can close', async () => {
  const name = await fx.newJourneyDoc();
  const c = openClient({ url: `${base}/collab`, name, token: () => fx.token(fx.users.manager, { doc: name }) });
  clients.push(c);
  await waitFor(() => synced(c), 'synced');
  c.doc.getMap('layout').set('atShutdown', 1);
  await waitFor(() => sync.hocuspocus.documents.get(name)?.getMap('layout').get('atShutdown') === 1, 'edit reached the server');
  await sync.shutdown();
  expect((await storedDoc(db, name))?.getMap('layout').get('atShutdown')).toBe(1);
  expect(sync.hocuspocus.getDocumentsCount()).toBe(0);
  await new Promise<void>((resolve) => host.close(() => resolve())); // no WebSocket keeps it open
  await expect(openLiveDocState(sync, name)).rejects.toThrow(/shutting down/);
});
