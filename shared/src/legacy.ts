/**
 * /legacy: where the classic interface's addresses live now (SPEC.md section 2 lists the route;
 * its content is not shown).
 *
 * Decision: the classic interface is retired, but its addresses survive in bookmarks, e-mails,
 * wikis and old reports. /legacy takes such an address (`/legacy?path=<old address>`, or the old
 * hash route `/legacy#/<old path>`, the form the classic single-page app used) and sends the
 * person to the screen that replaced it; an address it does not know shows the page of areas
 * with their new places, so nobody lands on a dead end. The classic paths are matched by their
 * first meaningful segments, case-insensitively, ignoring a language segment, `#!`/`#` prefixes,
 * the query and a trailing slash. Ids in classic paths are not carried over (the new screens
 * have other ids); the screen's list is the landing place.
 */
import { ROUTES } from './routes.ts';
import { isLanguage } from './language.ts';

/** Classic path prefixes (segments joined by "/") and the screen that replaced each. Longest prefix wins. */
export const LEGACY_ROUTES: Readonly<Record<string, string>> = {
  dashboard: '/main/dashboards',
  dashboards: '/main/dashboards',
  home: '/main/dashboards',
  executive: '/main/executive',
  reports: '/main/reports',
  'scheduled-reports': '/main/reports',

  apptracker: '/acquisition/apptracker',
  tracking: '/acquisition/apptracker',
  'tracking/campaigns': '/acquisition/apptracker',
  'tracking/channels': '/acquisition/apptracker/channels',
  'tracking/links': '/acquisition/links',
  links: '/acquisition/links',
  powlinks: '/acquisition/powlinks',
  installs: '/acquisition/installs',
  uninstalls: '/acquisition/uninstalls',
  activity: '/acquisition/activity',
  retargeting: '/acquisition/retargeting',
  providers: '/acquisition/providers',
  trackers: '/acquisition/trackers',
  skadnetwork: '/acquisition/skadnetwork',

  analytics: '/behavior/explore',
  'analytics/explore': '/behavior/explore',
  'analytics/funnels': '/behavior/funnels',
  'analytics/cohorts': '/behavior/cohort',
  'analytics/events': '/behavior/events',
  explore: '/behavior/explore',
  funnels: '/behavior/funnels',
  cohorts: '/behavior/cohort',
  audiences: '/behavior/audiences',
  segments: '/behavior/audiences',
  users: '/behavior/people',
  people: '/behavior/people',
  events: '/behavior/events',

  campaigns: '/communication/messaging',
  messages: '/communication/messaging',
  messaging: '/communication/messaging',
  push: '/communication/messaging',
  inapp: '/communication/messaging',
  email: '/communication/messaging',
  'native-ads': '/communication/messaging/native_ad',
  journeys: '/communication/journeys',
  automation: '/communication/journeys',
  rules: '/communication/rules',
  'campaign-report': '/communication/report',
  'performance-report': '/communication/performance-report',
  'ab-tests': '/communication/report/ab-analysis',

  wallet: '/products/wallet',
  skudo: '/products/skudo',

  settings: '/user/account',
  'settings/account': '/user/account',
  'settings/apps': '/user/account/apps',
  'settings/users': '/user/account/users',
  'settings/test-devices': '/user/account/test-devices',
  'settings/app': '/user/app',
  'settings/plan': '/user/plan',
  profile: '/user/profile',
  password: '/user/password',
  tags: '/manage/tags',
  imports: '/manage/import-task',
  integrations: '/manage/integrations',
  landings: '/manage/landings',
  categories: '/manage/categories',
  'mail-providers': '/manage/mail-providers',
  'native-templates': '/manage/native-templates',
};

/** The segments of a classic address, without language, hash-bang, query and empty parts. */
export function legacySegments(address: string): string[] {
  let s = address.trim();
  const hash = s.indexOf('#');
  // "https://old.example.com/app/#!/funnels?x" and "#/funnels": the route is after the hash.
  if (hash >= 0) s = s.slice(hash + 1);
  else s = s.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '');
  s = s.replace(/^!/, '').split(/[?]/)[0] ?? '';
  let segments: string[];
  try {
    segments = s.split('/').filter(Boolean).map((p) => decodeURIComponent(p).toLowerCase());
  } catch {
    return [];
  }
  if (segments[0] === 'legacy') segments.shift();
  if (isLanguage(segments[0])) segments.shift();
  if (segments[0] === 'app' || segments[0] === 'admin-classic') segments.shift();
  return segments;
}

/** The new screen of a classic address, or null when it names none we know. */
export function legacyTarget(address: string): string | null {
  const segments = legacySegments(address);
  if (segments.length === 0) return null;
  // A new-style address passed through /legacy goes where it says.
  const asNew = `/${segments.join('/')}`;
  if (ROUTES.some((r) => r.path === asNew)) return asNew;
  for (let n = Math.min(segments.length, 3); n > 0; n--) {
    const target = LEGACY_ROUTES[segments.slice(0, n).join('/')];
    if (target) return target;
  }
  return null;
}
