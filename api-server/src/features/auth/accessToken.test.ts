import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ErrorCode } from '@gd/shared';
import { signAccessToken, verifyAccessToken, verifyAccessTokenSync } from './accessToken.ts';

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

  describe('once verified (kept per process)', () => {
    afterEach(() => { vi.useRealTimers(); });
    it('is still refused under another secret', async () => {
      const token = await signAccessToken(SECRET, { userId: 'u2', accountId: 'a2' });
      expect(verifyAccessTokenSync(SECRET, token)).toEqual({ ok: true, value: { userId: 'u2', accountId: 'a2' } });
      expect(verifyAccessTokenSync('another-secret-0123456789abcdefghijkl', token)).toMatchObject({ ok: false, code: ErrorCode.ACCESS_TOKEN_INVALID });
      expect(verifyAccessTokenSync(SECRET, token)).toMatchObject({ ok: true });
    });
    it('still expires at its time', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date('2026-11-22T10:00:00Z'));
      const token = await signAccessToken(SECRET, { userId: 'u3', accountId: 'a3' }, 60);
      expect(verifyAccessTokenSync(SECRET, token)).toMatchObject({ ok: true });
      vi.setSystemTime(new Date('2026-11-22T10:00:59Z'));
      expect(verifyAccessTokenSync(SECRET, token)).toMatchObject({ ok: true });
      vi.setSystemTime(new Date('2026-11-22T10:01:00Z'));
      expect(verifyAccessTokenSync(SECRET, token)).toMatchObject({ ok: false, code: ErrorCode.ACCESS_TOKEN_EXPIRED });
    });
    it('a token differing by one signature character is checked, not taken from the kept ones', async () => {
      const token = await signAccessToken(SECRET, { userId: 'u4', accountId: 'a4' });
      expect(verifyAccessTokenSync(SECRET, token)).toMatchObject({ ok: true });
      const last = token.at(-2) === 'A' ? 'B' : 'A';
      const forged = `${token.slice(0, -2)}${last}${token.at(-1)}`;
      expect(verifyAccessTokenSync(SECRET, forged)).toMatchObject({ ok: false, code: ErrorCode.ACCESS_TOKEN_INVALID });
    });
  });
});
