import { describe, expect, it } from 'vitest';
import { abTestOf, holdsBack, primaryMetricOf } from './abTest.ts';
import { AB_STATS, declareWinner, erfc, sampleEnough, twoProportionTest, twoSidedP, wilsonInterval } from './abStats.ts';

describe('wilsonInterval', () => {
  it('gives the textbook 95% interval of 10 in 100', () => {
    const i = wilsonInterval(10, 100);
    expect(i.rate).toBe(0.1);
    expect(i.low).toBeCloseTo(0.055229, 5);
    expect(i.high).toBeCloseTo(0.174366, 5);
  });

  it('stays inside [0, 1] and is not a point at 0% or near 100%', () => {
    const zero = wilsonInterval(0, 20);
    expect(zero.low).toBe(0);
    expect(zero.high).toBeCloseTo(0.161125, 5);
    const high = wilsonInterval(45, 50);
    expect(high.low).toBeCloseTo(0.786398, 5);
    expect(high.high).toBeCloseTo(0.956524, 5);
    expect(wilsonInterval(50, 50).high).toBeCloseTo(1, 12);
  });

  it('says nothing without trials', () => {
    expect(wilsonInterval(0, 0)).toEqual({ rate: 0, low: 0, high: 1 });
  });
});

describe('twoProportionTest', () => {
  it('matches the pooled z-test of 20/100 against 35/100', () => {
    const t = twoProportionTest(20, 100, 35, 100);
    expect(t.difference).toBeCloseTo(0.15, 12);
    expect(t.z).toBeCloseTo(2.375423, 5);
    expect(t.pValue).toBeCloseTo(0.017529, 5);
  });

  it('is symmetric and not significant for 20% against 23% of 1,000', () => {
    const t = twoProportionTest(200, 1000, 230, 1000);
    expect(t.z).toBeCloseTo(1.632872, 5);
    expect(t.pValue).toBeCloseTo(0.102496, 5);
    expect(twoProportionTest(230, 1000, 200, 1000).pValue).toBeCloseTo(t.pValue, 12);
  });

  it('answers p = 1 when there is nothing to tell apart', () => {
    expect(twoProportionTest(0, 10, 0, 10).pValue).toBe(1);
    expect(twoProportionTest(3, 0, 1, 10).pValue).toBe(1);
  });

  it('has a normal tail accurate to the 7th decimal', () => {
    expect(twoSidedP(AB_STATS.z95)).toBeCloseTo(0.05, 7);
    expect(twoSidedP(0)).toBeCloseTo(1, 7);
    expect(erfc(1)).toBeCloseTo(0.157299207, 7);
    expect(erfc(-1)).toBeCloseTo(1.842700793, 7);
  });
});

describe('declareWinner', () => {
  it('declares the better variant when the difference is significant and the sample enough', () => {
    const d = declareWinner([{ id: 'A', successes: 2, trials: 20 }, { id: 'B', successes: 15, trials: 20 }]);
    expect(d).toEqual({ winnerId: 'B', reason: 'significant', bestId: 'B', threshold: 0.05 });
  });

  it('declares nothing when the difference could be chance', () => {
    expect(declareWinner([{ id: 'A', successes: 200, trials: 1000 }, { id: 'B', successes: 230, trials: 1000 }]))
      .toMatchObject({ winnerId: null, reason: 'notSignificant', bestId: 'B' });
  });

  it('declares nothing on a small sample, however large the difference', () => {
    expect(declareWinner([{ id: 'A', successes: 0, trials: 9 }, { id: 'B', successes: 9, trials: 9 }])).toMatchObject({ winnerId: null, reason: 'tooFew' });
    // Enough people, too few successes for the approximation (pooled 2/200: one expected per variant).
    expect(sampleEnough({ id: 'A', successes: 0, trials: 100 }, { id: 'B', successes: 2, trials: 100 })).toBe(false);
    expect(declareWinner([{ id: 'A', successes: 0, trials: 100 }, { id: 'B', successes: 2, trials: 100 }]).reason).toBe('tooFew');
  });

  it('declares nothing on a tie or without data', () => {
    expect(declareWinner([{ id: 'A', successes: 5, trials: 50 }, { id: 'B', successes: 5, trials: 50 }]).reason).toBe('tie');
    expect(declareWinner([{ id: 'A', successes: 0, trials: 0 }, { id: 'B', successes: 0, trials: 0 }]).reason).toBe('noData');
    expect(declareWinner([{ id: 'A', successes: 5, trials: 50 }]).reason).toBe('noData');
  });

  it('with three variants, the best must beat each other one under 0.05 / 2', () => {
    // B against A: p ≈ 0.0175, under the Bonferroni threshold of 0.025; against C far under it.
    const three = [{ id: 'A', successes: 20, trials: 100 }, { id: 'B', successes: 35, trials: 100 }, { id: 'C', successes: 10, trials: 100 }];
    expect(declareWinner(three)).toMatchObject({ winnerId: 'B', threshold: 0.025 });
    // 22% against 35%: p ≈ 0.043, under 0.05 but not under 0.025.
    const close = [{ id: 'A', successes: 22, trials: 100 }, { id: 'B', successes: 35, trials: 100 }, { id: 'C', successes: 10, trials: 100 }];
    expect(twoProportionTest(22, 100, 35, 100).pValue).toBeLessThan(0.05);
    expect(declareWinner(close)).toMatchObject({ winnerId: null, reason: 'notSignificant', bestId: 'B' });
  });
});

describe('abTestOf', () => {
  it('reads the default for definitions from before the setting, and holds back only A/B tests under 100%', () => {
    expect(abTestOf({ type: 'test_ab' })).toEqual({ testPercent: 100 });
    expect(abTestOf({ abTest: { testPercent: 5 } })).toEqual({ testPercent: 100 });
    expect(holdsBack({ type: 'test_ab', abTest: { testPercent: 50 } })).toBe(true);
    expect(holdsBack({ type: 'test_ab', abTest: { testPercent: 100 } })).toBe(false);
    expect(holdsBack({ type: 'email', abTest: { testPercent: 50 } })).toBe(false);
  });
});

describe('primaryMetricOf', () => {
  it('is the approved settings\' metric, and click for definitions from before it (or unreadable settings)', () => {
    expect(primaryMetricOf({ type: 'test_ab', abTest: { testPercent: 50 } })).toBe('click');
    expect(primaryMetricOf({ type: 'test_ab' })).toBe('click');
    expect(primaryMetricOf({ abTest: { testPercent: 50, primaryMetric: 'conversion' } })).toBe('conversion');
    expect(primaryMetricOf({ abTest: { testPercent: 50, primaryMetric: 'revenue' } })).toBe('click');
    expect(abTestOf({ abTest: { testPercent: 30, primaryMetric: 'open' } })).toEqual({ testPercent: 30, primaryMetric: 'open' });
  });
});
