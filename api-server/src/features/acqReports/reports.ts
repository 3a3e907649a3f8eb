/**
 * The acquisition reports (schemas/acqReports.ts): activity by source with the previous period and
 * a series over time, and the attribution reports (installs, uninstalls, retargeting, assisted).
 */
import {
  ACQ_REPORT_LIMITS, ACQ_REPORT_TOTALS, ORGANIC_LABEL, addCounts, addDays, emptyCounts, fixedCostShare, personName, ratio, roi,
  type AcqActivity, type AcqReport, type AcqReportKind, type ActivityFigures, type ActivitySourceRow, type App, type CampaignCounts,
  type DayRange, type ResolvedRange, type SourceType,
} from '@gd/shared';
import type { Queryable } from '../../db/pool.ts';
import { bucketLabels, previousPeriod } from '../analytics/range.ts';
import { nameAttributesSql } from '../people/repository.ts';
import { costOf, countsOf } from './figures.ts';
import { attributionReport, campaignCounts, campaignRows, organicCounts, rangeInstants, type CampaignRow } from './repository.ts';

type AppTz = Pick<App, 'id' | 'timezone'>;

const activityOf = (c: Pick<CampaignCounts, 'clicks' | 'installs' | 'revenue'>, cost: number): ActivityFigures => ({
  clicks: c.clicks, installs: c.installs, conversionRate: ratio(c.installs, c.clicks), cost: round2(cost), revenue: round2(c.revenue), roi: roi(c.revenue, cost),
});
const round2 = (n: number) => Math.round(n * 100) / 100;

/** The last day of each bucket (the day before the next label, or the range's end). */
function bucketEnds(labels: string[], range: ResolvedRange): string[] {
  return labels.map((_, i) => (i + 1 < labels.length ? addDays(labels[i + 1] as string, -1) : range.endDay));
}

/** Per campaign: counts summed over buckets and cost over the range. */
async function periodCounts(db: Queryable, app: AppTz, campaigns: CampaignRow[], range: DayRange): Promise<Map<string, CampaignCounts>> {
  const at = await rangeInstants(db, app.timezone, range.startDay, range.endDay);
  const rows = await campaignCounts(db, app.id, app.timezone, at, range.startDay, campaigns.map((c) => c.id), null);
  return new Map(rows.map((r) => [r.campaign_id, countsOf(r)]));
}

export async function activityReport(db: Queryable, app: AppTz, range: ResolvedRange): Promise<AcqActivity> {
  const previous = previousPeriod(range);
  const campaigns = await campaignRows(db, app.id, app.timezone);
  const ids = campaigns.map((c) => c.id);
  const [at, prevAt] = await Promise.all([
    rangeInstants(db, app.timezone, range.startDay, range.endDay),
    rangeInstants(db, app.timezone, previous.startDay, previous.endDay),
  ]);
  const [bucketed, prevCounts, organic, prevOrganic] = await Promise.all([
    campaignCounts(db, app.id, app.timezone, at, range.startDay, ids, range.timeGroup),
    periodCounts(db, app, campaigns, previous),
    organicCounts(db, app.id, at),
    organicCounts(db, app.id, prevAt),
  ]);

  const labels = bucketLabels(range);
  const ends = bucketEnds(labels, range);
  const index = new Map(labels.map((l, i) => [l, i]));
  const series = { labels, clicks: labels.map(() => 0), installs: labels.map(() => 0), cost: labels.map(() => 0), revenue: labels.map(() => 0) };
  const current = new Map<string, CampaignCounts>();
  const campaignById = new Map(campaigns.map((c) => [c.id, c]));
  for (const row of bucketed) {
    const c = campaignById.get(row.campaign_id);
    const i = index.get(row.bucket);
    if (!c || i === undefined) continue;
    const counts = countsOf(row);
    current.set(c.id, addCounts(current.get(c.id) ?? emptyCounts(), counts));
    series.clicks[i] = (series.clicks[i] ?? 0) + counts.clicks;
    series.installs[i] = (series.installs[i] ?? 0) + counts.installs;
    series.revenue[i] = round2((series.revenue[i] ?? 0) + counts.revenue);
    if (c.pricing_model !== 'fixed') series.cost[i] = (series.cost[i] ?? 0) + costOf(c, counts, range);
  }
  // Fixed costs fall on the days of each bucket (an hour bucket takes a 24th of the range's share).
  for (const c of campaigns) {
    if (c.pricing_model !== 'fixed') continue;
    labels.forEach((label, i) => {
      const share = range.timeGroup === 'hour'
        ? costOf(c, emptyCounts(), range) / 24
        : c.cost_value * fixedCostShare({ startDay: c.start_day, endDay: c.end_day, fallbackDay: c.created_day }, { startDay: label, endDay: ends[i] as string });
      series.cost[i] = (series.cost[i] ?? 0) + share;
    });
  }
  series.cost = series.cost.map(round2);

  const bySource = new Map<string, { name: string; type: SourceType; cur: CampaignCounts; prev: CampaignCounts; cost: number; prevCost: number }>();
  for (const c of campaigns) {
    const cur = current.get(c.id) ?? emptyCounts();
    const prev = prevCounts.get(c.id) ?? emptyCounts();
    const entry = bySource.get(c.source_id) ?? { name: c.source_name, type: c.source_type as SourceType, cur: emptyCounts(), prev: emptyCounts(), cost: 0, prevCost: 0 };
    entry.cur = addCounts(entry.cur, cur);
    entry.prev = addCounts(entry.prev, prev);
    entry.cost += costOf(c, cur, range);
    entry.prevCost += costOf(c, prev, previous);
    bySource.set(c.source_id, entry);
  }
  const sources: ActivitySourceRow[] = [...bySource.entries()].map(([sourceId, s]) => ({
    sourceId, name: s.name, type: s.type, current: activityOf(s.cur, s.cost), previous: activityOf(s.prev, s.prevCost),
  }));
  sources.sort((a, b) => b.current.installs - a.current.installs || b.current.clicks - a.current.clicks || a.name.localeCompare(b.name));
  sources.push({
    sourceId: null, name: ORGANIC_LABEL, type: null,
    current: activityOf({ clicks: 0, installs: organic.installs, revenue: 0 }, 0),
    previous: activityOf({ clicks: 0, installs: prevOrganic.installs, revenue: 0 }, 0),
  });
  // Totals: installs include Organic; the conversion rate is of the clicked sources' installs only.
  const total = (pick: (r: ActivitySourceRow) => ActivityFigures) => {
    const sum = sources.reduce((t, r) => {
      const f = pick(r);
      return { clicks: t.clicks + f.clicks, installs: t.installs + f.installs, clicked: t.clicked + (r.sourceId === null ? 0 : f.installs), revenue: t.revenue + f.revenue, cost: t.cost + f.cost };
    }, { clicks: 0, installs: 0, clicked: 0, revenue: 0, cost: 0 });
    return { ...activityOf(sum, sum.cost), conversionRate: ratio(sum.clicked, sum.clicks) };
  };
  return { range, previous, totals: { current: total((r) => r.current), previous: total((r) => r.previous) }, sources, series };
}

