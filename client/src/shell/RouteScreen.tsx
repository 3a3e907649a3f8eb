/** One route of shared ROUTES: "no access" when its route key is disallowed, its screen when built, else "coming soon". */
import { routeKey, type RouteDef } from '@gd/shared/routes';
import { SCREENS } from '../app/screens.ts';
import { ComingSoonPage } from './ComingSoonPage.tsx';
import { NoAccessPage } from './NoAccessPage.tsx';
import { usePermissions } from '../session/permissions.ts';
import { scopeOfRoute } from '../session/scope.ts';

export default function RouteScreen({ route }: { route: RouteDef }) {
  const can = usePermissions(scopeOfRoute(route));
  if (!can(routeKey(route.path))) return <NoAccessPage route={route} />;
  const Screen = route.ready ? SCREENS[route.path] : undefined;
  return Screen ? <Screen /> : <ComingSoonPage route={route} />;
}
