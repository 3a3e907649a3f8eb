/** The web plugin's settings against real Postgres: defaults, saving, bad input, rights, another account. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_WEB_PLUGIN, ErrorCode, type WebPluginSettings } from '@gd/shared';
import { addMember, createTestApp, registerAccount, startTestApi, type TestApi } from '../../testing/harness.ts';

let api: TestApi;
let owner: Awaited<ReturnType<typeof registerAccount>>;
let appId: string;
const valid = { enabled: true, domains: ['shop.example.com', '*.example.org'], position: 'top', accentColor: '#FF5500', zIndex: 9999, closeButton: false };

beforeAll(async () => {
  api = await startTestApi();
  owner = await registerAccount(api);
  appId = (await createTestApp(owner.client)).id;
});
afterAll(async () => { await api.stop(); });

const settings = async () => (await owner.client.ok<{ settings: WebPluginSettings }>('getWebPlugin', undefined, { appId })).settings;

describe('web plugin settings', () => {
  it('answers the defaults until saved, then what was saved (colour lower-cased, domains lower-cased)', async () => {
    expect(await settings()).toEqual(DEFAULT_WEB_PLUGIN);
    const saved = (await owner.client.ok<{ settings: WebPluginSettings }>('updateWebPlugin', { ...valid, domains: ['Shop.Example.com', '*.example.org'] }, { appId })).settings;
    expect(saved).toMatchObject({ ...valid, accentColor: '#ff5500' });
    expect(saved.updatedAt).not.toBeNull();
    expect(await settings()).toEqual(saved);
  });

  it('refuses bad input with the field and writes nothing', async () => {
    const before = await settings();
    for (const [body, path] of [
      [{ ...valid, domains: ['not a domain'] }, 'domains.0'],
      [{ ...valid, domains: ['http://shop.example.com'] }, 'domains.0'],
      [{ ...valid, domains: ['a.example.com', 'a.example.com'] }, 'domains'],
      [{ ...valid, accentColor: 'red' }, 'accentColor'],
      [{ ...valid, zIndex: 0 }, 'zIndex'],
      [{ ...valid, position: 'left' }, 'position'],
      [{ ...valid, domains: [] }, 'domains'],
    ] as const) {
      const answer = await owner.client.call('updateWebPlugin', body, { appId });
      expect(answer.body.status, JSON.stringify(body)).toBe('KO');
      expect((answer.body.details as { path: string }[] | undefined)?.map((d) => d.path)).toContain(path);
    }
    expect(await settings()).toEqual(before);
    // Off, it needs no domain.
    await owner.client.ok('updateWebPlugin', { ...valid, enabled: false, domains: [] }, { appId });
  });

  it('readers see the settings but cannot change them; another account sees nothing', async () => {
    const analyst = await addMember(api, owner.client, 'analyst');
    expect((await analyst.call('getWebPlugin', undefined, { appId })).body.status).toBe('OK');
    expect((await analyst.call('updateWebPlugin', valid, { appId })).body.code).toBe(ErrorCode.NO_PERMISSION);
    const other = await registerAccount(api);
    expect((await other.client.call('getWebPlugin', undefined, { appId })).body.code).toBe(ErrorCode.NO_PERMISSION);
    expect((await other.client.call('updateWebPlugin', valid, { appId })).body.code).toBe(ErrorCode.NO_PERMISSION);
    expect((await settings()).enabled).toBe(false);
  });
});
