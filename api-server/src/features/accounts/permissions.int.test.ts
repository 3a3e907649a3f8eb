/** The API enforces each role's capabilities and the app's own restrictions. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@gd/shared';
import { addMember, registerAccount, startTestApi, uniqueEmail, type TestApi } from '../../testing/harness.ts';

let api: TestApi;
let owner: Awaited<ReturnType<typeof registerAccount>>;
let roles: { id: string; builtIn: string | null; name: string }[];
let appId: string;

const member = (builtIn: string) => addMember(api, owner.client, builtIn);

beforeAll(async () => {
  api = await startTestApi();
  owner = await registerAccount(api);
  roles = (await owner.client.ok<{ roles: typeof roles }>('listRoles')).roles;
  appId = (await owner.client.ok<{ app: { id: string } }>('createApp', { name: 'Main', os: 'Android' })).app.id;
});
afterAll(async () => { await api.stop(); });

describe('role enforcement', () => {
  it('an analyst reads but cannot create apps, invite users or edit roles', async () => {
    const analyst = await member('analyst');
    await analyst.ok('listApps');
    expect((await analyst.call('createApp', { name: 'Nope', os: 'iOS' })).body.code).toBe(ErrorCode.NO_PERMISSION);
    expect((await analyst.call('addUser', { name: 'X', email: uniqueEmail(), roleId: roles[0]!.id })).body.code).toBe(ErrorCode.NO_PERMISSION);
    expect((await analyst.call('putRole', { name: 'X', userType: 79, grants: [] }, { roleId: crypto.randomUUID() })).body.code).toBe(ErrorCode.NO_PERMISSION);
    const meta = await analyst.ok<{ apps: { id: string; disallowed: string[] }[] }>('meta');
    expect(meta.apps[0]!.disallowed).toContain('ui:app.new');
    expect(meta.apps[0]!.disallowed).not.toContain('route:/behavior/explore');
  });

  it('a manager edits apps and adds test devices until the app restricts test devices', async () => {
    const manager = await member('manager');
    await manager.ok('updateApp', { name: 'Main', os: 'Android', timezone: 'Europe/Madrid' }, { appId });
    expect((await manager.call('deleteApp', undefined, { appId })).body.code).toBe(ErrorCode.NO_PERMISSION);
    await manager.ok('addTestDevice', { name: 'Pixel', idType: 'gaid', deviceId: '38400000-8cf0-11bd-b23e-10b96e400001' }, { appId });
    await owner.client.ok('updateApp', { name: 'Main', os: 'Android', timezone: 'Europe/Madrid', restricted: ['ui:testDevices.add'] }, { appId });
    const refused = await manager.call('addTestDevice', { name: 'Pixel 2', idType: 'gaid', deviceId: '38400000-8cf0-11bd-b23e-10b96e400002' }, { appId });
    expect(refused.body.code).toBe(ErrorCode.NO_PERMISSION);
    const meta = await manager.ok<{ apps: { id: string; disallowed: string[] }[] }>('meta');
    expect(meta.apps.find((a) => a.id === appId)!.disallowed).toContain('ui:testDevices.add');
  });

  it('a custom role grants exactly what it lists, and nobody grants more than they hold', async () => {
    const id = crypto.randomUUID();
    const { role } = await owner.client.ok<{ role: { id: string; grants: string[] } }>('putRole', {
      name: 'Device keeper', userType: 79, grants: ['route:/user/account/test-devices', 'ui:testDevices.view', 'ui:testDevices.add'],
    }, { roleId: id });
    expect(role.id).toBe(id);
    roles = (await owner.client.ok<{ roles: typeof roles }>('listRoles')).roles;
    const keeper = await member('analyst');
    const admin = await member('admin');
    await admin.ok('updateUser', { roleId: id }, { userId: keeper.userId });
    await owner.client.ok('updateApp', { name: 'Main', os: 'Android', timezone: 'Europe/Madrid', restricted: [] }, { appId });
    await keeper.ok('addTestDevice', { name: 'Keeper phone', idType: 'auto', deviceId: 'kk-0001' }, { appId });
    expect((await keeper.call('listApps')).body.code).toBe(ErrorCode.NO_PERMISSION);

    const manager = await member('manager');
    const grab = await manager.call('putRole', { name: 'Power', userType: 78, grants: ['api:account.roles'] }, { roleId: crypto.randomUUID() });
    expect(grab.body.code).toBe(ErrorCode.NO_PERMISSION);
    const duplicate = await owner.client.call('putRole', { name: 'device KEEPER', userType: 79, grants: [] }, { roleId: crypto.randomUUID() });
    expect(duplicate.body.code).toBe(ErrorCode.NAME_DUPLICATED);
    expect((await owner.client.call('deleteRole', undefined, { roleId: id })).body.code).toBe(ErrorCode.GENERIC);
  });

  it('app names are unique per account (30)', async () => {
    const again = await owner.client.call('createApp', { name: 'MAIN', os: 'iOS' });
    expect(again.body.code).toBe(ErrorCode.NAME_DUPLICATED);
  });
});
