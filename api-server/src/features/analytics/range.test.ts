import { describe, expect, it } from 'vitest';
import { AnalyticsRangeQuery, ExploreQuery } from '@gd/shared';
import { bucketLabels, previousPeriod, resolveRange } from './range.ts';

describe('ranges', () => {
  it('defaults to the last 7 days including today, and keeps a given range', () => {
    expect(resolveRange({ timeGroup: 'day' }, '2026-03-10')).toEqual({ startDay: '2026-03-04', endDay: '2026-03-10', timeGroup: 'day' });
    expect(resolveRange({ startDay: '2026-01-01', endDay: '2026-01-31', timeGroup: 'week' }, '2026-03-10')).toEqual({ startDay: '2026-01-01', endDay: '2026-01-31', timeGroup: 'week' });
  });

  it('takes the previous period of the same length ending the day before', () => {
    expect(previousPeriod({ startDay: '2026-03-04', endDay: '2026-03-10' })).toEqual({ startDay: '2026-02-25', endDay: '2026-03-03' });
    expect(previousPeriod({ startDay: '2026-03-01', endDay: '2026-03-01' })).toEqual({ startDay: '2026-02-28', endDay: '2026-02-28' });
  });

  it('refuses ranges over 366 days, reversed ranges and half ranges', () => {
    expect(AnalyticsRangeQuery.safeParse({ startDay: '2025-01-01', endDay: '2026-01-01' }).success).toBe(true); // 366 days
    expect(AnalyticsRangeQuery.safeParse({ startDay: '2025-01-01', endDay: '2026-01-02' }).success).toBe(false);
    expect(AnalyticsRangeQuery.safeParse({ startDay: '2026-01-02', endDay: '2026-01-01' }).success).toBe(false);
    expect(AnalyticsRangeQuery.safeParse({ startDay: '2026-01-02' }).success).toBe(false);
    expect(AnalyticsRangeQuery.parse({})).toEqual({ timeGroup: 'day' });
  });

  it('validates explore queries: property with its breakdown only, boolean compare from the query string', () => {
    expect(ExploreQuery.safeParse({ event: 'buy', breakdown: 'property' }).success).toBe(false);
    expect(ExploreQuery.safeParse({ event: 'buy', property: 'sku' }).success).toBe(false);
    expect(ExploreQuery.safeParse({ event: 'buy', metric: 'sessions' }).success).toBe(false);
    expect(ExploreQuery.parse({ event: 'buy', breakdown: 'property', property: 'sku', compare: 'true' })).toMatchObject({ compare: true, metric: 'events', timeGroup: 'day' });
    expect(ExploreQuery.parse({ event: 'buy', compare: '0' }).compare).toBe(false);
  });
});

describe('bucket labels', () => {
  it('hours: 24 buckets labelled HH:00', () => {
    const labels = bucketLabels({ startDay: '2026-03-08', endDay: '2026-03-08', timeGroup: 'hour' });
    expect(labels).toHaveLength(24);
    expect(labels[0]).toBe('00:00');
    expect(labels[23]).toBe('23:00');
  });

  it('days: every day of the range', () => {
    expect(bucketLabels({ startDay: '2026-02-27', endDay: '2026-03-02', timeGroup: 'day' })).toEqual(['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02']);
  });

  it('weeks start on Monday, the first clipped to the range start', () => {
    // 2026-03-04 is a Wednesday; Mondays 2026-03-09 and 2026-03-16.
    expect(bucketLabels({ startDay: '2026-03-04', endDay: '2026-03-17', timeGroup: 'week' })).toEqual(['2026-03-04', '2026-03-09', '2026-03-16']);
  });

  it('months start on the 1st, the first clipped to the range start', () => {
    expect(bucketLabels({ startDay: '2026-01-15', endDay: '2026-03-01', timeGroup: 'month' })).toEqual(['2026-01-15', '2026-02-01', '2026-03-01']);
  });
});
