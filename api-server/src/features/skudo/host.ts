/**
 * The skudo tracking host: `GET /s/:code` (and HEAD), mounted in app.ts beside the link host
 * (/l), before any cookie, body parser or CSRF layer. A live code (shared skudo/model.ts
 * `trackingLive`) stores the click with a fresh id (bots and prefetchers flagged as the /l host
 * flags them, and not counted) and redirects (302) to the offer's destination carrying that id
 * (`destinationWithClick`). An unknown code, or one that does not redirect now (URL, offer or
 * partner inactive, campaign paused or outside its days), answers 404: a small page, or the KO
 * envelope with 10026 when JSON is asked for. No click is stored for those.
 */
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { ErrorCode } from '@gd/shared';
import { destinationWithClick, TRACKING_CODE_PATTERN } from '@gd/shared/skudo/model';
import type { Deps } from '../../http/context.ts';
import { linkBaseUrl } from '../links/host.ts';
import { botReason, describeAgent } from '../links/clicks.ts';
import { hostUrl, recordClick, utcDay } from './repository.ts';

/** The public base of tracking URLs: the link host's origin + /s (where app.ts mounts this host). */
export function trackingBaseUrl(deps: Deps): string {
  return `${new URL(linkBaseUrl(deps)).origin}/s`;
}

const HEADERS = { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer', 'X-Content-Type-Options': 'nosniff', 'X-Robots-Tag': 'noindex', 'X-Frame-Options': 'DENY' };

export function trackingHost(deps: Deps) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    void handle(deps, req, res).catch((error: unknown) => {
      deps.log.error({ err: error }, 'skudo tracking host failed');
      if (!res.headersSent) {
        res.writeHead(503, { ...HEADERS, 'Content-Type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify({ status: 'KO', code: ErrorCode.DATABASE_ERROR, message: 'The click could not be stored; try again' }));
      }
    });
  };
}

async function handle(deps: Deps, req: Request, res: Response): Promise<void> {
  // After the /s mount, req.url is "/<code>?<query>".
  const path = req.url.split('?')[0] ?? '';
  const code = path.replace(/^\/+|\/+$/g, '');
  const url = TRACKING_CODE_PATTERN.test(code) ? await hostUrl(deps.db, code, utcDay()) : undefined;
  if (!url?.live) return notFound(req, res);
  const userAgent = req.headers['user-agent']?.slice(0, 1024) || null;
  const bot = botReason(req.method, req.headers, userAgent ? describeAgent(userAgent) : null) !== null;
  const id = randomUUID();
  await recordClick(deps.db, {
    id, accountId: url.accountId, urlId: url.id, at: new Date(), ip: req.ip ?? req.socket.remoteAddress ?? null, userAgent,
    referrer: req.headers.referer?.slice(0, 2048) ?? null, bot,
  });
  res.writeHead(302, { ...HEADERS, Location: destinationWithClick(url.destination, id), 'Content-Length': '0' });
  res.end();
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function notFound(req: Request, res: ServerResponse): void {
  const head = req.method === 'HEAD';
  if (/application\/json/i.test(req.headers.accept ?? '')) {
    const body = JSON.stringify({ status: 'KO', code: ErrorCode.SHORT_LINK_NOT_FOUND, message: 'This tracking URL does not exist or is not active' });
    res.writeHead(404, { ...HEADERS, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(Buffer.byteLength(body)) });
    res.end(head ? undefined : body);
    return;
  }
  const spanish = /^\s*es\b/i.test(req.headers['accept-language'] ?? '');
  const title = spanish ? 'Oferta no disponible' : 'Offer not available';
  const text = spanish ? 'Este enlace no existe o la oferta ya no está activa.' : 'This link does not exist, or the offer is no longer active.';
  const html = `<!doctype html><html lang="${spanish ? 'es' : 'en'}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title>`
    + '<style>body{font-family:system-ui,sans-serif;margin:0;display:grid;place-items:center;min-height:100vh;color:#1f2937;background:#f8fafc}main{text-align:center;padding:24px}h1{font-size:20px}p{color:#6b7280}</style></head>'
    + `<body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></main></body></html>`;
  res.writeHead(404, { ...HEADERS, 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': String(Buffer.byteLength(html)), 'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'" });
  res.end(head ? undefined : html);
}
