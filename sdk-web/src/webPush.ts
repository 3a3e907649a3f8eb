/**
 * Web push in the page, a script of its own (dist/growthdeck-webpush.js, from webPushEntry.ts)
 * that `tracker.enableWebPush` / `disableWebPush` load on demand (push.ts), once the tracker has
 * asked for the notification permission: registers the app's service worker (a one-line file on
 * the customer's origin that does `importScripts('<api>/sdk/growthdeck-sw.js')`), waits for it to
 * be active, subscribes with the app's VAPID public key (fetched from `/ingest/v1/web-push/key`
 * unless given) and sends the subscription to `/ingest/v1/web-push/subscribe`. A subscription made
 * with another key (the app rotated its keys) is replaced. The registration's scope is stored
 * (`gd:<appKey>:push-scope`) so `disableWebPush` finds it from any page. The service worker reads
 * what it needs to report interactions (API base, app key, device id) from a Cache Storage entry
 * written here, the one store both can reach.
 */
import { APP_KEY_HEADER } from './transport.ts';

export const SW_CACHE = 'growthdeck-sw';
export const SW_CONFIG_PATH = '/__growthdeck/sw-config';

export interface WebPushOptions {
  /** The service worker file on the page's origin, e.g. '/growthdeck-sw.js'. */
  serviceWorkerUrl: string;
  /** The app's VAPID public key (base64url); fetched from the API when absent. */
  vapidPublicKey?: string;
  /** The service worker's scope (default: the file's folder). */
  scope?: string;
}

export type WebPushResult =
  | { ok: true; endpoint: string }
  /** unsupported: no service workers or Push API; denied: no permission; failed: the rest, with why. */
  | { ok: false; reason: 'unsupported' | 'denied' | 'failed'; message?: string };

export interface WebPushContext {
  base: string;
  appKey: string;
  device: { id: string } & Record<string, unknown>;
  fetcher: typeof fetch;
  /** The tracker's storage, under its app key's prefix. */
  store: { get(key: string): string | null; set(key: string, value: string): void };
}

export interface WebPushModule { enableWebPush: typeof enableWebPush; disableWebPush: typeof disableWebPush }
declare global { var GrowthdeckWebPush: WebPushModule | undefined }

/** Where the registration's scope is kept (tracker storage key, after `gd:<appKey>:`). */
export const SCOPE_KEY = 'push-scope';


const keyBytes = (key: string) => Uint8Array.from(atob(key.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(key.length / 4) * 4, '=')), (c) => c.charCodeAt(0));
const sameKey = (a: ArrayBuffer | null, b: Uint8Array) => !!a && a.byteLength === b.length && new Uint8Array(a).every((x, i) => x === b[i]);

async function call(ctx: WebPushContext, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await ctx.fetcher(`${ctx.base}/ingest/v1/web-push/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { [APP_KEY_HEADER]: ctx.appKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const answer = (await res.json()) as Record<string, unknown>;
  if (answer.status !== 'OK') throw new Error(typeof answer.message === 'string' ? answer.message : `HTTP ${res.status}`);
  return answer;
}

/**
 * Resolves when this registration has an active worker (subscribing needs one). Not
 * `navigator.serviceWorker.ready`: that waits for a registration whose scope covers this page,
 * forever when the worker's scope does not.
 */
export function activated(registration: ServiceWorkerRegistration): Promise<void> {
  return new Promise((resolve, reject) => {
    if (registration.active) return resolve();
    const worker = registration.installing ?? registration.waiting;
    if (!worker) return reject(new Error('no service worker to wait for'));
    worker.addEventListener('statechange', () => {
      if (worker.state === 'activated') resolve();
      else if (worker.state === 'redundant') reject(new Error('the service worker could not be installed'));
    });
  });
}

/** Registers, subscribes and tells the API; the notification permission was granted before (push.ts). */
export async function enableWebPush(ctx: WebPushContext, opts: WebPushOptions): Promise<WebPushResult> {
  try {
    const registration = await navigator.serviceWorker.register(opts.serviceWorkerUrl, opts.scope ? { scope: opts.scope } : undefined);
    ctx.store.set(SCOPE_KEY, registration.scope);
    const cache = await caches.open(SW_CACHE);
    await cache.put(new URL(SW_CONFIG_PATH, location.origin).href, new Response(JSON.stringify({ endpoint: ctx.base, appKey: ctx.appKey, deviceId: ctx.device.id })));
    const key = keyBytes(opts.vapidPublicKey ?? String((await call(ctx, 'key')).publicKey));
    await activated(registration);
    let subscription = await registration.pushManager.getSubscription();
    if (subscription && !sameKey(subscription.options.applicationServerKey, key)) {
      await subscription.unsubscribe();
      subscription = null;
    }
    subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
    await call(ctx, 'subscribe', { device: ctx.device, subscription: subscription.toJSON() });
    return { ok: true, endpoint: subscription.endpoint };
  } catch (error) {
    return { ok: false, reason: 'failed', message: error instanceof Error ? error.message : String(error) };
  }
}

/** Ends this browser's subscription, here and at the API (the registration of the stored scope, else this page's). */
export async function disableWebPush(ctx: WebPushContext): Promise<boolean> {
  const registration = await navigator.serviceWorker.getRegistration(ctx.store.get(SCOPE_KEY) ?? undefined);
  const subscription = await registration?.pushManager.getSubscription();
  await subscription?.unsubscribe();
  const answer = await call(ctx, 'unsubscribe', { device: { id: ctx.device.id }, ...(subscription ? { endpoint: subscription.endpoint } : {}) });
  return answer.removed === true;
}
