/**
 * Which blocks of the home screen a person sees (pure), from the same permissions the API checks:
 * the key figures need the analytics screens (endpoints/home.ts), "needs attention" any of the
 * areas it looks at, the recent journeys and audiences their lists' permissions and screens. Someone
 * who may see none of them gets shortcuts to the screens they may open instead of a blank page.
 */
import type { PermissionExpr } from '@gd/shared/permissions/can';
import { HOME_ATTENTION_AUTH, HOME_FIGURES_AUTH } from '@gd/shared/endpoints/home';
import { ROUTES, routeKey, type RouteDef } from '@gd/shared/routes';

export interface HomeBlocks {
  figures: boolean;
  attention: boolean;
  journeys: boolean;
  audiences: boolean;
}

export const JOURNEY_LIST_AUTH = { or: ['ui:journey.view', 'ui:journey.view:owner'] } as const;

export function homeBlocks(can: (expr: PermissionExpr) => boolean): HomeBlocks {
  return {
    figures: can(HOME_FIGURES_AUTH),
    attention: can(HOME_ATTENTION_AUTH),
    journeys: can(JOURNEY_LIST_AUTH) && can('route:/communication/journeys'),
    audiences: can('ui:audience.view') && can('route:/behavior/audiences'),
  };
}

export const anyBlock = (blocks: HomeBlocks): boolean => blocks.figures || blocks.attention || blocks.journeys || blocks.audiences;

/** Built screens the person may open, in navigation order (no sign-in or platform admin screens). */
export function shortcuts(canOpen: (route: RouteDef, key: PermissionExpr) => boolean, limit = 8): RouteDef[] {
  return ROUTES.filter((r) => r.nav !== false && r.area !== 'auth' && r.area !== 'admin' && canOpen(r, routeKey(r.path))).slice(0, limit);
}
