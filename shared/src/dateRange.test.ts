import { describe, expect, it } from 'vitest';
import { HOUR_LABELS, addDays, changeRange, defaultDateRange } from './dateRange.ts';
import { RESERVED_PREFIX, deriveApiBase, dropReserved, rangeQuery, ConfigurationError } from './apiBase.ts';
import { apiVersionForPlan } from './enums.ts';
import { isAdminPath } from './routes.ts';

describe('date ranges', () => {
  it('defaults to the last 7 days including today, by day', () => {
    expect(defaultDateRange('2026-03-02')).toEqual({ startDay: '2026-02-24', endDay: '2026-03-02', timeGroup: 'day' });
    expect(addDays('2024-12-31', 1)).toBe('2025-01-01');
  });
  it('announces a change only when the range differs', () => {
    const announced: unknown[] = [];
    const current = defaultDateRange('2026-03-02');
    expect(changeRange(current, { ...current }, (r) => announced.push(r))).toBe(current);
    expect(announced).toHaveLength(0);
    const weekly = { ...current, timeGroup: 'week' as const };
    expect(changeRange(current, weekly, (r) => announced.push(r))).toBe(weekly);
    expect(announced).toEqual([weekly]);
  });
  it('hourly data has 24 buckets labelled HH:00', () => {
    expect(HOUR_LABELS).toHaveLength(24);
    expect(HOUR_LABELS[0]).toBe('00:00');
    expect(HOUR_LABELS[23]).toBe('23:00');
  });
});

describe('API calls', () => {
  it('derives the API host with a ws. prefix, honours the override, and fails clearly without either', () => {
    expect(deriveApiBase({ protocol: 'https:', host: 'app.example.com' })).toBe('https://ws.app.example.com');
    expect(deriveApiBase({ protocol: 'https:', host: 'app.example.com' }, '/api/')).toBe('/api');
    expect(() => deriveApiBase(undefined)).toThrow(ConfigurationError);
  });
  it('writes arrays as key[]=value joined with & and drops reserved fields', () => {
    expect(rangeQuery({ startDay: '2026-01-01', endDay: '2026-01-07', timeGroup: 'day', os: ['iOS', 'Android'], [`${RESERVED_PREFIX}x`]: 1 }))
      .toBe('startDay=2026-01-01&endDay=2026-01-07&timeGroup=day&os[]=iOS&os[]=Android');
    expect(dropReserved({ a: 1, __b: 2 })).toEqual({ a: 1 });
  });
  it('plan decides the API version', () => {
    expect(['padawan', 'knight', 'master'].map((p) => apiVersionForPlan(p as 'padawan'))).toEqual([1, 1, 1]);
    expect(['growth', 'advanced', 'enterprise'].map((p) => apiVersionForPlan(p as 'growth'))).toEqual([2, 2, 2]);
  });
  it('treats any path with an admin segment as an admin page', () => {
    expect(isAdminPath('/admin/roles')).toBe(true);
    expect(isAdminPath('/es/admin/providers')).toBe(true);
    expect(isAdminPath('/user/administrator')).toBe(false);
  });
});
