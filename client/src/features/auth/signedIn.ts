/**
 * A signed-in person opening /login or /register goes home (issue 11), pure so it is tested.
 *
 * What counts is the session the person *arrived with*: the page's status when it opened, or, on
 * a fresh page load (status `idle`), the answer of the one `/user/meta` the guard asks
 * (`SignedOutOnly`). A session begun on the page itself (signing in or registering) is not the
 * guard's business: those pages go on to `next` or the welcome page themselves, so once the check
 * found no session it stays "none" (no race between two navigations).
 *
 * Where to: the safe `next` of the address (what /login?next= was opened for, never a sign-in page
 * again), else `/`, the home redirect. Paths are the router's, so the language segment stays:
 * /es/login goes to /es/.
 */
import { stripLanguage } from '@gd/shared/language';
import type { SessionStatus } from '../../session/store.ts';
import { safeNext } from '../../i18n/languagePath.ts';

/** What the guard knows about the session the person arrived with. */
export type ArrivalCheck = 'checking' | 'session' | 'none';

/** The check after the session status changes to `status`; settled answers never change. */
export function arrivalCheck(check: ArrivalCheck, status: SessionStatus): ArrivalCheck {
  if (check !== 'checking') return check;
  switch (status) {
    case 'signedIn':
      return 'session';
    case 'signedOut':
    case 'error':
      return 'none';
    case 'idle':
    case 'loading':
      return 'checking';
    default: {
      const never: never = status;
      return never;
    }
  }
}

const SIGN_IN_PAGES = new Set(['/login', '/register']);

/** Where a person who arrived signed in goes instead of a sign-in page, from the page's query string. */
export function signedInTarget(search: string): string {
  const next = safeNext(new URLSearchParams(search).get('next'));
  return next && !SIGN_IN_PAGES.has(stripLanguage(next.split(/[?#]/)[0] ?? '')) ? next : '/';
}
