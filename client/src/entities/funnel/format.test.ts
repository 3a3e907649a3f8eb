import { describe, expect, it } from 'vitest';
import { durationParts, formatPercent } from './format.ts';

describe('funnel formats', () => {
  it('durations take the largest unit that keeps them at least 1', () => {
    expect(durationParts(0)).toEqual({ n: 0, unit: 's' });
    expect(durationParts(45)).toEqual({ n: 45, unit: 's' });
    expect(durationParts(90)).toEqual({ n: 1.5, unit: 'm' });
    expect(durationParts(3600)).toEqual({ n: 1, unit: 'h' });
    expect(durationParts(7 * 86_400)).toEqual({ n: 7, unit: 'd' });
    expect(durationParts(36 * 3600)).toEqual({ n: 1.5, unit: 'd' });
    expect(durationParts(50 * 60)).toEqual({ n: 50, unit: 'm' });
  });
  it('percentages', () => {
    expect(formatPercent(0.5, 'en')).toBe('50%');
    expect(formatPercent(1 / 3, 'en')).toBe('33.3%');
  });
});
