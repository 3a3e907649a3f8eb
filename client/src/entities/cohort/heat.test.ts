import { describe, expect, it } from 'vitest';
import { heatStyle, percent, rateOf } from './heat.ts';

describe('retention heat', () => {
  it('grows with the rate, turns the text white on strong blue, hatches incomplete cells', () => {
    const low = heatStyle(0.05, true);
    const high = heatStyle(0.9, true);
    const alpha = (s: string) => Number(/, ([\d.]+)\)/.exec(s)?.[1]);
    expect(alpha(high.background)).toBeGreaterThan(alpha(low.background));
    expect(low.color).toBeUndefined();
    expect(high.color).toBe('#fff');
    expect(heatStyle(0.5, false).background).toContain('repeating-linear-gradient');
    expect(heatStyle(0.5, false).opacity).toBeLessThan(1);
    expect(heatStyle(null, true).background).toBe('transparent');
  });
  it('formats rates and refuses empty cohorts', () => {
    expect(percent('en')(0.075)).toBe('7.5%');
    expect(percent('en')(0.4251)).toBe('43%');
    expect(percent('en')(null)).toBe('—');
    expect(rateOf(3, 0)).toBeNull();
    expect(rateOf(null, 10)).toBeNull();
    expect(rateOf(5, 10)).toBe(0.5);
  });
});
