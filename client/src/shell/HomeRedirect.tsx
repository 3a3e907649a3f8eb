/**
 * The root path. SPEC.md leaves its content open; ours: the first built screen the user may
 * see, starting with /user/account (the account overview), then the other ready routes in
 * navigation order. A user who may see none gets the "no access" page.
 */
import { Navigate } from 'react-router';
import { ROUTES, routeKey } from '@gd/shared/routes';
import { NoAccessPage } from '../features/common/NoAccessPage.tsx';
import { usePermissions } from '../session/permissions.ts';
import { scopeOfRoute } from '../session/scope.ts';

export const HOME_PATH = '/user/account';

export default function HomeRedirect() {
  const canApp = usePermissions('app');
  const canAccount = usePermissions('account');
  const ordered = [...ROUTES.filter((r) => r.path === HOME_PATH), ...ROUTES.filter((r) => r.ready && r.path !== HOME_PATH)];
  const target = ordered.find((r) => (scopeOfRoute(r) === 'app' ? canApp : canAccount)(routeKey(r.path)));
  return target ? <Navigate to={target.path} replace /> : <NoAccessPage />;
}
