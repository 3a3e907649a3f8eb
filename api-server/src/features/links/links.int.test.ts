/**
 * Links and the link host: CRUD with its refusals, the host's redirects per platform with the
 * click id carried on, clicks stored (parsed user agent, device ids, parameters), bots flagged and
 * not counted, 10026 for unknown and deleted codes, and recordClicks for other pieces.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, type Link, type LinkClick } from '@gd/shared';
import { addMember, createTestApp, registerAccount, startTestApi, type TestApi, type TestClient } from '../../testing/harness.ts';
import { recordClicks } from './clicks.ts';
import { campaignFigures } from '../acqReports/figures.ts';

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const PIXEL = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36';
const DESKTOP = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const CRAWLER = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const DESTINATIONS = {
  ios: { store: 'https://apps.apple.com/app/id123456', deepLink: 'shop://product/9' },
  android: { store: 'https://play.google.com/store/apps/details?id=com.example.shop' },
  desktop: { web: 'https://shop.example.com/landing' },
};

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.stop();
});

/** A source and a campaign of the app, written directly (the apptracker's own routes are piece A's). */
async function campaignOf(appId: string, destinations: object = {}): Promise<{ campaignId: string; sourceId: string }> {
  const sourceId = randomUUID();
  const campaignId = randomUUID();
  await api.db.query("INSERT INTO acq_sources (id, app_id, name, type) VALUES ($1, $2, $3, 'adnetwork')", [sourceId, appId, `Source ${sourceId.slice(0, 6)}`]);
  await api.db.query(
    "INSERT INTO acq_campaigns (id, app_id, name, source_id, pricing_model, cost_value, destinations) VALUES ($1, $2, $3, $4, 'cpi', 1.5, $5)",
    [campaignId, appId, `Campaign ${campaignId.slice(0, 6)}`, sourceId, JSON.stringify(destinations)],
  );
  return { campaignId, sourceId };
}

const click = (path: string, init: { ua?: string; method?: string; headers?: Record<string, string> } = {}) =>
  fetch(`${api.url}/l/${path}`, { method: init.method ?? 'GET', redirect: 'manual', headers: { ...(init.ua !== undefined ? { 'user-agent': init.ua } : {}), ...init.headers } });

async function clicksOf(client: TestClient, appId: string, linkId: string): Promise<LinkClick[]> {
  return (await client.ok<{ clicks: LinkClick[] }>('linkClicks', undefined, { appId, linkId })).clicks;
}

