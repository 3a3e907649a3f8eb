/**
 * Message analytics routes: a message's metrics (the message's visibility, as its sends), the
 * messages report and the performance report (their route keys), and the performance report's
 * csv/zip file. The file is written here with the same checks as the endpoint table's routes
 * (session, app of the account, permission with the app's disallowed list), like the audience
 * export's download, since `route` answers JSON.
 */
import type { Request, Response, Router } from 'express';
import { zipSync, strToU8 } from 'fflate';
import {
  ErrorCode, can, defaultConversion, disallowedFor, emptyKpis, endpoints, fail, ok, subjectFor, sumKpis, type MessageKpis, type PerformanceReport, type PerformanceReportQuery, type Result,
} from '@gd/shared';
import type { Queryable } from '../../db/pool.ts';
import type { Deps } from '../../http/context.ts';
import { authenticate, route } from '../../http/endpoint.ts';
import { sendFailure } from '../../http/respond.ts';
import { isUuid, parseWith } from '../../http/validate.ts';
import { bucketLabels, previousPeriod } from '../analytics/range.ts';
import { findApp } from '../apps/repository.ts';
import { csvLine } from '../exports/csvCells.ts';
import { findMessage } from '../messages/repository.ts';
import { visible } from '../messages/routes.ts';
import { conversionsOf, figuresOf, messageMetrics } from './metrics.ts';
import * as repo from './repository.ts';

const kpisOf = ({ failReasons: _, ...kpis }: MessageKpis & { failReasons?: unknown }): MessageKpis => kpis;

async function performanceReport(db: Queryable, appId: string, q: PerformanceReportQuery): Promise<PerformanceReport> {
  const { total, groups } = await repo.performanceCounts(db, appId, q);
  const rows = bucketLabels({ startDay: q.startDay, endDay: q.endDay, timeGroup: q.timeGroup }).map((day) => ({ day, value: groups.get(day) ?? 0 }));
  return { kpiType: q.kpiType, timeGroup: q.timeGroup, total, rows };
}

export function messageAnalyticsRoutes(router: Router, deps: Deps): void {
  const { db } = deps;

  route(router, deps, 'messageMetrics', async ({ app, subject, params }) => {
    const row = params.messageId && isUuid(params.messageId) ? await findMessage(db, app.id, params.messageId) : undefined;
    if (!row || !visible(subject, row)) return fail(ErrorCode.NO_PERMISSION, 'No permission for this message');
    return ok({ metrics: await messageMetrics(db, { appId: app.id, messageId: row.id }) });
  });

  route(router, deps, 'messageReport', async ({ app, query }) => {
    const previousDays = previousPeriod(query);
    const current = await repo.instantsOf(db, app.id, query.startDay, query.endDay);
    const previous = await repo.instantsOf(db, app.id, previousDays.startDay, previousDays.endDay);
    const messages = await repo.messagesActiveIn(db, app.id, current);
    const conversions = await conversionsOf(db, app.id, messages.map((m) => m.messageId));
    const refs = messages.map((m) => ({ id: m.messageId, conversion: conversions.get(m.messageId) ?? defaultConversion() }));
    const now = await figuresOf(db, app.id, refs, current);
    const before = await figuresOf(db, app.id, refs, previous);
    const rows = messages.map((m) => ({
      ...m,
      current: kpisOf(now.get(m.messageId)?.total ?? emptyKpis()),
      previous: kpisOf(before.get(m.messageId)?.total ?? emptyKpis()),
    }));
    return ok({
      report: {
        previous: previousDays,
        total: { current: sumKpis(rows.map((r) => r.current), emptyKpis()), previous: sumKpis(rows.map((r) => r.previous), emptyKpis()) },
        messages: rows,
      },
    });
  });

  route(router, deps, 'performanceReport', async ({ app, query }) => ok({ report: await performanceReport(db, app.id, query) }));

  const file = endpoints.exportPerformanceReport;
  router.get(file.path, async (req: Request, res: Response) => {
    const found = await exportRequest(deps, req);
    if (!found.ok) return sendFailure(res, found);
    const { appId, query } = found.value;
    const report = await performanceReport(db, appId, query);
    const base = `performance-report-${query.kpiType}-${query.startDay}-${query.endDay}`;
    const csv = csvLine(['date', query.kpiType]) + report.rows.map((r) => csvLine([r.day, r.value])).join('') + csvLine(['total', report.total]);
    const body = query.format === 'zip' ? Buffer.from(zipSync({ [`${base}.csv`]: strToU8(csv) }, { level: 6 })) : Buffer.from(csv, 'utf8');
    res.setHeader('Content-Type', query.format === 'zip' ? 'application/zip' : 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="${base}.${query.format}"`);
    res.setHeader('Cache-Control', 'no-store');
    res.end(body);
  });
}

/** The export's app and query, after the same checks the endpoint table's routes make. */
async function exportRequest(deps: Deps, req: Request): Promise<Result<{ appId: string; query: PerformanceReportQuery & { format: 'csv' | 'zip' } }>> {
  const signedIn = await authenticate(deps, req);
  if (!signedIn.ok) return signedIn;
  const { principal } = signedIn.value;
  const appId = (req.params as Record<string, string>).appId;
  const app = appId && isUuid(appId) ? await findApp(deps.db, principal.account.id, appId) : undefined;
  if (!app) return fail(ErrorCode.NO_PERMISSION, 'No permission for this app');
  const subject = subjectFor(principal.user.id, disallowedFor(principal.user.grants, app.restricted));
  const auth = endpoints.exportPerformanceReport.auth;
  if (!can(subject, auth)) return fail(ErrorCode.NO_PERMISSION, `No permission: ${JSON.stringify(auth)}`);
  const query = parseWith(endpoints.exportPerformanceReport.query, req.query);
  return query.ok ? ok({ appId: app.id, query: query.value }) : query;
}
