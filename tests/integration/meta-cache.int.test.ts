/**
 * GET /user/meta is served from a per-process cache keyed by the user and the meta version read with
 * the principal (migration 008). Every test warms the cache first, changes something the answer
 * shows, and expects the very next answer to show it: through this server, through a second API
 * process on the same database, and after writes made in SQL outside any route. A user of another
 * account never gets an answer kept for someone else, even when their versions are equal.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, type UserMeta } from '@gd/shared';
import {
  TestClient, addMember, createTestApp, registerAccount, startTestApi, type TestApi,
} from '../../api-server/src/testing/harness.ts';

let api: TestApi;
/** A second API process (same database, own cache), as behind a load balancer. */
let other: TestApi;
beforeAll(async () => {
  [api, other] = await Promise.all([startTestApi(), startTestApi()]);
});
afterAll(async () => {
  await Promise.all([api.stop(), other.stop()]);
});

const cookieOf = (client: TestClient) => [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');

interface MetaAnswer { status: number; etag: string | null; meta: UserMeta; text: string }

/** The raw answer, from this server or from `base` (the other process), as the browser gets it. */
async function meta(client: TestClient, base = api.url, headers: Record<string, string> = {}): Promise<MetaAnswer> {
  const res = await fetch(`${base}/api/user/meta`, { headers: { cookie: cookieOf(client), ...headers } });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`meta answered ${res.status}: ${text}`);
  const body = JSON.parse(text) as UserMeta & { status: string };
  expect(body.status).toBe('OK');
  return { status: res.status, etag: res.headers.get('etag'), meta: body, text };
}

/** Asks twice, so the second answer comes from the cache, and checks both are the same bytes. */
async function warm(client: TestClient, base = api.url): Promise<MetaAnswer> {
  const first = await meta(client, base);
  const second = await meta(client, base);
  expect(second.text).toBe(first.text);
  expect(second.etag).toBe(first.etag);
  return second;
}

async function team() {
  const owner = await registerAccount(api);
  const app = await createTestApp(owner.client, { name: `Shop ${randomUUID().slice(0, 6)}` });
  const analyst = await addMember(api, owner.client, 'analyst');
  return { owner, app, analyst };
}

const appNamed = (m: UserMeta, id: string) => m.apps.find((a) => a.id === id);

