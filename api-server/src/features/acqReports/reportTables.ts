/**
 * The scheduled report of kind `acquisition` (features/reports/tables.ts): the /acquisition/activity
 * answer over the run's days as tables. Main table: one row per source (and Organic) with clicks,
 * installs, conversion rate, cost, revenue and ROI, then the previous period's; second table: the
 * totals of both periods.
 */
import type { Queryable } from '../../db/pool.ts';
import type { Table } from '../reports/files.ts';
import { activityReport } from './reports.ts';

const FIGURES = ['clicks', 'installs', 'conversion_rate', 'cost', 'revenue', 'roi'] as const;
const round = (n: number | null) => (n === null ? null : Math.round(n * 10_000) / 10_000);

export async function acquisitionTables(db: Queryable, app: { id: string; timezone: string }, days: { startDay: string; endDay: string }): Promise<{ tables: Table[]; empty: boolean }> {
  const a = await activityReport(db, app, { ...days, timeGroup: 'day' });
  const values = (f: { clicks: number; installs: number; conversionRate: number | null; cost: number; revenue: number; roi: number | null }) =>
    [f.clicks, f.installs, round(f.conversionRate), f.cost, f.revenue, round(f.roi)];
  const sources: Table = {
    name: 'sources',
    columns: ['source', 'type', ...FIGURES, ...FIGURES.map((k) => `previous_${k}`)],
    rows: a.sources.map((s) => [s.name, s.type ?? '', ...values(s.current), ...values(s.previous)]),
  };
  const totals: Table = {
    name: 'totals',
    columns: ['period', 'start_day', 'end_day', ...FIGURES],
    rows: [
      ['current', a.range.startDay, a.range.endDay, ...values(a.totals.current)],
      ['previous', a.previous.startDay, a.previous.endDay, ...values(a.totals.previous)],
    ],
  };
  const empty = a.totals.current.clicks === 0 && a.totals.current.installs === 0;
  return { tables: [sources, totals], empty };
}
