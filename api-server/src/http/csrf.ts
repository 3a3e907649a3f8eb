/**
 * CSRF protection, signed double submit: `GET /auth/csrf` sets a readable cookie holding
 * `nonce.signature`; every state-changing call must echo it in the `x-csrf-token` header.
 * Missing cookie: 10031. Missing header: 10032. Mismatch or bad signature: 10033.
 */
import type { NextFunction, Request, Response } from 'express';
import { AUTH_COOKIES, CSRF_HEADER, ErrorCode } from '@gd/shared';
import { hmac, randomToken, safeEqual } from '../features/auth/secrets.ts';
import { HttpFailure } from './respond.ts';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

export function issueCsrfToken(secret: string): string {
  const nonce = randomToken(18);
  return `${nonce}.${hmac(secret, `csrf:${nonce}`)}`;
}

export function validCsrfToken(secret: string, token: string): boolean {
  const [nonce, signature, extra] = token.split('.');
  return !!nonce && !!signature && extra === undefined && safeEqual(signature, hmac(secret, `csrf:${nonce}`));
}

export function csrfProtection(secret: string) {
  return (req: Request, _res: Response, next: NextFunction) => {
    if (SAFE.has(req.method)) return next();
    const cookies = req.cookies as Record<string, string | undefined>;
    const cookie = cookies[AUTH_COOKIES.csrf];
    if (!cookie) return next(new HttpFailure(ErrorCode.CSRF_COOKIE_FAILURE, 'CSRF cookie missing: call GET /auth/csrf first'));
    const header = req.get(CSRF_HEADER);
    if (!header) return next(new HttpFailure(ErrorCode.CSRF_BODY_FAILURE, `CSRF token missing: send the ${CSRF_HEADER} header`));
    if (!safeEqual(cookie, header) || !validCsrfToken(secret, cookie)) {
      return next(new HttpFailure(ErrorCode.CSRF_VERIFICATION_FAILURE, 'CSRF token does not match'));
    }
    next();
  };
}