describe('GET /user/meta never answers from a stale cache', () => {
  it('shows a new role of the user, and a change of grants and user type of that role', async () => {
    const { owner, analyst } = await team();
    const before = (await warm(analyst)).meta;
    expect(before.user.roleName).toBe('Analyst');
    expect(before.disallowed).toContain('ui:app.new');

    const { roles } = await owner.client.ok<{ roles: { id: string; builtIn: string | null }[] }>('listRoles');
    const manager = roles.find((r) => r.builtIn === 'manager');
    await owner.client.ok('updateUser', { roleId: manager!.id }, { userId: analyst.userId });
    const asManager = (await meta(analyst)).meta;
    expect(asManager.user.roleId).toBe(manager!.id);
    expect(asManager.disallowed).not.toEqual(before.disallowed);
    await warm(analyst);

    // A custom role, then a change of the role alone (the user row does not change).
    const roleId = randomUUID();
    const grants = ['route:/user/account/test-devices', 'ui:testDevices.view'];
    await owner.client.ok('putRole', { name: `Keeper ${roleId.slice(0, 6)}`, userType: 79, grants }, { roleId });
    await owner.client.ok('updateUser', { roleId }, { userId: analyst.userId });
    const keeper = (await warm(analyst)).meta;
    expect(keeper.user).toMatchObject({ roleId, userType: 79 });
    expect(keeper.disallowed).toContain('ui:testDevices.add');

    await owner.client.ok('putRole', { name: `Keeper ${roleId.slice(0, 6)}`, userType: 78, grants: [...grants, 'ui:testDevices.add'] }, { roleId });
    const widened = (await meta(analyst)).meta;
    expect(widened.user.userType).toBe(78);
    expect(widened.disallowed).not.toContain('ui:testDevices.add');
    expect(widened.apps[0]!.disallowed).not.toContain('ui:testDevices.add');
  });

  it('shows an app created, renamed, given a new key and deleted', async () => {
    const { owner, app, analyst } = await team();
    expect((await warm(analyst)).meta.apps.map((a) => a.id)).toEqual([app.id]);

    const added = await createTestApp(owner.client, { name: 'Second app' });
    expect((await meta(analyst)).meta.apps.map((a) => a.id)).toEqual([app.id, added.id]);
    await warm(analyst);

    await owner.client.ok('updateApp', { name: 'Renamed app', os: 'iOS', timezone: 'Europe/Madrid' }, { appId: added.id });
    expect(appNamed((await meta(analyst)).meta, added.id)).toMatchObject({ name: 'Renamed app', os: 'iOS', timezone: 'Europe/Madrid' });
    await warm(analyst);

    const { app: rotated } = await owner.client.ok<{ app: { appKey: string } }>('rotateAppKey', undefined, { appId: added.id });
    expect(appNamed((await meta(analyst)).meta, added.id)?.appKey).toBe(rotated.appKey);
    await warm(analyst);

    await owner.client.ok('deleteApp', undefined, { appId: added.id });
    expect((await meta(analyst)).meta.apps.map((a) => a.id)).toEqual([app.id]);
  });

  it("shows a change of an app's disallowed permissions", async () => {
    const { owner, app, analyst } = await team();
    expect(appNamed((await warm(analyst)).meta, app.id)?.disallowed).not.toContain('route:/behavior/explore');

    await owner.client.ok('updateApp', { name: 'Locked', os: 'Android', timezone: 'UTC', restricted: ['route:/behavior/explore'] }, { appId: app.id });
    const locked = appNamed((await meta(analyst)).meta, app.id);
    expect(locked?.restricted).toEqual(['route:/behavior/explore']);
    expect(locked?.disallowed).toContain('route:/behavior/explore');
    await warm(analyst);

    await owner.client.ok('updateApp', { name: 'Locked', os: 'Android', timezone: 'UTC', restricted: [] }, { appId: app.id });
    expect(appNamed((await meta(analyst)).meta, app.id)?.disallowed).not.toContain('route:/behavior/explore');
  });

  it("shows the user's profile edits and the account's name, support level and plan", async () => {
    const { owner, analyst } = await team();
    await warm(analyst);
    await analyst.ok('updateProfile', { name: 'Ana Lista', language: 'es', jobDepartment: 'Product' });
    expect((await meta(analyst)).meta.user).toMatchObject({ name: 'Ana Lista', language: 'es', jobDepartment: 'Product' });
    await warm(analyst);

    await owner.client.ok('updateAccount', { name: 'Renamed account', supportLevel: 'customer_success' });
    expect((await meta(analyst)).meta.account).toMatchObject({ name: 'Renamed account', supportLevel: 'customer_success' });
    await warm(analyst);

    await owner.client.ok('updatePlan', { plan: 'padawan' });
    expect((await meta(analyst)).meta.account).toMatchObject({ plan: 'padawan', apiVersion: 1 });
  });

  it('refuses a deactivated user even with an answer in the cache', async () => {
    const { owner, analyst } = await team();
    await warm(analyst);
    await owner.client.ok('updateUser', { active: false }, { userId: analyst.userId });
    expect((await analyst.call('meta')).body.code).toBe(ErrorCode.INVALID_USER);
  });
});

describe('several API processes and writes outside the routes', () => {
  it('a change made through one process shows at once in the other', async () => {
    const { owner, app, analyst } = await team();
    await warm(analyst, api.url);
    await warm(analyst, other.url);

    await owner.client.ok('updateApp', { name: 'Seen everywhere', os: 'Android', timezone: 'UTC', restricted: ['ui:testDevices.view'] }, { appId: app.id });
    for (const base of [other.url, api.url]) {
      const seen = appNamed((await meta(analyst, base)).meta, app.id);
      expect(seen?.name).toBe('Seen everywhere');
      expect(seen?.disallowed).toContain('ui:testDevices.view');
    }

    await warm(analyst, other.url);
    await analyst.ok('updateProfile', { name: 'Renamed via the first' });
    expect((await meta(analyst, other.url)).meta.user.name).toBe('Renamed via the first');
  });

  it('a write in SQL (no route, no process told) shows at once', async () => {
    const { app, analyst } = await team();
    const warmed = await warm(analyst);
    await api.db.query('UPDATE apps SET name = $2 WHERE id = $1', [app.id, 'Renamed in SQL']);
    expect(appNamed((await meta(analyst)).meta, app.id)?.name).toBe('Renamed in SQL');
    await warm(analyst);
    await api.db.query("UPDATE user_roles SET grants = array_append(grants, 'ui:app.new') WHERE id = $1", [warmed.meta.user.roleId]);
    expect((await meta(analyst)).meta.disallowed).not.toContain('ui:app.new');
    await warm(analyst);
    await api.db.query('UPDATE users SET name = $2 WHERE id = $1', [analyst.userId, 'Renamed user in SQL']);
    expect((await meta(analyst)).meta.user.name).toBe('Renamed user in SQL');
  });

  it('deleting an account (cascading to its apps, roles and users) still works with the version triggers', async () => {
    const { owner, analyst } = await team();
    await warm(analyst);
    await api.db.query('DELETE FROM accounts WHERE id = $1', [owner.accountId]);
    expect((await analyst.call('meta')).body.code).toBe(ErrorCode.ACCESS_TOKEN_NOT_EXISTING);
  });
});

