/**
 * A loopback OAuth 2 authorization server and resource API, for the integrations' tests (integration
 * tests and the e2e spec). It speaks the documented protocols the product's client speaks:
 *
 * - `GET /authorize` (RFC 6749 §4.1.1 + RFC 7636): checks response_type=code, the client id, the
 *   redirect URI's presence, code_challenge_method=S256 and a challenge, then shows a consent page
 *   with "Allow" and "Deny" buttons; `POST /authorize/decision` redirects to the redirect URI with
 *   `code` and `state` (or `error=access_denied` and `state`).
 * - `POST /token` (RFC 6749 §4.1.3, §6, §5.2): client authentication by HTTP Basic (or
 *   client_id/client_secret in the body); `authorization_code` checks the code (known, unused, not
 *   expired, same client and redirect URI) and the PKCE verifier against the stored S256 challenge;
 *   `refresh_token` rotates the refresh token. Errors are `{error, error_description}` with 400/401.
 * - Resource endpoints needing a live access token (Bearer) or a known basic login: the ad
 *   services' account lists (Meta `/me/adaccounts`, Google Ads `/customers:listAccessibleCustomers`,
 *   TikTok `/oauth2/advertiser/get/`), the experience platform's segment members export
 *   (`/data/core/ups/audiences/:id/members`, paged) and journey postbacks (`POST
 *   /data/core/ups/postbacks`); any other GET answers `{ok:true}` when authorised.
 *
 * Time is not simulated: a test makes codes or tokens expire with `expireCodes()` / `expireTokens()`.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OAuthServerOptions {
  clientId?: string;
  clientSecret?: string;
  /** Access token lifetime announced in `expires_in` (seconds). */
  accessTtlSeconds?: number;
  /** Ad account ids the tokens see. */
  accounts?: string[];
  /** Basic logins the resource API accepts (user → password). */
  basicUsers?: Record<string, string>;
  /** Segment id → member ids, for the experience platform's export. */
  segments?: Record<string, string[]>;
  /** Members per export page. */
  pageSize?: number;
}

export interface TokenRequest { grantType: string; form: Record<string, string>; authorization: string | undefined; status: number }

export interface OAuthServer {
  url: string;
  clientId: string;
  clientSecret: string;
  accounts: string[];
  /** The token endpoint's requests, in order. */
  tokenRequests: TokenRequest[];
  /** Resource requests (method, path, headers). */
  resourceRequests: { method: string; path: string; headers: IncomingMessage['headers']; body: string }[];
  /** Refuse every refresh_token grant from now on (invalid_grant). */
  refuseRefresh: boolean;
  /** Answer resource calls with this status (null: normal). */
  resourceStatus: number | null;
  segments: Record<string, string[]>;
  expireCodes(): void;
  expireTokens(): void;
  /** Issues tokens directly (as if authorised), for integrations created straight in the database. */
  issueTokens(): { accessToken: string; refreshToken: string };
  liveAccessTokens(): string[];
  close(): Promise<void>;
}

interface Code { clientId: string; redirectUri: string; challenge: string; scope: string; expired: boolean; used: boolean }

const s256 = (v: string) => createHash('sha256').update(v, 'ascii').digest('base64url');
const token = () => randomBytes(24).toString('base64url');
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

