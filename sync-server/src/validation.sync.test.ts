/**
 * Bad updates close their sender only: malformed bytes, a live update above MAX_UPDATE_BYTES, a root
 * the document kind does not have, a frame above the WebSocket limit. A catch-up after offline work
 * may be as large as a document (MAX_CATCHUP_BYTES). Nothing of them is applied,
 * broadcast or stored, and the other clients carry on.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MAX_UPDATE_BYTES } from '@gd/shared';
import * as Y from 'yjs';
import { openClient, rawUpdateMessage, synced, waitFor, type TestClient } from './testing/clients.ts';
import { createFixture, type Fixture } from './testing/fixtures.ts';
import { startSync, storedDoc, type RunningSync } from './testing/server.ts';
import { UPDATE_REJECTED_PREFIX, WS_MAX_PAYLOAD } from './validation.ts';

let server: RunningSync;
let fx: Fixture;
let name: string;
let bystander: TestClient;
let observer: TestClient;
const clients: TestClient[] = [];
const open = () => {
  const c = openClient({ url: server.url, name, token: () => fx.token(fx.users.manager, { doc: name }) });
  clients.push(c);
  return c;
};

beforeAll(async () => {
  server = await startSync();
  fx = await createFixture(server.db);
  name = await fx.newJourneyDoc();
  [bystander, observer] = [open(), open()];
  await waitFor(() => synced(bystander) && synced(observer), 'bystanders synced');
});
afterAll(async () => {
  for (const c of clients) c.destroy();
  await server.stop();
});

/** The bystander still edits and the observer still receives. */
async function othersCarryOn(mark: string) {
  bystander.doc.getMap('layout').set(mark, true);
  await waitFor(() => observer.doc.getMap('layout').get(mark) === true, `${mark} reaches the observer`);
  expect(bystander.closes).toEqual([]);
}

async function rejected(sender: TestClient): Promise<string> {
  await waitFor(() => sender.closes.length > 0, 'the sender is closed');
  return sender.closes[0]!.reason;
}

it('closes the sender of a malformed update', async () => {
  const sender = open();
  await waitFor(() => synced(sender), 'sender synced');
  sender.sendRaw(rawUpdateMessage(name, new Uint8Array([5])));
  expect(await rejected(sender)).toBe(`${UPDATE_REJECTED_PREFIX}malformed`);
  await othersCarryOn('afterMalformed');
});

it('closes the sender of an oversized update', async () => {
  const sender = open();
  await waitFor(() => synced(sender), 'sender synced');
  sender.doc.getMap('layout').set('big', 'x'.repeat(MAX_UPDATE_BYTES));
  expect(await rejected(sender)).toMatch(new RegExp(`^${UPDATE_REJECTED_PREFIX}too_large:`));
  await othersCarryOn('afterOversized');
  expect(observer.doc.getMap('layout').has('big')).toBe(false);
});

it('takes an offline session larger than one live edit may be, whole, when the client reconnects', async () => {
  const writer = open();
  await waitFor(() => synced(writer), 'writer synced');
  const doc = writer.doc;
  writer.destroy(); // offline from here on
  // Many ordinary edits, together well above the live-update limit.
  for (let i = 0; i < 300; i++) doc.getMap('layout').set(`offline${i}`, { x: i, y: i, note: 'n'.repeat(2_000) });
  const catchUp = Y.encodeStateAsUpdate(doc);
  expect(catchUp.byteLength).toBeGreaterThan(MAX_UPDATE_BYTES);
  const back = openClient({ url: server.url, name, doc, token: () => fx.token(fx.users.manager, { doc: name }) });
  clients.push(back);
  await waitFor(() => synced(back) && !back.provider.hasUnsyncedChanges, 'the catch-up confirmed');
  expect(back.closes).toEqual([]);
  await waitFor(() => observer.doc.getMap('layout').has('offline299'), 'the observer has it all');
  await othersCarryOn('afterBigCatchUp');
});

it('closes the sender of an update with an unknown root, even inside the handshake', async () => {
  const sender = open();
  await waitFor(() => synced(sender), 'sender synced');
  sender.doc.getMap('evil').set('x', 1);
  expect(await rejected(sender)).toBe(`${UPDATE_REJECTED_PREFIX}unknown_root:evil`);

  const offline = open();
  offline.doc.getMap('evil').set('y', 2); // sent in SyncStep2 right after authentication
  expect(await rejected(offline)).toBe(`${UPDATE_REJECTED_PREFIX}unknown_root:evil`);
  await othersCarryOn('afterShape');
  expect(observer.doc.share.has('evil')).toBe(false);
});

it('cuts a frame above the WebSocket limit at the socket (1009)', async () => {
  const sender = open();
  await waitFor(() => synced(sender), 'sender synced');
  sender.sendRaw(new Uint8Array(WS_MAX_PAYLOAD + 1));
  await waitFor(() => sender.closes.some((c) => c.code === 1009), 'socket closed with 1009');
  await othersCarryOn('afterFrame');
});

it('stores none of it', async () => {
  for (const c of clients) c.destroy();
  await waitFor(async () => (await storedDoc(server.db, name))?.getMap('layout').get('afterFrame') === true, 'stored on last disconnect');
  const stored = (await storedDoc(server.db, name))!;
  expect(stored.getMap('layout').has('big')).toBe(false);
  expect(stored.share.has('evil')).toBe(false);
  expect(stored.getMap('layout').toJSON()).toMatchObject({ afterMalformed: true, afterOversized: true, afterShape: true });
});
