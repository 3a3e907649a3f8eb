import { describe, expect, it } from 'vitest';
import type { SessionStatus } from '../../session/store.ts';
import { arrivalCheck, signedInTarget, type ArrivalCheck } from './signedIn.ts';

/** The check after a sequence of session statuses, from the page opening. */
const after = (...statuses: SessionStatus[]): ArrivalCheck => statuses.reduce(arrivalCheck, 'checking');

describe('a sign-in page opened with a session', () => {
  it('knows the session the person arrived with: already loaded, or found by the first /user/meta', () => {
    expect(after('signedIn')).toBe('session');
    expect(after('idle', 'loading', 'signedIn')).toBe('session');
    expect(after('idle', 'loading')).toBe('checking');
    expect(after('idle', 'loading', 'signedOut')).toBe('none');
    expect(after('signedOut')).toBe('none');
    expect(after('idle', 'loading', 'error')).toBe('none');
  });

  it('does not count a session begun on the page (signing in, registering): that page navigates itself', () => {
    expect(after('idle', 'loading', 'signedOut', 'loading', 'signedIn')).toBe('none');
    expect(after('signedOut', 'signedIn')).toBe('none');
  });

  it('goes home, or to the in-app `next` it was opened for, never back to a sign-in page', () => {
    expect(signedInTarget('')).toBe('/');
    expect(signedInTarget('?next=%2Fbehavior%2Fpeople%3Fperson%3D12')).toBe('/behavior/people?person=12');
    expect(signedInTarget('?next=https%3A%2F%2Fevil.example')).toBe('/');
    expect(signedInTarget('?next=%2F%2Fevil.example')).toBe('/');
    expect(signedInTarget('?next=%2Fregister')).toBe('/');
    expect(signedInTarget('?next=%2Fes%2Flogin%3Fnext%3D%2Fx')).toBe('/');
  });
});