async function readAll(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

export async function startOAuthServer(opts: OAuthServerOptions = {}): Promise<OAuthServer> {
  const clientId = opts.clientId ?? 'loopback-client';
  const clientSecret = opts.clientSecret ?? `secret-${token()}`;
  const codes = new Map<string, Code>();
  const access = new Map<string, { expired: boolean }>();
  const refresh = new Set<string>();
  const pageSize = opts.pageSize ?? 1000;

  const state: OAuthServer = {
    url: '', clientId, clientSecret, accounts: opts.accounts ?? ['1234567890'], tokenRequests: [], resourceRequests: [],
    refuseRefresh: false, resourceStatus: null, segments: opts.segments ?? {},
    expireCodes: () => { for (const c of codes.values()) c.expired = true; },
    expireTokens: () => { for (const t of access.values()) t.expired = true; },
    issueTokens: () => {
      const accessToken = token();
      const refreshToken = token();
      access.set(accessToken, { expired: false });
      refresh.add(refreshToken);
      return { accessToken, refreshToken };
    },
    liveAccessTokens: () => [...access].filter(([, t]) => !t.expired).map(([k]) => k),
    close: () => new Promise<void>((resolve) => { server.close(() => resolve()); server.closeAllConnections(); }),
  };

  const issue = (res: ServerResponse) => {
    const t = state.issueTokens();
    json(res, 200, { access_token: t.accessToken, token_type: 'Bearer', expires_in: opts.accessTtlSeconds ?? 3600, refresh_token: t.refreshToken });
  };

  function clientOf(req: IncomingMessage, form: Record<string, string>): { id: string; secret: string } | null {
    const auth = req.headers.authorization;
    if (auth?.startsWith('Basic ')) {
      const [id, secret] = Buffer.from(auth.slice(6), 'base64').toString('utf8').split(':').map((p) => decodeURIComponent(p ?? ''));
      return { id: id ?? '', secret: secret ?? '' };
    }
    if (form.client_id && form.client_secret) return { id: form.client_id, secret: form.client_secret };
    return null;
  }

  async function tokenEndpoint(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const form = Object.fromEntries(new URLSearchParams(await readAll(req)));
    const record = (status: number) => state.tokenRequests.push({ grantType: form.grant_type ?? '', form, authorization: req.headers.authorization, status });
    const oauthError = (status: number, error: string, description: string) => {
      record(status);
      json(res, status, { error, error_description: description });
    };
    const client = clientOf(req, form);
    if (!client || client.id !== clientId || client.secret !== clientSecret) return oauthError(401, 'invalid_client', 'Client authentication failed');
    if (form.grant_type === 'authorization_code') {
      const code = codes.get(form.code ?? '');
      if (!code || code.used) return oauthError(400, 'invalid_grant', 'Unknown or used authorization code');
      code.used = true;
      if (code.expired) return oauthError(400, 'invalid_grant', 'The authorization code expired');
      if (code.clientId !== client.id || code.redirectUri !== form.redirect_uri) return oauthError(400, 'invalid_grant', 'redirect_uri or client does not match');
      if (!form.code_verifier || s256(form.code_verifier) !== code.challenge) return oauthError(400, 'invalid_grant', 'PKCE verification failed');
      record(200);
      return issue(res);
    }
    if (form.grant_type === 'refresh_token') {
      if (state.refuseRefresh || !refresh.has(form.refresh_token ?? '')) return oauthError(400, 'invalid_grant', 'The refresh token is not valid');
      refresh.delete(form.refresh_token ?? '');
      record(200);
      return issue(res);
    }
    return oauthError(400, 'unsupported_grant_type', 'Unsupported grant type');
  }

  function authorised(req: IncomingMessage): boolean {
    const auth = req.headers.authorization ?? '';
    if (auth.startsWith('Bearer ')) return access.get(auth.slice(7))?.expired === false;
    if (auth.startsWith('Basic ')) {
      const [user, password] = Buffer.from(auth.slice(6), 'base64').toString('utf8').split(':');
      return !!user && opts.basicUsers?.[user] === password;
    }
    return false;
  }

  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://loopback');
      const path = url.pathname;
      if (req.method === 'GET' && path === '/authorize') {
        const p = Object.fromEntries(url.searchParams);
        if (p.response_type !== 'code' || p.client_id !== clientId || !p.redirect_uri || p.code_challenge_method !== 'S256' || !p.code_challenge) {
          res.writeHead(400, { 'content-type': 'text/plain' });
          return void res.end('invalid_request: response_type=code, a known client_id, redirect_uri and an S256 code_challenge are required');
        }
        const hidden = ['redirect_uri', 'state', 'code_challenge', 'scope', 'client_id'].map((k) => `<input type="hidden" name="${k}" value="${escapeHtml(p[k] ?? '')}">`).join('');
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return void res.end(`<!doctype html><html><head><title>Loopback authorization</title></head><body>
          <h1>Authorize ${escapeHtml(p.client_id)}</h1><p>Scopes: ${escapeHtml(p.scope ?? '')}</p>
          <form method="post" action="/authorize/decision">${hidden}
            <button type="submit" name="decision" value="allow">Allow</button>
            <button type="submit" name="decision" value="deny">Deny</button>
          </form></body></html>`);
      }
      if (req.method === 'POST' && path === '/authorize/decision') {
        const f = Object.fromEntries(new URLSearchParams(await readAll(req)));
        const back = new URL(f.redirect_uri ?? '');
        if (f.decision === 'allow') {
          const code = token();
          codes.set(code, { clientId: f.client_id ?? '', redirectUri: f.redirect_uri ?? '', challenge: f.code_challenge ?? '', scope: f.scope ?? '', expired: false, used: false });
          back.searchParams.set('code', code);
        } else {
          back.searchParams.set('error', 'access_denied');
        }
        back.searchParams.set('state', f.state ?? '');
        res.writeHead(302, { location: back.toString() });
        return void res.end();
      }
      if (req.method === 'POST' && path === '/token') return tokenEndpoint(req, res);

      const body = await readAll(req);
      state.resourceRequests.push({ method: req.method ?? '', path: `${path}${url.search}`, headers: req.headers, body });
      if (state.resourceStatus !== null) return json(res, state.resourceStatus, { error: 'forced' });
      if (!authorised(req)) return json(res, 401, { error: 'invalid_token' });
      if (path.endsWith('/me/adaccounts')) return json(res, 200, { data: state.accounts.map((id) => ({ id: `act_${id}`, account_id: id })) });
      if (path.endsWith('/customers:listAccessibleCustomers')) return json(res, 200, { resourceNames: state.accounts.map((id) => `customers/${id}`) });
      if (path.endsWith('/oauth2/advertiser/get/')) return json(res, 200, { code: 0, message: 'OK', data: { list: state.accounts.map((id) => ({ advertiser_id: id })) } });
      const members = /\/data\/core\/ups\/audiences\/([^/]+)\/members$/.exec(path);
      if (members && req.method === 'GET') {
        const list = state.segments[decodeURIComponent(members[1] ?? '')];
        if (!list) return json(res, 404, { error: 'segment not found' });
        const start = Number(url.searchParams.get('start') ?? '0');
        const slice = list.slice(start, start + pageSize);
        const next = start + pageSize < list.length ? String(start + pageSize) : null;
        return json(res, 200, { members: slice.map((id) => ({ id })), _page: { next } });
      }
      if (req.method === 'POST' && path.endsWith('/data/core/ups/postbacks')) return json(res, 202, { accepted: true });
      if (req.method === 'GET') return json(res, 200, { ok: true });
      return json(res, 404, { error: 'not found' });
    })().catch((error: unknown) => {
      if (!res.headersSent) json(res, 500, { error: String(error) });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}
