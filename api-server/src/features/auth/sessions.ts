/**
 * Sessions: a short-lived access token and a rotating refresh token, both in httpOnly cookies.
 * Refresh: each refresh token works once. Presenting a used one refuses the call (10029) and, after
 * a 10 s grace for two tabs refreshing at once, revokes the whole family (a stolen token is dead).
 *
 * A session is a refresh-token family; access tokens carry its id (`sid`). Revoking sessions
 * (logout, reuse detection, a password change for the other sessions, a password reset for all)
 * also moves the user's meta version, so the next request in any process reloads the principal,
 * which lists the sessions revoked within the access-token lifetime: their access tokens stop
 * working at once instead of up to 15 minutes later, with no extra query per request.
 */
import { randomUUID } from 'node:crypto';
import type { CookieOptions, Response } from 'express';
import { ACCESS_TOKEN_TTL_SECONDS, AUTH_COOKIES, ErrorCode, REFRESH_TOKEN_TTL_SECONDS, fail, ok, type Result } from '@gd/shared';
import type { Deps } from '../../http/context.ts';
import { tx, type Queryable } from '../../db/pool.ts';
import { signAccessToken } from './accessToken.ts';
import * as repo from './repository.ts';
import { randomToken, sha256 } from './secrets.ts';

const REUSE_GRACE_MS = 10_000;
export const REFRESH_COOKIE_PATH = '/api/auth';

function cookieBase(deps: Deps): CookieOptions {
  const secure = deps.config.COOKIE_SECURE ? deps.config.COOKIE_SECURE === 'true' : (deps.config.PUBLIC_URL ?? '').startsWith('https:');
  return { httpOnly: true, sameSite: 'lax', secure };
}

export async function startSession(deps: Deps, db: Queryable, res: Response, user: { id: string; account_id: string }, familyId: string = randomUUID()): Promise<void> {
  const refresh = randomToken(32);
  await repo.insertRefresh(db, { userId: user.id, familyId, tokenHash: sha256(refresh), ttlSeconds: REFRESH_TOKEN_TTL_SECONDS });
  const access = await signAccessToken(deps.secret, { userId: user.id, accountId: user.account_id, sessionId: familyId });
  const base = cookieBase(deps);
  res.cookie(AUTH_COOKIES.access, access, { ...base, path: '/', maxAge: ACCESS_TOKEN_TTL_SECONDS * 1000 });
  res.cookie(AUTH_COOKIES.refresh, refresh, { ...base, path: REFRESH_COOKIE_PATH, maxAge: REFRESH_TOKEN_TTL_SECONDS * 1000 });
}

export function clearSessionCookies(deps: Deps, res: Response): void {
  const base = cookieBase(deps);
  res.clearCookie(AUTH_COOKIES.access, { ...base, path: '/' });
  res.clearCookie(AUTH_COOKIES.refresh, { ...base, path: REFRESH_COOKIE_PATH });
}

export async function rotateSession(deps: Deps, res: Response, refreshToken: string | undefined): Promise<Result<{ userId: string }>> {
  if (!refreshToken) return fail(ErrorCode.REFRESH_TOKEN_INVALID, 'Refresh token missing');
  const tokenHash = sha256(refreshToken);
  const outcome = await tx(deps.db, async (client) => {
    const row = await repo.claimRefresh(client, tokenHash);
    if (!row) return fail(ErrorCode.REFRESH_TOKEN_INVALID, 'Refresh token is not valid');
    if (row.revoked_at) return fail(ErrorCode.REFRESH_TOKEN_INVALID, 'Refresh token has been revoked');
    if (row.used_at) {
      if (Date.now() - row.used_at.getTime() > REUSE_GRACE_MS) await repo.revokeFamily(client, row.family_id);
      return fail(ErrorCode.REFRESH_TOKEN_INVALID, 'Refresh token was already used');
    }
    if (row.expires_at.getTime() <= Date.now()) return fail(ErrorCode.REFRESH_TOKEN_EXPIRED, 'Refresh token has expired');
    const user = (await client.query<{ id: string; account_id: string; active: boolean }>('SELECT id, account_id, active FROM users WHERE id = $1', [row.user_id])).rows[0];
    if (!user?.active) return fail(ErrorCode.INVALID_USER, 'This user can no longer sign in');
    await startSession(deps, client, res, user, row.family_id);
    return ok({ userId: user.id });
  });
  if (!outcome.ok) clearSessionCookies(deps, res);
  return outcome;
}

export async function endSession(deps: Deps, res: Response, refreshToken: string | undefined): Promise<void> {
  if (refreshToken) {
    const family = await repo.findRefreshFamily(deps.db, sha256(refreshToken));
    if (family) await repo.revokeFamily(deps.db, family);
  }
  clearSessionCookies(deps, res);
}
