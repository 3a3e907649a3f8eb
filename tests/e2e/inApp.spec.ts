/**
 * An in-app banner end to end (issue 13): a marketer writes a banner through the API (its live
 * document, as the editor does), targets the app's test devices, submits, approves and plays it; a
 * visitor's page on another origin, with the web SDK from the product, shows the banner in its
 * shadow root; the visitor clicks its button (a link opening in a new tab); the click is counted on
 * the message (the delivery answer's interactions), with the impression.
 *
 * The shop page is served by a small HTTP server of the test on its own loopback port (another
 * origin than the product, like sdk.spec.ts); the web plugin is on (a loopback page passes its
 * domain check, see api-server sdkMessages/routes.ts).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { applyMessageDraftToDoc, messageDraftFromDoc, type MessageDraft } from '@gd/shared';
import { openApiDoc, waitFor, type TestClient as DocClient } from '../../sync-server/src/testing/clients.ts';

const suffix = Date.now().toString(36);

async function call(request: APIRequestContext, method: 'GET' | 'POST' | 'PUT', path: string, data?: unknown): Promise<Record<string, unknown>> {
  const { csrfToken } = (await (await request.get('/api/auth/csrf')).json()) as { csrfToken: string };
  const res = await request.fetch(`/api${path}`, { method, headers: { 'x-csrf-token': csrfToken }, ...(data === undefined ? {} : { data }) });
  const body = (await res.json()) as Record<string, unknown>;
  expect(body.status, JSON.stringify(body)).toBe('OK');
  return body;
}

/** The customer's page: the SDK from the product, showing in-app messages as it starts. */
function shopPage(productOrigin: string, appKey: string): string {
  return `<!doctype html><html><head><title>Shop</title>
<style>button { background: red !important; display: none !important; } div { all: unset; }</style>
<script src="${productOrigin}/sdk/growthdeck.js"></script>
<script>
  window.gd = Growthdeck.createTracker({ appKey: ${JSON.stringify(appKey)}, endpoint: ${JSON.stringify(`${productOrigin}/api`)},
    flushAt: 1000, flushIntervalMs: 3600000, inApp: location.search === '?show' });
</script></head><body><h1>Shop</h1></body></html>`;
}

const gd = <T>(page: Page, fn: (gd: { deviceId: string; flush(): Promise<void>; queued: number }) => T | Promise<T>): Promise<T> =>
  page.evaluate<T>(`(${fn.toString()})(window.gd)`);

