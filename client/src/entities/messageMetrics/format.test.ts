import { describe, expect, it } from 'vitest';
import { formatVariation } from '../../ui/format.ts';
import { formatKpi, goodWhenUp } from './format.ts';

describe('message KPI formats', () => {
  it('reads counts, ctr and revenue in the user\'s language', () => {
    expect(formatKpi('sents', 12345, 'en')).toBe('12,345');
    expect(formatKpi('ctr', 0.256, 'en')).toBe('25.6%');
    expect(formatKpi('ctr', null, 'en')).toBe('–');
    expect(formatKpi('revenueDirect', 15.5, 'en')).toBe('15.50');
    expect(formatKpi('revenueDirect', 1234.5, 'es')).toBe('1234,50');
  });
  it('signs variations and has none without a previous figure', () => {
    expect(formatVariation(0.25, 'en')).toBe('+25%');
    expect(formatVariation(-0.5, 'en')).toBe('-50%');
    expect(formatVariation(0, 'en')).toBe('0%');
    expect(formatVariation(null, 'en')).toBeNull();
    expect(goodWhenUp('fails')).toBe(false);
    expect(goodWhenUp('clicks')).toBe(true);
  });
});
