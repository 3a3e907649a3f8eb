/**
 * Rights are checked again while a connection is open: a writer whose role loses edit rights, who
 * is deactivated or removed, or whose app starts forbidding journeys has nothing applied that they
 * send after the change, and their connection is closed (the client reopens with its new rights).
 */
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { ACCESS_CHANGED_PREFIX, PERMISSION_KEYS, ROLE_GRANTS } from '@gd/shared';
import { openClient, synced, waitFor, type TestClient } from './testing/clients.ts';
import { createFixture, type Fixture } from './testing/fixtures.ts';
import { startSync, storedDoc, type RunningSync } from './testing/server.ts';

let server: RunningSync;
let fx: Fixture;
let name: string;
const clients: TestClient[] = [];

beforeAll(async () => {
  // A long watcher interval: the per-update fence alone must stop the edit sent right after a change.
  server = await startSync({ accessCheckMs: 60_000, debounceMs: 50, maxDebounceMs: 200 });
});
beforeEach(async () => {
  fx = await createFixture(server.db);
  name = fx.doc;
});
afterAll(async () => {
  for (const c of clients) c.destroy();
  await server.stop();
});

function connect(user: Fixture['users'][keyof Fixture['users']]): TestClient {
  const c = openClient({ url: server.url, name, token: () => fx.token(user, { doc: name }) });
  clients.push(c);
  return c;
}
const layout = (c: TestClient) => c.doc.getMap('layout');
const closedFor = (c: TestClient) => c.closes.map((e) => e.reason).find((r) => r.startsWith(ACCESS_CHANGED_PREFIX));

async function editorAndObserver() {
  const writer = connect(fx.users.manager);
  const observer = connect(fx.users.author);
  await waitFor(() => synced(writer) && synced(observer), 'both synced');
  layout(writer).set('before', 1);
  await waitFor(() => layout(observer).get('before') === 1, 'an edit before the change arrives');
  return { writer, observer };
}

/** The edit sent after the change never reaches anyone, nor the database. */
async function expectRefused(writer: TestClient, observer: TestClient, reason: string) {
  layout(writer).set('after', 1);
  await waitFor(() => closedFor(writer) !== undefined, 'the writer closed out');
  expect(closedFor(writer)).toBe(`${ACCESS_CHANGED_PREFIX}${reason}`);
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(layout(observer).has('after')).toBe(false);
  await waitFor(async () => (await storedDoc(server.db, name))?.getMap('layout').get('before') === 1, 'stored');
  expect((await storedDoc(server.db, name))?.getMap('layout').has('after')).toBe(false);
}

const roleOf = async (userId: string) =>
  (await server.db.query<{ role_id: string }>('SELECT role_id FROM users WHERE id = $1', [userId])).rows[0]!.role_id;

it('a writer whose role loses edit rights: the next edit is not applied, reopening is read-only', async () => {
  const { writer, observer } = await editorAndObserver();
  await server.db.query('UPDATE user_roles SET grants = $2 WHERE id = $1', [await roleOf(fx.users.manager.id), [...ROLE_GRANTS.analyst]]);
  await expectRefused(writer, observer, 'read');
  const again = connect(fx.users.manager);
  await waitFor(() => synced(again), 'reopened');
  expect(again.scope()).toBe('readonly');
});

it('a deactivated writer', async () => {
  const { writer, observer } = await editorAndObserver();
  await server.db.query('UPDATE users SET active = false WHERE id = $1', [fx.users.manager.id]);
  await expectRefused(writer, observer, 'revoked');
  const again = connect(fx.users.manager);
  await waitFor(() => again.refusals.length > 0, 'refused');
  expect(again.refusals[0]).toBe('user not allowed');
});

it('a removed writer', async () => {
  const { writer, observer } = await editorAndObserver();
  // Their journey is reassigned first (created_by references the user).
  await server.db.query('UPDATE journeys SET created_by = $2 WHERE created_by = $1', [fx.users.manager.id, fx.users.author.id]);
  await server.db.query('DELETE FROM users WHERE id = $1', [fx.users.manager.id]);
  await expectRefused(writer, observer, 'revoked');
});

it('an app that starts forbidding journeys', async () => {
  const { writer, observer } = await editorAndObserver();
  const journeyKeys = PERMISSION_KEYS.filter((k) => k.startsWith('ui:journey.'));
  await server.db.query('UPDATE apps SET restricted = $2 WHERE id = $1', [fx.appId, journeyKeys]);
  layout(writer).set('after', 1);
  await waitFor(() => closedFor(writer) !== undefined, 'the writer closed out');
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(layout(observer).has('after')).toBe(false);
});

it('an idle connection is closed by the watcher, without sending anything', async () => {
  const watched = await startSync({ accessCheckMs: 100 });
  try {
    const idle = openClient({ url: watched.url, name, token: () => fx.token(fx.users.manager, { doc: name }) });
    clients.push(idle);
    await waitFor(() => synced(idle), 'synced');
    await server.db.query('UPDATE users SET active = false WHERE id = $1', [fx.users.manager.id]);
    await waitFor(() => closedFor(idle) !== undefined, 'closed within a few intervals', 3_000);
    expect(closedFor(idle)).toBe(`${ACCESS_CHANGED_PREFIX}revoked`);
  } finally {
    await watched.stop();
  }
});

it('unrelated changes to the user (a login) leave the connection writable', async () => {
  const { writer, observer } = await editorAndObserver();
  await server.db.query('UPDATE users SET name = name WHERE id = $1', [fx.users.manager.id]);
  layout(writer).set('after', 1);
  await waitFor(() => layout(observer).get('after') === 1, 'still applied');
  expect(closedFor(writer)).toBeUndefined();
});

it('an owner-only writer whose message is given to someone else (the API moves both owners\' access versions): the next edit is not applied, reopening is read-only', async () => {
  // The Author role edits only messages it owns (ui:message.edit:owner).
  name = await fx.newMessageDoc(fx.users.author);
  const writer = connect(fx.users.author);
  const observer = connect(fx.users.manager);
  await waitFor(() => synced(writer) && synced(observer), 'both synced');
  expect(writer.scope()).not.toBe('readonly');
  const settings = (c: TestClient) => c.doc.getMap('settings');
  settings(writer).set('before', 1);
  await waitFor(() => settings(observer).get('before') === 1, 'an edit before the change arrives');
  // What assignMessage writes in its transaction.
  await server.db.query('UPDATE messages SET owner_id = $2 WHERE doc_name = $1', [name, fx.users.manager.id]);
  await server.db.query('UPDATE users SET meta_version = meta_version WHERE id = ANY($1::uuid[])', [[fx.users.author.id, fx.users.manager.id]]);
  settings(writer).set('after', 1);
  await waitFor(() => closedFor(writer) !== undefined, 'the writer closed out');
  expect(closedFor(writer)).toBe(`${ACCESS_CHANGED_PREFIX}read`);
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(settings(observer).has('after')).toBe(false);
  const again = connect(fx.users.author);
  await waitFor(() => synced(again), 'reopened');
  expect(again.scope()).toBe('readonly');
});
