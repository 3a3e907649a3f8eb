/**
 * The executive view (/main/executive): every app of the account side by side and in total over a
 * range and the previous period of the same length. Account-scoped: an app whose disallowed list
 * takes the executive route away from the caller is left out. Each figure is one statement over
 * all apps (repository.ts); ARPU is revenue / active people (0 without active people).
 */
import type { Router } from 'express';
import {
  EXECUTIVE_FIGURES, addDays, can, disallowedFor, ok, subjectFor, type ExecutiveFigures, type FigurePair,
} from '@gd/shared';
import type { Deps } from '../../http/context.ts';
import { route } from '../../http/endpoint.ts';
import { previousPeriod } from '../analytics/range.ts';
import { singleCurrency } from '../home/routes.ts';
import * as repo from './repository.ts';

const zero = (): FigurePair => ({ current: 0, previous: 0 });
const emptyFigures = (): ExecutiveFigures => Object.fromEntries(EXECUTIVE_FIGURES.map((f) => [f, zero()])) as ExecutiveFigures;
const ratio = (a: number, b: number) => (b === 0 ? 0 : a / b);
const withArpu = (f: ExecutiveFigures): ExecutiveFigures => ({
  ...f,
  arpu: { current: ratio(f.revenue.current, f.activePeople.current), previous: ratio(f.revenue.previous, f.activePeople.previous) },
});

export function executiveRoutes(router: Router, deps: Deps): void {
  const { db } = deps;

  route(router, deps, 'getExecutive', async ({ principal, query }) => {
    const today = new Date().toISOString().slice(0, 10);
    const range = query.startDay !== undefined && query.endDay !== undefined
      ? { startDay: query.startDay, endDay: query.endDay }
      : { startDay: addDays(today, -6), endDay: today };
    const previous = previousPeriod(range);
    const apps = (await repo.accountApps(db, principal.account.id)).filter((a) =>
      can(subjectFor(principal.user.id, disallowedFor(principal.user.grants, a.restricted)), 'route:/main/executive'));
    const ids = apps.map((a) => a.id);
    const byApp = new Map(apps.map((a) => [a.id, emptyFigures()]));
    if (ids.length > 0) {
      const results = await Promise.all(repo.PAIR_FIGURES.map(async (f) => [f, await repo.figure(db, f, principal.account.id, ids, range, previous)] as const));
      for (const [f, rows] of results) {
        for (const row of rows) {
          const figures = byApp.get(row.app_id);
          if (figures) figures[f] = { current: row.current, previous: row.previous };
        }
      }
    }
    const currencyRows = ids.length > 0 ? await repo.currencies(db, principal.account.id, ids, range) : [];
    const currencyOf = new Map(currencyRows.map((r) => [r.app_id, r.currencies]));
    const rows = apps.map((a) => ({
      appId: a.id, name: a.name, timezone: a.timezone, currency: singleCurrency(currencyOf.get(a.id) ?? []),
      figures: withArpu(byApp.get(a.id) ?? emptyFigures()),
    }));
    const total = emptyFigures();
    for (const r of rows) {
      for (const f of EXECUTIVE_FIGURES) {
        total[f].current += r.figures[f].current;
        total[f].previous += r.figures[f].previous;
      }
    }
    // Every app's revenue in one currency (apps without revenue do not count), else none.
    const named = new Set(rows.filter((r) => r.figures.revenue.current !== 0).map((r) => r.currency));
    const totalCurrency = named.size === 1 ? ([...named][0] ?? null) : null;
    return ok({ range, previous, apps: rows, total: { currency: totalCurrency, figures: withArpu(total) } });
  });
}
