/**
 * Collaboration through one real server: convergence, offline merges, read-only connections that
 * change nothing (not applied, not broadcast, not stored, no presence) and presence identity.
 */
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOC_SUMMARY_CHANGED, initJourneyDoc } from '@gd/shared';
import * as Y from 'yjs';
import { openClient, synced, waitFor, type TestClient } from './testing/clients.ts';
import { createFixture, type Fixture } from './testing/fixtures.ts';
import { startSync, storedDoc, type RunningSync } from './testing/server.ts';

/** Edits go to the journey's `layout` root (step id → position, plain JSON values). */
const ROOT = 'layout';
const map = (c: TestClient | Y.Doc) => (c instanceof Y.Doc ? c : c.doc).getMap(ROOT);

let server: RunningSync;
let fx: Fixture;
const clients: TestClient[] = [];
const open = (user: keyof Fixture['users'], name = fx.doc, doc?: Y.Doc) => {
  const c = openClient({ url: server.url, name, token: () => fx.token(fx.users[user], { doc: name }), doc });
  clients.push(c);
  return c;
};

beforeAll(async () => {
  server = await startSync();
  fx = await createFixture(server.db);
});
afterAll(async () => {
  for (const c of clients) c.destroy();
  await server.stop();
});

describe('collaboration', () => {
  it('converges when two clients edit concurrently', async () => {
    const name = await fx.newJourneyDoc();
    const [a, b] = [open('manager', name), open('manager', name)];
    await waitFor(() => synced(a) && synced(b), 'both synced');
    for (let i = 0; i < 50; i += 1) {
      map(a).set(`a${i}`, i);
      map(b).set(`b${i}`, i);
      map(a).set('same', `a${i}`);
      map(b).set('same', `b${i}`);
    }
    await waitFor(() => isDeepStrictEqual(map(a).toJSON(), map(b).toJSON()) && map(a).has('a49') && map(a).has('b49'), 'convergence');
    expect(map(a).get('same')).toMatch(/^(a|b)49$/);
    // The initial content came from the server, once (no duplicated steps or paths).
    const seeded = new Y.Doc();
    initJourneyDoc(seeded, name);
    expect(a.doc.getMap('meta').get('kind')).toBe('journey');
    expect(a.doc.getMap('steps').toJSON()).toEqual(seeded.getMap('steps').toJSON());
  });

  it('merges edits two clients made while offline', async () => {
    const name = await fx.newJourneyDoc();
    const [a, b] = [open('manager', name), open('manager', name)];
    await waitFor(() => synced(a) && synced(b), 'both synced');
    a.socket.disconnect();
    b.socket.disconnect();
    await waitFor(() => !a.provider.isSynced && !b.provider.isSynced, 'both offline');
    map(a).set('fromA', 'offline A');
    map(b).set('fromB', 'offline B');
    expect(map(b).has('fromA')).toBe(false);
    void a.socket.connect();
    void b.socket.connect();
    await waitFor(() => map(a).get('fromB') === 'offline B' && map(b).get('fromA') === 'offline A', 'offline edits merged');
  });
});

describe('read-only connections', () => {
  it('never apply, broadcast or store an edit, whether sent on connect or live', async () => {
    const name = await fx.newJourneyDoc();
    const writer = open('manager', name);
    await waitFor(() => synced(writer), 'writer synced');
    map(writer).set('byWriter', 1);

    // Edited before connecting: the edit travels in SyncStep2 of the handshake.
    const readerDoc = new Y.Doc();
    readerDoc.getMap(ROOT).set('readerOffline', 'x');
    const reader = open('analyst', name, readerDoc);
    await waitFor(() => synced(reader) && map(reader).get('byWriter') === 1, 'reader synced');
    expect(reader.scope()).toBe('readonly');
    // ...and edited live: an Update message.
    map(reader).set('readerLive', 'y');
    await waitFor(() => reader.syncStatuses.filter((applied) => !applied).length >= 2, 'both reader edits refused');

    map(writer).set('after', 2);
    await waitFor(() => map(reader).get('after') === 2, 'reader receives the writer');
    expect(map(writer).has('readerOffline')).toBe(false);
    expect(map(writer).has('readerLive')).toBe(false);

    writer.destroy();
    reader.destroy();
    await waitFor(async () => (await storedDoc(server.db, name))?.getMap(ROOT).get('after') === 2, 'stored after last disconnect');
    const stored = map((await storedDoc(server.db, name))!);
    expect(stored.toJSON()).toMatchObject({ byWriter: 1, after: 2 });
    expect(stored.has('readerOffline') || stored.has('readerLive')).toBe(false);
  });
});

describe('presence', () => {
  it('takes names from the server and publishes nothing for read-only connections', async () => {
    const name = await fx.newJourneyDoc(fx.users.author); // the author may edit their own journey
    const observer = open('manager', name);
    const liar = open('author', name);
    await waitFor(() => synced(observer) && synced(liar), 'synced');
    liar.provider.setAwarenessField('user', { id: fx.users.manager.id, name: 'Mallory', color: '#000000' });
    liar.provider.setAwarenessField('cursor', { x: 1, y: 2 });
    const seen = () => observer.provider.awareness!.getStates().get(liar.doc.clientID) as { user?: { id: string; name: string }; cursor?: unknown } | undefined;
    await waitFor(() => seen()?.cursor !== undefined, 'observer sees the liar');
    expect(seen()?.user).toMatchObject({ id: fx.users.author.id, name: fx.users.author.name });
    expect(seen()?.user?.name).not.toBe('Mallory');

    // A read-only viewer's presence reaches no one.
    const viewer = open('analyst', name);
    await waitFor(() => synced(viewer), 'viewer synced');
    viewer.provider.setAwarenessField('user', { name: 'Viewer' });
    map(viewer).set('barrier', 1); // refused with a SyncStatus, after the awareness message on the same socket
    await waitFor(() => viewer.syncStatuses.includes(false), 'viewer messages handled');
    liar.provider.setAwarenessField('cursor', { x: 3, y: 4 }); // broadcast after anything the viewer caused
    await waitFor(() => (seen()?.cursor as { x: number } | undefined)?.x === 3, 'observer sees the later update');
    expect(observer.provider.awareness!.getStates().has(viewer.doc.clientID)).toBe(false);
  });
});

describe('summary announcements', () => {
  it('the API\'s service connection reaches every open editor; a person cannot announce', async () => {
    const name = await fx.newJourneyDoc();
    const [a, b] = [open('manager', name), open('author', name)];
    await waitFor(() => synced(a) && synced(b), 'both synced');
    const heard: string[] = [];
    b.provider.on('stateless', ({ payload }: { payload: string }) => heard.push(payload));

    a.provider.sendStateless(DOC_SUMMARY_CHANGED); // a person's connection: not relayed
    const service = openClient({ url: server.url, name, token: () => fx.token({ id: 'api', name: 'api' }, { typ: 'service', doc: name }) });
    clients.push(service);
    await waitFor(() => synced(service), 'service synced');
    service.provider.sendStateless(DOC_SUMMARY_CHANGED);
    await waitFor(() => heard.length > 0, 'the announcement reached the editor');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(heard).toEqual([DOC_SUMMARY_CHANGED]);
  });
});
