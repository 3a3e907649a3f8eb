/**
 * The web SDK end to end: a customer's shop page on another origin loads /sdk/growthdeck.js from
 * the product, tracks a visitor (install, session, views, a purchase), survives a reload with
 * events still queued, identifies them; then the marketer finds the person with that timeline
 * and counts the same events in explore.
 *
 * The shop page is served by a small HTTP server of the test on its own loopback port, so it is
 * another origin than the product, as the customer's own site would be (a page faked with
 * page.route has no address and Chromium's local network access rules would refuse its requests
 * to a loopback API). Everything the page does goes to the real product: the SDK file, and the
 * ingestion API over CORS.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { call } from '../support/api.ts';

const suffix = Date.now().toString(36);
const customerId = `sdk-buyer-${suffix}`;

/** The customer's page: loads the SDK from the product and exposes its tracker as window.gd. */
function shopPage(productOrigin: string, appKey: string): string {
  return `<!doctype html><html><head><title>Shop</title>
<script src="${productOrigin}/sdk/growthdeck.js"></script>
<script>
  window.gd = Growthdeck.createTracker({ appKey: ${JSON.stringify(appKey)}, endpoint: ${JSON.stringify(`${productOrigin}/api`)},
    flushAt: 1000, flushIntervalMs: 3600000, deviceContext: { appVersion: '5.0.0', country: 'PT' } });
</script></head><body><h1>Shop</h1></body></html>`;
}

async function openShop(page: Page, shop: string) {
  await page.goto(shop);
  await page.waitForFunction(() => 'gd' in window);
}

const queued = (page: Page) => page.evaluate(() => (window as unknown as { gd: { queued: number } }).gd.queued);

test('events sent with the web SDK reach the person timeline and explore', async ({ page, baseURL }) => {
  const origin = new URL(baseURL ?? '').origin;
  let html = '';
  const shopServer = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html));
  await new Promise<void>((resolve) => shopServer.listen(0, '127.0.0.1', resolve));
  const shop = `http://127.0.0.1:${(shopServer.address() as AddressInfo).port}/`;
  try {
    await shopAndMarketer(page, origin, shop, (h) => { html = h; });
  } finally {
    shopServer.close();
  }
});

async function shopAndMarketer(page: Page, origin: string, shop: string, serve: (html: string) => void) {
  await call(page.request, 'POST', '/auth/register', {
    name: 'Sam Sdk', email: `sdk.${suffix}@e2e.example.com`, password: 'Sdk-Pass-2026!', accountName: `SDK ${suffix}`, plan: 'growth',
  });
  const { app } = (await call(page.request, 'POST', '/apps', { name: 'Web shop', os: 'Web', timezone: 'Europe/Lisbon' })) as { app: { appKey: string } };
  serve(shopPage(origin, app.appKey));

  // The page's start sends the install and the session at once; wait for that, so what follows
  // stays queued (no flush: flushAt 1000, a 1 h interval), then reload: the queue survives in
  // localStorage. Without the wait the start's drain could still be sending and take the new
  // events along before the network drops.
  await openShop(page, shop);
  await expect.poll(() => queued(page)).toBe(0);
  await page.evaluate(() => {
    const { gd } = window as unknown as { gd: { track(n: string, p?: object): void; screen(n: string): void } };
    gd.screen('home');
    for (const sku of ['A-1', 'B-2', 'C-3']) gd.track('product_view', { sku });
  });
  const before = await queued(page);
  expect(before).toBeGreaterThanOrEqual(4);
  // The visitor's network drops while the page reloads: the page-hide flush fails and nothing is lost.
  await page.route('**/api/ingest/**', (route) => route.abort('internetdisconnected'));
  await page.reload();
  await page.waitForFunction(() => 'gd' in window);
  expect(await queued(page)).toBe(before);
  await page.unroute('**/api/ingest/**');

  // A purchase and the sign-in, then everything leaves (cross-origin, to the real API).
  await page.evaluate(async (id) => {
    const { gd } = window as unknown as { gd: { transaction(r: number, c: string, p?: object): void; identify(id: string, p?: object): void; flush(): Promise<void> } };
    gd.transaction(24.9, 'EUR', { order: 'o-1' });
    gd.identify(id, { email: `${id}@example.com` });
    await gd.flush();
  }, customerId);
  await expect.poll(() => queued(page)).toBe(0);

  // The marketer finds the person and their timeline.
  await page.goto('/behavior/people');
  await page.getByTestId('people-search').fill(customerId);
  await page.getByTestId('person-row').filter({ hasText: customerId }).click();
  const profile = page.getByTestId('person-profile');
  await expect(profile.getByTestId('person-title')).toHaveText(customerId);
  await profile.getByRole('tab', { name: /Events/ }).click();
  const names = profile.getByTestId('timeline-event-name');
  await expect(names.first()).toHaveText('Sale');
  await expect(profile.getByTestId('timeline-event').first()).toContainText('24.90');
  await expect(profile.getByTestId('timeline-event').filter({ hasText: 'product_view' })).toHaveCount(3);
  await expect(names.filter({ hasText: 'Install' })).toHaveCount(1);

  // Explore counts the three product views today.
  await page.goto('/behavior/explore');
  await page.getByRole('combobox', { name: 'Event' }).click();
  await page.getByRole('option', { name: 'product_view' }).click();
  const table = page.getByTestId('explore-table');
  await expect(table.locator('tfoot tr').first().locator('th, td')).toHaveText(['Total', '3']);
}
