/**
 * Acquisition metrics (SPEC.md §3 "Events, metrics and attribution"), as pure functions over the
 * counts the API reads (`api-server/src/features/acqReports/figures.ts`). Every ratio or cost
 * whose denominator is zero is `null` (shown "–"), never 0 or Infinity.
 *
 * Definitions (our reading of SPEC §3, which names the metrics but not their formulas):
 * - clicks: counted clicks (bot = false) in the range; unique clicks: distinct devices among them
 *   (the first device id of idfa, idfv, gaid, oaid, else IP + user agent), per campaign.
 * - installs, reinstalls, reactivations (retargeting opens): attributions of that kind to the
 *   campaign whose install/open time is in the range; uninstalls: uninstalls in the range of
 *   people whose install is attributed to the campaign.
 * - Events after an install credit the install's campaign: a person's event is credited to the
 *   campaign of their latest install or reinstall attribution at or before the event (Organic
 *   attributions credit no campaign).
 * - registers (gd_register), leads (= registers: a lead is a sign-up), logins (first login,
 *   gd_login) and relogins (gd_login2), opens (gd_start_session) and reopens (gd_reopen),
 *   sales (gd_transaction occurrences), buyers (distinct people with a transaction), daily buyers
 *   (buyers per day, averaged over the range's days), revenue (the revenue of credited events),
 *   conversions (occurrences of the campaign's cost event when it has one, else sales),
 *   engagement (all events of credited people in the range), impressions (the link's impression
 *   pixel, GET /l/:code/i, loaded where a network shows the ad; bots not counted).
 * - cost, by pricing model: cpc = value × clicks, cpi = value × installs, cpl = value × leads,
 *   cpa = value × conversions, fixed = the whole value spread evenly over the campaign's days
 *   (start to end day; a campaign without both counts its whole value in the range holding its
 *   start, or creation, day).
 * - arpu = revenue / installs; roi = (revenue − cost) / cost; itr (install-through rate) =
 *   installs / clicks; cpX = cost / X.
 * - Derived ratio metrics (events over clicks or installs): installs and reactivations over
 *   clicks, the rest over installs; a "re" ratio counts repeats (occurrences beyond each
 *   person's first). Derived cost metrics: cost over the events.
 */
import { z } from 'zod';
import type { PricingModel } from './model.ts';

/** a / b, or null when b is 0 (or either, or the quotient, is not a finite number). */
export function ratio(a: number, b: number): number | null {
  if (!Number.isFinite(a) || !Number.isFinite(b) || b === 0) return null;
  const q = a / b;
  return Number.isFinite(q) ? q : null;
}

/** The counts read from the database for one campaign (or one group of campaigns) and a range. */
export const CampaignCounts = z.object({
  clicks: z.number(),
  uniqueClicks: z.number(),
  impressions: z.number(),
  installs: z.number(),
  reinstalls: z.number(),
  reactivations: z.number(),
  uninstalls: z.number(),
  /** People among the uninstalls (repeats = uninstalls − uninstallers). */
  uninstallers: z.number(),
  registers: z.number(),
  registrants: z.number(),
  logins: z.number(),
  relogins: z.number(),
  opens: z.number(),
  reopens: z.number(),
  sales: z.number(),
  buyers: z.number(),
  /** Sum over the range's days of that day's distinct buyers. */
  buyerDays: z.number(),
  revenue: z.number(),
  conversions: z.number(),
  engagement: z.number(),
});
export type CampaignCounts = z.infer<typeof CampaignCounts>;

export const emptyCounts = (): CampaignCounts => ({
  clicks: 0, uniqueClicks: 0, impressions: 0, installs: 0, reinstalls: 0, reactivations: 0, uninstalls: 0, uninstallers: 0,
  registers: 0, registrants: 0, logins: 0, relogins: 0, opens: 0, reopens: 0, sales: 0, buyers: 0, buyerDays: 0,
  revenue: 0, conversions: 0, engagement: 0,
});

/** Sums counts (for totals over campaigns or sources; distinct counts become sums of distincts). */
export function addCounts(a: CampaignCounts, b: CampaignCounts): CampaignCounts {
  const out = emptyCounts();
  for (const k of Object.keys(out) as (keyof CampaignCounts)[]) out[k] = a[k] + b[k];
  return out;
}

const Nullable = z.number().nullable();

/** SPEC §3 "Derived ratio metrics". */
export const DERIVED_RATIO_METRICS = [
  'installs', 'reinstalls', 'login', 'relogin', 'reactivations', 'registers', 'reregisters',
  'opens', 'reopens', 'transaction', 'retransaction', 'uninstalls', 'reuninstalls',
] as const;
export type DerivedRatioMetric = (typeof DERIVED_RATIO_METRICS)[number];
/** SPEC §3 "Derived cost metrics". */
export const DERIVED_COST_METRICS = ['installs', 'reinstalls', 'login', 'reactivations', 'registers', 'opens', 'reopens', 'transaction'] as const;
export type DerivedCostMetric = (typeof DERIVED_COST_METRICS)[number];

/** A campaign's figures over a range: its counts, cost and every metric of SPEC §3. */
export const CampaignFigures = CampaignCounts.extend({
  cost: z.number(),
  // SPEC §3 metrics
  arpu: Nullable,
  roi: Nullable,
  // campaign metrics
  leads: z.number(),
  dailyBuyers: Nullable,
  cpb: Nullable,
  cpc: Nullable,
  cpi: Nullable,
  cpl: Nullable,
  cps: Nullable,
  cpa: Nullable,
  itr: Nullable,
  ratios: z.record(z.enum(DERIVED_RATIO_METRICS), Nullable),
  costs: z.record(z.enum(DERIVED_COST_METRICS), Nullable),
});
export type CampaignFigures = z.infer<typeof CampaignFigures>;

