/**
 * Which disallowed list answers for a screen or action (`GET /user/meta`): each app carries the
 * user's disallowed list in that app (role plus the app's own restrictions); the top-level list
 * answers for account-level screens. The API decides the same way: app-scoped when the endpoint
 * path has `:appId`.
 */
import type { Area } from '@gd/shared/routes';

export type PermissionScope = 'app' | 'account';

const APP_AREAS = new Set<Area>(['main', 'acquisition', 'behavior', 'communication', 'products', 'manage']);
const APP_USER_PATHS = new Set(['/user/app', '/user/account/test-devices']);

export function scopeOfRoute(route: { path: string; area: Area }): PermissionScope {
  return APP_AREAS.has(route.area) || APP_USER_PATHS.has(route.path) ? 'app' : 'account';
}

export function disallowedFor(
  meta: { disallowed: readonly string[]; apps: readonly { id: string; disallowed: readonly string[] }[] },
  appId: string | null,
  scope: PermissionScope,
): readonly string[] {
  if (scope === 'account') return meta.disallowed;
  // No app yet: app-scoped work is impossible, so the account list (a subset) answers.
  return meta.apps.find((a) => a.id === appId)?.disallowed ?? meta.disallowed;
}