test('an in-app banner played to the test devices shows on a page with the web SDK, and its click is counted', async ({ page, baseURL }) => {
  test.slow();
  const origin = new URL(baseURL ?? '').origin;
  let html = '';
  const shopServer = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html));
  await new Promise<void>((resolve) => shopServer.listen(0, '127.0.0.1', resolve));
  const shop = `http://127.0.0.1:${(shopServer.address() as AddressInfo).port}/`;
  const docs: DocClient[] = [];
  try {
    // The marketer's account, app and web plugin.
    await call(page.request, 'POST', '/auth/register', {
      name: 'Ina App', email: `inapp.${suffix}@e2e.example.com`, password: 'InApp-Pass-2026!', accountName: `In-app ${suffix}`, plan: 'growth',
    });
    await call(page.request, 'PUT', '/account/approval-policy', { required: 1, authorsMayApprove: true });
    const { app } = (await call(page.request, 'POST', '/apps', { name: 'Web shop', os: 'Web', timezone: 'Europe/Lisbon' })) as { app: { id: string; appKey: string } };
    await call(page.request, 'PUT', `/apps/${app.id}/web-plugin`, { enabled: true, domains: ['shop.example.com'], position: 'bottom', accentColor: '#0b7285', zIndex: 100000, closeButton: true });
    html = shopPage(origin, app.appKey);

    // A first visit: the SDK makes the visitor known; the marketer registers the browser as a test device.
    await page.goto(shop);
    await page.waitForFunction(() => 'gd' in window);
    const deviceId = await gd(page, async (t) => { await t.flush(); return t.deviceId; });
    await call(page.request, 'POST', `/apps/${app.id}/test-devices`, { name: `Browser ${suffix}`, idType: 'auto', deviceId });

    // The banner, written in its live document, to the test devices; submitted, approved, played.
    const { message } = (await call(page.request, 'POST', `/apps/${app.id}/messages`, { name: `Sale banner ${suffix}`, type: 'banner', campaignName: `Sale ${suffix}` })) as { message: { id: string; docName: string } };
    const tokens = { ok: async <T,>(_name: 'docToken', body: { name: string }) => (await call(page.request, 'POST', '/docs/token', body)) as T };
    const doc = await openApiDoc(tokens, message.docName, docs);
    const draft = messageDraftFromDoc(doc.doc);
    const written: MessageDraft = {
      ...draft,
      target: { kind: 'testDevices' },
      variants: draft.variants.map((v) => ({
        ...v,
        content: Object.fromEntries(Object.entries(v.content).map(([lang, c]) => [lang, {
          ...c, title: 'Winter sale', message: 'Everything at half price today', position: 'top', shown_time: null,
          buttons: [{ text: 'Shop now', action: 'customUrl', target_url: 'https://shop.example.com/sale', open_in: 'browser' }],
        }])),
      })),
    };
    applyMessageDraftToDoc(doc.doc, written);
    await waitFor(() => !doc.provider.hasUnsyncedChanges, 'draft written');
    const submitted = (await call(page.request, 'POST', `/apps/${app.id}/messages/${message.id}/submit`)) as { message: { submission: { id: string } } };
    await call(page.request, 'POST', `/apps/${app.id}/messages/${message.id}/approve`, { submissionId: submitted.message.submission.id });
    await call(page.request, 'POST', `/apps/${app.id}/messages/${message.id}/transition`, { action: 'play' });
    await expect.poll(async () => ((await call(page.request, 'GET', `/apps/${app.id}/messages/${message.id}`)) as { message: { status: string } }).message.status, { timeout: 30_000 }).toBe('Sending');

    // The visitor comes back: the banner shows at the top, in its shadow root, whatever the page's CSS says.
    await page.goto(`${shop}?show`);
    const banner = page.locator('#growthdeck-in-app [data-type="banner"]');
    await expect(banner).toBeVisible({ timeout: 20_000 });
    await expect(banner).toHaveAttribute('data-message', message.id);
    await expect(banner.getByRole('heading')).toHaveText('Winter sale');
    await expect(banner).toContainText('Everything at half price today');
    const box = await banner.boundingBox();
    expect(box?.y).toBe(0);

    // The visitor clicks the button: the link opens in a new tab and the banner closes.
    await page.context().route('https://shop.example.com/**', (route) => route.fulfill({ contentType: 'text/html', body: '<h1>Sale</h1>' }));
    const popup = page.waitForEvent('popup');
    await banner.getByRole('button', { name: 'Shop now' }).click();
    expect((await popup).url()).toContain('shop.example.com/sale');
    await expect(banner).toHaveCount(0);
    await gd(page, (t) => t.flush());
    await expect.poll(() => gd(page, (t) => t.queued)).toBe(0);

    // The click and the impression are counted on the message; it was delivered once.
    await expect.poll(async () => ((await call(page.request, 'GET', `/apps/${app.id}/messages/${message.id}/delivery`)) as { interactions: Record<string, number> }).interactions, { timeout: 15_000 })
      .toMatchObject({ impression: 1, click: 1, dismissed_click: 0 });
    const delivery = (await call(page.request, 'GET', `/apps/${app.id}/messages/${message.id}/delivery`)) as { runs: { counts: Record<string, number> }[] };
    expect(delivery.runs[0]?.counts).toMatchObject({ sent: 1, queued: 0 });

    // Clicked: the next visit shows it no more.
    await page.goto(`${shop}?show`);
    await page.waitForFunction(() => 'gd' in window);
    await page.waitForTimeout(1500);
    await expect(page.locator('#growthdeck-in-app [data-type="banner"]')).toHaveCount(0);
  } finally {
    for (const d of docs) d.destroy();
    shopServer.close();
  }
});