describe('links', () => {
  it('creates, lists, edits and deletes links, with their refusals', async () => {
    const { client } = await registerAccount(api);
    const app = await createTestApp(client);
    const params = { appId: app.id };
    const { campaignId } = await campaignOf(app.id, { desktop: { web: 'https://shop.example.com/' } });
    const { link } = await client.ok<{ link: Link }>('createLink', { campaignId, kind: 'tracking', name: 'Spring', params: { sid: 'net1', p1: 'a b' } }, params);
    expect(link.code).toMatch(/^[A-Za-z0-9]{8}$/);
    expect(link.url).toBe(`${api.url}/l/${link.code}?p1=a+b&sid=net1`);
    expect(link).toMatchObject({ campaignDestinations: { desktop: { web: 'https://shop.example.com/' } }, clicks: 0, active: true });

    const chosen = await client.ok<{ link: Link }>('createLink', { campaignId, kind: 'powlink', name: 'Pow', code: 'spring-sale', destinations: DESTINATIONS, deepLink: 'shop://home' }, params);
    expect(chosen.link.code).toBe('spring-sale');
    const taken = await client.call('createLink', { campaignId, kind: 'tracking', name: 'Again', code: 'spring-sale' }, params);
    expect(taken.body).toMatchObject({ code: ErrorCode.NAME_DUPLICATED, details: [{ path: 'code' }] });

    const other = await campaignOf(app.id);
    const nowhere = await client.call('createLink', { campaignId: other.campaignId, kind: 'tracking', name: 'Nowhere' }, params);
    expect(nowhere.body).toMatchObject({ code: ErrorCode.MANDATORY, details: [{ path: 'destinations', message: 'no_destination' }] });
    expect((await client.call('createLink', { campaignId, kind: 'tracking', name: 'Bad', destinations: { ios: { store: 'http://10.0.0.1/x' } } }, params)).body.code).toBe(ErrorCode.MANDATORY);
    expect((await client.call('createLink', { campaignId, kind: 'tracking', name: 'x', params: { nope: '1' } }, params)).body.code).toBe(ErrorCode.MANDATORY);

    const { links, baseUrl } = await client.ok<{ links: Link[]; baseUrl: string }>('links', undefined, params);
    expect(baseUrl).toBe(`${api.url}/l`);
    expect(links.map((l) => l.name)).toEqual(['Pow', 'Spring']);
    expect((await client.ok<{ links: Link[] }>('links', undefined, params, { kind: 'powlink' })).links.map((l) => l.name)).toEqual(['Pow']);

    const edited = await client.ok<{ link: Link }>('updateLink', { campaignId, name: 'Spring 2', params: {}, destinations: {}, active: false }, { ...params, linkId: link.id });
    expect(edited.link).toMatchObject({ name: 'Spring 2', code: link.code, active: false, params: {} });
    expect((await click(link.code, { ua: DESKTOP })).status).toBe(404);

    await client.ok('deleteLink', undefined, { ...params, linkId: chosen.link.id });
    expect((await client.call('link', undefined, { ...params, linkId: chosen.link.id })).body.code).toBe(ErrorCode.NOT_EXIST);
    expect((await client.call('deleteLink', undefined, { ...params, linkId: chosen.link.id })).body.code).toBe(ErrorCode.NOT_EXIST);
  });

  it('answers an id of another app or account like an unknown one, and keeps provider users to their provider', async () => {
    const owner = await registerAccount(api);
    const app = await createTestApp(owner.client);
    const second = await createTestApp(owner.client);
    const { campaignId } = await campaignOf(app.id, DESTINATIONS);
    const foreign = await campaignOf(second.id, DESTINATIONS);
    const { link } = await owner.client.ok<{ link: Link }>('createLink', { campaignId, kind: 'tracking', name: 'Mine' }, { appId: app.id });
    // A campaign of the account's other app, and the link read through the other app.
    expect((await owner.client.call('createLink', { campaignId: foreign.campaignId, kind: 'tracking', name: 'X' }, { appId: app.id })).body.code).toBe(ErrorCode.NOT_EXIST);
    expect((await owner.client.call('link', undefined, { appId: second.id, linkId: link.id })).body.code).toBe(ErrorCode.NOT_EXIST);
    expect((await owner.client.call('updateLink', { campaignId: foreign.campaignId, name: 'X' }, { appId: second.id, linkId: link.id })).body.code).toBe(ErrorCode.NOT_EXIST);
    const stranger = await registerAccount(api);
    expect((await stranger.client.call('links', undefined, { appId: app.id })).body.code).toBe(ErrorCode.NO_PERMISSION);

    // A provider user sees only the links of its provider's campaigns, and may not create any.
    const provider = await addMember(api, owner.client, 'provider');
    expect((await provider.ok<{ links: Link[] }>('links', undefined, { appId: app.id })).links).toHaveLength(1);
    const { rows } = await api.db.query<{ id: string }>("INSERT INTO account_providers (account_id, name) VALUES ($1, 'Net') RETURNING id", [owner.accountId]);
    await api.db.query('INSERT INTO provider_members (account_provider_id, user_id) VALUES ($1, $2)', [rows[0]!.id, provider.userId]);
    expect((await provider.ok<{ links: Link[] }>('links', undefined, { appId: app.id })).links).toEqual([]);
    expect((await provider.call('link', undefined, { appId: app.id, linkId: link.id })).body.code).toBe(ErrorCode.NOT_EXIST);
    expect((await provider.call('createLink', { campaignId, kind: 'tracking', name: 'P' }, { appId: app.id })).body.code).toBe(ErrorCode.NO_PERMISSION);
  });

  it('redirects each platform with the click id, stores each click, flags bots and answers 10026', async () => {
    const { client } = await registerAccount(api);
    const app = await createTestApp(client);
    const params = { appId: app.id };
    const { campaignId, sourceId } = await campaignOf(app.id, DESTINATIONS);
    const { link } = await client.ok<{ link: Link }>('createLink', { campaignId, kind: 'tracking', name: 'T', params: { sid: 'fixed', cid: 'c1' } }, params);

    const ios = await click(`${link.code}?idfa=IDFA-1&sid=net&p3=x&junk=1`, { ua: IPHONE });
    expect(ios.status).toBe(302);
    expect(ios.headers.get('location')).toBe(DESTINATIONS.ios.store);
    expect(ios.headers.get('set-cookie')).toBeNull();

    const android = await click(`${link.code}?gaid=G-1`, { ua: PIXEL });
    const androidTo = android.headers.get('location') ?? '';
    const [, androidClick] = /referrer=gd_click%3D([0-9a-f-]{36})$/.exec(androidTo) ?? [];
    expect(androidTo.startsWith(`${DESTINATIONS.android.store}&referrer=gd_click%3D`)).toBe(true);

    const desktop = await click(link.code, { ua: DESKTOP });
    const desktopTo = new URL(desktop.headers.get('location') ?? '');
    expect(`${desktopTo.origin}${desktopTo.pathname}`).toBe(DESTINATIONS.desktop.web);
    expect(desktopTo.searchParams.get('gd_click')).toMatch(/^[0-9a-f-]{36}$/);

    // Bots and prefetchers are answered and stored, flagged.
    expect((await click(link.code, { ua: CRAWLER })).status).toBe(302);
    expect((await click(link.code, { ua: IPHONE, headers: { 'sec-purpose': 'prefetch;prerender' } })).status).toBe(302);
    expect((await click(link.code, { ua: IPHONE, method: 'HEAD' })).status).toBe(302);
    expect((await click(link.code, { ua: '' })).status).toBe(302);

    const clicks = await clicksOf(client, app.id, link.id);
    expect(clicks).toHaveLength(7);
    const byPlatform = clicks.filter((c) => !c.bot);
    expect(byPlatform).toHaveLength(3);
    const iosClick = byPlatform.find((c) => c.platform === 'ios');
    expect(iosClick).toMatchObject({ os: 'iOS', osVersion: '17.4', device: 'Apple iPhone', browser: 'Safari 17.4', deviceIds: { idfa: 'IDFA-1' }, params: { sid: 'net', cid: 'c1', p3: 'x', idfa: 'IDFA-1' } });
    expect(byPlatform.find((c) => c.platform === 'android')).toMatchObject({ id: androidClick, os: 'Android', device: 'Pixel 8', deviceIds: { gaid: 'G-1' } });
    expect(byPlatform.find((c) => c.platform === 'desktop')?.id).toBe(desktopTo.searchParams.get('gd_click'));
    expect(clicks.filter((c) => c.bot).map((c) => c.botReason).sort()).toEqual(['bot', 'head', 'no_user_agent', 'prefetch']);
    const row = (await api.db.query<{ source_id: string; campaign_id: string; ip: string }>('SELECT source_id, campaign_id, host(ip) AS ip FROM acq_clicks WHERE app_id = $1 AND id = $2', [app.id, androidClick])).rows[0];
    expect(row).toMatchObject({ source_id: sourceId, campaign_id: campaignId });
    expect(row?.ip).toMatch(/127\.0\.0\.1/);

    const { link: listed } = await client.ok<{ link: Link }>('link', undefined, { ...params, linkId: link.id });
    expect(listed).toMatchObject({ clicks: 3, uniqueClicks: 3, bots: 4 });

    // Unknown code: JSON when asked for, else a page; a deleted link's code too (the cache forgot it).
    const unknown = await click('nosuchcode', { headers: { accept: 'application/json' } });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ status: 'KO', code: ErrorCode.SHORT_LINK_NOT_FOUND });
    const page = await click('nosuchcode', { headers: { accept: 'text/html', 'accept-language': 'es-ES' } });
    expect(await page.text()).toContain('Enlace no encontrado');
    await client.ok('deleteLink', undefined, { ...params, linkId: link.id });
    expect((await click(link.code, { ua: IPHONE, headers: { accept: 'application/json' } })).status).toBe(404);
  });

  it('counts an impression for each load of the pixel that is not a bot\'s, stores no click, and the campaign figures show them', async () => {
    const { client } = await registerAccount(api);
    const app = await createTestApp(client);
    const { campaignId } = await campaignOf(app.id, DESTINATIONS);
    const { link } = await client.ok<{ link: Link }>('createLink', { campaignId, kind: 'tracking', name: 'Pixel' }, { appId: app.id });

    const first = await click(`${link.code}/i`, { ua: IPHONE });
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('image/gif');
    expect(Buffer.from(await first.arrayBuffer()).subarray(0, 6).toString()).toBe('GIF89a');
    await click(`${link.code}/i`, { ua: PIXEL });
    await click(`${link.code}/i`, { ua: CRAWLER });
    await click(`${link.code}/i`, { ua: IPHONE, method: 'HEAD' });
    expect((await click('nope-nope/i', { ua: IPHONE })).status).toBe(404);

    expect(await clicksOf(client, app.id, link.id)).toEqual([]);
    const today = new Date().toISOString().slice(0, 10);
    const figures = await campaignFigures(api.db, { id: app.id, timezone: 'UTC' }, { startDay: today, endDay: today });
    expect(figures.get(campaignId)?.impressions).toBe(2);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    expect((await campaignFigures(api.db, { id: app.id, timezone: 'UTC' }, { startDay: yesterday, endDay: yesterday })).get(campaignId)?.impressions).toBe(0);
  });

  it('answers a powlink on a phone with a page that opens the app and falls back to the store', async () => {
    const { client } = await registerAccount(api);
    const app = await createTestApp(client);
    const { campaignId } = await campaignOf(app.id);
    const { link } = await client.ok<{ link: Link }>('createLink', { campaignId, kind: 'powlink', name: 'P', destinations: DESTINATIONS, deepLink: 'shop://home' }, { appId: app.id });
    const ios = await click(link.code, { ua: IPHONE });
    expect(ios.status).toBe(200);
    const html = await ios.text();
    expect(html).toMatch(/href="shop:\/\/product\/9\?gd_click=[0-9a-f-]{36}"/);
    expect(html).toContain(`href="${DESTINATIONS.ios.store}"`);
    const android = await (await click(link.code, { ua: PIXEL })).text();
    expect(android).toMatch(/href="intent:\/\/home\?gd_click=[0-9a-f-]{36}#Intent;scheme=shop;package=com.example.shop;S.browser_fallback_url=https%3A%2F%2Fplay.google.com/);
    const desktop = await click(link.code, { ua: DESKTOP });
    expect(new URL(desktop.headers.get('location') ?? '').searchParams.get('gd_dl')).toBe('shop://home');
  });

  it('recordClicks stores rows in one statement and answers their ids', async () => {
    const { client } = await registerAccount(api);
    const app = await createTestApp(client);
    const { campaignId, sourceId } = await campaignOf(app.id, DESTINATIONS);
    const { link } = await client.ok<{ link: Link }>('createLink', { campaignId, kind: 'tracking', name: 'R' }, { appId: app.id });
    const given = randomUUID();
    const at = new Date('2026-11-20T10:00:00.000Z');
    const ids = await recordClicks(api.db, [
      { id: given, appId: app.id, clickedAt: at, linkId: link.id, campaignId, sourceId, platform: 'ios', idfa: 'A', params: { sid: 's' }, ip: '203.0.113.9' },
      { appId: app.id, linkId: link.id, campaignId, sourceId, platform: 'android', bot: true, botReason: 'bot' },
    ]);
    expect(ids[0]).toBe(given);
    expect(ids[1]).toMatch(/^[0-9a-f-]{36}$/);
    const clicks = await clicksOf(client, app.id, link.id);
    expect(clicks.find((c) => c.id === given)).toMatchObject({ clickedAt: at.toISOString(), ip: '203.0.113.9', deviceIds: { idfa: 'A' }, params: { sid: 's' }, bot: false });
    expect(await recordClicks(api.db, [])).toEqual([]);
  });
});
