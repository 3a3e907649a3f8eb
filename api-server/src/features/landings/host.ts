/**
 * The public landing pages (issue 17): `GET /p/:slug` on the link host (mounted beside `/l` in
 * app.ts, before any cookie, body parser or CSRF layer) and `GET /:slug` on a custom domain (a
 * request whose Host is a domain of a published landing; mounted first of all, and on such a host
 * nothing else of the product answers).
 *
 * - A published landing's page is rendered by shared `renderLanding` (no script, escaped text,
 *   https images) and answered with a strict Content-Security-Policy: nothing may load but https
 *   images and the page's one <style> element (by its SHA-256), no frames, forms or base URL.
 * - A person's visit (not a crawler's, previewer's, prefetch or HEAD: the link host's `botReason`)
 *   is counted in its UTC day before the answer; one reached from a short link (`gd_click`) also
 *   counts as from a link, and its buttons carry `gd_click` on.
 * - Lookups are cached for LANDING_CACHE_MS (misses too); editing, publishing, unpublishing or
 *   deleting through the API forgets the address at once in this process. The set of custom
 *   domains is read again at most every LANDING_CACHE_MS.
 * - Unknown, draft or malformed address: 404 (10, "not exist"; JSON when asked for, else a small
 *   page in English or Spanish).
 * - The product's own hosts (PUBLIC_URL, PUBLIC_HOSTS, LINK_BASE_URL, the listening address) are
 *   never taken as custom domains, here and when a landing is saved (`isOwnHost`).
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { ErrorCode } from '@gd/shared';
import { isLandingSlug } from '@gd/shared/landings/model';
import { escapeHtml, renderLanding } from '@gd/shared/landings/render';
import type { Deps } from '../../http/context.ts';
import { botReason, describeAgent } from '../links/clicks.ts';
import { countVisit, hostLanding, publishedDomains, type HostLanding } from './repository.ts';

/** How long an address's landing (or its absence) and the set of custom domains are remembered. */
export const LANDING_CACHE_MS = 5_000;
const CACHE_MAX = 10_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface Cached<T> { at: number; value: Promise<T> }

const keyOf = (slug: string, domain: string | null) => `${domain ?? ''}\n${slug.toLowerCase()}`;

/** The host's state for one app instance: the address cache and the custom domains. */
export class LandingHostState {
  private readonly cache = new Map<string, Cached<HostLanding | undefined>>();
  private domains: Cached<Set<string>> | undefined;
  private readonly deps: Deps;

  constructor(deps: Deps) {
    this.deps = deps;
  }

  lookup(slug: string, domain: string | null): Promise<HostLanding | undefined> {
    const key = keyOf(slug, domain);
    const now = Date.now();
    const hit = this.cache.get(key);
    if (hit && now - hit.at < LANDING_CACHE_MS) return hit.value;
    if (this.cache.size >= CACHE_MAX) this.cache.clear();
    const value = hostLanding(this.deps.db, slug, domain);
    this.cache.set(key, { at: now, value });
    value.catch(() => this.cache.delete(key));
    return value;
  }

  customDomains(): Promise<Set<string>> {
    const now = Date.now();
    if (this.domains && now - this.domains.at < LANDING_CACHE_MS) return this.domains.value;
    const value = publishedDomains(this.deps.db).then((list) => new Set(list));
    const entry = { at: now, value };
    this.domains = entry;
    value.catch(() => { if (this.domains === entry) this.domains = undefined; });
    return value;
  }

  /** Forget an address (its landing changed or went), and the custom domains. */
  forget(slug: string, domain: string | null): void {
    this.cache.delete(keyOf(slug, domain));
    this.domains = undefined;
  }
}

const states = new WeakMap<Deps, LandingHostState>();
/** The host state of an app instance (its routes share it to forget edited addresses). */
export function landingHostState(deps: Deps): LandingHostState {
  let state = states.get(deps);
  if (!state) {
    state = new LandingHostState(deps);
    states.set(deps, state);
  }
  return state;
}

/** A Host header's name: lower case, without port or trailing dot. */
export function hostName(header: string | undefined): string {
  const host = (header ?? '').trim().toLowerCase();
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d*$/, '');
  return name.replace(/\.$/, '');
}

const ownHosts = new WeakMap<Deps, { listenUrl: string | undefined; hosts: Set<string> }>();

/** Whether a host name is one of the product's own (never a landing's custom domain). */
export function isOwnHost(deps: Deps, name: string): boolean {
  let known = ownHosts.get(deps);
  if (!known || known.listenUrl !== deps.listenUrl) {
    const hosts = new Set([deps.config.PUBLIC_URL, deps.config.LINK_BASE_URL, deps.listenUrl]
      .flatMap((url) => { try { return url ? [new URL(url).hostname.toLowerCase()] : []; } catch { return []; } }));
    for (const host of (deps.config.PUBLIC_HOSTS ?? '').split(',').map((h) => hostName(h)).filter(Boolean)) hosts.add(host);
    known = { listenUrl: deps.listenUrl, hosts };
    ownHosts.set(deps, known);
  }
  return known.hosts.has(name.toLowerCase());
}

