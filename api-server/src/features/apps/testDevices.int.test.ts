/**
 * Test devices through the real API (issue 11): each id type in its own format, refused with the
 * catalogue's 10001 on `deviceId`; the all-zero advertising id refused; ids stored in the case
 * their platform reports them, so one device typed in two cases is one test device (30).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ErrorCode } from '@gd/shared';
import { createTestApp, registerAccount, startTestApi, type TestApi } from '../../testing/harness.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.stop();
});

it('refuses ids that are not of their type, keeps the platform case and refuses the same device twice', async () => {
  const { client } = await registerAccount(api);
  const app = await createTestApp(client);
  const add = (idType: string, deviceId: string) => client.call('addTestDevice', { name: 'Phone', idType, deviceId }, { appId: app.id });

  const notIdfa = await add('idfa', 'not-an-idfa');
  expect(notIdfa.httpStatus).toBe(400);
  expect(notIdfa.body).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY, details: [{ path: 'deviceId' }] });
  expect(JSON.stringify(notIdfa.body.details)).toMatch(/IDFA is a UUID/);
  expect((await add('gaid', 'abcd-0001')).body).toMatchObject({ code: ErrorCode.MANDATORY, details: [{ path: 'deviceId' }] });
  expect((await add('oaid', 'xyz-123')).body).toMatchObject({ code: ErrorCode.MANDATORY, details: [{ path: 'deviceId' }] });
  const zero = await add('idfa', '00000000-0000-0000-0000-000000000000');
  expect(zero.body).toMatchObject({ code: ErrorCode.MANDATORY, details: [{ path: 'deviceId' }] });
  expect(JSON.stringify(zero.body.details)).toMatch(/only zeros/);

  const iphone = await add('idfa', '6d92078a-8246-4ba4-ae5b-76104861e7dc');
  expect(iphone.body).toMatchObject({ status: 'OK', device: { idType: 'idfa', deviceId: '6D92078A-8246-4BA4-AE5B-76104861E7DC' } });
  const pixel = await add('gaid', '38400000-8CF0-11BD-B23E-10B96E40000D');
  expect(pixel.body).toMatchObject({ status: 'OK', device: { deviceId: '38400000-8cf0-11bd-b23e-10b96e40000d' } });
  expect((await add('idfa', '6D92078A-8246-4BA4-AE5B-76104861E7DC')).body).toMatchObject({ code: ErrorCode.NAME_DUPLICATED, details: [{ path: 'deviceId' }] });
  expect((await add('auto', 'sdk-Install-42')).body).toMatchObject({ status: 'OK', device: { deviceId: 'sdk-Install-42' } });
});
