/**
 * The wallet's public host, mounted at /w in app.ts before the session layers (no cookies, no
 * CSRF), like the link host: what a person opens from the link they were sent.
 *
 * - `GET /w/:token`: the pass's page: the pass drawn, "Add to Apple Wallet" and "Save to Google
 *   Wallet" for the wallets the account signs for (English or Spanish by Accept-Language; strict
 *   Content-Security-Policy: no script, inline styles only, images from itself).
 * - `GET /w/:token/pass.pkpass`: the signed Apple pass (application/vnd.apple.pkpass), made at each
 *   download so it shows the design and state of now; 404 while Apple signing is not set.
 * - `GET /w/:token/google`: a redirect to the Google Wallet save link, its JWT signed now.
 * - `GET /w/:token/logo.png`: the pass's logo (the Google class's logo points here).
 * The token is 32 random bytes (base64url, `TOKEN_PATTERN`); anything else, an unknown token, or a
 * deleted design answers 404 without touching the database more than once.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { walletEn } from '@gd/shared/i18n/wallet/en';
import { walletEs } from '@gd/shared/i18n/wallet/es';
import { PassDesign, googleSaveClaims, resolvePass } from '@gd/shared/wallet/model';
import type { Deps } from '../../http/context.ts';
import { googleSaveUrl, signJwtRs256 } from './google.ts';
import { passImage } from './images.ts';
import { buildPkpass } from './pkpass.ts';
import { passByToken, type PassRow } from './repository.ts';
import { appleSigner, configuredProviders, googleSigner } from './signing.ts';
import { issuedValues } from './values.ts';

export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
export const newPassToken = () => randomBytes(32).toString('base64url');

/** The public base of pass links: PUBLIC_URL, else the address the API listens on, + /w. */
export function walletBaseUrl(deps: Deps): string {
  return `${(deps.config.PUBLIC_URL ?? deps.listenUrl ?? `http://${deps.config.HOST}:${deps.config.PORT}`).replace(/\/+$/, '')}/w`;
}

const COMMON = { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer', 'X-Content-Type-Options': 'nosniff', 'X-Robots-Tag': 'noindex' };
const CSP = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

type Texts = typeof walletEn.wallet.public;
const textsFor = (req: IncomingMessage): Texts => (/^\s*es\b/i.test(req.headers['accept-language'] ?? '') ? walletEs.wallet.public : walletEn.wallet.public);

export function walletHost(deps: Deps) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    void serve(deps, req, res).catch((error: unknown) => {
      deps.log.error({ err: error }, 'wallet host failed');
      if (!res.headersSent) send(res, 503, 'text/plain; charset=utf-8', 'Try again in a moment.', req.method === 'HEAD');
    });
  };
}

function send(res: ServerResponse, status: number, type: string, body: string | Buffer, head: boolean, extra: Record<string, string> = {}): void {
  const data = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  res.writeHead(status, { ...COMMON, 'Content-Type': type, 'Content-Length': String(data.length), ...extra });
  res.end(head ? undefined : data);
}

async function serve(deps: Deps, req: Request, res: Response): Promise<void> {
  const head = req.method === 'HEAD';
  const path = req.url.split('?')[0] ?? '';
  const [token = '', what = '', ...rest] = path.replace(/^\/+/, '').split('/');
  const texts = textsFor(req);
  const pass = TOKEN_PATTERN.test(token) && rest.length === 0 ? await passByToken(deps.db, token) : undefined;
  const design = pass ? PassDesign.safeParse(pass.design) : undefined;
  if (!pass || !design?.success) return send(res, 404, 'text/html; charset=utf-8', shell(texts.notFound, `<h1>${escapeHtml(texts.notFound)}</h1><p>${escapeHtml(texts.notFoundBody)}</p>`), head, { 'Content-Security-Policy': CSP });
  const now = new Date();
  switch (what) {
    case '':
      return send(res, 200, 'text/html; charset=utf-8', await passPage(deps, pass, design.data, texts), head, { 'Content-Security-Policy': CSP, 'X-Frame-Options': 'DENY' });
    case 'logo.png':
      return send(res, 200, 'image/png', passImage(160, 160, design.data.backgroundColor, design.data.foregroundColor), head, { 'Cache-Control': 'public, max-age=3600' });
    case 'pass.pkpass': {
      const signer = await appleSigner(deps.db, deps.secret, pass.account_id);
      if (!signer) return send(res, 404, 'text/plain; charset=utf-8', texts.notReady, head);
      const file = buildPkpass(design.data, issuedValues(pass, deps.secret), signer, { serialNumber: pass.id, voided: pass.status === 'voided' }, now);
      return send(res, 200, 'application/vnd.apple.pkpass', file, head, { 'Content-Disposition': 'attachment; filename="pass.pkpass"', 'Last-Modified': pass.updated_at.toUTCString() });
    }
    case 'google': {
      const signer = await googleSigner(deps.db, deps.secret, pass.account_id);
      if (!signer) return send(res, 404, 'text/plain; charset=utf-8', texts.notReady, head);
      const base = walletBaseUrl(deps);
      const claims = googleSaveClaims(design.data, issuedValues(pass, deps.secret), {
        issuerId: signer.issuerId, serviceAccountEmail: signer.serviceAccountEmail, designId: pass.design_id, passId: pass.id,
        voided: pass.status === 'voided', logoUrl: `${base}/${pass.token}/logo.png`, origins: [new URL(base).origin], now,
      });
      res.writeHead(302, { ...COMMON, Location: googleSaveUrl(signJwtRs256(claims, signer.privateKeyPem)), 'Content-Length': '0' });
      res.end();
      return;
    }
    default:
      return send(res, 404, 'text/html; charset=utf-8', shell(texts.notFound, `<h1>${escapeHtml(texts.notFound)}</h1><p>${escapeHtml(texts.notFoundBody)}</p>`), head, { 'Content-Security-Policy': CSP });
  }
}

