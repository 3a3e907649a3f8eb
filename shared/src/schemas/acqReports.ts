/**
 * Acquisition reports (issue 16, piece F): /acquisition/activity and the installs, uninstalls,
 * retargeting and assisted-installs screens. Days are in the app's time zone like every analytics
 * answer (./behaviour.ts); the query is the analytics range (startDay, endDay, timeGroup; default
 * the last 7 days) and every figure comes with the previous period of the same length.
 *
 * Metrics are defined in shared/src/acquisition/metrics.ts. Activity per source: clicks (counted,
 * not bots), installs (attributed to the source's campaigns; the Organic row has the installs no
 * click matched), conversion rate (installs / clicks), cost (by each campaign's pricing model),
 * revenue (of the events credited to the campaigns) and roi ((revenue − cost) / cost); in the
 * totals, installs include Organic and the conversion rate is the clicked sources' only. A ratio
 * with nothing to divide by is null (shown "–").
 *
 * The attribution reports count:
 * - installs: install attributions (total `installs`) and reinstalls (`reinstalls`);
 * - uninstalls: uninstalls (lifecycle), each credited to the person's latest install attribution;
 * - retargeting: retargeting opens attributed to a retargeting campaign or Organic (`reactivations`);
 * - assisted: installs and reinstalls with at least one assisting click (`assistedInstalls`) and
 *   those clicks (`assistingClicks`); by source and campaign they count the assisting clicks'.
 */
import { z } from 'zod';
import { MatchKind, SourceType } from '../acquisition/model.ts';
import { DayRange, ResolvedRange } from './behaviour.ts';

export const ACQ_REPORT_LIMITS = {
  /** Rows of "latest" answered. */
  latest: 20,
  /** Campaign rows answered (the most of the range first). */
  campaigns: 50,
} as const;

export const ActivityFigures = z.object({
  clicks: z.number(),
  installs: z.number(),
  conversionRate: z.number().nullable(),
  cost: z.number(),
  revenue: z.number(),
  roi: z.number().nullable(),
});
export type ActivityFigures = z.infer<typeof ActivityFigures>;

export const ActivitySourceRow = z.object({
  /** null: the Organic row. */
  sourceId: z.string().uuid().nullable(),
  name: z.string(),
  type: SourceType.nullable(),
  current: ActivityFigures,
  previous: ActivityFigures,
});
export type ActivitySourceRow = z.infer<typeof ActivitySourceRow>;

export const ActivitySeries = z.object({
  labels: z.array(z.string()),
  clicks: z.array(z.number()),
  installs: z.array(z.number()),
  cost: z.array(z.number()),
  revenue: z.array(z.number()),
});
export type ActivitySeries = z.infer<typeof ActivitySeries>;

export const AcqActivityAnswer = {
  range: ResolvedRange,
  previous: DayRange,
  totals: z.object({ current: ActivityFigures, previous: ActivityFigures }),
  sources: z.array(ActivitySourceRow),
  series: ActivitySeries,
};
export type AcqActivity = z.infer<z.ZodObject<typeof AcqActivityAnswer>>;

export const AcqReportKind = z.enum(['installs', 'uninstalls', 'retargeting', 'assisted']);
export type AcqReportKind = z.infer<typeof AcqReportKind>;

export const AcqTotalKey = z.enum(['installs', 'reinstalls', 'uninstalls', 'reactivations', 'assistedInstalls', 'assistingClicks']);
export type AcqTotalKey = z.infer<typeof AcqTotalKey>;

/** The totals each report answers, in order (the first is the one the chart and groups count). */
export const ACQ_REPORT_TOTALS: Record<AcqReportKind, readonly AcqTotalKey[]> = {
  installs: ['installs', 'reinstalls'],
  uninstalls: ['uninstalls'],
  retargeting: ['reactivations'],
  assisted: ['assistedInstalls', 'assistingClicks'],
};

export const CountPair = z.object({ current: z.number(), previous: z.number() });

export const AcqReportGroup = z.object({
  /** A source or campaign id; null: Organic. */
  id: z.string().uuid().nullable(),
  name: z.string(),
  /** The campaign's source (campaign rows only). */
  sourceName: z.string().nullable(),
  current: z.number(),
  previous: z.number(),
});
export type AcqReportGroup = z.infer<typeof AcqReportGroup>;

export const AcqReportRow = z.object({
  time: z.string(),
  kind: z.string(),
  personId: z.string(),
  personName: z.string().nullable(),
  campaignId: z.string().uuid().nullable(),
  campaignName: z.string().nullable(),
  sourceName: z.string(),
  match: MatchKind.nullable(),
  /** Assisting clicks (assisted report). */
  assists: z.number(),
});
export type AcqReportRow = z.infer<typeof AcqReportRow>;

export const AcqReportAnswer = {
  kind: AcqReportKind,
  range: ResolvedRange,
  previous: DayRange,
  totals: z.array(z.object({ key: AcqTotalKey, current: z.number(), previous: z.number() })),
  series: z.object({ labels: z.array(z.string()), values: z.array(z.number()) }),
  bySource: z.array(AcqReportGroup),
  byCampaign: z.array(AcqReportGroup),
  latest: z.array(AcqReportRow),
};
export type AcqReport = z.infer<z.ZodObject<typeof AcqReportAnswer>>;
