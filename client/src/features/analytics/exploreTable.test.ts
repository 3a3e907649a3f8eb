import { describe, expect, it } from 'vitest';
import { buildExploreTable, tableRows } from './exploreTable.ts';
import { formatVariation } from '../../ui/format.ts';
import { metricFormatter, variation } from './labels.ts';

const labels = {
  bucket: 'Period', total: 'Total', series: (key: string | null) => key ?? 'purchase',
  previous: (name: string) => `${name} (previous period)`, format: metricFormatter('en', 'events'),
};

describe('explore table', () => {
  it('has a row per bucket, a column per series and a totals row', () => {
    const table = buildExploreTable({
      buckets: ['2026-03-01', '2026-03-02'],
      series: [{ key: 'ES', values: [1200, 3], total: 1203 }, { key: 'US', values: [0, 2], total: 2 }],
    }, labels);
    expect(tableRows(table)).toEqual([
      ['Period', 'ES', 'US'],
      ['2026-03-01', '1,200', '0'],
      ['2026-03-02', '3', '2'],
      ['Total', '1,203', '2'],
    ]);
  });

  it('puts the previous period next to each series when comparing', () => {
    const table = buildExploreTable({ buckets: ['00:00'], series: [{ key: null, values: [4], total: 4, previous: [2], previousTotal: 2 }] }, labels);
    expect(table.head).toEqual(['Period', 'purchase', 'purchase (previous period)']);
    expect(table.totals).toEqual(['Total', '4', '2']);
  });
});

describe('numbers', () => {
  it('formats per metric and language', () => {
    expect(metricFormatter('en', 'revenue')(1234.5)).toBe('1,234.50');
    expect(metricFormatter('es', 'revenue')(1234.5)).toBe('1234,50');
    expect(metricFormatter('en', 'revenue', 'EUR')(1234.5)).toBe('€1,234.50');
    expect(metricFormatter('es', 'revenue', 'EUR')(1234.5).replace(/\s/g, ' ')).toBe('1234,50 €');
    expect(metricFormatter('en', 'events', 'EUR')(1234.5)).toBe('1,235');
    expect(metricFormatter('en', 'eventsPerPerson')(1.3333)).toBe('1.33');
  });

  it('computes the change on the previous period', () => {
    expect(variation(150, 100)).toBe(0.5);
    expect(variation(5, 0)).toBeNull();
    expect(formatVariation(0.5, 'en')).toBe('+50%');
    expect(formatVariation(-0.125, 'en')).toBe('-12.5%');
  });
});
