import { describe, expect, it } from 'vitest';
import { EMPTY_SENTINEL, OTHER_SENTINEL } from '@gd/shared';
import { assembleSeries, metricValue } from './explore.ts';
import { groupProperties } from './routes.ts';
import type { ExploreRow } from './repository.ts';

const row = (over: Partial<ExploreRow>): ExploreRow => ({ period: 0, bucket: null, key: null, events: 0, people: null, revenue: 0, ...over });
const labels = ['2026-03-01', '2026-03-02', '2026-03-03'];

describe('explore series', () => {
  it('aligns values with the buckets, zero where nothing happened, and sums additive totals', () => {
    const series = assembleSeries([row({ bucket: '2026-03-03', events: 4 }), row({ bucket: '2026-03-01', events: 2 })], labels, { metric: 'events', compare: false, breakdown: false });
    expect(series).toEqual([{ key: null, values: [2, 0, 4], total: 6 }]);
  });

  it('gives one zero series without a breakdown when there is no data, and none with one', () => {
    expect(assembleSeries([], labels, { metric: 'events', compare: true, breakdown: false })).toEqual([{ key: null, values: [0, 0, 0], total: 0, previous: [0, 0, 0], previousTotal: 0 }]);
    expect(assembleSeries([], labels, { metric: 'events', compare: false, breakdown: true })).toEqual([]);
  });

  it('takes totals from period rows (distinct people are not a sum of buckets)', () => {
    const rows = [
      row({ bucket: '2026-03-01', events: 3, people: 2 }), row({ bucket: '2026-03-02', events: 3, people: 2 }),
      row({ events: 6, people: 3 }),
      row({ period: 1, bucket: '2026-03-02', events: 1, people: 1 }), row({ period: 1, events: 1, people: 1 }),
    ];
    expect(assembleSeries(rows, labels, { metric: 'people', compare: true, breakdown: false })).toEqual([
      { key: null, values: [2, 2, 0], total: 3, previous: [0, 1, 0], previousTotal: 1 },
    ]);
    expect(assembleSeries(rows, labels, { metric: 'eventsPerPerson', compare: false, breakdown: false })[0]).toEqual({ key: null, values: [1.5, 1.5, 0], total: 2 });
  });

  it('names missing values with the empty sentinel and puts other last, the rest by total', () => {
    const rows = [
      row({ bucket: '2026-03-01', key: 'ES', events: 1 }), row({ bucket: '2026-03-01', key: OTHER_SENTINEL, events: 50 }),
      row({ bucket: '2026-03-02', key: '', events: 5 }), row({ bucket: '2026-03-02', key: 'US', events: 3 }),
    ];
    expect(assembleSeries(rows, labels, { metric: 'events', compare: false, breakdown: true }).map((s) => [s.key, s.total])).toEqual([
      [EMPTY_SENTINEL, 5], ['US', 3], ['ES', 1], [OTHER_SENTINEL, 50],
    ]);
  });

  it('ignores previous-period rows unless comparing', () => {
    const rows = [row({ bucket: '2026-03-01', events: 1 }), row({ period: 1, bucket: '2026-03-01', key: null, events: 9 })];
    expect(assembleSeries(rows, labels, { metric: 'events', compare: false, breakdown: false })).toEqual([{ key: null, values: [1, 0, 0], total: 1 }]);
  });

  it('computes each metric from a row', () => {
    const r = { events: 10, people: 4, revenue: 12.5 };
    expect([metricValue('events', r), metricValue('people', r), metricValue('revenue', r), metricValue('eventsPerPerson', r)]).toEqual([10, 4, 12.5, 2.5]);
    expect(metricValue('eventsPerPerson', { events: 3, people: 0, revenue: 0 })).toBe(0);
  });
});

describe('event properties', () => {
  it('groups value rows by property and names empty values', () => {
    expect(groupProperties([
      { sampled: 5, key: 'plan', n: 5, distinct_values: 2, value: 'pro', value_count: 3 },
      { sampled: 5, key: 'plan', n: 5, distinct_values: 2, value: '', value_count: 2 },
      { sampled: 5, key: 'price', n: 2, distinct_values: 1, value: '9.5', value_count: 2 },
    ])).toEqual([
      { name: 'plan', count: 5, distinct: 2, values: [{ value: 'pro', count: 3 }, { value: EMPTY_SENTINEL, count: 2 }] },
      { name: 'price', count: 2, distinct: 1, values: [{ value: '9.5', count: 2 }] },
    ]);
    expect(groupProperties([{ sampled: 0, key: null, n: null, distinct_values: null, value: null, value_count: null }])).toEqual([]);
  });
});
