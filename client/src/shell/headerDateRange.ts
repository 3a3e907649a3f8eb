/**
 * Whether the header shows the shared date range control on an address (pure; Shell.tsx asks it).
 *
 * Every signed-in screen shows it except an open dashboard (/main/dashboards?dashboard=<id>): a
 * dashboard's window (day, week, month: dashboard/model.ts `windowRanges`) sets its own days, and
 * the dashboard's header shows them with the window switch, so the shared range would be a control
 * that changes nothing there. The dashboard list keeps it (it leads on to screens that use it), and
 * the range stays in the store and the address meanwhile, so it carries on to the next screen.
 * `pathname` is the router's, below the language segment (i18n/LanguageRouter.tsx).
 */
export function showsHeaderDateRange(pathname: string, search: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const dashboardOpen = path === '/main/dashboards' && (new URLSearchParams(search).get('dashboard') ?? '') !== '';
  return !dashboardOpen;
}
