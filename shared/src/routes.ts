/**
 * Every screen of SPEC.md section 2, grouped by area. Each route has a permission key
 * (`route:<path>`, read access). `issue` says which capability builds the screen; a route whose
 * capability is not built yet renders a plain "coming soon" page (listed in the README).
 */
export const Area = ['main', 'acquisition', 'behavior', 'communication', 'products', 'manage', 'user', 'admin', 'auth'] as const;
export type Area = (typeof Area)[number];

export interface RouteDef {
  path: string;
  area: Area;
  /** i18n key suffix under `nav.` */
  label: string;
  /** true when the screen of this route is built; false renders "coming soon". */
  ready: boolean;
  /** Public routes need no session (authentication screens). */
  public?: boolean;
  /** Shown in the side navigation. */
  nav?: boolean;
}

const r = (path: string, area: Area, label: string, ready = false, nav = true): RouteDef => ({ path, area, label, ready, nav });

export const ROUTES: readonly RouteDef[] = [
  r('/main/dashboards', 'main', 'dashboards', true),
  r('/main/executive', 'main', 'executive', true),
  r('/main/reports', 'main', 'reports', true),

  r('/acquisition/activity', 'acquisition', 'activity', true),
  r('/acquisition/apptracker', 'acquisition', 'apptracker', true),
  r('/acquisition/apptracker/channels', 'acquisition', 'apptrackerChannels', true, false),
  r('/acquisition/apptracker-provider-view', 'acquisition', 'apptrackerProviderView', true, false),
  r('/acquisition/installs', 'acquisition', 'installs', true),
  r('/acquisition/powlinks', 'acquisition', 'powlinks', true),
  r('/acquisition/links', 'acquisition', 'links', true),
  r('/acquisition/providers', 'acquisition', 'providers', true),
  r('/acquisition/retargeting', 'acquisition', 'retargeting', true),
  r('/acquisition/trackers', 'acquisition', 'trackers', true),
  r('/acquisition/uninstalls', 'acquisition', 'uninstalls', true),
  r('/acquisition/skadnetwork', 'acquisition', 'skadnetwork', true),
  r('/acquisition/assisted-installs', 'acquisition', 'assistedInstalls', true),

  r('/behavior/explore', 'behavior', 'explore', true),
  r('/behavior/funnels', 'behavior', 'funnels', true),
  r('/behavior/cohort', 'behavior', 'cohort', true),
  r('/behavior/audiences', 'behavior', 'audiences', true),
  r('/behavior/people', 'behavior', 'people', true),
  r('/behavior/events', 'behavior', 'events', true),

  r('/communication/messaging', 'communication', 'messaging', true),
  r('/communication/messaging/native_ad', 'communication', 'nativeAd', true, false),
  r('/communication/messaging/plugin', 'communication', 'plugin', true, false),
  r('/communication/journeys', 'communication', 'journeys', true),
  r('/communication/rules', 'communication', 'rules', true),
  r('/communication/report', 'communication', 'report', true),
  r('/communication/report/ab-analysis', 'communication', 'abAnalysis', true),
  r('/communication/performance-report', 'communication', 'performanceReport', true),
  r('/communication/performance-histograms', 'communication', 'performanceHistograms', true),

  r('/products/wallet', 'products', 'wallet'),
  r('/products/skudo', 'products', 'skudo'),

  r('/manage/events', 'manage', 'manageEvents', true),
  r('/manage/tags', 'manage', 'tags', true),
  r('/manage/import-task', 'manage', 'importTask', true),
  r('/manage/integrations', 'manage', 'integrations'),
  r('/manage/communication-parameters', 'manage', 'communicationParameters', true),
  r('/manage/mail-providers', 'manage', 'mailProviders', true),
  r('/manage/native-templates', 'manage', 'nativeTemplates', true),
  r('/manage/landings', 'manage', 'landings'),
  r('/manage/categories', 'manage', 'categories'),

  r('/user/account', 'user', 'account', true),
  r('/user/account/apps', 'user', 'apps', true),
  r('/user/account/users', 'user', 'users', true),
  r('/user/account/test-devices', 'user', 'testDevices', true),
  r('/user/app', 'user', 'app', true),
  r('/user/profile', 'user', 'profile', true),
  r('/user/password', 'user', 'password', true),
  r('/user/plan', 'user', 'plan', true),
  r('/user/setup', 'user', 'setup', true),
  r('/user/welcome', 'user', 'welcome', true),

  r('/admin/roles', 'admin', 'roles', true),
  r('/admin/providers', 'admin', 'adminProviders', true),
  r('/admin/native-templates', 'admin', 'adminNativeTemplates', true),
];

/** Authentication and legacy routes: public, no permission key. */
export const PUBLIC_ROUTES = ['/login', '/register', '/forgot-password', '/auto-login', '/logout', '/legacy', '/skudo/login'] as const;

export type RoutePath = (typeof ROUTES)[number]['path'];
export const routeKey = (path: string): `route:${string}` => `route:${path}`;

/** Any path containing the admin segment is treated as an admin page. */
export function isAdminPath(path: string): boolean {
  return path.split('/').includes('admin');
}

export function findRoute(path: string): RouteDef | undefined {
  return ROUTES.find((route) => route.path === path);
}
