/**
 * The chunks a signed-in address renders, started together at boot (main.tsx). Left to React they
 * load one after the other, each found only when the one before has rendered: the shell, then the
 * route's wrapper, then the screen, then, on the screen's first feature call, the endpoint table
 * (api/requestSchemas.ts). A module is fetched once: the lazy components that ask for it later get
 * the one already loading (docs/BENCHMARKS.md, dashboard: about 0.2 s off its first draw). The
 * table of screens (screens.ts) stays out of the login page's bundle: it is a chunk of its own,
 * loaded beside the shell. The sign-in family of pages preloads nothing; on an address that needs
 * a session and has none, the chunks wait in the cache for after signing in.
 */
import { matchPath } from 'react-router';
import { stripLanguage } from '@gd/shared/language';
import { ROUTES } from '@gd/shared/routes';
import { loadFeatureTexts } from '../i18n/i18n.ts';

export const loadShell = () => import('../shell/Shell.tsx');
export const loadRouteScreen = () => import('../shell/RouteScreen.tsx');
export const loadHome = () => import('../features/home/HomePage.tsx');
const loadEndpoints = () => import('@gd/shared/endpoints');
const loadScreen = (path: string) => import('./screens.ts').then((m) => m.SCREEN_LOADERS[path]?.());

export type ShellTarget = { kind: 'home' } | { kind: 'route'; path: string };

/** What `pathname` renders inside the shell: its home, one of ROUTES (by its path), or null (outside the shell). */
export function shellTarget(pathname: string): ShellTarget | null {
  const path = stripLanguage(pathname);
  if (path === '/' || path === '') return { kind: 'home' };
  const route = ROUTES.find((r) => matchPath({ path: r.path, end: true }, path) !== null);
  return route ? { kind: 'route', path: route.path } : null;
}

/** Starts loading the chunks of a signed-in address and the texts and endpoints its screen needs. */
export function preloadSignedIn(pathname: string): void {
  const target = shellTarget(pathname);
  if (!target) return;
  const loads: Promise<unknown>[] = [loadShell(), loadEndpoints(), loadFeatureTexts()];
  if (target.kind === 'home') loads.push(loadHome());
  else loads.push(loadRouteScreen(), loadScreen(target.path));
  // Failures are left to the lazy component or call that needs the chunk: it loads it again and shows its error.
  for (const load of loads) load.catch(() => undefined);
}
