/** Acquisition reports (endpoints/acqReports.ts): activity, installs, uninstalls, retargeting, assisted installs. */
import type { Router } from 'express';
import { ok, type AcqReportKind, type AnalyticsRangeQuery, type App } from '@gd/shared';
import type { Deps } from '../../http/context.ts';
import { route } from '../../http/endpoint.ts';
import type { Queryable } from '../../db/pool.ts';
import { resolveRange } from '../analytics/range.ts';
import { todayIn } from '../analytics/repository.ts';
import { activityReport, attributionKindReport } from './reports.ts';

async function rangeOf(db: Queryable, app: App, query: AnalyticsRangeQuery) {
  return resolveRange(query, query.startDay === undefined ? await todayIn(db, app.timezone) : query.startDay);
}

export function acqReportRoutes(router: Router, deps: Deps): void {
  const { db } = deps;
  route(router, deps, 'acqActivity', async ({ app, query }) => ok(await activityReport(db, app, await rangeOf(db, app, query))));
  const kinds = { acqInstalls: 'installs', acqUninstalls: 'uninstalls', acqRetargeting: 'retargeting', acqAssisted: 'assisted' } as const satisfies Record<string, AcqReportKind>;
  for (const [name, kind] of Object.entries(kinds) as [keyof typeof kinds, AcqReportKind][]) {
    route(router, deps, name, async ({ app, query }) => ok(await attributionKindReport(db, app, kind, await rangeOf(db, app, query))));
  }
}
