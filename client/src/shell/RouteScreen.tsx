/** One route of shared ROUTES: "no access" when its route key is disallowed, else its screen (every route has one: app/screens.test.ts). */
import { routeKey, type RouteDef } from '@gd/shared/routes';
import { SCREENS } from '../app/screens.ts';
import { NoAccessPage } from './NoAccessPage.tsx';
import NotFoundPage from './NotFoundPage.tsx';
import { usePermissions } from '../session/permissions.ts';
import { scopeOfRoute } from '../session/scope.ts';

export default function RouteScreen({ route }: { route: RouteDef }) {
  const can = usePermissions(scopeOfRoute(route));
  if (!can(routeKey(route.path))) return <NoAccessPage route={route} />;
  const Screen = SCREENS[route.path];
  return Screen ? <Screen /> : <NotFoundPage />;
}
