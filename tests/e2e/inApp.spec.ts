/**
 * An in-app banner end to end (issue 13): a marketer writes a banner through the API (its live
 * document, as the editor does), targets the app's test devices, submits, approves and plays it; a
 * visitor's page on another origin, with the web SDK from the product, shows the banner in its
 * shadow root; the visitor clicks its button (a link opening in a new tab); the click is counted in
 * the message's metrics and on the visitor's profile, with the impression. A coupon tapped twice is
 * redeemed and clicked once, and shows ✓ once the API has said OK.
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
    await expect(banner.getByRole('button', { name: 'Close' })).toBeVisible();
    // The renderer was loaded for it; web push, which this page does not use, was not.
    const scripts = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));
    expect(scripts.some((n) => n.endsWith('/sdk/growthdeck-inapp.js'))).toBe(true);
    expect(scripts.some((n) => n.includes('growthdeck-webpush'))).toBe(false);

    // The visitor clicks the button: the link opens in a new tab and the banner closes.
    await page.context().route('https://shop.example.com/**', (route) => route.fulfill({ contentType: 'text/html', body: '<h1>Sale</h1>' }));
    const popup = page.waitForEvent('popup');
    await banner.getByRole('button', { name: 'Shop now' }).click();
    expect((await popup).url()).toContain('shop.example.com/sale');
    await expect(banner).toHaveCount(0);
    await gd(page, (t) => t.flush());
    await expect.poll(() => gd(page, (t) => t.queued)).toBe(0);

    // The click and the impression are counted in the message's metrics; it was delivered once.
    await expect.poll(async () => ((await call(page.request, 'GET', `/apps/${app.id}/messages/${message.id}/metrics`)) as { metrics: { total: Record<string, unknown> } }).metrics.total, { timeout: 15_000 })
      .toMatchObject({ delivered: 1, impressions: 1, clicks: 1, ctr: 1 });
    // And on the visitor's profile: one impression, one click, no dismissal.
    const { people } = (await call(page.request, 'GET', `/apps/${app.id}/people?q=${encodeURIComponent(deviceId)}`)) as { people: { id: string }[] };
    expect(people).toHaveLength(1);
    const profile = (await call(page.request, 'GET', `/apps/${app.id}/people/${people[0]!.id}`)) as { messages: { messageId: string | null; impressions: number; clicks: number; dismissed: number }[] };
    expect(profile.messages.find((m) => m.messageId === message.id)).toMatchObject({ impressions: 1, clicks: 1, dismissed: 0 });
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

test('a coupon tapped twice is redeemed and clicked once, and shows ✓ after the API said OK', async ({ page, baseURL }) => {
  test.slow();
  const origin = new URL(baseURL ?? '').origin;
  let html = '';
  const shopServer = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html));
  await new Promise<void>((resolve) => shopServer.listen(0, '127.0.0.1', resolve));
  const shop = `http://127.0.0.1:${(shopServer.address() as AddressInfo).port}/`;
  const docs: DocClient[] = [];
  try {
    await call(page.request, 'POST', '/auth/register', {
      name: 'Cora Coupon', email: `coupon.${suffix}@e2e.example.com`, password: 'Coupon-Pass-2026!', accountName: `Coupon ${suffix}`, plan: 'growth',
    });
    await call(page.request, 'PUT', '/account/approval-policy', { required: 1, authorsMayApprove: true });
    const { app } = (await call(page.request, 'POST', '/apps', { name: 'Coupon shop', os: 'Web', timezone: 'Europe/Madrid' })) as { app: { id: string; appKey: string } };
    await call(page.request, 'PUT', `/apps/${app.id}/web-plugin`, { enabled: true, domains: ['shop.example.com'], position: 'bottom', accentColor: '#0b7285', zIndex: 100000, closeButton: true });
    html = shopPage(origin, app.appKey);
    await page.goto(shop);
    await page.waitForFunction(() => 'gd' in window);
    const deviceId = await gd(page, async (t) => { await t.flush(); return t.deviceId; });
    await call(page.request, 'POST', `/apps/${app.id}/test-devices`, { name: `Coupon browser ${suffix}`, idType: 'auto', deviceId });

    const { message } = (await call(page.request, 'POST', `/apps/${app.id}/messages`, { name: `Coupon ${suffix}`, type: 'coupon', campaignName: `Coupon ${suffix}` })) as { message: { id: string; docName: string } };
    const tokens = { ok: async <T,>(_name: 'docToken', body: { name: string }) => (await call(page.request, 'POST', '/docs/token', body)) as T };
    const doc = await openApiDoc(tokens, message.docName, docs);
    const draft = messageDraftFromDoc(doc.doc);
    applyMessageDraftToDoc(doc.doc, {
      ...draft,
      target: { kind: 'testDevices' },
      variants: draft.variants.map((v) => ({
        ...v,
        content: Object.fromEntries(Object.entries(v.content).map(([lang, c]) => [lang, { ...c, title: 'Ten percent off', message: 'Use it at checkout', promo_code: 'TEN-OFF', max_redeems: 3, shown_time: null }])),
      })),
    });
    await waitFor(() => !doc.provider.hasUnsyncedChanges, 'draft written');
    const submitted = (await call(page.request, 'POST', `/apps/${app.id}/messages/${message.id}/submit`)) as { message: { submission: { id: string } } };
    await call(page.request, 'POST', `/apps/${app.id}/messages/${message.id}/approve`, { submissionId: submitted.message.submission.id });
    await call(page.request, 'POST', `/apps/${app.id}/messages/${message.id}/transition`, { action: 'play' });
    await expect.poll(async () => ((await call(page.request, 'GET', `/apps/${app.id}/messages/${message.id}`)) as { message: { status: string } }).message.status, { timeout: 30_000 }).toBe('Sending');

    // What the page sends: redemptions (with their answers) and the interactions it reports.
    const redeems: { body: Record<string, unknown>; answer: Record<string, unknown> }[] = [];
    const reported: { kind: string; messageId: string }[] = [];
    page.on('request', (req) => {
      if (req.url().endsWith('/ingest/v1/batch')) reported.push(...((req.postDataJSON() as { interactions?: { kind: string; messageId: string }[] }).interactions ?? []));
    });
    page.on('response', async (res) => {
      if (res.url().endsWith('/sdk/v1/redeem')) redeems.push({ body: res.request().postDataJSON() as Record<string, unknown>, answer: (await res.json()) as Record<string, unknown> });
    });

    // The coupon shows as a dialog named by its heading; the visitor taps its code twice.
    await page.goto(`${shop}?show`);
    const coupon = page.locator('#growthdeck-in-app [data-type="coupon"]');
    await expect(coupon).toBeVisible({ timeout: 20_000 });
    await expect(page.getByRole('dialog', { name: 'Ten percent off' })).toBeVisible();
    const code = coupon.getByRole('button', { name: 'TEN-OFF' });
    await code.dblclick();
    await expect(code).toHaveText('TEN-OFF ✓');
    await expect(code).toBeDisabled();
    await gd(page, (t) => t.flush());
    await expect.poll(() => gd(page, (t) => t.queued)).toBe(0);
    await page.waitForTimeout(1000);

    // One redemption, counted by the API (the person's first), and one click, however many taps.
    expect(redeems).toHaveLength(1);
    expect(redeems[0]?.body).toMatchObject({ device: { id: deviceId }, messageId: message.id });
    expect(redeems[0]?.answer).toMatchObject({ status: 'OK', counted: true, promoCode: 'TEN-OFF', redeems: 1, redeemsLeft: 2 });
    expect(reported.filter((i) => i.messageId === message.id).map((i) => i.kind).sort()).toEqual(['click', 'impression']);

    // A retry of the same redemption from the app is not counted again; a new one is.
    const clientId = String(redeems[0]?.body.clientId);
    const again = await page.evaluate(([id, client]) => (window as unknown as { gd: { redeem(m: string, v?: string, c?: string): Promise<unknown> } }).gd.redeem(id, undefined, client), [message.id, clientId] as const);
    expect(again).toMatchObject({ status: 'OK', counted: false, redeems: 1 });
  } finally {
    for (const d of docs) d.destroy();
    shopServer.close();
  }
});
