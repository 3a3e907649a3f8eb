/**
 * Deferred deep links end to end in Chromium with the web SDK (issue 16): a visitor clicks a
 * tracking link on the product's link host, is redirected to the shop's web fallback with the
 * click id (`gd_click`) and deep link (`gd_dl`), the shop's page starts the SDK (its first run
 * sends the install carrying the click id), and the first open asks for the deferred deep link:
 * the link's deep link and parameters arrive once, then never again (not on a second call, not
 * after a reload, not when the API is asked directly).
 *
 * The web fallback is a public address (`http://shop.example.com/welcome`, as links require): the
 * link host's real answer (its click recorded, its redirect checked) is passed to the browser with
 * the redirect's host moved to the shop page, served by a small HTTP server of the test on its own
 * loopback port (another origin than the product, like a customer's site; see sdk.spec.ts for why
 * the page itself cannot be faked with page.route).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { call } from '../support/api.ts';

const suffix = Date.now().toString(36);
// Headless Chromium names itself in its user agent, and the link host rightly flags that as a bot (never attributed).
test.use({ userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36' });

function shopPage(productOrigin: string, appKey: string): string {
  return `<!doctype html><html><head><title>Shop</title>
<script src="${productOrigin}/sdk/growthdeck.js"></script>
<script>
  window.gd = Growthdeck.createTracker({ appKey: ${JSON.stringify(appKey)}, endpoint: ${JSON.stringify(`${productOrigin}/api`)}, flushIntervalMs: 3600000 });
</script></head><body><h1>Welcome</h1></body></html>`;
}

type Deferred = { deepLink: string; params: Record<string, string> } | null;
const askDeferred = (page: Page) =>
  page.evaluate(() => (window as unknown as { gd: { deferredDeepLink(): Promise<Deferred> } }).gd.deferredDeepLink());

test('a click, the install and the first open deliver the link\'s deep link once', async ({ page, baseURL }) => {
  const origin = new URL(baseURL ?? '').origin;
  let html = '';
  const shopServer = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html));
  await new Promise<void>((resolve) => shopServer.listen(0, '127.0.0.1', resolve));
  const shop = `http://127.0.0.1:${(shopServer.address() as AddressInfo).port}`;
  try {
    // The marketer's side, through the API: an app, a source, a campaign and a tracking link with a deep link.
    await call(page.request, 'POST', '/auth/register', {
      name: 'Dee Link', email: `ddl.${suffix}@e2e.example.com`, password: 'Deferred-Pass-2026!', accountName: `DDL ${suffix}`, plan: 'growth',
    });
    const { app } = (await call(page.request, 'POST', '/apps', { name: 'Shop app', os: 'Web', timezone: 'UTC' })) as { app: { id: string; appKey: string } };
    const { source } = (await call(page.request, 'POST', `/apps/${app.id}/acquisition/sources`, { name: 'Newsletter', type: 'inbound' })) as { source: { id: string } };
    const { campaign } = (await call(page.request, 'POST', `/apps/${app.id}/acquisition/campaigns`, {
      name: 'Autumn sale', sourceId: source.id, pricingModel: 'cpc', costValue: 0.2,
    })) as { campaign: { id: string } };
    const { link } = (await call(page.request, 'POST', `/apps/${app.id}/acquisition/links`, {
      campaignId: campaign.id, kind: 'tracking', name: 'Autumn banner', params: { p1: 'autumn', sid: 'banner-7' },
      destinations: { desktop: { web: 'http://shop.example.com/welcome' } }, deepLink: 'myapp://product/42',
    })) as { link: { code: string } };
    html = shopPage(origin, app.appKey);
    // The link host's own answer, with its redirect's target moved from the public shop address to the test's shop server.
    const hops: string[] = [];
    await page.route(`${origin}/l/**`, async (route) => {
      const answer = await route.fetch({ maxRedirects: 0 });
      const target = new URL(answer.headers().location ?? '');
      hops.push(`${answer.status()} ${target.origin}${target.pathname}`);
      await route.fulfill({ status: answer.status(), headers: { location: `${shop}${target.pathname}${target.search}` } });
    });

    // The click: the link host records it and sends the browser on to the shop with the click id.
    await page.goto(`${origin}/l/${link.code}`);
    await page.waitForFunction(() => 'gd' in window);
    expect(hops).toEqual(['302 http://shop.example.com/welcome']);
    const landed = new URL(page.url());
    expect(landed.origin).toBe(shop);
    const clickId = landed.searchParams.get('gd_click');
    expect(clickId).toMatch(/^[0-9a-f-]{36}$/);
    expect(landed.searchParams.get('gd_dl')).toBe('myapp://product/42');

    // The first open: the install (carrying the click id) is sent, attributed, and the deep link handed over.
    expect(await askDeferred(page)).toEqual({
      deepLink: 'myapp://product/42', params: { p1: 'autumn', sid: 'banner-7', gd_click: clickId, gd_campaign: 'Autumn sale' },
    });
    // Once: not again on this page, nor after a reload, nor when the API itself is asked for this device.
    expect(await askDeferred(page)).toBeNull();
    await page.reload();
    await page.waitForFunction(() => 'gd' in window);
    expect(await askDeferred(page)).toBeNull();
    const deviceId = await page.evaluate(() => (window as unknown as { gd: { deviceId: string } }).gd.deviceId);
    const direct = await page.request.post('/api/sdk/v1/deferred-link', { headers: { 'x-app-key': app.appKey }, data: { device: deviceId } });
    expect(await direct.json()).toEqual({ status: 'OK', deepLink: null, params: null });
  } finally {
    shopServer.close();
  }
});
