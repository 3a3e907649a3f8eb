/**
 * The partner's side of skudo (/skudo/login, /skudo/offers): signing in with a one-time code, the
 * partner session, and the partner's own offers and tracking URLs.
 *
 * - The session is not an account user's: a random token in its own httpOnly cookie (`gd_skudo`,
 *   SameSite=Lax, Secure as the account cookies are, path /api/skudo/partner so it travels with
 *   nothing else), only its SHA-256 stored (skudo_partner_sessions). The account session's
 *   cookies are never read here, and this cookie opens no account route.
 * - Sign-in and sign-out are POSTs behind the API's CSRF check (signed double submit, like every
 *   state-changing call), so another site cannot sign a browser in or out.
 * - A code is looked up by its hash under a row lock and spent in the same transaction as the
 *   session it opens, so two requests with one code open one session. Invalid, used, voided or
 *   of a suspended partner: 20004; past its time: 20005. Each failure counts against the address
 *   (login_failures, as account sign-in does); 50 in 15 minutes answer 10021.
 * - Without a live session (missing, unknown, expired, signed out, partner suspended or
 *   deleted) the partner routes answer 10006.
 */
import type { CookieOptions, Request, Router } from 'express';
import { ErrorCode, fail, ok } from '@gd/shared';
import {
  SKUDO_PARTNER_COOKIE, SKUDO_PARTNER_COOKIE_PATH, SKUDO_SESSION_TTL_SECONDS, normaliseSkudoCode, skudoCodeState,
} from '@gd/shared/skudo/model';
import { tx } from '../../db/pool.ts';
import type { Deps } from '../../http/context.ts';
import { publicRoute } from '../../http/endpoint.ts';
import * as authRepo from '../auth/repository.ts';
import { randomToken, sha256 } from '../auth/secrets.ts';
import { trackingBaseUrl } from './host.ts';
import * as repo from './repository.ts';

/** Failures per address in the sign-in window before 10021 (the same bound as account sign-in per IP). */
const CODE_FAILURES_PER_IP = 50;
/** The key code failures are recorded under in login_failures (not an e-mail anyone can have). */
const FAILURE_KEY = 'skudo-code';

const clientIp = (req: Request) => req.ip ?? req.socket.remoteAddress ?? 'unknown';
const cookieOf = (req: Request) => (req.cookies as Record<string, string | undefined>)[SKUDO_PARTNER_COOKIE];

function cookieOptions(deps: Deps): CookieOptions {
  const secure = deps.config.COOKIE_SECURE ? deps.config.COOKIE_SECURE === 'true' : (deps.config.PUBLIC_URL ?? '').startsWith('https:');
  return { httpOnly: true, sameSite: 'lax', secure, path: SKUDO_PARTNER_COOKIE_PATH };
}

const noSession = () => fail(ErrorCode.ACCESS_TOKEN_INVALID, 'Sign in at /skudo/login with your code first');

/** The partner of the request's session cookie, or undefined. */
export async function partnerOf(deps: Deps, req: Request): Promise<repo.PartnerSession | undefined> {
  const token = cookieOf(req);
  return token ? repo.sessionPartner(deps.db, sha256(token)) : undefined;
}

export function skudoPartnerRoutes(router: Router, deps: Deps): void {
  const { db } = deps;

  publicRoute(router, deps, 'skudoPartnerLogin', async ({ body, req, res }) => {
    const ip = clientIp(req);
    if ((await authRepo.recentFailures(db, FAILURE_KEY, ip)).byIp >= CODE_FAILURES_PER_IP) {
      return fail(ErrorCode.TOO_MANY_LOGIN_FAILURES, 'Too many wrong codes from this address; try again in a few minutes');
    }
    const code = normaliseSkudoCode(body.code);
    const token = randomToken(32);
    const outcome = code === null ? ('invalid' as const) : await tx(db, async (q) => {
      const row = await repo.lockCode(q, sha256(code));
      const state = skudoCodeState(row && { usedAt: row.used_at, expiresAt: row.expires_at, partnerActive: row.partner_status === 'active' }, new Date());
      if (state !== 'valid' || !row) return state === 'valid' ? 'invalid' : state;
      await repo.useCode(q, row.id);
      await repo.insertSession(q, { accountId: row.account_id, partnerId: row.partner_id, tokenHash: sha256(token), ttlSeconds: SKUDO_SESSION_TTL_SECONDS });
      return 'valid' as const;
    });
    if (outcome !== 'valid') {
      await authRepo.recordFailure(db, FAILURE_KEY, ip);
      return outcome === 'expired'
        ? fail(ErrorCode.SKUDO_AUTH_CODE_EXPIRED, 'This code has expired: ask for a new one', [{ path: 'code', message: 'expired' }])
        : fail(ErrorCode.SKUDO_AUTH_CODE_INVALID, 'This code is not valid or has been used', [{ path: 'code', message: 'invalid' }]);
    }
    // A session this browser held before (another partner, or an earlier sign-in) ends here.
    const previous = cookieOf(req);
    if (previous) await repo.revokeSession(db, sha256(previous));
    const session = await repo.sessionPartner(db, sha256(token));
    if (!session) return noSession();
    res.cookie(SKUDO_PARTNER_COOKIE, token, { ...cookieOptions(deps), maxAge: SKUDO_SESSION_TTL_SECONDS * 1000 });
    return ok({ partner: session.me });
  });

  publicRoute(router, deps, 'skudoPartnerLogout', async ({ req, res }) => {
    const token = cookieOf(req);
    if (token) await repo.revokeSession(db, sha256(token));
    res.clearCookie(SKUDO_PARTNER_COOKIE, cookieOptions(deps));
    return ok({});
  });

  publicRoute(router, deps, 'skudoPartnerOffers', async ({ req }) => {
    const session = await partnerOf(deps, req);
    if (!session) return noSession();
    return ok({ partner: session.me, offers: await repo.partnerOffers(db, session, trackingBaseUrl(deps)) });
  });
}
