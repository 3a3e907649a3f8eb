/**
 * Landing pages: CRUD with its refusals (slugs, domains and colours malformed, addresses taken,
 * another app's campaign), nothing half-written; the public page (published served with a strict
 * CSP and escaped text, drafts 404, custom domains by Host), visits counted per day without bots;
 * and a powlink whose web fallback is a landing, the click id carried to the page's buttons.
 */
import { randomBytes, randomUUID, createHash } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, type Landing, type LandingSummary, type LandingVisitDay, type Link } from '@gd/shared';
import { createTestApp, registerAccount, startTestApi, type TestApi, type TestClient } from '../../testing/harness.ts';

const DESKTOP = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const CRAWLER = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const COLOURS = { background: '#FFFFFF', text: '#111827', accent: '#4F46E5' };
const BLOCKS = [
  { type: 'title', id: 't1', text: 'Big <sale> & "deals"', size: 'large', align: 'center' },
  { type: 'text', id: 'x1', text: 'Line one\nline two\n\n<script>alert(1)</script>', align: 'left' },
  { type: 'image', id: 'i1', url: 'https://cdn.example.com/hero.png', alt: 'Hero "image"', width: 'full' },
  { type: 'buttons', id: 'b1', align: 'center', buttons: [{ label: 'Get it', url: 'https://shop.example.com/buy?x=1', background: '#FF0000', text: '#FFFFFF' }] },
  { type: 'spacer', id: 's1', size: 'small' },
];

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ PUBLIC_HOSTS: 'app.growthdeck.test' });
});
afterAll(async () => {
  await api.stop();
});

const slugOf = (tag: string) => `${tag}-${randomBytes(4).toString('hex')}`;
const input = (over: Record<string, unknown> = {}) => ({ name: 'Spring page', slug: slugOf('spring'), colours: COLOURS, blocks: BLOCKS, ...over });

async function campaignOf(appId: string): Promise<string> {
  const sourceId = randomUUID();
  const campaignId = randomUUID();
  await api.db.query("INSERT INTO acq_sources (id, app_id, name, type) VALUES ($1, $2, $3, 'adnetwork')", [sourceId, appId, `Source ${sourceId.slice(0, 6)}`]);
  await api.db.query("INSERT INTO acq_campaigns (id, app_id, name, source_id, pricing_model, cost_value) VALUES ($1, $2, $3, $4, 'cpi', 1)", [campaignId, appId, `Campaign ${campaignId.slice(0, 6)}`, sourceId]);
  return campaignId;
}

