import { describe, expect, it } from 'vitest';
import { percent, points, pValueText, thresholdText } from './format.ts';

describe('A/B formats', () => {
  it('writes rates, p-values and differences in the person\'s language', () => {
    expect(percent('en')(0.1234)).toBe('12.3%');
    expect(percent('es')(0.1234)).toBe('12,3\u00a0%');
    expect(pValueText(0.0175, 'en')).toBe('p = 0.018');
    expect(pValueText(0.00002, 'en')).toBe('p < 0.001');
    expect(pValueText(0.0175, 'es')).toBe('p = 0,018');
    expect(thresholdText(0.025, 'en')).toBe('0.025');
    expect(thresholdText(0.05, 'es')).toBe('0,05');
    expect(points(0.125, 'en')).toEqual({ sign: '+', points: '12.5' });
    expect(points(-0.05, 'es')).toEqual({ sign: '−', points: '5' });
  });
});
