/**
 * The link host: `GET /l/:code` (and HEAD). Mounted first in app.ts, before any body parser,
 * cookie or CSRF layer: a click is one cached lookup, one queued insert (group commit,
 * clicks.ts `ClickWriter`) and the answer once its row is stored.
 *
 * - The code's link is cached for LINK_CACHE_MS (unknown codes too, so a flood of wrong codes does
 *   not reach the database); concurrent misses share one query. Editing or deleting a link through
 *   the API forgets its code at once in this process; other processes see it within the TTL.
 * - Every request to a live code is stored as a click with a fresh UUID: time, IP, user agent
 *   parsed (platform, OS, version, device, browser), the device ids and tracking parameters of the
 *   query (the link's own parameters are defaults). Bots and prefetchers (HEAD, Purpose /
 *   Sec-Purpose prefetch, no user agent, isbot) are stored with `bot = true` and `bot_reason`.
 * - Where it goes: shared/src/acquisition/links.ts `clickTarget` (302, or for a powlink on a phone
 *   a small page that opens the app and falls back to the store). A link's published landing page
 *   (issue 17, `withLandingFallback`) is its web fallback on every platform. Unknown or inactive code: 404,
 *   10026 (JSON when asked for, else a small page).
 * - `GET /l/:code/i` is the link's impression pixel (a network loads it where it shows the ad):
 *   a 1x1 transparent GIF, and one impression counted per request that is not a bot's
 *   (migration 046, the campaign metric "impressions"). No click is stored and nothing redirects.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { ErrorCode } from '@gd/shared';
import { clickTarget, clickValues, LINK_CODE_PATTERN, mergeDestinations, withLandingFallback, type ClickTarget } from '@gd/shared/acquisition/links';
import { landingUrl } from '@gd/shared/landings/model';
import type { Deps } from '../../http/context.ts';
import { botReason, ClickWriter, describeAgent } from './clicks.ts';
import { countImpression, hostLink, type HostLink } from './repository.ts';

/** How long a code's link (or its absence) is remembered. */
export const LINK_CACHE_MS = 5_000;
const CACHE_MAX = 20_000;

interface Cached { at: number; link: Promise<HostLink | undefined> }

/** The host's state for one app instance: the code cache and the click writer. */
export class LinkHostState {
  readonly writer: ClickWriter;
  private readonly cache = new Map<string, Cached>();
  private readonly deps: Deps;

  constructor(deps: Deps) {
    this.deps = deps;
    this.writer = new ClickWriter(deps.db, 2);
  }

  lookup(code: string): Promise<HostLink | undefined> {
    const now = Date.now();
    const hit = this.cache.get(code);
    if (hit && now - hit.at < LINK_CACHE_MS) return hit.link;
    if (this.cache.size >= CACHE_MAX) this.cache.clear();
    const link = hostLink(this.deps.db, code);
    this.cache.set(code, { at: now, link });
    // A failed lookup is not remembered.
    link.catch(() => this.cache.delete(code));
    return link;
  }

  /** Forget a code (its link changed or went). */
  forget(code: string): void {
    this.cache.delete(code);
  }
}

const states = new WeakMap<Deps, LinkHostState>();
/** The host state of an app instance (its routes share it with the host to forget edited codes). */
export function linkHostState(deps: Deps): LinkHostState {
  let state = states.get(deps);
  if (!state) {
    state = new LinkHostState(deps);
    states.set(deps, state);
  }
  return state;
}

/** The public base of short links: LINK_BASE_URL, else the API's own origin + /l. */
export function linkBaseUrl(deps: Deps): string {
  const base = deps.config.LINK_BASE_URL ?? `${(deps.config.PUBLIC_URL ?? deps.listenUrl ?? `http://${deps.config.HOST}:${deps.config.PORT}`).replace(/\/+$/, '')}/l`;
  return base.replace(/\/+$/, '');
}

/** The public base of landing pages on the link host (issue 17): the link host's origin + /p. */
export function landingBaseUrl(deps: Deps): string {
  return `${new URL(linkBaseUrl(deps)).origin}/p`;
}

/** The host as Express middleware mounted at /l. */
export function linkHost(deps: Deps) {
  const state = linkHostState(deps);
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    void handleClick(deps, state, req, res).catch((error: unknown) => {
      deps.log.error({ err: error }, 'link host failed');
      if (!res.headersSent) {
        res.statusCode = 503;
        res.setHeader('Content-Type', 'application/json; charset=utf-8');
        res.end(JSON.stringify({ status: 'KO', code: ErrorCode.DATABASE_ERROR, message: 'The link host could not store the click; try again' }));
      }
    });
  };
}

