/** Register, login, logout, refresh, forgot/reset password, auto-login and password change. */
import type { Request, Router } from 'express';
import {
  AUTH_COOKIES, ErrorCode, LOGIN_MAX_FAILURES, fail, ok, type Language,
} from '@gd/shared';
import type { Deps } from '../../http/context.ts';
import { publicRoute, route } from '../../http/endpoint.ts';
import { issueCsrfToken } from '../../http/csrf.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { tx } from '../../db/pool.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import { renderMail } from '../../mail/templates.ts';
import { findUserByEmail, findUserById, toUser, touchLogin } from '../accounts/repository.ts';
import { provisionAccount } from '../accounts/provision.ts';
import { burnVerify, hashPassword, setPassword, usedBefore, verifyPassword } from './passwords.ts';
import * as repo from './repository.ts';
import { randomToken, sha256 } from './secrets.ts';
import { endSession, rotateSession, startSession } from './sessions.ts';

/** Per IP, a looser bound than per e-mail, against spraying many addresses from one host. */
const LOGIN_MAX_FAILURES_PER_IP = 50;
const RESET_TTL_SECONDS = 3600;
export const INVITE_TTL_SECONDS = 7 * 24 * 3600;

const refreshCookie = (req: Request) => (req.cookies as Record<string, string | undefined>)[AUTH_COOKIES.refresh];
const clientIp = (req: Request) => req.ip ?? req.socket.remoteAddress ?? 'unknown';

/**
 * The base of links mailed to people (password reset, invitations). Never taken from the request's
 * Host header alone: anyone can forge it and have a victim mailed a real token that points at their
 * own server. It is PUBLIC_URL; a request host listed in PUBLIC_HOSTS (one deployment answering on
 * several domains) keeps PUBLIC_URL's scheme; without PUBLIC_URL, the address this process listens
 * on (`npm start` and development, where that is the address people open).
 */
export function publicBaseUrl(deps: Deps, req: Request): string {
  const configured = deps.config.PUBLIC_URL ?? deps.listenUrl ?? `http://${deps.config.HOST}:${deps.config.PORT}`;
  const host = (req.get('host') ?? '').toLowerCase();
  const allowed = (deps.config.PUBLIC_HOSTS ?? '').split(',').map((h) => h.trim().toLowerCase()).filter(Boolean);
  const base = host && allowed.includes(host) ? `${new URL(configured).protocol}//${host}` : configured;
  return base.replace(/\/+$/, '');
}

/** Creates a one-time auto-login link for a user (invitations). */
export async function createAutoLoginLink(deps: Deps, db: Parameters<typeof repo.insertOneTime>[0], base: string, user: { id: string; language: Language }, redirect: string): Promise<string> {
  const token = randomToken(32);
  await repo.insertOneTime(db, { userId: user.id, purpose: 'auto_login', tokenHash: sha256(token), ttlSeconds: INVITE_TTL_SECONDS, redirect });
  return `${base}/${user.language}/auto-login?token=${encodeURIComponent(token)}`;
}

