import { describe, expect, it } from 'vitest';
import { emptyKpis } from '../schemas/messageAnalytics.ts';
import { sumKpis, variation } from './variation.ts';

describe('variation', () => {
  it('is the relative change on the previous period', () => {
    expect(variation(125, 100)).toBe(0.25);
    expect(variation(50, 100)).toBe(-0.5);
    expect(variation(-5, -10)).toBe(0.5);
  });
  it('is 0 when equal (zeros included) and null without a previous figure', () => {
    expect(variation(7, 7)).toBe(0);
    expect(variation(0, 0)).toBe(0);
    expect(variation(3, 0)).toBeNull();
    expect(variation(null, 0.2)).toBeNull();
    expect(variation(0.1, null)).toBeNull();
  });
});

describe('sumKpis', () => {
  it('adds the counts and recomputes ctr from the sums', () => {
    const a = { ...emptyKpis(), delivered: 10, clicks: 1, ctr: 0.1, revenueDirect: 2.5 };
    const b = { ...emptyKpis(), delivered: 30, clicks: 9, ctr: 0.3, revenueDirect: 1 };
    const total = sumKpis([a, b], emptyKpis());
    expect(total.delivered).toBe(40);
    expect(total.clicks).toBe(10);
    expect(total.ctr).toBe(0.25);
    expect(total.revenueDirect).toBe(3.5);
  });
  it('has no ctr when nothing was delivered', () => {
    expect(sumKpis([], emptyKpis()).ctr).toBeNull();
  });
});