/** A GET with any Host header (fetch would not send another Host). */
function get(path: string, init: { host?: string; ua?: string; method?: string; accept?: string } = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const url = new URL(api.url);
  return new Promise((resolve, reject) => {
    const req = request({
      host: url.hostname, port: url.port, path, method: init.method ?? 'GET',
      headers: { host: init.host ?? url.host, ...(init.ua ? { 'user-agent': init.ua } : {}), ...(init.accept ? { accept: init.accept } : {}) },
    }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => { body += chunk; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function rowCount(appId: string): Promise<number> {
  return (await api.db.query<{ n: number }>('SELECT count(*)::int AS n FROM landings WHERE app_id = $1', [appId])).rows[0]!.n;
}

const visitsToday = async (client: TestClient, appId: string, landingId: string) => {
  const { days } = await client.ok<{ days: LandingVisitDay[] }>('landingVisits', undefined, { appId, landingId }, { days: 7 });
  expect(days).toHaveLength(7);
  return days.at(-1)!;
};

describe('landings', () => {
  it('creates, lists, edits and deletes landings, refusing malformed slugs, domains and colours', async () => {
    const { client } = await registerAccount(api);
    const app = await createTestApp(client);
    const params = { appId: app.id };

    for (const slug of ['has space', '..', 'a/b', 'ñandú', '']) {
      const answer = await client.call('createLanding', input({ slug }), params);
      expect(answer.body, slug).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY });
      expect(JSON.stringify(answer.body.details), slug).toContain('slug');
    }
    for (const colour of ['#FFF', 'red', '#GGGGGG', 'FFFFFF', '#FFFFFF0']) {
      const answer = await client.call('createLanding', input({ colours: { ...COLOURS, accent: colour } }), params);
      expect(answer.body, colour).toMatchObject({ code: ErrorCode.MANDATORY });
      expect(JSON.stringify(answer.body.details)).toContain('colours.accent');
    }
    const badButton = [{ type: 'buttons', id: 'b', align: 'center', buttons: [{ label: 'x', url: 'https://a.example.com', background: '#12345', text: '#FFFFFF' }] }];
    expect((await client.call('createLanding', input({ blocks: badButton }), params)).body.code).toBe(ErrorCode.MANDATORY);
    expect((await client.call('createLanding', input({ domain: 'not a domain' }), params)).body.code).toBe(ErrorCode.MANDATORY);
    expect((await client.call('createLanding', input({ blocks: [{ type: 'image', id: 'i', url: 'http://cdn.example.com/a.png', alt: '', width: 'full' }] }), params)).body.code).toBe(ErrorCode.MANDATORY);
    expect((await client.call('createLanding', input({ blocks: [{ type: 'title', id: 'same', text: 'a', size: 'large', align: 'left' }, { type: 'spacer', id: 'same', size: 'small' }] }), params)).body.code).toBe(ErrorCode.MANDATORY);
    expect(await rowCount(app.id)).toBe(0);

    const campaignId = await campaignOf(app.id);
    const { landing } = await client.ok<{ landing: Landing }>('createLanding', input({ slug: slugOf('Promo'), campaignId }), params);
    expect(landing).toMatchObject({ status: 'draft', campaignId, visits: 0, links: 0, url: `${api.url}/p/${landing.slug}`, blocks: BLOCKS });
    expect(landing.campaignName).toMatch(/^Campaign /);

    // Slugs are unique per domain, whatever the case; the same slug on a custom domain is another address.
    const taken = await client.call('createLanding', input({ slug: landing.slug.toUpperCase() }), params);
    expect(taken.body).toMatchObject({ code: ErrorCode.NAME_DUPLICATED, details: [{ path: 'slug', message: 'slug_taken' }] });
    const domain = `promo-${randomBytes(3).toString('hex')}.example.com`;
    const onDomain = await client.ok<{ landing: Landing }>('createLanding', input({ slug: landing.slug, domain: domain.toUpperCase() }), params);
    expect(onDomain.landing).toMatchObject({ domain, url: `https://${domain}/${landing.slug}` });

    // Another account may not use that domain; another app's campaign is an unknown one.
    const other = await registerAccount(api);
    const otherApp = await createTestApp(other.client);
    const stolen = await other.client.call('createLanding', input({ domain }), { appId: otherApp.id });
    expect(stolen.body).toMatchObject({ code: ErrorCode.NAME_DUPLICATED, details: [{ path: 'domain', message: 'domain_taken' }] });
    const foreign = await other.client.call('createLanding', input({ campaignId }), { appId: otherApp.id });
    expect(foreign.body).toMatchObject({ code: ErrorCode.NOT_EXIST, details: [{ path: 'campaignId' }] });
    expect(await rowCount(otherApp.id)).toBe(0);
    // The product's own host is never a custom domain.
    const own = await client.call('createLanding', input({ domain: 'App.Growthdeck.test' }), params);
    expect(own.body).toMatchObject({ code: ErrorCode.MANDATORY, details: [{ path: 'domain', message: 'domain_reserved' }] });

    const { landings } = await client.ok<{ landings: LandingSummary[]; hostBase: string }>('landings', undefined, params);
    expect(landings.map((l) => l.id)).toContain(landing.id);
    expect((await client.ok<{ landings: LandingSummary[] }>('landings', undefined, params, { campaignId })).landings.map((l) => l.id)).toEqual([landing.id]);

    const updated = await client.ok<{ landing: Landing }>('updateLanding', input({ name: 'Renamed', slug: landing.slug, colours: { ...COLOURS, background: '#000000' }, blocks: BLOCKS.slice(0, 1) }), { ...params, landingId: landing.id });
    expect(updated.landing).toMatchObject({ name: 'Renamed', colours: { background: '#000000' }, blocks: BLOCKS.slice(0, 1), campaignId: null });
    const badUpdate = await client.call('updateLanding', input({ slug: 'no spaces', name: 'Changed' }), { ...params, landingId: landing.id });
    expect(badUpdate.body.code).toBe(ErrorCode.MANDATORY);
    expect((await client.ok<{ landing: Landing }>('landing', undefined, { ...params, landingId: landing.id })).landing.name).toBe('Renamed');

    expect((await other.client.call('landing', undefined, { appId: otherApp.id, landingId: landing.id })).body.code).toBe(ErrorCode.NOT_EXIST);
    expect((await other.client.call('deleteLanding', undefined, { appId: otherApp.id, landingId: landing.id })).body.code).toBe(ErrorCode.NOT_EXIST);
    await client.ok('deleteLanding', undefined, { ...params, landingId: landing.id });
    expect((await client.call('landing', undefined, { ...params, landingId: landing.id })).body.code).toBe(ErrorCode.NOT_EXIST);
  });

  it('serves a published landing with a strict CSP and escaped text, counts visits per day without bots, and 404s drafts', async () => {
    const { client } = await registerAccount(api);
    const app = await createTestApp(client);
    const params = { appId: app.id };
    const { landing } = await client.ok<{ landing: Landing }>('createLanding', input(), params);
    const ids = { ...params, landingId: landing.id };

    expect((await get(`/p/${landing.slug}`, { ua: DESKTOP })).status).toBe(404);
    const json = await get(`/p/${landing.slug}`, { ua: DESKTOP, accept: 'application/json' });
    expect(JSON.parse(json.body)).toMatchObject({ status: 'KO', code: ErrorCode.NOT_EXIST });

    const empty = await client.ok<{ landing: Landing }>('createLanding', input({ blocks: [] }), params);
    const refused = await client.call('publishLanding', undefined, { ...params, landingId: empty.landing.id });
    expect(refused.body).toMatchObject({ code: ErrorCode.MANDATORY, details: [{ path: 'blocks', message: 'empty' }] });

    const published = await client.ok<{ landing: Landing }>('publishLanding', undefined, ids);
    expect(published.landing.status).toBe('published');
    expect(published.landing.publishedAt).not.toBeNull();

    const page = await get(`/p/${landing.slug}`, { ua: DESKTOP });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('<h1 class="c">Big &#60;sale&#62; &#38; &#34;deals&#34;</h1>');
    expect(page.body).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
    expect(page.body).not.toMatch(/<script/i);
    expect(page.body).toContain('<p class="l">Line one<br>line two</p>');
    expect(page.body).toContain('src="https://cdn.example.com/hero.png" alt="Hero &#34;image&#34;"');
    expect(page.body).toContain('href="https://shop.example.com/buy?x=1"');
    const csp = String(page.headers['content-security-policy']);
    const css = /<style>(.*?)<\/style>/s.exec(page.body)![1]!;
    expect(csp).toContain(`style-src 'sha256-${createHash('sha256').update(css).digest('base64')}'`);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain('img-src https:');
    expect(csp).not.toMatch(/script-src|unsafe/);
    expect(css).toContain('.b3-0{background:#FF0000;color:#FFFFFF}');

    // A crawler and a HEAD request are not visits; a person's visit from a link carries the click id on.
    expect((await get(`/p/${landing.slug}`, { ua: CRAWLER })).status).toBe(200);
    expect((await get(`/p/${landing.slug}`, { ua: DESKTOP, method: 'HEAD' })).status).toBe(200);
    const clickId = randomUUID();
    const fromLink = await get(`/p/${landing.slug.toUpperCase()}?gd_click=${clickId}`, { ua: IPHONE });
    expect(fromLink.body).toContain(`href="https://shop.example.com/buy?x=1&#38;gd_click=${clickId}"`);
    expect(await visitsToday(client, app.id, landing.id)).toMatchObject({ visits: 2, fromLinks: 1 });
    const listed = (await client.ok<{ landings: LandingSummary[] }>('landings', undefined, params)).landings.find((l) => l.id === landing.id);
    expect(listed).toMatchObject({ visits: 2, visitsWeek: 2, status: 'published' });

    await client.ok('unpublishLanding', undefined, ids);
    expect((await get(`/p/${landing.slug}`, { ua: DESKTOP })).status).toBe(404);
    expect((await visitsToday(client, app.id, landing.id)).visits).toBe(2);
    expect((await get('/p/no-such-page', { ua: DESKTOP })).status).toBe(404);
  });

  it('serves a landing on its custom domain, by Host, and nothing else there', async () => {
    const { client } = await registerAccount(api);
    const app = await createTestApp(client);
    const domain = `go-${randomBytes(3).toString('hex')}.example.org`;
    const { landing } = await client.ok<{ landing: Landing }>('createLanding', input({ domain }), { appId: app.id });
    await client.ok('publishLanding', undefined, { appId: app.id, landingId: landing.id });

    const page = await get(`/${landing.slug}`, { host: domain, ua: DESKTOP });
    expect(page.status).toBe(200);
    expect(page.body).toContain('Big &#60;sale&#62;');
    expect((await get(`/${landing.slug}`, { host: `${domain.toUpperCase()}:8443`, ua: DESKTOP })).status).toBe(200);
    // Not on the link host, and the product's own routes do not answer on the domain.
    expect((await get(`/p/${landing.slug}`, { ua: DESKTOP })).status).toBe(404);
    expect((await get('/api/health', { host: domain, ua: DESKTOP })).status).toBe(404);
    expect((await get('/other', { host: domain, ua: DESKTOP })).status).toBe(404);
    expect((await visitsToday(client, app.id, landing.id)).visits).toBe(2);
  });

  it('uses a landing as a link\'s web fallback while it is published, with the click id carried on', async () => {
    const { client } = await registerAccount(api);
    const app = await createTestApp(client);
    const params = { appId: app.id };
    const campaignId = await campaignOf(app.id);
    const { landing } = await client.ok<{ landing: Landing }>('createLanding', input(), params);

    // Another app's landing is an unknown one.
    const other = await registerAccount(api);
    const otherApp = await createTestApp(other.client);
    const { landing: foreign } = await other.client.ok<{ landing: Landing }>('createLanding', input(), { appId: otherApp.id });
    const refused = await client.call('createLink', { campaignId, kind: 'powlink', name: 'Pow', landingId: foreign.id }, params);
    expect(refused.body).toMatchObject({ code: ErrorCode.NOT_EXIST, details: [{ path: 'landingId' }] });

    // A draft landing leaves the link's own web address.
    const draftLink = await client.ok<{ link: Link }>('createLink', {
      campaignId, kind: 'powlink', name: 'Draft', landingId: landing.id, destinations: { desktop: { web: 'https://own.example.com/' } },
    }, params);
    expect(draftLink.link.landingId).toBe(landing.id);
    const own = await fetch(`${api.url}/l/${draftLink.link.code}`, { redirect: 'manual', headers: { 'user-agent': DESKTOP } });
    expect(own.headers.get('location')).toMatch(/^https:\/\/own\.example\.com\/\?gd_click=/);

    await client.ok('publishLanding', undefined, { ...params, landingId: landing.id });
    // A landing alone is a destination; the powlink's deep link opens the app on a phone, the landing is its fallback.
    const { link } = await client.ok<{ link: Link }>('createLink', { campaignId, kind: 'powlink', name: 'Pow', landingId: landing.id, deepLink: 'shop://sale' }, params);
    const desktop = await fetch(`${api.url}/l/${link.code}`, { redirect: 'manual', headers: { 'user-agent': DESKTOP } });
    expect(desktop.status).toBe(302);
    const location = desktop.headers.get('location')!;
    expect(location.startsWith(`${api.url}/p/${landing.slug}?gd_click=`)).toBe(true);
    const clickId = new URL(location).searchParams.get('gd_click')!;
    expect(new URL(location).searchParams.get('gd_dl')).toBe('shop://sale');

    const page = await fetch(location, { headers: { 'user-agent': DESKTOP } });
    expect(await page.text()).toContain(`href="https://shop.example.com/buy?x=1&#38;gd_click=${clickId}"`);
    expect(await visitsToday(client, app.id, landing.id)).toMatchObject({ visits: 1, fromLinks: 1 });

    const phone = await fetch(`${api.url}/l/${link.code}`, { redirect: 'manual', headers: { 'user-agent': IPHONE } });
    const html = await phone.text();
    expect(html).toContain('shop://sale?gd_click=');
    expect(html).toContain(`${api.url}/p/${landing.slug}?gd_click=`);

    const listed = (await client.ok<{ landings: LandingSummary[] }>('landings', undefined, params)).landings.find((l) => l.id === landing.id);
    expect(listed?.links).toBe(2);
    // Deleting the landing leaves the links without it.
    await client.ok('deleteLanding', undefined, { ...params, landingId: landing.id });
    expect((await client.ok<{ link: Link }>('link', undefined, { ...params, linkId: link.id })).link.landingId).toBeNull();
  });
});
