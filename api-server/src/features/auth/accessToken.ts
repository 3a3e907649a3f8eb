/** Short-lived access tokens (JWT, HS256) carried in an httpOnly cookie. */
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { ACCESS_TOKEN_TTL_SECONDS, ErrorCode, fail, ok, type Result } from '@gd/shared';

export interface AccessClaims {
  userId: string;
  accountId: string;
}

const ISSUER = 'growthdeck-api';

export async function signAccessToken(secret: string, claims: AccessClaims, ttlSeconds = ACCESS_TOKEN_TTL_SECONDS): Promise<string> {
  return new SignJWT({ acc: claims.accountId, typ: 'access' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(claims.userId)
    .setIssuer(ISSUER)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
    .sign(new TextEncoder().encode(secret));
}

export async function verifyAccessToken(secret: string, token: string): Promise<Result<AccessClaims>> {
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), { issuer: ISSUER, algorithms: ['HS256'] });
    if (payload.typ !== 'access' || typeof payload.sub !== 'string' || typeof payload.acc !== 'string') {
      return fail(ErrorCode.ACCESS_TOKEN_INVALID, 'Access token is not valid');
    }
    return ok({ userId: payload.sub, accountId: payload.acc });
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) return fail(ErrorCode.ACCESS_TOKEN_EXPIRED, 'Access token has expired');
    return fail(ErrorCode.ACCESS_TOKEN_INVALID, 'Access token is not valid');
  }
}