/** `GET /p/:slug` (mounted at /p). */
export function landingHost(deps: Deps) {
  const state = landingHostState(deps);
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    void serve(deps, state, req, res, null).catch((error: unknown) => failed(deps, res, error));
  };
}

/** `GET /:slug` on a custom domain of a published landing; every other host goes on. */
export function customDomainLandings(deps: Deps) {
  const state = landingHostState(deps);
  return (req: Request, res: Response, next: NextFunction): void => {
    const name = hostName(req.headers.host);
    // A custom domain has an alphabetic top-level domain (SPEC §5): IP literals and dotless names
    // (every API and ingestion call made by address) go on without touching the domain cache.
    if (!/\.[a-z]{2,63}$/.test(name) || isOwnHost(deps, name)) return next();
    state.customDomains().then((domains) => {
      if (!domains.has(name)) return next();
      if (req.method !== 'GET' && req.method !== 'HEAD') return notFound(req, res);
      return serve(deps, state, req, res, name);
    }).catch((error: unknown) => failed(deps, res, error));
  };
}

function failed(deps: Deps, res: ServerResponse, error: unknown): void {
  deps.log.error({ err: error }, 'landing host failed');
  if (!res.headersSent) {
    res.statusCode = 503;
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.end(JSON.stringify({ status: 'KO', code: ErrorCode.DATABASE_ERROR, message: 'The landing page could not be served; try again' }));
  }
}

async function serve(deps: Deps, state: LandingHostState, req: Request, res: Response, domain: string | null): Promise<void> {
  // After the /p mount (or at the root of a custom domain), req.url is "/<slug>?<query>".
  const url = req.url;
  const queryAt = url.indexOf('?');
  const path = (queryAt < 0 ? url : url.slice(0, queryAt)).slice(1).replace(/\/$/, '');
  const slug = safeDecode(path);
  const landing = slug !== undefined && isLandingSlug(slug) ? await state.lookup(slug, domain) : undefined;
  if (!landing) return notFound(req, res);

  const query = new URLSearchParams(queryAt < 0 ? '' : url.slice(queryAt + 1));
  const click = query.get('gd_click');
  const clickId = click && UUID.test(click) ? click : null;
  const userAgent = req.headers['user-agent']?.slice(0, 1024) || null;
  if (botReason(req.method, req.headers, userAgent ? describeAgent(userAgent) : null) === null) {
    await countVisit(deps.db, landing, new Date(), clickId !== null);
  }
  const { html, css } = renderLanding(landing, { clickId });
  const styleHash = createHash('sha256').update(css).digest('base64');
  res.writeHead(200, {
    ...COMMON_HEADERS,
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(html)),
    'Content-Security-Policy': `default-src 'none'; img-src https:; style-src 'sha256-${styleHash}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    'X-Frame-Options': 'DENY',
  });
  res.end(req.method === 'HEAD' ? undefined : html);
}

const COMMON_HEADERS = { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer', 'X-Content-Type-Options': 'nosniff' };

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

const NOT_FOUND_CSS = 'body{font-family:system-ui,sans-serif;margin:0;display:grid;place-items:center;min-height:100vh;color:#1f2937;background:#f8fafc}main{text-align:center;padding:24px}h1{font-size:20px}p{color:#6b7280}';

function notFound(req: IncomingMessage, res: ServerResponse): void {
  const head = req.method === 'HEAD';
  if (/application\/json/i.test(req.headers.accept ?? '')) {
    const body = JSON.stringify({ status: 'KO', code: ErrorCode.NOT_EXIST, message: 'Landing page not found' });
    res.writeHead(404, { ...COMMON_HEADERS, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(Buffer.byteLength(body)) });
    res.end(head ? undefined : body);
    return;
  }
  const spanish = /^\s*es\b/i.test(req.headers['accept-language'] ?? '');
  const title = spanish ? 'Página no encontrada' : 'Page not found';
  const text = spanish ? 'Esta página no existe o ya no está publicada.' : 'This page does not exist or is no longer published.';
  const html = `<!doctype html><html lang="${spanish ? 'es' : 'en'}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title>`
    + `<style>${NOT_FOUND_CSS}</style></head><body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></main></body></html>`;
  const hash = createHash('sha256').update(NOT_FOUND_CSS).digest('base64');
  res.writeHead(404, {
    ...COMMON_HEADERS, 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': String(Buffer.byteLength(html)),
    'Content-Security-Policy': `default-src 'none'; style-src 'sha256-${hash}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
  });
  res.end(head ? undefined : html);
}
