/**
 * The sign-in pages' guard (/login, /register): a person who arrived with a session goes home
 * (or to the `next` they were sent here for); see signedIn.ts for the rule. On a fresh page load it
 * asks `/user/meta` once (an expired access token is refreshed on the way, as on any page) and
 * shows the page loader meanwhile, so the form never takes input that a late answer would cut off.
 */
import { useEffect, useState } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { useSession } from '../../session/store.ts';
import { PageLoader } from '../../ui/Loading.tsx';
import { arrivalCheck, signedInTarget, type ArrivalCheck } from './signedIn.ts';

export function SignedOutOnly() {
  const status = useSession((s) => s.status);
  const load = useSession((s) => s.load);
  const { search } = useLocation();
  const [check, setCheck] = useState<ArrivalCheck>(() => arrivalCheck('checking', status));
  // Follows the status as it renders (React's "adjust state while rendering"), never behind it.
  const current = arrivalCheck(check, status);
  if (current !== check) setCheck(current);

  useEffect(() => {
    if (check === 'checking' && status === 'idle') void load();
  }, [check, status, load]);

  if (current === 'session') return <Navigate to={signedInTarget(search)} replace />;
  if (current === 'checking') return <PageLoader />;
  return <Outlet />;
}
