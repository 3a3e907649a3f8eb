/**
 * The web push service worker (dist/growthdeck-sw.js, served at /sdk/growthdeck-sw.js). The
 * customer's origin hosts a one-line worker, `importScripts('https://<api host>/sdk/growthdeck-sw.js')`,
 * registered by `tracker.enableWebPush`.
 *
 * - `push`: shows the notification (title, body, icon, image; the payload kept as its data) and
 *   reports an `impression`.
 * - `notificationclick`: closes it, opens its url (or focuses the page), and reports `open`, and
 *   `click` when it had a url to open. A url is opened only when http(s) or an app scheme (the
 *   in-app rule, inapp/model.ts `safeUrl`); any other is treated as none.
 * Reports go to the ingestion API as a batch of one interaction (channel push, the message,
 * variant and campaign), with the API base, app key and device id the page stored in Cache Storage
 * (webPush.ts). A report that fails is tried once more; a notification is never held up by it.
 */
import { SW_CACHE, SW_CONFIG_PATH } from './webPush.ts';
import { APP_KEY_HEADER } from './transport.ts';
import { uuid } from './device.ts';
import { safeUrl } from './inapp/model.ts';

interface Payload { title?: string; body?: string; icon?: string; image?: string; url?: string; messageId?: string; variantId?: string; campaignId?: string }
interface ExtendableEvent { waitUntil(p: Promise<unknown>): void }
interface PushEvent extends ExtendableEvent { data: { json(): unknown; text(): string } | null }
interface NotificationEvent extends ExtendableEvent { notification: { data: unknown; close(): void } }
interface WorkerScope {
  location: { origin: string };
  registration: { showNotification(title: string, options: Record<string, unknown>): Promise<void> };
  clients: { openWindow(url: string): Promise<unknown>; matchAll(o: { type: string; includeUncontrolled: boolean }): Promise<{ focus?: () => Promise<unknown> }[]> };
  addEventListener(type: 'push', fn: (e: PushEvent) => void): void;
  addEventListener(type: 'notificationclick', fn: (e: NotificationEvent) => void): void;
}
declare const self: WorkerScope;

function payloadOf(event: PushEvent): Payload {
  if (!event.data) return {};
  try {
    const value = event.data.json();
    return typeof value === 'object' && value !== null ? value : {};
  } catch {
    return { body: event.data.text() };
  }
}

async function report(kind: 'impression' | 'open' | 'click', p: Payload): Promise<void> {
  const stored = await (await caches.open(SW_CACHE)).match(new URL(SW_CONFIG_PATH, self.location.origin).href);
  if (!stored || !p.messageId) return;
  const config = await stored.json() as { endpoint: string; appKey: string; deviceId: string };
  const body = JSON.stringify({
    device: { id: config.deviceId },
    interactions: [{ id: uuid(), time: new Date().toISOString(), channel: 'push', kind, messageId: p.messageId, variantId: p.variantId, campaignId: p.campaignId }],
  });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const res = await fetch(`${config.endpoint}/ingest/v1/batch`, { method: 'POST', headers: { 'content-type': 'application/json', [APP_KEY_HEADER]: config.appKey }, body });
      if (res.ok || (res.status >= 400 && res.status < 500 && res.status !== 429)) return;
    } catch {
      // Offline: once more, then given up (the notification matters more than its count).
    }
  }
}

self.addEventListener('push', (event) => {
  const p = payloadOf(event);
  event.waitUntil(Promise.all([
    self.registration.showNotification(p.title ?? '', {
      ...(p.body ? { body: p.body } : {}), ...(p.icon ? { icon: p.icon } : {}), ...(p.image ? { image: p.image } : {}),
      data: p, ...(p.messageId ? { tag: p.messageId } : {}),
    }),
    report('impression', p).catch(() => undefined),
  ]));
});

self.addEventListener('notificationclick', (event) => {
  const p = (event.notification.data ?? {}) as Payload;
  event.notification.close();
  const url = typeof p.url === 'string' ? safeUrl(p.url) : null;
  const open = url
    ? self.clients.openWindow(url)
    : self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => windows[0]?.focus?.());
  event.waitUntil(Promise.all([
    open.catch(() => undefined),
    report('open', p).catch(() => undefined),
    ...(url ? [report('click', p).catch(() => undefined)] : []),
  ]));
});