/** What a campaign costs per unit of its pricing model. */
export interface CampaignPricing { pricingModel: PricingModel; costValue: number }

/** The units a pricing model pays for, from the counts (fixed: not per unit, see fixedCostShare). */
export function billableUnits(model: PricingModel, c: Pick<CampaignCounts, 'clicks' | 'installs' | 'registers' | 'conversions'>): number {
  switch (model) {
    case 'cpc': return c.clicks;
    case 'cpi': return c.installs;
    case 'cpl': return leadsOf(c);
    case 'cpa': return c.conversions;
    case 'fixed': return 0;
    default: {
      const never: never = model;
      throw new Error(`unknown pricing model ${String(never)}`);
    }
  }
}

/** A lead is a registration (SPEC §3 names leads and cpl without a lead event). */
export const leadsOf = (c: Pick<CampaignCounts, 'registers'>): number => c.registers;

const dayNumber = (day: string) => Math.round(Date.parse(`${day}T00:00:00Z`) / 86_400_000);

/** Days from `startDay` to `endDay`, both included (0 when end is before start). */
export function daysBetween(startDay: string, endDay: string): number {
  return Math.max(0, dayNumber(endDay) - dayNumber(startDay) + 1);
}

/**
 * The share (0..1) of a fixed cost that falls in `range`: the campaign's days (start to end, both
 * included) spread evenly; with no end day, or no start day, the whole cost falls on the start
 * day (or `fallbackDay`, the creation day).
 */
export function fixedCostShare(campaign: { startDay: string | null; endDay: string | null; fallbackDay: string }, range: { startDay: string; endDay: string }): number {
  const start = campaign.startDay ?? campaign.fallbackDay;
  if (campaign.startDay === null || campaign.endDay === null || campaign.endDay < campaign.startDay) {
    return start >= range.startDay && start <= range.endDay ? 1 : 0;
  }
  const total = daysBetween(campaign.startDay, campaign.endDay);
  const from = campaign.startDay > range.startDay ? campaign.startDay : range.startDay;
  const to = campaign.endDay < range.endDay ? campaign.endDay : range.endDay;
  return daysBetween(from, to) / total;
}

/** Cost by pricing model: value × units, or the fixed value × its share of the range. */
export function campaignCost(pricing: CampaignPricing, counts: Pick<CampaignCounts, 'clicks' | 'installs' | 'registers' | 'conversions'>, fixedShare = 0): number {
  if (pricing.pricingModel === 'fixed') return round4(pricing.costValue * fixedShare);
  return round4(pricing.costValue * billableUnits(pricing.pricingModel, counts));
}

const round4 = (n: number) => Math.round(n * 10_000) / 10_000;

/** SPEC §3 metric roi: (revenue − cost) / cost. */
export const roi = (revenue: number, cost: number): number | null => ratio(revenue - cost, cost);
/** SPEC §3 metric arpu: revenue per installed user. */
export const arpu = (revenue: number, installs: number): number | null => ratio(revenue, installs);

/** The derived ratio metrics: events over clicks (installs, reactivations) or installs (the rest). */
export function derivedRatios(c: CampaignCounts): Record<DerivedRatioMetric, number | null> {
  return {
    installs: ratio(c.installs, c.clicks),
    reinstalls: ratio(c.reinstalls, c.installs),
    login: ratio(c.logins, c.installs),
    relogin: ratio(c.relogins, c.installs),
    reactivations: ratio(c.reactivations, c.clicks),
    registers: ratio(c.registrants, c.installs),
    reregisters: ratio(c.registers - c.registrants, c.installs),
    opens: ratio(c.opens, c.installs),
    reopens: ratio(c.reopens, c.installs),
    transaction: ratio(c.buyers, c.installs),
    retransaction: ratio(c.sales - c.buyers, c.installs),
    uninstalls: ratio(c.uninstallers, c.installs),
    reuninstalls: ratio(c.uninstalls - c.uninstallers, c.installs),
  };
}

/** The derived cost metrics: cost over the events. */
export function derivedCosts(c: CampaignCounts, cost: number): Record<DerivedCostMetric, number | null> {
  return {
    installs: ratio(cost, c.installs),
    reinstalls: ratio(cost, c.reinstalls),
    login: ratio(cost, c.logins),
    reactivations: ratio(cost, c.reactivations),
    registers: ratio(cost, c.registers),
    opens: ratio(cost, c.opens),
    reopens: ratio(cost, c.reopens),
    transaction: ratio(cost, c.sales),
  };
}

/** Every metric from the counts, the cost and the number of days in the range. */
export function campaignFiguresOf(c: CampaignCounts, cost: number, days: number): CampaignFigures {
  const leads = leadsOf(c);
  return {
    ...c,
    cost,
    arpu: arpu(c.revenue, c.installs),
    roi: roi(c.revenue, cost),
    leads,
    dailyBuyers: ratio(c.buyerDays, days),
    cpb: ratio(cost, c.buyers),
    cpc: ratio(cost, c.clicks),
    cpi: ratio(cost, c.installs),
    cpl: ratio(cost, leads),
    cps: ratio(cost, c.sales),
    cpa: ratio(cost, c.conversions),
    itr: ratio(c.installs, c.clicks),
    ratios: derivedRatios(c),
    costs: derivedCosts(c, cost),
  };
}
