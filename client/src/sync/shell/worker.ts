/**
 * The service worker (built to `/sw.js` by vitePlugin.ts, registered by register.ts in production
 * builds): keeps the app shell so that a page reload works offline. The rules are in shellCache.ts;
 * this file only wires them to the worker's events. The build writes the first line of `sw.js`,
 * `self.__GD_SHELL__ = { version, urls }`: the build hash (with a digest of the file list) and the
 * files to precache. A new build is a new `sw.js`: its worker installs the new files into a new
 * cache, takes over at once and deletes the caches of other builds.
 *
 * The client's TypeScript setup has the DOM library, not the WebWorker one; the few worker types
 * used here are declared below.
 */
import { SHELL_KEY, cacheName, routeOf, staleCaches } from './shellCache.ts';

interface WorkerExtendableEvent extends Event {
  waitUntil(work: Promise<unknown>): void;
}
interface WorkerFetchEvent extends WorkerExtendableEvent {
  readonly request: Request;
  respondWith(response: Promise<Response>): void;
}
interface WorkerScope {
  readonly location: Location;
  readonly clients: { claim(): Promise<void> };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', listener: (event: WorkerExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: WorkerFetchEvent) => void): void;
  __GD_SHELL__?: { version: string; urls: string[] };
}

const scope = self as unknown as WorkerScope;
const config = scope.__GD_SHELL__ ?? { version: 'unversioned', urls: [] };
const CACHE = cacheName(config.version);
const precached = new Set(config.urls);

async function fetchOk(request: Request): Promise<Response> {
  const response = await fetch(request);
  if (!response.ok) throw new Error(`${request.url}: ${response.status}`);
  return response;
}

/**
 * Precaching fetches this many files at a time: the browser gives a host six connections (HTTP/1.1)
 * shared with the page, whose own requests must not queue behind the whole build.
 */
const PRECACHE_CONCURRENCY = 2;

/** Runs `work` over `items`, at most `limit` at a time. */
async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++] as T;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/** Fills this build's cache (the shell and public files fresh from the server). */
async function install(): Promise<void> {
  const cache = await caches.open(CACHE);
  // The shell as the server answers a navigation (no HTTP cache: it must be this build's).
  await cache.put(SHELL_KEY, await fetchOk(new Request('/', { cache: 'reload', credentials: 'same-origin' })));
  await eachLimited(
    config.urls.filter((url) => url !== SHELL_KEY),
    PRECACHE_CONCURRENCY,
    async (url) => {
      // Hashed files never change: one kept by an older build, or in the HTTP cache, is this one.
      const hashed = url.startsWith('/assets/');
      const kept = hashed ? await caches.match(url) : undefined;
      await cache.put(url, kept ?? (await fetchOk(new Request(url, { cache: hashed ? 'default' : 'reload' }))));
    },
  );
}

async function activate(): Promise<void> {
  await Promise.all(staleCaches(await caches.keys(), CACHE).map((name) => caches.delete(name)));
  await scope.clients.claim();
}

async function cacheFirst(event: WorkerFetchEvent): Promise<Response> {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(event.request, { ignoreSearch: true });
  if (hit) return hit;
  const response = await fetch(event.request);
  if (response.ok && response.type === 'basic') event.waitUntil(cache.put(event.request, response.clone()));
  return response;
}

async function networkFirst(event: WorkerFetchEvent, key: string): Promise<Response> {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(event.request);
    // The latest answer becomes the offline copy (for the shell: only a page, never another file
    // opened as a tab).
    const page = key !== SHELL_KEY || (response.headers.get('content-type') ?? '').startsWith('text/html');
    if (response.ok && response.type === 'basic' && page) event.waitUntil(cache.put(key, response.clone()));
    return response;
  } catch (error) {
    const kept = await cache.match(key);
    if (kept) return kept;
    throw error;
  }
}

scope.addEventListener('install', (event) => {
  event.waitUntil(install().then(() => scope.skipWaiting()));
});

scope.addEventListener('activate', (event) => {
  event.waitUntil(activate());
});

scope.addEventListener('fetch', (event) => {
  const route = routeOf(event.request, scope.location.origin, precached);
  if (route.kind === 'asset') event.respondWith(cacheFirst(event));
  else if (route.kind === 'shell') event.respondWith(networkFirst(event, route.key));
});
