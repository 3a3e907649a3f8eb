import { describe, expect, it } from 'vitest';
import { PersonId, decodeTimelineCursor, encodeTimelineCursor, maskPushToken } from './people.ts';

describe('timeline cursors', () => {
  it('round-trip the time and the event id, whatever characters the id has', () => {
    for (const id of ['7c9e6679-7425-40de-944b-e07fc1f90ae7', 'a|b|c', 'ñandú-✓', 'x']) {
      const cursor = encodeTimelineCursor('2026-03-01T10:00:00.123456Z', id);
      expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(decodeTimelineCursor(cursor)).toEqual({ time: '2026-03-01T10:00:00.123456Z', clientId: id });
    }
  });

  it('refuse what they did not make', () => {
    expect(decodeTimelineCursor('bm90LWEtY3Vyc29y')).toBeNull();
    expect(decodeTimelineCursor(encodeTimelineCursor('yesterday', 'id'))).toBeNull();
    expect(decodeTimelineCursor(encodeTimelineCursor('2026-03-01T10:00:00Z', ''))).toBeNull();
    expect(decodeTimelineCursor('%%%')).toBeNull();
  });
});

describe('people ids and push tokens', () => {
  it('accept positive whole numbers as ids only', () => {
    expect(PersonId.safeParse('42').success).toBe(true);
    for (const bad of ['0', '-1', '1.5', '01', 'abc', '12345678901234567890']) expect(PersonId.safeParse(bad).success, bad).toBe(false);
  });

  it('mask all but the last 6 characters of a push token', () => {
    expect(maskPushToken('secret-token-ABC123')).toBe('••••••••••ABC123');
    expect(maskPushToken('abc')).toBe('abc');
    expect(maskPushToken(null)).toBeNull();
  });
});
