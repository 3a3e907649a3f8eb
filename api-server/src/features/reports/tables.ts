/**
 * A report's answer as tables, per kind, over the run's days (the relative range evaluated at the
 * run's slot). Each kind reuses the screen's own computation, so a report's file says exactly what
 * the screen says for the same query and days:
 * - explore: features/analytics/explore.ts. Main table: one row per bucket and series (date,
 *   breakdown value, value, previous value with compare); second table: each series' total.
 * - communication: messageAnalytics `buildMessageReport`. Main table: one row per message with its
 *   KPIs and the previous period's; second table: the totals of both periods.
 * - funnel: funnels/compute.ts `runFunnel`. Main table: one row per series (Total, each breakdown
 *   value, the previous period with compare) and step: people, overall and step conversion; then
 *   conversion over time and the time-to-convert histogram.
 * - cohort: cohorts/compute.ts `runCohort`. Main table (long form, one row per cohort and period,
 *   per breakdown segment): cohort size, people, retention and whether the period is complete (an
 *   incomplete period is marked false, as the screen marks it); then the weighted retention curve.
 * - acquisition: acqReports `activityReport`. Main table: one row per source (and Organic) with
 *   clicks, installs, conversion rate, cost, revenue and ROI, and the previous period's; then the
 *   totals of both periods.
 *
 * `empty` says the answer has no data (no events, no messages): the run is then a warning.
 */
import { MESSAGE_KPI_KEYS, ReportKind, type CohortAnswer, type CohortQuery, type ExploreQuery, type FunnelQuery, type FunnelSeries, } from '@gd/shared';
import type { Queryable } from '../../db/pool.ts';
import { explore } from '../analytics/explore.ts';
import { runCohort } from '../cohorts/compute.ts';
import { runFunnel } from '../funnels/compute.ts';
import { buildMessageReport } from '../messageAnalytics/routes.ts';
import { acquisitionTables } from '../acqReports/reportTables.ts';
import { breakdownLabel, type Table } from './files.ts';

/** A report that cannot run as saved (its kind is not available, its query no longer valid): not retried. */
export class ReportRefused extends Error {}

export interface ReportAnswer { tables: Table[]; empty: boolean }
type App = { id: string; timezone: string };
type Days = { startDay: string; endDay: string };

async function exploreTables(db: Queryable, app: App, query: ExploreQuery, days: Days): Promise<ReportAnswer> {
  const answer = await explore(db, app, { ...days, timeGroup: query.timeGroup }, { ...query, ...days });
  const broken = answer.breakdown !== null;
  const columns = ['date', ...(broken ? [answer.breakdown === 'property' ? (answer.property ?? 'property') : answer.breakdown ?? ''] : []), answer.metric, ...(query.compare ? [`previous_${answer.metric}`] : [])];
  const rows = answer.buckets.flatMap((bucket, i) => answer.series.map((s) => [
    bucket, ...(broken ? [breakdownLabel(s.key)] : []), s.values[i] ?? 0, ...(query.compare ? [s.previous?.[i] ?? 0] : []),
  ]));
  const totals: Table = {
    name: 'totals',
    columns: [...(broken ? [columns[1] ?? 'breakdown'] : []), `total_${answer.metric}`, ...(query.compare ? [`previous_total_${answer.metric}`] : [])],
    rows: answer.series.map((s) => [...(broken ? [breakdownLabel(s.key)] : []), s.total, ...(query.compare ? [s.previousTotal ?? 0] : [])]),
  };
  return { tables: [{ name: 'series', columns, rows }, totals], empty: answer.series.every((s) => s.total === 0) };
}

async function communicationTables(db: Queryable, app: App, days: Days): Promise<ReportAnswer> {
  const report = await buildMessageReport(db, app, days);
  const kpis = MESSAGE_KPI_KEYS;
  const messages: Table = {
    name: 'messages',
    columns: ['message_id', 'message', 'campaign', 'type', 'status', ...kpis, ...kpis.map((k) => `previous_${k}`)],
    rows: report.messages.map((m) => [m.messageId, m.name, m.campaignName, m.type, m.status, ...kpis.map((k) => m.current[k]), ...kpis.map((k) => m.previous[k])]),
  };
  const totals: Table = {
    name: 'totals',
    columns: ['period', 'start_day', 'end_day', ...kpis],
    rows: [
      ['current', days.startDay, days.endDay, ...kpis.map((k) => report.total.current[k])],
      ['previous', report.previous.startDay, report.previous.endDay, ...kpis.map((k) => report.total.previous[k])],
    ],
  };
  return { tables: [messages, totals], empty: report.messages.length === 0 };
}