async function handleClick(deps: Deps, state: LinkHostState, req: Request, res: Response): Promise<void> {
  // After the /l mount, req.url is "/<code>?<query>".
  const url = req.url;
  const queryAt = url.indexOf('?');
  const path = queryAt < 0 ? url.slice(1) : url.slice(1, queryAt);
  const trimmed = path.replace(/\/+$/, '');
  const impression = trimmed.endsWith('/i');
  const code = safeDecode(impression ? trimmed.slice(0, -2) : trimmed);
  const link = code !== undefined && LINK_CODE_PATTERN.test(code) ? await state.lookup(code) : undefined;
  if (!link) return notFound(req, res);
  if (impression) return pixel(deps, link, req, res);

  const query = new URLSearchParams(queryAt < 0 ? '' : url.slice(queryAt + 1));
  const userAgent = req.headers['user-agent']?.slice(0, 1024) || null;
  const agent = userAgent ? describeAgent(userAgent) : null;
  const reason = botReason(req.method, req.headers, agent);
  const { params, ids } = clickValues(query, link.params);
  const id = randomUUID();
  const referer = req.headers.referer?.slice(0, 2048) ?? null;
  await state.writer.write({
    id, appId: link.appId, clickedAt: new Date(), linkId: link.id, campaignId: link.campaignId, sourceId: link.sourceId,
    ip: req.ip ?? req.socket.remoteAddress ?? null, userAgent, platform: agent?.platform ?? 'desktop',
    os: agent?.os ?? null, osVersion: agent?.osVersion ?? null, device: agent?.device ?? null, browser: agent?.browser ?? null,
    idfa: ids.idfa ?? null, idfv: ids.idfv ?? null, gaid: ids.gaid ?? null, oaid: ids.oaid ?? null,
    params, referrer: referer, country: null, bot: reason !== null, botReason: reason,
  });
  const target = clickTarget({
    kind: link.kind, platform: agent?.platform ?? 'desktop',
    // A published landing page is the web fallback on every platform (issue 17).
    destinations: withLandingFallback(mergeDestinations(link.destinations, link.campaignDestinations), link.landing && landingUrl(landingBaseUrl(deps), link.landing.slug, link.landing.domain)),
    deepLink: link.deepLink, clickId: id,
  });
  answer(res, target, req.method === 'HEAD');
}

/** A transparent 1x1 GIF. */
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

async function pixel(deps: Deps, link: HostLink, req: Request, res: Response): Promise<void> {
  const userAgent = req.headers['user-agent']?.slice(0, 1024) || null;
  if (botReason(req.method, req.headers, userAgent ? describeAgent(userAgent) : null) === null) {
    await countImpression(deps.db, { appId: link.appId, id: link.id, campaignId: link.campaignId }, new Date());
  }
  res.writeHead(200, { ...COMMON_HEADERS, 'Content-Type': 'image/gif', 'Content-Length': String(PIXEL.length) });
  res.end(req.method === 'HEAD' ? undefined : PIXEL);
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

const COMMON_HEADERS = { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer', 'X-Content-Type-Options': 'nosniff', 'X-Robots-Tag': 'noindex' };

function answer(res: ServerResponse, target: ClickTarget, head: boolean): void {
  if (target.kind === 'redirect') {
    res.writeHead(302, { ...COMMON_HEADERS, Location: target.url, 'Content-Length': '0' });
    res.end();
    return;
  }
  if (target.kind === 'none') {
    // A live link with nowhere to go on this platform (e.g. a phone-only link opened on a desktop).
    return page(res, 404, 'Nothing to open here', 'This link has no destination for this device.', head);
  }
  const html = openPage(target);
  res.writeHead(200, { ...COMMON_HEADERS, 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': String(Buffer.byteLength(html)), 'X-Frame-Options': 'DENY' });
  res.end(head ? undefined : html);
}

function notFound(req: IncomingMessage, res: ServerResponse): void {
  if (/application\/json/i.test(req.headers.accept ?? '')) {
    const body = JSON.stringify({ status: 'KO', code: ErrorCode.SHORT_LINK_NOT_FOUND, message: 'Short link not found' });
    res.writeHead(404, { ...COMMON_HEADERS, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(Buffer.byteLength(body)) });
    res.end(req.method === 'HEAD' ? undefined : body);
    return;
  }
  const spanish = /^\s*es\b/i.test(req.headers['accept-language'] ?? '');
  page(res, 404,
    spanish ? 'Enlace no encontrado' : 'Link not found',
    spanish ? 'Este enlace no existe o ya no está activo (código 10026).' : 'This link does not exist or is no longer active (code 10026).',
    req.method === 'HEAD');
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** JSON inside a <script>: no way to close the element or open a comment. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

function page(res: ServerResponse, status: number, title: string, text: string, head: boolean): void {
  const html = `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title>`
    + `<style>body{font-family:system-ui,sans-serif;margin:0;display:grid;place-items:center;min-height:100vh;color:#1f2937;background:#f8fafc}main{text-align:center;padding:24px}h1{font-size:20px}p{color:#6b7280}</style></head>`
    + `<body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></main></body></html>`;
  res.writeHead(status, { ...COMMON_HEADERS, 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': String(Buffer.byteLength(html)) });
  res.end(head ? undefined : html);
}

/**
 * The powlink page on a phone: opens the deep link (Android through an `intent:` address, which
 * falls back by itself), and goes to the fallback when the page is still visible after a moment
 * (the app did not open). Links on the page do the same by hand.
 */
function openPage(target: Extract<ClickTarget, { kind: 'open' }>): string {
  const first = target.intent ?? target.deepLink;
  return '<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>Opening…</title>'
    + '<style>body{font-family:system-ui,sans-serif;margin:0;display:grid;place-items:center;min-height:100vh;color:#1f2937;background:#f8fafc}main{text-align:center;padding:24px}a{display:block;margin:12px auto;color:#4f46e5}</style></head>'
    + `<body><main><a id="open" href="${escapeHtml(first)}">Open the app</a><a id="fallback" href="${escapeHtml(target.fallback)}">Continue</a></main>`
    + `<script>(function(){var first=${scriptJson(first)},fallback=${scriptJson(target.fallback)},start=Date.now();`
    + 'setTimeout(function(){if(!document.hidden&&Date.now()-start<4000)location.replace(fallback)},1500);location.href=first})()</script></body></html>';
}
