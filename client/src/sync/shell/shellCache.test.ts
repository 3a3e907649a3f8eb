import { describe, expect, it } from 'vitest';
import { SHELL_KEY, cacheName, isLivePath, precacheUrls, routeOf, staleCaches } from './shellCache.ts';

const origin = 'https://app.example.test';
const precached = new Set(['/index.html', '/favicon.svg', '/assets/index-abc.js']);
const get = (path: string, mode = 'cors') => ({ url: `${origin}${path}`, method: 'GET', mode });

describe('routeOf', () => {
  it('answers every page of the app with the shell, network first', () => {
    for (const path of ['/', '/communication/journeys?id=3f0c', '/es/user/account', '/login']) {
      expect(routeOf(get(path, 'navigate'), origin, precached)).toEqual({ kind: 'shell', key: SHELL_KEY });
    }
  });

  it('serves the hashed build files from the cache first, kept or not', () => {
    expect(routeOf(get('/assets/index-abc.js', 'no-cors'), origin, precached)).toEqual({ kind: 'asset' });
    expect(routeOf(get('/assets/JourneyEditor-xyz.js'), origin, precached)).toEqual({ kind: 'asset' });
  });

  it('never answers the API or the sync server, not even a navigation to them', () => {
    for (const path of ['/api', '/api/user/meta', '/api/openapi.json', '/collab', '/collab/x', '/l/abc', '/p/spring-sale', '/w/token/pass.pkpass', '/s/code', '/.well-known/skadnetwork/report-attribution']) {
      expect(routeOf(get(path), origin, precached)).toEqual({ kind: 'network' });
      expect(routeOf(get(path, 'navigate'), origin, precached)).toEqual({ kind: 'network' });
    }
    expect(isLivePath('/apis-guide')).toBe(false);
    expect(isLivePath('/collaborators')).toBe(false);
  });

  it('leaves other origins, other methods and unknown files to the network', () => {
    expect(routeOf({ url: 'https://api.example.test/api/user/meta', method: 'GET', mode: 'cors' }, origin, precached)).toEqual({ kind: 'network' });
    expect(routeOf({ url: 'https://cdn.example.test/assets/x.js', method: 'GET', mode: 'cors' }, origin, precached)).toEqual({ kind: 'network' });
    expect(routeOf({ ...get('/assets/index-abc.js'), method: 'POST' }, origin, precached)).toEqual({ kind: 'network' });
    expect(routeOf({ ...get('/', 'navigate'), method: 'POST' }, origin, precached)).toEqual({ kind: 'network' });
    expect(routeOf(get('/robots.txt'), origin, precached)).toEqual({ kind: 'network' });
  });

  it('keeps the precached public files, network first', () => {
    expect(routeOf(get('/favicon.svg'), origin, precached)).toEqual({ kind: 'shell', key: '/favicon.svg' });
  });
});

describe('caches per build', () => {
  it('names the cache by the build version and deletes only older shell caches', () => {
    const current = cacheName('abc123-9f00');
    expect(current).toBe('gd-shell-abc123-9f00');
    expect(staleCaches(['gd-shell-old-1', current, 'someone-else', 'gd-shell-old-2'], current)).toEqual(['gd-shell-old-1', 'gd-shell-old-2']);
  });
});

describe('precacheUrls', () => {
  it('takes every file the Vite manifest names, the public files and the shell', () => {
    const manifest = {
      'index.html': { file: 'assets/index-abc.js', css: ['assets/index-def.css'], imports: ['_client-1.js'] },
      '_client-1.js': { file: 'assets/client-1.js' },
      'src/features/journeys/JourneyEditor.tsx': { file: 'assets/JourneyEditor-xyz.js', css: ['assets/JourneyEditor-c.css'], assets: ['assets/icon-1.svg'] },
      'src/features/journeys/Other.tsx': { file: 'assets/client-1.js', css: ['assets/index-def.css'] },
    };
    expect(precacheUrls(manifest, ['favicon.svg', 'sw.js', '.hidden', 'img/logo.png'])).toEqual([
      '/assets/JourneyEditor-c.css',
      '/assets/JourneyEditor-xyz.js',
      '/assets/client-1.js',
      '/assets/icon-1.svg',
      '/assets/index-abc.js',
      '/assets/index-def.css',
      '/favicon.svg',
      '/img/logo.png',
      '/index.html',
    ]);
  });
});
