/**
 * Web push in the page with fakes of the browser's service worker, Push and Notification APIs:
 * the permission is asked before anything else, the worker's own activation is awaited (not
 * `navigator.serviceWorker.ready`), the scope is kept for `disableWebPush`, and the module is a
 * script loaded on demand.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { webPushApi } from './push.ts';
import { disableWebPush, enableWebPush, SCOPE_KEY, type WebPushContext } from './webPush.ts';

type Listener = () => void;
function fakeWorker(state: string) {
  const listeners: Listener[] = [];
  return {
    state,
    addEventListener: (_type: 'statechange', fn: Listener) => void listeners.push(fn),
    become(next: string) {
      this.state = next;
      for (const fn of listeners) fn();
    },
  };
}

function fakeBrowser(opts: { permission?: NotificationPermission; scope?: string } = {}) {
  const log: string[] = [];
  const worker = fakeWorker('installing');
  const subscription = { endpoint: 'https://push.example.com/1', options: { applicationServerKey: null }, toJSON: () => ({ endpoint: 'https://push.example.com/1' }), unsubscribe: vi.fn(() => Promise.resolve(true)) };
  const registration = {
    scope: opts.scope ?? 'https://shop.example.com/push/',
    active: null as unknown,
    installing: worker as unknown,
    waiting: null,
    pushManager: {
      getSubscription: () => { log.push('getSubscription'); return Promise.resolve(registration.active ? subscription : null); },
      subscribe: () => { log.push('subscribe'); return Promise.resolve(subscription); },
    },
  };
  const getRegistration = vi.fn((_url?: string) => Promise.resolve(registration));
  vi.stubGlobal('navigator', {
    serviceWorker: {
      // The page is outside the worker's scope: `ready` never settles.
      ready: new Promise(() => undefined),
      register: () => { log.push('register'); return Promise.resolve(registration); },
      getRegistration,
    },
  });
  vi.stubGlobal('PushManager', class {});
  vi.stubGlobal('Notification', { requestPermission: () => { log.push('permission'); return Promise.resolve(opts.permission ?? 'granted'); } });
  vi.stubGlobal('caches', { open: () => Promise.resolve({ put: () => Promise.resolve(void log.push('cache')) }) });
  vi.stubGlobal('location', { origin: 'https://shop.example.com' });
  return { log, worker, registration, getRegistration, subscription };
}

function context() {
  const stored = new Map<string, string>();
  const calls: string[] = [];
  const ctx: WebPushContext = {
    base: 'https://gd.example.com/api', appKey: 'key-1', device: { id: 'device-1' },
    fetcher: (url) => {
      calls.push(url as string);
      const path = (url as string).split('/web-push/')[1];
      return Promise.resolve(new Response(JSON.stringify(path === 'key' ? { status: 'OK', publicKey: 'AQID' } : { status: 'OK', removed: true })));
    },
    store: { get: (k) => stored.get(k) ?? null, set: (k, v) => void stored.set(k, v) },
  };
  return { ctx, stored, calls };
}

/** A page whose script loads set the web push module (what dist/growthdeck-webpush.js does). */
function fakeDoc() {
  const scripts: { src: string }[] = [];
  const doc = {
    createElement: () => ({ src: '', async: false, onload: null as null | (() => void), onerror: null }),
    head: {
      appendChild: (script: { src: string; onload: (() => void) | null }) => {
        scripts.push(script);
        globalThis.GrowthdeckWebPush = { enableWebPush, disableWebPush };
        setTimeout(() => script.onload?.(), 0);
      },
    },
  } as unknown as Document;
  return { doc, scripts };
}

afterEach(() => {
  vi.unstubAllGlobals();
  globalThis.GrowthdeckWebPush = undefined;
});

describe('enableWebPush', () => {
  it('asks for the permission first, loads the web push script beside the API, and waits for this worker to activate', async () => {
    const browser = fakeBrowser();
    const { ctx, stored } = context();
    const { doc, scripts } = fakeDoc();
    const done = webPushApi(ctx, doc).enableWebPush({ serviceWorkerUrl: '/sw.js', scope: '/push/' });
    expect(browser.log).toEqual(['permission']);
    await vi.waitFor(() => expect(browser.log).toContain('cache'));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(browser.log).not.toContain('subscribe');
    browser.registration.active = browser.worker;
    browser.worker.become('activated');
    await expect(done).resolves.toEqual({ ok: true, endpoint: 'https://push.example.com/1' });
    expect(browser.log.indexOf('permission')).toBeLessThan(browser.log.indexOf('register'));
    expect(scripts.map((s) => s.src)).toEqual(['https://gd.example.com/sdk/growthdeck-webpush.js']);
    expect(stored.get(SCOPE_KEY)).toBe('https://shop.example.com/push/');
  });

  it('answers denied without registering or loading anything', async () => {
    const browser = fakeBrowser({ permission: 'denied' });
    const { doc, scripts } = fakeDoc();
    await expect(webPushApi(context().ctx, doc).enableWebPush({ serviceWorkerUrl: '/sw.js' })).resolves.toEqual({ ok: false, reason: 'denied' });
    expect(browser.log).toEqual(['permission']);
    expect(scripts).toEqual([]);
  });

  it('fails when the worker cannot be installed, and is unsupported without a page', async () => {
    const browser = fakeBrowser();
    const { doc } = fakeDoc();
    const done = webPushApi(context().ctx, doc).enableWebPush({ serviceWorkerUrl: '/sw.js' });
    await vi.waitFor(() => expect(browser.log).toContain('cache'));
    await new Promise((resolve) => setTimeout(resolve, 10));
    browser.worker.become('redundant');
    await expect(done).resolves.toMatchObject({ ok: false, reason: 'failed' });
    await expect(webPushApi(context().ctx, null).enableWebPush({ serviceWorkerUrl: '/sw.js' })).resolves.toEqual({ ok: false, reason: 'unsupported' });
  });
});

describe('disableWebPush', () => {
  it('finds the registration of the stored scope, unsubscribes and tells the API', async () => {
    const browser = fakeBrowser();
    browser.registration.active = browser.worker;
    const { ctx, stored, calls } = context();
    stored.set(SCOPE_KEY, 'https://shop.example.com/push/');
    const { doc } = fakeDoc();
    await expect(webPushApi(ctx, doc).disableWebPush()).resolves.toBe(true);
    expect(browser.getRegistration).toHaveBeenCalledWith('https://shop.example.com/push/');
    expect(browser.subscription.unsubscribe).toHaveBeenCalled();
    expect(calls.at(-1)).toBe('https://gd.example.com/api/ingest/v1/web-push/unsubscribe');
  });
});
