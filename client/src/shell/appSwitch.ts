/**
 * Switching app (SPEC.md section 2): a loading state, a 300 ms wait, then a full reload. The
 * reload goes to the root path unless the current path is to be kept. Our choice: keep it for
 * the user screens (/user/...: account-level or about "the current app", valid for any app)
 * and the analytics areas (main, acquisition, behaviour, communication), whose screens mean
 * the same thing for every app. Everything else (manage, products, admin, unknown paths) may
 * show app-specific items, so it goes to the root. The query string is dropped (it may name
 * items of the previous app) except the date range, which means the same for every app.
 */
import { findRoute, type Area } from '@gd/shared/routes';
import { keepRangeParams } from '../state/dateRangeUrl.ts';

export const APP_SWITCH_DELAY_MS = 300;
const KEPT_AREAS = new Set<Area>(['user', 'main', 'acquisition', 'behavior', 'communication']);

export function keepPathOnSwitch(path: string): boolean {
  const route = findRoute(path);
  return route !== undefined && KEPT_AREAS.has(route.area);
}

/** Where the page reloads after switching: `basename` is the language segment ('/' or '/es'). */
export function appSwitchTarget(path: string, basename: string, search = ''): string {
  const prefix = basename === '/' ? '' : basename;
  const range = keepRangeParams(new URLSearchParams(), new URLSearchParams(search)).toString();
  return `${prefix}${keepPathOnSwitch(path) ? path : '/'}${range ? `?${range}` : ''}`;
}
