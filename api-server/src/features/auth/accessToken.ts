/**
 * Short-lived access tokens carried in an httpOnly cookie: JWTs (HS256) signed and verified with
 * node:crypto synchronously. The header is pinned to exactly HS256, so a token claiming another
 * algorithm ("none", RS256 confusion) is refused. jose's WebCrypto path cost ~10% of the
 * /user/meta server time in the benchmark (async job + key import per call); this costs microseconds.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ACCESS_TOKEN_TTL_SECONDS, ErrorCode, fail, ok, type Result } from '@gd/shared';

export interface AccessClaims {
  userId: string;
  accountId: string;
  /** The session (refresh-token family) the token was issued in; checked against revoked sessions per request. */
  sessionId?: string | undefined;
}

const ISSUER = 'growthdeck-api';
const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

const sign = (secret: string, data: string) => createHmac('sha256', secret).update(data).digest();

/** Signs any HS256 JWT with the server secret (access tokens here, document tokens for the sync server). */
export function signJwt(secret: string, claims: Record<string, unknown>, ttlSeconds: number): string {
  const now = Math.floor(Date.now() / 1000);
  const payload = Buffer.from(JSON.stringify({ ...claims, iss: ISSUER, iat: now, exp: now + ttlSeconds })).toString('base64url');
  const data = `${HEADER}.${payload}`;
  return `${data}.${sign(secret, data).toString('base64url')}`;
}

export function signAccessToken(secret: string, claims: AccessClaims, ttlSeconds = ACCESS_TOKEN_TTL_SECONDS): Promise<string> {
  return Promise.resolve(signJwt(secret, { sub: claims.userId, acc: claims.accountId, sid: claims.sessionId, typ: 'access' }, ttlSeconds));
}

interface Payload { sub?: unknown; acc?: unknown; sid?: unknown; typ?: unknown; iss?: unknown; exp?: unknown }

export function verifyAccessToken(secret: string, token: string): Promise<Result<AccessClaims>> {
  return Promise.resolve(verifyAccessTokenSync(secret, token));
}

/**
 * Tokens this process has verified, until they expire: a browser sends the same token on every
 * call for 15 minutes, and the HMAC, base64 and JSON work was ~7% of the /user/meta server time.
 * Keyed by the whole token (its signature included) and checked against the secret that verified
 * it, so a hit is exactly a token that verified before; expiry is checked on every hit.
 */
const verified = new Map<string, { secret: string; exp: number; claims: AccessClaims }>();
const VERIFIED_LIMIT = 10_000;

/** `verifyAccessToken` without the promise, for the per-request path. */
export function verifyAccessTokenSync(secret: string, token: string): Result<AccessClaims> {
  const hit = verified.get(token);
  if (hit && hit.secret === secret) {
    if (hit.exp > Math.floor(Date.now() / 1000)) return ok(hit.claims);
    verified.delete(token);
  }
  const result = verifySync(secret, token);
  if (!result.ok) return result;
  const { exp, ...claims } = result.value;
  if (verified.size >= VERIFIED_LIMIT) verified.delete(verified.keys().next().value as string);
  verified.set(token, { secret, exp, claims });
  return ok(claims);
}

function verifySync(secret: string, token: string): Result<AccessClaims & { exp: number }> {
  const invalid = fail(ErrorCode.ACCESS_TOKEN_INVALID, 'Access token is not valid');
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== HEADER) return invalid;
  const [, body = '', signature = ''] = parts;
  const expected = sign(secret, `${HEADER}.${body}`);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return invalid;
  let payload: Payload;
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Payload;
  } catch {
    return invalid;
  }
  if (payload.typ !== 'access' || payload.iss !== ISSUER || typeof payload.sub !== 'string' || typeof payload.acc !== 'string' || typeof payload.exp !== 'number') {
    return invalid;
  }
  if (payload.exp <= Math.floor(Date.now() / 1000)) return fail(ErrorCode.ACCESS_TOKEN_EXPIRED, 'Access token has expired');
  return ok({ userId: payload.sub, accountId: payload.acc, sessionId: typeof payload.sid === 'string' ? payload.sid : undefined, exp: payload.exp });
}
