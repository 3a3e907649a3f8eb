/**
 * Every screen of SPEC.md section 2, grouped by area. Each route has a permission key
 * (`route:<path>`, read access) and a screen (client/src/app/screens.ts; a unit test checks that
 * every route has one).
 */
export const Area = ['main', 'acquisition', 'behavior', 'communication', 'products', 'manage', 'user', 'admin', 'auth'] as const;
export type Area = (typeof Area)[number];

export interface RouteDef {
  path: string;
  area: Area;
  /** i18n key suffix under `nav.` */
  label: string;
  /** Public routes need no session (authentication screens). */
  public?: boolean;
  /** Shown in the side navigation. */
  nav?: boolean;
}

const r = (path: string, area: Area, label: string, nav = true): RouteDef => ({ path, area, label, nav });

export const ROUTES: readonly RouteDef[] = [
  r('/main/dashboards', 'main', 'dashboards'),
  r('/main/executive', 'main', 'executive'),
  r('/main/reports', 'main', 'reports'),

  r('/acquisition/activity', 'acquisition', 'activity'),
  r('/acquisition/apptracker', 'acquisition', 'apptracker'),
  r('/acquisition/apptracker/channels', 'acquisition', 'apptrackerChannels', false),
  r('/acquisition/apptracker-provider-view', 'acquisition', 'apptrackerProviderView', false),
  r('/acquisition/installs', 'acquisition', 'installs'),
  r('/acquisition/powlinks', 'acquisition', 'powlinks'),
  r('/acquisition/links', 'acquisition', 'links'),
  r('/acquisition/providers', 'acquisition', 'providers'),
  r('/acquisition/retargeting', 'acquisition', 'retargeting'),
  r('/acquisition/trackers', 'acquisition', 'trackers'),
  r('/acquisition/uninstalls', 'acquisition', 'uninstalls'),
  r('/acquisition/skadnetwork', 'acquisition', 'skadnetwork'),
  r('/acquisition/assisted-installs', 'acquisition', 'assistedInstalls'),

  r('/behavior/explore', 'behavior', 'explore'),
  r('/behavior/funnels', 'behavior', 'funnels'),
  r('/behavior/cohort', 'behavior', 'cohort'),
  r('/behavior/audiences', 'behavior', 'audiences'),
  r('/behavior/people', 'behavior', 'people'),
  r('/behavior/events', 'behavior', 'events'),

  r('/communication/messaging', 'communication', 'messaging'),
  r('/communication/messaging/native_ad', 'communication', 'nativeAd', false),
  r('/communication/messaging/plugin', 'communication', 'plugin', false),
  r('/communication/journeys', 'communication', 'journeys'),
  r('/communication/rules', 'communication', 'rules'),
  r('/communication/report', 'communication', 'report'),
  r('/communication/report/ab-analysis', 'communication', 'abAnalysis'),
  r('/communication/performance-report', 'communication', 'performanceReport'),
  r('/communication/performance-histograms', 'communication', 'performanceHistograms'),

  r('/products/wallet', 'products', 'wallet'),
  r('/products/skudo', 'products', 'skudo'),

  r('/manage/events', 'manage', 'manageEvents'),
  r('/manage/tags', 'manage', 'tags'),
  r('/manage/import-task', 'manage', 'importTask'),
  r('/manage/integrations', 'manage', 'integrations'),
  r('/manage/communication-parameters', 'manage', 'communicationParameters'),
  r('/manage/mail-providers', 'manage', 'mailProviders'),
  r('/manage/native-templates', 'manage', 'nativeTemplates'),
  r('/manage/landings', 'manage', 'landings'),
  r('/manage/categories', 'manage', 'categories'),

  r('/user/account', 'user', 'account'),
  r('/user/account/apps', 'user', 'apps'),
  r('/user/account/users', 'user', 'users'),
  r('/user/account/test-devices', 'user', 'testDevices'),
  r('/user/app', 'user', 'app'),
  r('/user/profile', 'user', 'profile'),
  r('/user/password', 'user', 'password'),
  r('/user/plan', 'user', 'plan'),
  r('/user/setup', 'user', 'setup'),
  r('/user/welcome', 'user', 'welcome'),

  r('/admin/roles', 'admin', 'roles'),
  r('/admin/providers', 'admin', 'adminProviders'),
  r('/admin/native-templates', 'admin', 'adminNativeTemplates'),
];

/** Authentication and legacy routes: public, no permission key. */
export const PUBLIC_ROUTES = ['/login', '/register', '/forgot-password', '/auto-login', '/logout', '/legacy', '/skudo/login', '/skudo/offers'] as const;

export type RoutePath = (typeof ROUTES)[number]['path'];
export const routeKey = (path: string): `route:${string}` => `route:${path}`;

/** Any path containing the admin segment is treated as an admin page. */
export function isAdminPath(path: string): boolean {
  return path.split('/').includes('admin');
}

export function findRoute(path: string): RouteDef | undefined {
  return ROUTES.find((route) => route.path === path);
}
