/**
 * CORS for the web app when it is served from another host than the API. SPEC.md section 7: the
 * API base URL is the page's host with a `ws.` prefix (app.example.com calls ws.app.example.com).
 * Calls carry the session cookies (`credentials: 'include'`), so the allowed origin is echoed back,
 * never `*`, with `Access-Control-Allow-Credentials`.
 *
 * Allowed origins: one whose host, with `ws.` in front, is the host the request was sent to (the
 * derivation the client makes, read backwards) over the same scheme as the request, and those listed
 * in CORS_ORIGINS (comma-separated, for an API base URL given by the override). The scheme must
 * match: an API served over https never gives credentialed access to an `http://` page (anyone on
 * the network path could inject script into that page and use the person's session). A request from any other origin gets no CORS headers,
 * so the browser keeps the answer from the page; its preflight is refused with 403 and code 10004.
 * Same-origin requests (no Origin header, or the API's own origin) are untouched. The ingestion API
 * has its own, open CORS (app keys, no cookies) and is mounted before this.
 */
import type { NextFunction, Request, Response } from 'express';
import { API_VERSION_HEADER, CSRF_HEADER, ErrorCode } from '@gd/shared';
import { sendKo } from './respond.ts';

const ALLOWED_HEADERS = ['content-type', 'accept', 'accept-language', 'cache-control', CSRF_HEADER, API_VERSION_HEADER.toLowerCase()].join(', ');
const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE';
const PREFLIGHT_MAX_AGE_S = 600;

/** The comma-separated CORS_ORIGINS setting as a set of origins (scheme://host[:port]). */
export function parseOrigins(setting: string | undefined): Set<string> {
  const out = new Set<string>();
  for (const item of (setting ?? '').split(',')) {
    const trimmed = item.trim();
    if (!trimmed) continue;
    out.add(new URL(trimmed).origin);
  }
  return out;
}

/**
 * Pure: may a page of `origin` call this API, reached at `requestHost` (the Host header, with its
 * port)? True for the listed origins and for a page host that the `ws.` prefix turns into ours.
 */
export function isAllowedOrigin(origin: string, requestHost: string | undefined, listed: ReadonlySet<string>, requestProtocol = 'https'): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
  if (listed.has(url.origin)) return true;
  return !!requestHost && url.protocol === `${requestProtocol}:` && `ws.${url.host}`.toLowerCase() === requestHost.toLowerCase();
}

export function corsForWebApp(listed: ReadonlySet<string>) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const origin = req.get('origin');
    const host = req.get('host');
    const sameOrigin = !origin || origin === `${req.protocol}://${host}`;
    if (sameOrigin) return next();
    res.vary('Origin');
    const allowed = isAllowedOrigin(origin, host, listed, req.protocol);
    if (allowed) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Access-Control-Allow-Credentials', 'true');
    }
    if (req.method !== 'OPTIONS') return next();
    if (!allowed) return sendKo(res, ErrorCode.NO_PERMISSION, `Origin ${origin} may not call this API (see CORS_ORIGINS)`, undefined, 403);
    res.setHeader('Access-Control-Allow-Methods', ALLOWED_METHODS);
    res.setHeader('Access-Control-Allow-Headers', ALLOWED_HEADERS);
    res.setHeader('Access-Control-Max-Age', String(PREFLIGHT_MAX_AGE_S));
    res.status(204).end();
  };
}
