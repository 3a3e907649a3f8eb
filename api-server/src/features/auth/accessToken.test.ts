import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@gd/shared';
import { signAccessToken, verifyAccessToken } from './accessToken.ts';

const SECRET = 'unit-test-secret-0123456789abcdefghijkl';
const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');

describe('access tokens', () => {
  it('round-trips the claims', async () => {
    const token = await signAccessToken(SECRET, { userId: 'u1', accountId: 'a1' });
    expect(await verifyAccessToken(SECRET, token)).toEqual({ ok: true, value: { userId: 'u1', accountId: 'a1' } });
  });
  it('refuses another secret, a tampered payload, alg none and garbage', async () => {
    const token = await signAccessToken(SECRET, { userId: 'u1', accountId: 'a1' });
    expect(await verifyAccessToken('another-secret-0123456789abcdefghijkl', token)).toMatchObject({ ok: false, code: ErrorCode.ACCESS_TOKEN_INVALID });
    const [h, , s] = token.split('.');
    const tampered = `${h}.${b64({ sub: 'admin', acc: 'a1', typ: 'access', iss: 'growthdeck-api', exp: 9e9 })}.${s}`;
    expect(await verifyAccessToken(SECRET, tampered)).toMatchObject({ ok: false, code: ErrorCode.ACCESS_TOKEN_INVALID });
    const none = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: 'u1', acc: 'a1', typ: 'access', iss: 'growthdeck-api', exp: 9e9 })}.`;
    expect(await verifyAccessToken(SECRET, none)).toMatchObject({ ok: false, code: ErrorCode.ACCESS_TOKEN_INVALID });
    expect(await verifyAccessToken(SECRET, 'not.a.jwt')).toMatchObject({ ok: false, code: ErrorCode.ACCESS_TOKEN_INVALID });
  });
  it('refuses a validly signed token of another type', async () => {
    const header = b64({ alg: 'HS256', typ: 'JWT' });
    const body = b64({ sub: 'u1', acc: 'a1', typ: 'doc', iss: 'growthdeck-api', exp: 9e9 });
    const sig = createHmac('sha256', SECRET).update(`${header}.${body}`).digest('base64url');
    expect(await verifyAccessToken(SECRET, `${header}.${body}.${sig}`)).toMatchObject({ ok: false, code: ErrorCode.ACCESS_TOKEN_INVALID });
  });
  it('answers 10014 once expired', async () => {
    const token = await signAccessToken(SECRET, { userId: 'u1', accountId: 'a1' }, -1);
    expect(await verifyAccessToken(SECRET, token)).toMatchObject({ ok: false, code: ErrorCode.ACCESS_TOKEN_EXPIRED });
  });
});
