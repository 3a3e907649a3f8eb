/**
 * The app-shell cache of the service worker (worker.ts), as pure rules so they can be tested:
 * which requests it answers and how, the cache's name per build, which caches are stale, and which
 * files a build precaches (from the Vite manifest). No DOM, no worker globals: this file is also
 * imported by the Vite plugin that writes `sw.js` (vitePlugin.ts).
 *
 * - `/assets/*` are content-hashed and immutable: cache first (fetched and kept on a miss).
 * - Navigations (any page of the single-page app) are the same `index.html`: network first, so a
 *   new build shows at once, with the cached shell when the network fails (offline reload).
 * - The API (`/api`), the sync server (`/collab`) and the public hosts are never answered from, or
 *   written to, the cache: live data only comes from the server, and offline copies live in IndexedDB.
 * - Anything else (another origin, not GET, public files) goes to the network untouched, except the
 *   precached public files (the favicon), which are network first like navigations.
 */
export const CACHE_PREFIX = 'gd-shell-';
/** The cache key of the app shell (what every navigation answers). */
export const SHELL_KEY = '/index.html';
/**
 * Paths that only the server answers: the API, the sync server, and the public hosts (tracking
 * links `/l`, landings `/p`, wallet passes `/w`, skudo tracking URLs `/s`, SKAdNetwork's
 * `/.well-known`), whose answers are redirects and pages of their own, never the app shell.
 */
const LIVE_PREFIXES = ['/api', '/collab', '/l', '/p', '/w', '/s', '/.well-known'];

export type ShellRoute =
  /** Cache first, kept on a miss (immutable hashed files). */
  | { kind: 'asset' }
  /** Network first, the cached copy under `key` when the network fails. */
  | { kind: 'shell'; key: string }
  /** Not handled: the browser goes to the network as if there were no service worker. */
  | { kind: 'network' };

export interface RequestFacts {
  url: string;
  method: string;
  /** `navigate` for page loads. */
  mode: string;
}

const underPrefix = (path: string, prefix: string): boolean => path === prefix || path.startsWith(`${prefix}/`);
export const isLivePath = (path: string): boolean => LIVE_PREFIXES.some((p) => underPrefix(path, p));

/** How the worker answers a request, given the worker's origin and the precached URLs. */
export function routeOf(request: RequestFacts, origin: string, precached: ReadonlySet<string>): ShellRoute {
  if (request.method !== 'GET') return { kind: 'network' };
  const url = new URL(request.url);
  if (url.origin !== origin || isLivePath(url.pathname)) return { kind: 'network' };
  if (request.mode === 'navigate') return { kind: 'shell', key: SHELL_KEY };
  if (underPrefix(url.pathname, '/assets')) return { kind: 'asset' };
  if (precached.has(url.pathname)) return { kind: 'shell', key: url.pathname };
  return { kind: 'network' };
}

/** The cache of one build. */
export const cacheName = (version: string): string => `${CACHE_PREFIX}${version}`;

/** Caches of other builds (to delete once this build's worker is active); other caches are left alone. */
export const staleCaches = (names: readonly string[], current: string): string[] => names.filter((n) => n.startsWith(CACHE_PREFIX) && n !== current);

/** What the worker keeps from the Vite manifest (`build.manifest`): each chunk's files. */
export interface ManifestChunk {
  file: string;
  css?: string[];
  assets?: string[];
}

/**
 * The URLs a build precaches: the shell, every file the manifest names (JavaScript chunks, CSS,
 * assets: all under /assets and content-hashed) and the public files (copied as they are). Sorted,
 * without duplicates, `sw.js` itself excluded.
 */
export function precacheUrls(manifest: Record<string, ManifestChunk>, publicFiles: readonly string[]): string[] {
  const urls = new Set<string>([SHELL_KEY]);
  for (const chunk of Object.values(manifest)) {
    for (const file of [chunk.file, ...(chunk.css ?? []), ...(chunk.assets ?? [])]) urls.add(`/${file.replace(/^\/+/, '')}`);
  }
  for (const file of publicFiles) if (file !== 'sw.js' && !file.startsWith('.')) urls.add(`/${file.replace(/^\/+/, '')}`);
  return [...urls].sort();
}