const ratio = (n: number | null) => (n === null ? null : Math.round(n * 10_000) / 10_000);

async function funnelTables(db: Queryable, app: App, query: FunnelQuery, days: Days): Promise<ReportAnswer> {
  const answer = await runFunnel(db, app, { ...query, ...days });
  const series: [string, FunnelSeries][] = [
    ['Total', answer.total],
    ...answer.breakdown.map((s): [string, FunnelSeries] => [breakdownLabel(s.key), s]),
    ...(answer.previous ? [[`Previous period (${answer.previous.range.startDay} to ${answer.previous.range.endDay})`, answer.previous.total] as [string, FunnelSeries]] : []),
  ];
  const steps: Table = {
    name: 'steps',
    columns: ['series', 'step', 'event', 'people', 'conversion', 'step_conversion', 'avg_seconds_to_convert', 'median_seconds_to_convert'],
    rows: series.flatMap(([label, s]) => answer.steps.map((event, i) => [
      label, i + 1, event, s.counts[i] ?? 0, ratio(s.conversion[i] ?? null), ratio(s.stepConversion[i] ?? null),
      i === answer.steps.length - 1 ? s.avgSeconds : null, i === answer.steps.length - 1 ? s.medianSeconds : null,
    ])),
  };
  const overTime: Table = {
    name: 'over-time',
    columns: ['date', 'entered', 'converted', 'conversion'],
    rows: answer.overTime.buckets.map((b, i) => {
      const entered = answer.overTime.entered[i] ?? 0;
      const converted = answer.overTime.converted[i] ?? 0;
      return [b, entered, converted, entered > 0 ? ratio(converted / entered) : null];
    }),
  };
  const histogram: Table = { name: 'time-to-convert', columns: ['up_to_seconds', 'people'], rows: answer.histogram.map((h) => [h.upTo, h.people]) };
  return { tables: [steps, overTime, histogram], empty: (answer.total.counts[0] ?? 0) === 0 };
}

async function cohortTables(db: Queryable, app: App, query: CohortQuery, days: Days): Promise<ReportAnswer> {
  const answer: CohortAnswer = await runCohort(db, app, { ...query, ...days });
  const segments = answer.segments ?? [{ key: null, size: answer.size, rows: answer.rows, curve: answer.curve }];
  const broken = answer.segments !== null;
  const retention: Table = {
    name: 'retention',
    columns: [...(broken ? ['segment'] : []), 'cohort', 'cohort_size', 'period', 'people', 'retention', 'complete'],
    rows: segments.flatMap((seg) => seg.rows.flatMap((row) => row.counts.map((people, period) => [
      ...(broken ? [breakdownLabel(seg.key)] : []), row.cohort, row.size, period, people, people === null || row.size === 0 ? null : ratio(people / row.size),
      String(row.complete[period] ?? false),
    ]))),
  };
  const curve: Table = {
    name: 'curve',
    columns: [...(broken ? ['segment'] : []), 'period', 'people', 'cohort_people', 'retention'],
    rows: segments.flatMap((seg) => seg.curve.map((p) => [...(broken ? [breakdownLabel(seg.key)] : []), p.period, p.people, p.cohortPeople, ratio(p.rate)])),
  };
  return { tables: [retention, curve], empty: answer.size === 0 };
}

/** The report's tables; throws ReportRefused when the kind cannot run. `query` was checked by the kind's schema when saved. */
export async function reportTables(db: Queryable, app: App, kind: ReportKind, query: Record<string, unknown>, days: Days): Promise<ReportAnswer> {
  switch (kind) {
    case 'explore':
      return exploreTables(db, app, query as ExploreQuery, days);
    case 'communication':
      return communicationTables(db, app, days);
    case 'funnel':
      return funnelTables(db, app, query as FunnelQuery, days);
    case 'cohort':
      return cohortTables(db, app, query as CohortQuery, days);
    case 'acquisition':
      return acquisitionTables(db, app, days);
    default: {
      const never: never = kind;
      throw new ReportRefused(`unknown report kind ${String(never)}`);
    }
  }
}

/** Whether a kind can be scheduled on this server (the same switch as reportTables). */
export const kindAvailable = (kind: ReportKind): boolean => ReportKind.options.includes(kind);