describe('the principal each process keeps between requests', () => {
  it('a grant given or taken in the role counts from the next request, in either process', async () => {
    const { analyst, app } = await team();
    const roleId = (await warm(analyst)).meta.user.roleId;
    await warm(analyst, other.url);
    const otherAnalyst = new TestClient(other.url);
    otherAnalyst.cookies = analyst.cookies;
    expect((await analyst.call('createApp', { name: 'Refused', os: 'iOS' })).body.code).toBe(ErrorCode.NO_PERMISSION);
    expect((await otherAnalyst.call('createApp', { name: 'Refused', os: 'iOS' })).body.code).toBe(ErrorCode.NO_PERMISSION);

    await api.db.query("UPDATE user_roles SET grants = array_append(grants, 'ui:app.new') WHERE id = $1", [roleId]);
    await otherAnalyst.ok('createApp', { name: 'Allowed now', os: 'iOS' });
    await analyst.ok('createApp', { name: 'Allowed here too', os: 'iOS' });

    await api.db.query("UPDATE user_roles SET grants = array_remove(grants, 'ui:app.new') WHERE id = $1", [roleId]);
    expect((await otherAnalyst.call('createApp', { name: 'Refused again', os: 'iOS' })).body.code).toBe(ErrorCode.NO_PERMISSION);
    expect((await analyst.call('createApp', { name: 'Refused again', os: 'iOS' })).body.code).toBe(ErrorCode.NO_PERMISSION);

    // An app's own restriction (not part of the principal) applies at once too.
    await analyst.ok('listTestDevices', undefined, { appId: app.id });
    await api.db.query("UPDATE apps SET restricted = '{ui:testDevices.view}' WHERE id = $1", [app.id]);
    expect((await otherAnalyst.call('listTestDevices', undefined, { appId: app.id })).body.code).toBe(ErrorCode.NO_PERMISSION);
  });

  it('a new plan shows at once in the account read through the other process', async () => {
    const { owner } = await team();
    const elsewhere = new TestClient(other.url);
    elsewhere.cookies = owner.client.cookies;
    expect((await elsewhere.ok<{ account: { plan: string } }>('getAccount')).account.plan).toBe('growth');
    await owner.client.ok('updatePlan', { plan: 'enterprise' });
    expect((await elsewhere.ok<{ account: { plan: string } }>('getAccount')).account.plan).toBe('enterprise');
  });
});

describe('isolation and entity tags', () => {
  it("another account's user never gets the kept answer, even with the same meta versions", async () => {
    const a = await team();
    const b = await team();
    // Same versions on both sides: only the user id (and account) may tell the entries apart.
    await api.db.query('UPDATE accounts SET meta_version = 1000000 WHERE id = ANY($1)', [[a.owner.accountId, b.owner.accountId]]);
    await api.db.query('UPDATE users SET meta_version = 1000000 WHERE id = ANY($1)', [[a.analyst.userId, b.analyst.userId]]);
    const metaA = (await warm(a.analyst)).meta;
    const metaB = (await warm(b.analyst)).meta;
    expect(metaA.user.id).toBe(a.analyst.userId);
    expect(metaB.user.id).toBe(b.analyst.userId);
    expect(metaB.account.id).toBe(b.owner.accountId);
    expect(metaB.apps.map((x) => x.id)).toEqual([b.app.id]);
    expect(metaA.apps.map((x) => x.id)).toEqual([a.app.id]);
    // The owner of account B, signed in, and B's analyst in the other process: their own answers.
    expect((await meta(b.owner.client)).meta.user.id).toBe(b.owner.userId);
    expect((await meta(b.analyst, other.url)).meta.user.id).toBe(b.analyst.userId);
  });

  it('answers 304 to a matching If-None-Match, and the new answer after a change', async () => {
    const { owner, app, analyst } = await team();
    const warmed = await warm(analyst);
    expect(warmed.etag).toMatch(/^W\/"[0-9a-f]+-[A-Za-z0-9+/]{27}"$/);

    const unchanged = await fetch(`${api.url}/api/user/meta`, { headers: { cookie: cookieOf(analyst), 'if-none-match': warmed.etag ?? '' } });
    expect(unchanged.status).toBe(304);
    expect(await unchanged.text()).toBe('');

    await owner.client.ok('updateApp', { name: 'Changed', os: 'Android', timezone: 'UTC' }, { appId: app.id });
    const changed = await meta(analyst, api.url, { 'if-none-match': warmed.etag ?? '' });
    expect(changed.status).toBe(200);
    expect(changed.etag).not.toBe(warmed.etag);
    expect(appNamed(changed.meta, app.id)?.name).toBe('Changed');

    // Another user's tag never matches this user's answer.
    const ownerTag = (await warm(owner.client)).etag ?? '';
    expect((await meta(analyst, api.url, { 'if-none-match': ownerTag })).status).toBe(200);
  });
});
