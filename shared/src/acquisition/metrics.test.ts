import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  addCounts, arpu, billableUnits, campaignCost, campaignFiguresOf, daysBetween, derivedCosts, derivedRatios,
  emptyCounts, fixedCostShare, ratio, roi, type CampaignCounts,
} from './metrics.ts';

const counts = (over: Partial<CampaignCounts>): CampaignCounts => ({ ...emptyCounts(), ...over });

describe('ratio', () => {
  it('is null on a zero denominator, never Infinity or NaN', () => {
    expect(ratio(5, 0)).toBeNull();
    expect(ratio(0, 0)).toBeNull();
    expect(ratio(Number.NaN, 2)).toBeNull();
    expect(ratio(3, 4)).toBe(0.75);
  });
  it('property: finite inputs give a finite number or null', () => {
    fc.assert(fc.property(fc.double({ noNaN: true, min: -1e9, max: 1e9 }), fc.double({ noNaN: true, min: -1e9, max: 1e9 }), (a, b) => {
      const r = ratio(a, b);
      return b === 0 ? r === null : r === null ? !Number.isFinite(a / b) : Number.isFinite(r);
    }));
  });
});

describe('cost by pricing model', () => {
  const c = counts({ clicks: 1000, installs: 40, registers: 12, conversions: 5 });
  it('pays per click, install, lead (registration) and action', () => {
    expect(campaignCost({ pricingModel: 'cpc', costValue: 0.1 }, c)).toBe(100);
    expect(campaignCost({ pricingModel: 'cpi', costValue: 2.5 }, c)).toBe(100);
    expect(campaignCost({ pricingModel: 'cpl', costValue: 5 }, c)).toBe(60);
    expect(campaignCost({ pricingModel: 'cpa', costValue: 20 }, c)).toBe(100);
    expect(billableUnits('fixed', c)).toBe(0);
  });
  it('spreads a fixed cost over the campaign days', () => {
    const campaign = { startDay: '2026-03-01', endDay: '2026-03-10', fallbackDay: '2026-02-20' };
    expect(fixedCostShare(campaign, { startDay: '2026-03-01', endDay: '2026-03-10' })).toBe(1);
    expect(fixedCostShare(campaign, { startDay: '2026-02-25', endDay: '2026-03-02' })).toBe(0.2);
    expect(fixedCostShare(campaign, { startDay: '2026-03-11', endDay: '2026-03-20' })).toBe(0);
    expect(campaignCost({ pricingModel: 'fixed', costValue: 1000 }, c, 0.2)).toBe(200);
  });
  it('counts an open-ended fixed cost whole in the range holding its start (or creation) day', () => {
    expect(fixedCostShare({ startDay: '2026-03-05', endDay: null, fallbackDay: '2026-01-01' }, { startDay: '2026-03-01', endDay: '2026-03-07' })).toBe(1);
    expect(fixedCostShare({ startDay: null, endDay: null, fallbackDay: '2026-01-01' }, { startDay: '2026-03-01', endDay: '2026-03-07' })).toBe(0);
    expect(fixedCostShare({ startDay: null, endDay: null, fallbackDay: '2026-03-02' }, { startDay: '2026-03-01', endDay: '2026-03-07' })).toBe(1);
  });
  it('property: the shares of a fixed cost over consecutive ranges add up to the whole', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 120 }), (startOffset, length, split) => {
      const day = (n: number) => new Date(Date.UTC(2026, 0, 1 + n)).toISOString().slice(0, 10);
      const campaign = { startDay: day(startOffset), endDay: day(startOffset + length), fallbackDay: day(0) };
      const a = fixedCostShare(campaign, { startDay: day(-10), endDay: day(split) });
      const b = fixedCostShare(campaign, { startDay: day(split + 1), endDay: day(200) });
      return Math.abs(a + b - 1) < 1e-9;
    }));
  });
  it('counts days inclusively', () => {
    expect(daysBetween('2026-03-01', '2026-03-01')).toBe(1);
    expect(daysBetween('2026-02-27', '2026-03-02')).toBe(4);
    expect(daysBetween('2026-03-02', '2026-03-01')).toBe(0);
  });
});

describe('SPEC §3 metrics', () => {
  it('roi and arpu', () => {
    expect(roi(150, 100)).toBe(0.5);
    expect(roi(50, 0)).toBeNull();
    expect(arpu(90, 30)).toBe(3);
    expect(arpu(90, 0)).toBeNull();
  });

  it('campaign metrics from counts and cost', () => {
    const c = counts({ clicks: 200, uniqueClicks: 150, installs: 20, registers: 10, registrants: 8, sales: 6, buyers: 4, buyerDays: 5, conversions: 6, revenue: 120 });
    const f = campaignFiguresOf(c, 60, 5);
    expect(f.cost).toBe(60);
    expect(f.cpc).toBe(0.3);
    expect(f.cpi).toBe(3);
    expect(f.cpl).toBe(6);
    expect(f.leads).toBe(10);
    expect(f.cps).toBe(10);
    expect(f.cpb).toBe(15);
    expect(f.cpa).toBe(10);
    expect(f.itr).toBe(0.1);
    expect(f.dailyBuyers).toBe(1);
    expect(f.arpu).toBe(6);
    expect(f.roi).toBe(1);
    expect(f.uniqueClicks).toBe(150);
  });

  it('nothing happened: every ratio and cost per unit is null (shown "–")', () => {
    const f = campaignFiguresOf(emptyCounts(), 0, 7);
    for (const k of ['arpu', 'roi', 'cpb', 'cpc', 'cpi', 'cpl', 'cps', 'cpa', 'itr'] as const) expect(f[k]).toBeNull();
    expect(Object.values(f.ratios).every((v) => v === null)).toBe(true);
    expect(Object.values(f.costs).every((v) => v === null)).toBe(true);
    expect(f.dailyBuyers).toBe(0);
  });

  it('derived ratios: installs over clicks, events over installs, repeats for the "re" ratios', () => {
    const c = counts({ clicks: 100, installs: 10, reinstalls: 2, logins: 5, relogins: 20, reactivations: 3, registers: 6, registrants: 4, opens: 30, reopens: 8, sales: 7, buyers: 5, uninstalls: 3, uninstallers: 2 });
    expect(derivedRatios(c)).toEqual({
      installs: 0.1, reinstalls: 0.2, login: 0.5, relogin: 2, reactivations: 0.03, registers: 0.4, reregisters: 0.2,
      opens: 3, reopens: 0.8, transaction: 0.5, retransaction: 0.2, uninstalls: 0.2, reuninstalls: 0.1,
    });
  });

  it('derived costs: cost over the events', () => {
    const c = counts({ installs: 10, reinstalls: 0, logins: 4, reactivations: 5, registers: 8, opens: 20, reopens: 2, sales: 25 });
    expect(derivedCosts(c, 100)).toEqual({ installs: 10, reinstalls: null, login: 25, reactivations: 20, registers: 12.5, opens: 5, reopens: 50, transaction: 4 });
  });

  it('adds counts field by field', () => {
    expect(addCounts(counts({ clicks: 1, revenue: 2.5 }), counts({ clicks: 3, installs: 1 }))).toEqual(counts({ clicks: 4, revenue: 2.5, installs: 1 }));
  });
});
