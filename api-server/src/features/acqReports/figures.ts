/**
 * Campaign figures (issue 16, piece F): the counts of each campaign over a range of days in the
 * app's time zone, its cost by pricing model and every metric of SPEC §3 (shared
 * `acquisition/metrics.ts`). The campaign list (apptracker), the provider view and the
 * acquisition reports read them through `campaignFigures`.
 */
import {
  campaignCost, campaignFiguresOf, daysBetween, emptyCounts, fixedCostShare,
  type App, type CampaignCounts, type CampaignFigures, type DayRange,
} from '@gd/shared';
import type { Queryable } from '../../db/pool.ts';
import { campaignCounts, campaignImpressions, campaignRows, rangeInstants, type CampaignFilter, type CampaignRow, type CountsRow } from './repository.ts';

export const countsOf = (r: CountsRow): CampaignCounts => ({
  clicks: r.clicks, uniqueClicks: r.unique_clicks, impressions: 0, installs: r.installs, reinstalls: r.reinstalls,
  reactivations: r.reactivations, uninstalls: r.uninstalls, uninstallers: r.uninstallers, registers: r.registers,
  registrants: r.registrants, logins: r.logins, relogins: r.relogins, opens: r.opens, reopens: r.reopens, sales: r.sales,
  buyers: r.buyers, buyerDays: r.buyer_days, revenue: r.revenue, conversions: r.conversions, engagement: r.engagement,
});

/** A campaign's cost over `range` from its counts there. */
export function costOf(c: CampaignRow, counts: CampaignCounts, range: DayRange): number {
  const share = c.pricing_model === 'fixed'
    ? fixedCostShare({ startDay: c.start_day, endDay: c.end_day, fallbackDay: c.created_day }, range)
    : 0;
  return campaignCost({ pricingModel: c.pricing_model, costValue: c.cost_value }, counts, share);
}

/**
 * The figures of the app's live campaigns over `range` (days in the app's time zone), keyed by
 * campaign id; every campaign the filter selects has an entry (zeros when nothing happened).
 * `filter.campaignIds` limits to some campaigns, `filter.accountProviderId` to one provider's
 * (through the campaign's source). Ids of another app are simply absent.
 */
export async function campaignFigures(
  db: Queryable, app: Pick<App, 'id' | 'timezone'>, range: DayRange, filter?: CampaignFilter,
): Promise<Map<string, CampaignFigures>> {
  const campaigns = await campaignRows(db, app.id, app.timezone, filter);
  return figuresOfCampaigns(db, app, range, campaigns);
}

/** As campaignFigures, for campaign rows already read. */
export async function figuresOfCampaigns(
  db: Queryable, app: Pick<App, 'id' | 'timezone'>, range: DayRange, campaigns: CampaignRow[],
): Promise<Map<string, CampaignFigures>> {
  const out = new Map<string, CampaignFigures>();
  if (campaigns.length === 0) return out;
  const at = await rangeInstants(db, app.timezone, range.startDay, range.endDay);
  const ids = campaigns.map((c) => c.id);
  const rows = await campaignCounts(db, app.id, app.timezone, at, range.startDay, ids, null);
  const impressions = await campaignImpressions(db, app.id, at, ids);
  const byId = new Map(rows.map((r) => [r.campaign_id, countsOf(r)]));
  const days = daysBetween(range.startDay, range.endDay);
  for (const c of campaigns) {
    const counts = { ...(byId.get(c.id) ?? emptyCounts()), impressions: impressions.get(c.id) ?? 0 };
    out.set(c.id, campaignFiguresOf(counts, costOf(c, counts, range), days));
  }
  return out;
}
