/**
 * Web push end to end in Chromium: a customer's shop page (its own loopback origin) loads the web
 * SDK, enables web push (its one-line service worker imports /sdk/growthdeck-sw.js from the
 * product), a push message is delivered into that service worker, which shows the notification
 * and reports its impression to the ingestion API, where the marketer sees it on the person.
 *
 * The web push code is a script of its own (/sdk/growthdeck-webpush.js) that `enableWebPush` loads;
 * a worker whose scope does not cover the page is waited for by itself (`navigator.serviceWorker.ready`
 * would never settle there), and `disableWebPush` finds it by its stored scope.
 *
 * What a real browser cannot do here, and what the test does instead:
 * - PushManager.subscribe cannot succeed here: Chromium's push service is Google's (FCM over its
 *   GCM channel), which this machine cannot reach, and headless Chromium refuses the push
 *   permission before trying (observed: "Registration failed - permission denied", although the
 *   notifications permission is granted; the SDK reports `{ ok: false, reason: 'failed' }`). The
 *   subscription is therefore made by the loopback web push service acting for the browser
 *   (push/testing/webPushService.ts) and registered through the same SDK endpoint with the page's
 *   device id.
 * - The push message is driven into the service worker through the Chrome DevTools Protocol
 *   (`ServiceWorker.deliverPushMessage`), with the payload the server sends (schemas/webPush.ts
 *   WebPushPayload), as a push service would after decrypting nothing (CDP takes the plaintext).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { startWebPushService } from '../../api-server/src/features/delivery/push/testing/webPushService.ts';

const suffix = Date.now().toString(36);

async function call(request: APIRequestContext, method: 'GET' | 'POST' | 'PUT', path: string, data?: unknown): Promise<Record<string, unknown>> {
  const { csrfToken } = (await (await request.get('/api/auth/csrf')).json()) as { csrfToken: string };
  const res = await request.fetch(`/api${path}`, { method, headers: { 'x-csrf-token': csrfToken }, ...(data === undefined ? {} : { data }) });
  const body = (await res.json()) as Record<string, unknown>;
  expect(body.status, JSON.stringify(body)).toBe('OK');
  return body;
}

test('a push delivered to the SDK service worker shows a notification and reports its impression', async ({ page, context, baseURL }) => {
  const origin = new URL(baseURL ?? '').origin;
  const pushService = await startWebPushService();
  let html = '';
  const shopServer = http.createServer((req, res) => {
    // The customer's one-line service worker, on the shop's origin.
    if (req.url === '/growthdeck-sw.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(`importScripts(${JSON.stringify(`${origin}/sdk/growthdeck-sw.js`)});`);
    res.writeHead(200, { 'content-type': 'text/html' }).end(html);
  });
  await new Promise<void>((resolve) => shopServer.listen(0, '127.0.0.1', resolve));
  const shop = `http://127.0.0.1:${(shopServer.address() as AddressInfo).port}`;
  try {
    await call(page.request, 'POST', '/auth/register', {
      name: 'Wendy Push', email: `webpush.${suffix}@e2e.example.com`, password: 'Push-Pass-2026!', accountName: `Web push ${suffix}`, plan: 'growth',
    });
    const { app } = (await call(page.request, 'POST', '/apps', { name: 'Web shop', os: 'Web', timezone: 'UTC' })) as { app: { id: string; appKey: string } };
    const { webPush } = (await call(page.request, 'PUT', `/apps/${app.id}/web-push`, { subject: 'mailto:push@shop.example.com' })) as { webPush: { publicKey: string } };
    const { message } = (await call(page.request, 'POST', `/apps/${app.id}/messages`, { name: 'Web flash sale', type: 'push', campaignName: 'Web flash sale' })) as { message: { id: string; campaignId: string } };

    html = `<!doctype html><html><head><title>Shop</title>
<script src="${origin}/sdk/growthdeck.js"></script>
<script>window.gd = Growthdeck.createTracker({ appKey: ${JSON.stringify(app.appKey)}, endpoint: ${JSON.stringify(`${origin}/api`)} });</script>
</head><body><h1>Shop</h1></body></html>`;
    await context.grantPermissions(['notifications'], { origin: shop });
    await page.goto(`${shop}/`);
    await page.waitForFunction(() => 'gd' in window);

    // The SDK registers the worker, stores its settings and tries to subscribe with the app's key.
    const enabled = await page.evaluate(() => (window as unknown as { gd: { enableWebPush(o: object): Promise<{ ok: boolean; reason?: string; message?: string }> } }).gd.enableWebPush({ serviceWorkerUrl: '/growthdeck-sw.js' }));
    const deviceId = await page.evaluate(() => (window as unknown as { gd: { deviceId: string } }).gd.deviceId);
    // Without Google's push service Chromium cannot subscribe (see the header); with one it would.
    if (!enabled.ok) expect(enabled).toMatchObject({ ok: false, reason: 'failed' });
    test.info().annotations.push({ type: 'enableWebPush', description: JSON.stringify(enabled) });
    expect(await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL)).toBe(`${shop}/growthdeck-sw.js`);
    const scripts = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));
    expect(scripts).toContain(`${origin}/sdk/growthdeck-webpush.js`);

    // The loopback push service subscribes for the browser; the subscription goes through the SDK endpoint.
    const subscription = pushService.subscribe(webPush.publicKey);
    const res = await fetch(`${origin}/api/ingest/v1/web-push/subscribe`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-app-key': app.appKey }, body: JSON.stringify({ device: { id: deviceId }, subscription }),
    });
    const { personId } = (await res.json()) as { personId: string };
    expect(res.status).toBe(200);

    // Deliver the server's payload into the worker, as the browser does when its push service hands one over.
    const cdp = await context.newCDPSession(page);
    const registrations: { registrationId: string; scopeURL: string }[] = [];
    const versions = new Map<string, { registrationId: string; status: string; runningStatus: string }>();
    cdp.on('ServiceWorker.workerRegistrationUpdated', (e: { registrations: { registrationId: string; scopeURL: string }[] }) => registrations.push(...e.registrations));
    cdp.on('ServiceWorker.workerVersionUpdated', (e: { versions: { versionId: string; registrationId: string; status: string; runningStatus: string }[] }) => {
      for (const v of e.versions) versions.set(v.versionId, v);
    });
    await cdp.send('ServiceWorker.enable');
    await expect.poll(() => registrations.find((r) => r.scopeURL === `${shop}/`)?.registrationId).toBeTruthy();
    const registrationId = registrations.find((r) => r.scopeURL === `${shop}/`)!.registrationId;
    // `navigator.serviceWorker.ready` settles while the worker may still be activating; a push
    // service delivers to an activated, running worker, so the delivery waits for one (the worker
    // is started first when an idle one was stopped: a page message wakes it).
    await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.postMessage({ type: 'gd:wake' }));
    await expect.poll(() => [...versions.values()].some((v) => v.registrationId === registrationId && v.status === 'activated' && v.runningStatus === 'running'), { timeout: 20_000 }).toBe(true);
    const payload = { title: 'Flash sale', body: 'Two hours only', url: `${shop}/sale`, messageId: message.id, variantId: 'a', campaignId: message.campaignId };
    await cdp.send('ServiceWorker.deliverPushMessage', { origin: shop, registrationId, data: JSON.stringify(payload) });

    // The worker showed it, with the message it came from.
    await expect.poll(() => page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({ title: n.title, body: n.body, data: n.data as unknown })))).toEqual([
      { title: 'Flash sale', body: 'Two hours only', data: payload },
    ]);
    // And its impression reached the product: the marketer sees it on the person.
    await expect.poll(async () => {
      const person = (await call(page.request, 'GET', `/apps/${app.id}/people/${personId}`)) as { messages?: { channel: string; messageId: string | null; impressions: number }[] };
      return person.messages?.find((m) => m.messageId === message.id);
    }, { timeout: 15_000 }).toMatchObject({ channel: 'push', impressions: 1 });

    // A worker whose scope does not cover this page: enabling ends all the same (the same answer as
    // above), the scope is stored, and disabling finds that registration by it.
    const scoped = await page.evaluate(() => (window as unknown as { gd: { enableWebPush(o: object): Promise<{ ok: boolean; reason?: string }> } }).gd.enableWebPush({ serviceWorkerUrl: '/growthdeck-sw.js', scope: '/push/' }));
    if (!scoped.ok) expect(scoped).toMatchObject({ ok: false, reason: 'failed' });
    expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistration('/push/'))?.active?.scriptURL)).toBe(`${shop}/growthdeck-sw.js`);
    expect(await page.evaluate((key) => localStorage.getItem(key), `gd:${app.appKey}:push-scope`)).toBe(`${shop}/push/`);
    const pushUnsubscribes: unknown[] = [];
    page.on('request', (req) => { if (req.url().endsWith('/web-push/unsubscribe')) pushUnsubscribes.push(req.postDataJSON()); });
    await page.evaluate(() => (window as unknown as { gd: { disableWebPush(): Promise<boolean> } }).gd.disableWebPush());
    expect(pushUnsubscribes).toMatchObject([{ device: { id: deviceId } }]);
  } finally {
    shopServer.close();
    await pushService.close();
  }
});