export function authRoutes(router: Router, deps: Deps): void {
  const { db } = deps;

  publicRoute(router, deps, 'csrf', ({ res }) => {
    const token = issueCsrfToken(deps.secret);
    res.cookie(AUTH_COOKIES.csrf, token, { httpOnly: false, sameSite: 'lax', path: '/', secure: deps.config.COOKIE_SECURE === 'true' });
    return ok({ csrfToken: token });
  });

  publicRoute(router, deps, 'register', async ({ body, res }) => {
    if (!body.plan) return fail(ErrorCode.PLAN_MANDATORY, 'Choose a plan to register', [{ path: 'plan', message: 'Required' }]);
    const plan = body.plan;
    const passwordHash = await hashPassword(body.password);
    try {
      const user = await tx(db, async (client) => {
        const { ownerId } = await provisionAccount(client, {
          accountName: body.accountName, plan,
          owner: { name: body.name, email: body.email, passwordHash, jobDepartment: body.jobDepartment, language: body.language },
        });
        const row = await findUserById(client, ownerId);
        if (!row) throw new Error('owner vanished inside its own transaction');
        await startSession(deps, client, res, row);
        await touchLogin(client, ownerId);
        return row;
      });
      return ok({ user: toUser(user) });
    } catch (error) {
      if (isUniqueViolation(error, 'users_email')) {
        return fail(ErrorCode.EMAIL_EXISTS, 'A user with that e-mail already exists', [{ path: 'email', message: 'Already registered' }]);
      }
      throw error;
    }
  });

  publicRoute(router, deps, 'login', async ({ body, req, res }) => {
    const ip = clientIp(req);
    const failures = await repo.recentFailures(db, body.email, ip);
    if (failures.byEmail >= LOGIN_MAX_FAILURES || failures.byIp >= LOGIN_MAX_FAILURES_PER_IP) {
      return fail(ErrorCode.TOO_MANY_LOGIN_FAILURES, 'Too many failed sign-in attempts; try again in a few minutes');
    }
    const user = await findUserByEmail(db, body.email);
    const valid = user ? await verifyPassword(user.password_hash, body.password) : (await burnVerify(body.password), false);
    if (!user || !valid || !user.active) {
      await repo.recordFailure(db, body.email, ip);
      return fail(ErrorCode.INVALID_USER, 'Wrong e-mail or password');
    }
    await repo.clearFailures(db, body.email);
    await startSession(deps, db, res, user);
    await touchLogin(db, user.id);
    return ok({ user: toUser(user) });
  });

  publicRoute(router, deps, 'logout', async ({ req, res }) => {
    await endSession(deps, res, refreshCookie(req));
    return ok({});
  });

  publicRoute(router, deps, 'refresh', async ({ req, res }) => {
    const rotated = await rotateSession(deps, res, refreshCookie(req));
    return rotated.ok ? ok({}) : rotated;
  });

  publicRoute(router, deps, 'forgotPassword', async ({ body, req }) => {
    const user = await findUserByEmail(db, body.email);
    // The answer is the same whether or not the address exists.
    if (user?.active) {
      const token = randomToken(32);
      const language = body.language ?? user.language;
      const link = `${publicBaseUrl(deps, req)}/${language}/forgot-password?token=${encodeURIComponent(token)}`;
      await tx(db, async (client) => {
        await repo.insertOneTime(client, { userId: user.id, purpose: 'reset_password', tokenHash: sha256(token), ttlSeconds: RESET_TTL_SECONDS });
        await enqueueMail(client, { to: user.email, kind: 'reset_password', ...renderMail('resetPassword', language, { name: user.name, link }) });
      });
      deps.notifyMail();
    }
    return ok({});
  });

  publicRoute(router, deps, 'resetPassword', async ({ body }) => {
    const tokenHash = sha256(body.token);
    const invalid = () => fail(ErrorCode.FORGOT_PASSWORD_ERROR, 'This reset link is not valid or has expired');
    // Check first, consume last: a refused new password must not burn the link.
    const found = await repo.peekOneTime(db, 'reset_password', tokenHash);
    if (!found || found.used || found.expired) return invalid();
    if (await usedBefore(db, found.user_id, body.password)) {
      return fail(ErrorCode.PASSWORD_USED_BEFORE, 'Choose a password you have not used before', [{ path: 'password', message: 'Used before' }]);
    }
    const passwordHash = await hashPassword(body.password);
    return tx(db, async (client) => {
      const consumed = await repo.consumeOneTime(client, 'reset_password', tokenHash);
      if (!consumed || consumed.used || consumed.expired) return invalid();
      await setPassword(client, consumed.user_id, passwordHash);
      await repo.voidResetLinks(client, consumed.user_id);
      await repo.revokeAllForUser(client, consumed.user_id);
      await repo.clearFailures(client, (await findUserById(client, consumed.user_id))?.email ?? '');
      return ok({});
    });
  });

  publicRoute(router, deps, 'autoLogin', async ({ body, res }) => {
    const found = await repo.consumeOneTime(db, 'auto_login', sha256(body.token));
    if (!found || found.used) return fail(ErrorCode.TOKEN_NOT_EXIST, 'This sign-in link is not valid');
    if (found.expired) return fail(ErrorCode.TOKEN_EXPIRED, 'This sign-in link has expired');
    const user = await findUserById(db, found.user_id);
    if (!user?.active) return fail(ErrorCode.INVALID_USER, 'This user can no longer sign in');
    await startSession(deps, db, res, user);
    await touchLogin(db, user.id);
    return ok({ user: toUser(user), redirect: found.redirect ?? '/user/welcome' });
  });

  route(router, deps, 'changePassword', async ({ principal, body, sessionId }) => {
    const { user } = principal;
    // A user invited by link has no password yet: the current password is not asked for.
    if (user.password_hash && !(await verifyPassword(user.password_hash, body.currentPassword))) {
      return fail(ErrorCode.CURRENT_PASSWORD_INVALID, 'The current password is wrong', [{ path: 'currentPassword', message: 'Wrong password' }]);
    }
    if (await usedBefore(db, user.id, body.newPassword)) {
      return fail(ErrorCode.PASSWORD_USED_BEFORE, 'Choose a password you have not used before', [{ path: 'newPassword', message: 'Used before' }]);
    }
    const passwordHash = await hashPassword(body.newPassword);
    // This session stays signed in; every other one (other devices, a thief's) is signed out.
    await tx(db, async (client) => {
      await setPassword(client, user.id, passwordHash);
      await repo.revokeOtherSessions(client, user.id, sessionId);
    });
    return ok({});
  });
}
