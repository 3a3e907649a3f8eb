/**
 * OAuth 2 client side (RFC 6749 authorization code grant, RFC 7636 PKCE with S256), spoken to the
 * service's configurable authorize and token endpoints through the guarded client (src/net).
 *
 * - Client authentication at the token endpoint: HTTP Basic with the form-encoded client id and
 *   secret (RFC 6749 §2.3.1, the method every authorization server must support); the client id is
 *   also sent in the body for servers that look for it there (allowed: it is not a credential).
 * - Token answers: JSON with `access_token`, `token_type` (Bearer), optional `expires_in` (seconds)
 *   and `refresh_token`. A refresh that does not return a new refresh token keeps the old one
 *   (RFC 6749 §6). An answer without `expires_in` is taken as valid for an hour (decision: the RFC
 *   leaves the lifetime to the server's documentation; an hour is what the major providers use).
 * - Errors: a 4xx/5xx with `{error, error_description}` (RFC 6749 §5.2), a body that is not JSON,
 *   or a connection failure, all become an `OAuthFailure` whose text names what happened.
 */
import { createHash, randomBytes } from 'node:crypto';
import { NetError, guardedRequest, readBody, type NetPolicy } from '../../net/index.ts';

export const DEFAULT_TOKEN_LIFETIME_SECONDS = 3600;
const TOKEN_REQUEST = { connectTimeoutMs: 5_000, idleMs: 10_000, totalMs: 15_000, maxBytes: 256 * 1024 } as const;

export interface TokenSet {
  accessToken: string;
  /** Absent when the server did not send one (a refresh keeps the previous token). */
  refreshToken?: string | undefined;
  expiresAt: Date;
}

export type TokenOutcome = { ok: true; tokens: TokenSet } | { ok: false; error: string };

/** A PKCE verifier (43 characters of base64url from 32 random bytes) and its S256 challenge. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: s256(verifier) };
}

export const s256 = (verifier: string): string => createHash('sha256').update(verifier, 'ascii').digest('base64url');

/** The authorize URL the browser is sent to (RFC 6749 §4.1.1 + RFC 7636 §4.3). */
export function authorizeUrl(base: string, p: { clientId: string; redirectUri: string; scopes: readonly string[]; state: string; challenge: string }): string {
  const url = new URL(base);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', p.clientId);
  url.searchParams.set('redirect_uri', p.redirectUri);
  if (p.scopes.length > 0) url.searchParams.set('scope', p.scopes.join(' '));
  url.searchParams.set('state', p.state);
  url.searchParams.set('code_challenge', p.challenge);
  url.searchParams.set('code_challenge_method', 'S256');
  return url.toString();
}

interface Client { tokenUrl: string; clientId: string; clientSecret: string }

const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

async function tokenRequest(client: Client, form: Record<string, string>, policy: NetPolicy, now: () => Date): Promise<TokenOutcome> {
  let url: URL;
  try {
    url = new URL(client.tokenUrl);
  } catch {
    return { ok: false, error: 'The token endpoint is not a valid URL' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, error: 'The token endpoint must be an http(s) URL' };
  try {
    const res = await guardedRequest(url, policy, {
      ...TOKEN_REQUEST, method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', authorization: basic(client.clientId, client.clientSecret) },
      body: new URLSearchParams({ ...form, client_id: client.clientId }).toString(),
    });
    const text = (await readBody(res)).toString('utf8');
    let json: Record<string, unknown> | null = null;
    try {
      const parsed = JSON.parse(text) as unknown;
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) json = parsed as Record<string, unknown>;
    } catch { /* answered below */ }
    if (res.status < 200 || res.status >= 300) {
      const code = typeof json?.error === 'string' ? json.error : `HTTP ${res.status}`;
      const description = typeof json?.error_description === 'string' ? `: ${json.error_description.slice(0, 200)}` : '';
      return { ok: false, error: `The token endpoint refused (${code}${description})` };
    }
    if (!json || typeof json.access_token !== 'string' || json.access_token === '') return { ok: false, error: 'The token endpoint answered without an access token' };
    if (typeof json.token_type === 'string' && json.token_type.toLowerCase() !== 'bearer') return { ok: false, error: `Unsupported token type ${json.token_type.slice(0, 40)}` };
    const expiresIn = typeof json.expires_in === 'number' && json.expires_in > 0 ? json.expires_in
      : typeof json.expires_in === 'string' && Number(json.expires_in) > 0 ? Number(json.expires_in) : DEFAULT_TOKEN_LIFETIME_SECONDS;
    return {
      ok: true,
      tokens: {
        accessToken: json.access_token,
        refreshToken: typeof json.refresh_token === 'string' && json.refresh_token !== '' ? json.refresh_token : undefined,
        expiresAt: new Date(now().getTime() + expiresIn * 1000),
      },
    };
  } catch (error) {
    if (error instanceof NetError) return { ok: false, error: `The token endpoint could not be reached (${error.message})` };
    return { ok: false, error: 'The token endpoint could not be reached' };
  }
}

/** Exchanges an authorization code (with its PKCE verifier) for tokens (RFC 6749 §4.1.3). */
export function exchangeCode(client: Client, p: { code: string; redirectUri: string; verifier: string }, policy: NetPolicy, now = () => new Date()): Promise<TokenOutcome> {
  return tokenRequest(client, { grant_type: 'authorization_code', code: p.code, redirect_uri: p.redirectUri, code_verifier: p.verifier }, policy, now);
}

/** New tokens from a refresh token (RFC 6749 §6). */
export function refreshTokens(client: Client, refreshToken: string, policy: NetPolicy, now = () => new Date()): Promise<TokenOutcome> {
  return tokenRequest(client, { grant_type: 'refresh_token', refresh_token: refreshToken }, policy, now);
}