function shell(title: string, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title>`
    + '<style>body{font-family:system-ui,sans-serif;margin:0;display:grid;place-items:center;min-height:100vh;color:#1f2937;background:#f1f5f9}'
    + 'main{width:min(360px,92vw);padding:24px 0;text-align:center}h1{font-size:20px}p{color:#4b5563}'
    + '.pass{border-radius:14px;padding:16px;text-align:left;box-shadow:0 8px 24px rgba(15,23,42,.18)}.row{display:flex;justify-content:space-between;gap:12px;margin-top:12px}'
    + '.label{font-size:11px;text-transform:uppercase;letter-spacing:.04em}.value{font-size:15px;font-weight:600;word-break:break-word}.primary .value{font-size:26px}'
    + '.top{display:flex;align-items:center;gap:10px}.top img{width:28px;height:28px;border-radius:6px}.code{margin-top:16px;background:#fff;color:#111827;border-radius:8px;padding:10px;text-align:center;font-family:ui-monospace,monospace;letter-spacing:.12em}'
    + '.actions{display:grid;gap:10px;margin-top:20px}.actions a{display:block;padding:12px;border-radius:10px;background:#111827;color:#fff;text-decoration:none;font-weight:600}.actions a.google{background:#1a73e8}'
    + '.void{margin-top:12px;color:#b91c1c;font-weight:600}</style></head>'
    + `<body><main>${body}</main></body></html>`;
}

async function passPage(deps: Deps, pass: PassRow, design: PassDesign, texts: Texts): Promise<string> {
  const providers = await configuredProviders(deps.db, pass.account_id);
  const shown = resolvePass(design, issuedValues(pass, null), texts.unlimited);
  const field = (f: { label: string; value: string }) => `<div><div class="label" style="color:${design.labelColor}">${escapeHtml(f.label)}</div><div class="value">${escapeHtml(f.value)}</div></div>`;
  const row = (list: { label: string; value: string }[], cls = '') => (list.length ? `<div class="row ${cls}">${list.map(field).join('')}</div>` : '');
  const card = `<div class="pass" style="background:${design.backgroundColor};color:${design.foregroundColor}">`
    + `<div class="top"><img src="${escapeHtml(pass.token)}/logo.png" alt=""><strong>${escapeHtml(design.logoText || design.organizationName)}</strong></div>`
    + row(shown.headerFields) + row(shown.primaryFields, 'primary') + row(shown.secondaryFields) + row(shown.auxiliaryFields)
    + (design.showCode ? `<div class="code">${escapeHtml(shown.barcode)}</div>` : '') + '</div>';
  const actions = [
    providers.has('apple') ? `<a href="${escapeHtml(pass.token)}/pass.pkpass">${escapeHtml(texts.apple)}</a>` : '',
    providers.has('google') ? `<a class="google" href="${escapeHtml(pass.token)}/google">${escapeHtml(texts.google)}</a>` : '',
  ].join('');
  const title = `${design.organizationName}: ${design.description}`;
  return shell(title, `<h1>${escapeHtml(design.description)}</h1>${card}`
    + (pass.status === 'voided' ? `<p class="void">${escapeHtml(texts.voided)}</p>` : '')
    + (actions ? `<div class="actions">${actions}</div>` : `<p>${escapeHtml(texts.notReady)}</p>`));
}