export async function attributionKindReport(db: Queryable, app: AppTz, kind: AcqReportKind, range: ResolvedRange): Promise<AcqReport> {
  const previous = previousPeriod(range);
  const [prevAt, at] = await Promise.all([
    rangeInstants(db, app.timezone, previous.startDay, previous.endDay),
    rangeInstants(db, app.timezone, range.startDay, range.endDay),
  ]);
  const rows = await attributionReport(db, app.id, app.timezone, kind, { previousFrom: prevAt.from, from: at.from, to: at.to }, range.startDay, range.timeGroup,
    ACQ_REPORT_LIMITS, nameAttributesSql);
  const byKind = (k: string) => rows.totals.find((t) => t.kind === k);
  const sumAll = (f: (t: (typeof rows.totals)[number]) => number) => rows.totals.reduce((n, t) => n + f(t), 0);
  const totals = ACQ_REPORT_TOTALS[kind].map((key) => {
    switch (key) {
      case 'installs': return { key, current: byKind('install')?.current ?? 0, previous: byKind('install')?.previous ?? 0 };
      case 'reinstalls': return { key, current: byKind('reinstall')?.current ?? 0, previous: byKind('reinstall')?.previous ?? 0 };
      case 'assistingClicks': return { key, current: sumAll((t) => t.assists_current), previous: sumAll((t) => t.assists_previous) };
      default: return { key, current: sumAll((t) => t.current), previous: sumAll((t) => t.previous) };
    }
  });
  const labels = bucketLabels(range);
  const values = new Map(rows.series.map((r) => [r.bucket, r.value]));
  const group = (r: (typeof rows.bySource)[number]) => ({
    id: r.id, name: r.id === null ? ORGANIC_LABEL : (r.name ?? ''), sourceName: r.source_name ?? (r.id === null ? null : null), current: r.current, previous: r.previous,
  });
  return {
    kind, range, previous, totals,
    series: { labels, values: labels.map((l) => values.get(l) ?? 0) },
    bySource: rows.bySource.map(group),
    byCampaign: rows.byCampaign.map((r) => ({ ...group(r), sourceName: r.id === null ? null : r.source_name })),
    latest: rows.latest.map((r) => ({
      time: r.t.toISOString(), kind: r.kind, personId: r.person_id,
      personName: personName(r.name_attributes) ?? r.email ?? r.customer_id,
      campaignId: r.campaign_id, campaignName: r.campaign_name, sourceName: r.source_name ?? ORGANIC_LABEL, match: r.match, assists: r.assists,
    })),
  };
}
