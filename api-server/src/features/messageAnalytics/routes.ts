/**
 * Message analytics routes: a message's metrics (the message's visibility, as its sends), the
 * messages report and the performance report (their route keys), and the performance report's
 * csv/zip file (a `fileRoute`: the same checks as the JSON routes).
 *
 * The messages report: both periods' instants (analytics `utcBounds`, in parallel), the messages
 * active in either period (one pass), their conversion settings, then both periods' figures in
 * parallel. Each period's total is over the messages active in that period (conversions and revenue
 * deduplicated by person and event, metrics.ts); the rows list at most MESSAGE_REPORT_LIMIT
 * messages active in the current period (`truncated` says when there were more), the totals all.
 */
import type { Router } from 'express';
import { zipSync, strToU8 } from 'fflate';
import {
  ErrorCode, MESSAGE_REPORT_LIMIT, defaultConversion, emptyKpis, fail, ok, type MessageKpis, type MessageReport, type PerformanceReport, type PerformanceReportQuery,
} from '@gd/shared';
import type { Queryable } from '../../db/pool.ts';
import type { Deps } from '../../http/context.ts';
import { fileRoute, route } from '../../http/endpoint.ts';
import { isUuid } from '../../http/validate.ts';
import { bucketLabels, previousPeriod } from '../analytics/range.ts';
import { utcBounds } from '../analytics/repository.ts';
import { csvLine } from '../exports/csvCells.ts';
import { findMessage } from '../messages/repository.ts';
import { visible } from '../messages/routes.ts';
import { conversionsOf, figuresOfMessages, messageMetrics } from './metrics.ts';
import * as repo from './repository.ts';

const kpisOf = ({ failReasons: _, ...kpis }: MessageKpis & { failReasons?: unknown }): MessageKpis => kpis;

async function performanceReport(db: Queryable, appId: string, q: PerformanceReportQuery): Promise<PerformanceReport> {
  const { total, groups } = await repo.performanceCounts(db, appId, q);
  const rows = bucketLabels({ startDay: q.startDay, endDay: q.endDay, timeGroup: q.timeGroup }).map((day) => ({ day, value: groups.get(day) ?? 0 }));
  return { kpiType: q.kpiType, timeGroup: q.timeGroup, total, rows };
}

/** The messages report of a range (also run by scheduled reports, features/reports). */
export async function buildMessageReport(db: Queryable, app: { id: string; timezone: string }, query: { startDay: string; endDay: string }): Promise<MessageReport> {
  const previousDays = previousPeriod(query);
  const [current, previous] = await Promise.all([
    utcBounds(db, query.startDay, query.endDay, app.timezone),
    utcBounds(db, previousDays.startDay, previousDays.endDay, app.timezone),
  ]);
  const active = await repo.messagesActiveIn(db, app.id, current, previous);
  const inCurrent = active.filter((m) => m.current);
  const listed = inCurrent.slice(0, MESSAGE_REPORT_LIMIT);
  const conversions = await conversionsOf(db, app.id, active.map((m) => m.messageId));
  const refOf = (m: repo.ActiveMessage) => ({ id: m.messageId, conversion: conversions.get(m.messageId) ?? defaultConversion() });
  const listedIds = new Set(listed.map((m) => m.messageId));
  // Each period's figures: its own active messages (its total), and the listed rows' previous figures.
  const [now, before] = await Promise.all([
    figuresOfMessages(db, app.id, inCurrent.map(refOf), current),
    figuresOfMessages(db, app.id, active.filter((m) => m.previous || listedIds.has(m.messageId)).map(refOf), previous),
  ]);
  const rows = listed.map(({ current: _c, previous: _p, ...m }) => ({
    ...m,
    current: kpisOf(now.byMessage.get(m.messageId)?.total ?? emptyKpis()),
    previous: kpisOf(before.byMessage.get(m.messageId)?.total ?? emptyKpis()),
  }));
  return {
    previous: previousDays,
    total: { current: kpisOf(now.all), previous: kpisOf(before.all) },
    messages: rows,
    truncated: inCurrent.length > listed.length,
  };
}

export function messageAnalyticsRoutes(router: Router, deps: Deps): void {
  const { db } = deps;

  route(router, deps, 'messageMetrics', async ({ app, subject, params }) => {
    const row = params.messageId && isUuid(params.messageId) ? await findMessage(db, app.id, params.messageId) : undefined;
    if (!row || !visible(subject, row)) return fail(ErrorCode.NO_PERMISSION, 'No permission for this message');
    return ok({ metrics: await messageMetrics(db, { appId: app.id, messageId: row.id }) });
  });

  route(router, deps, 'messageReport', async ({ app, query }) => ok({ report: await buildMessageReport(db, app, query) }));

  route(router, deps, 'performanceReport', async ({ app, query }) => ok({ report: await performanceReport(db, app.id, query) }));

  fileRoute(router, deps, 'exportPerformanceReport', async ({ app, query, res }) => {
    const report = await performanceReport(db, app.id, query);
    const base = `performance-report-${query.kpiType}-${query.startDay}-${query.endDay}`;
    const csv = csvLine(['date', query.kpiType]) + report.rows.map((r) => csvLine([r.day, r.value])).join('') + csvLine(['total', report.total]);
    const body = query.format === 'zip' ? Buffer.from(zipSync({ [`${base}.csv`]: strToU8(csv) }, { level: 6 })) : Buffer.from(csv, 'utf8');
    res.setHeader('Content-Type', query.format === 'zip' ? 'application/zip' : 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="${base}.${query.format}"`);
    res.setHeader('Cache-Control', 'no-store');
    res.end(body);
    return undefined;
  });
}
