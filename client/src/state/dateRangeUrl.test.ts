import { describe, expect, it } from 'vitest';
import { keepRangeParams, readRangeParams, writeRangeParams } from './dateRangeUrl.ts';

const today = '2026-11-24';
const read = (query: string) => readRangeParams(new URLSearchParams(query), today);
const write = (query: string, range: Parameters<typeof writeRangeParams>[1]) => writeRangeParams(new URLSearchParams(query), range, today).toString();

describe('date range in the URL', () => {
  it('reads a preset by name, relative to today, with its group', () => {
    expect(read('range=last30')).toEqual({ kind: 'range', preset: 'last30', range: { startDay: '2026-10-26', endDay: today, timeGroup: 'day' } });
    expect(read('range=lastMonth&group=week')).toEqual({ kind: 'range', preset: 'lastMonth', range: { startDay: '2026-10-01', endDay: '2026-10-31', timeGroup: 'week' } });
  });

  it('reads days from and to, both included', () => {
    expect(read('from=2026-11-01&to=2026-11-24&group=month')).toEqual({ kind: 'range', preset: null, range: { startDay: '2026-11-01', endDay: '2026-11-24', timeGroup: 'month' } });
    expect(read('from=2026-02-03&to=2026-02-03')).toMatchObject({ kind: 'range', range: { startDay: '2026-02-03', endDay: '2026-02-03' } });
  });

  it('says none when the URL names no range (a group alone is not one)', () => {
    expect(read('')).toEqual({ kind: 'none' });
    expect(read('event=purchase&metric=revenue')).toEqual({ kind: 'none' });
    expect(read('group=week')).toEqual({ kind: 'none' });
  });

  it('refuses invalid values instead of guessing', () => {
    for (const query of [
      'range=last8', 'range=', 'from=2026-11-01', 'to=2026-11-01', 'from=2026-11-31&to=2026-12-02', 'from=2026-13-01&to=2026-13-02',
      'from=26-11-01&to=26-11-02', 'from=2026-11-24&to=2026-11-01', 'from=2025-01-01&to=2026-01-02', 'from=&to=',
    ]) expect(read(query), query).toEqual({ kind: 'invalid' });
    // 366 days is the longest range the API answers.
    expect(read('from=2025-01-01&to=2026-01-01')).toMatchObject({ kind: 'range' });
  });

  it('ignores an unknown group: the range by day', () => {
    expect(read('range=today&group=fortnight')).toMatchObject({ kind: 'range', range: { startDay: today, endDay: today, timeGroup: 'day' } });
  });

  it('lets a preset win over days given with it', () => {
    expect(read('range=yesterday&from=2026-01-01&to=2026-01-02')).toMatchObject({ range: { startDay: '2026-11-23', endDay: '2026-11-23' } });
  });

  it('writes a preset by name, other ranges by days, the group unless day, keeping other parameters', () => {
    expect(write('event=purchase&metric=revenue', { startDay: '2026-11-18', endDay: today, timeGroup: 'day' })).toBe('event=purchase&metric=revenue&range=last7');
    expect(write('id=abc&range=last7', { startDay: '2026-11-01', endDay: '2026-11-10', timeGroup: 'week' })).toBe('id=abc&from=2026-11-01&to=2026-11-10&group=week');
    expect(write('from=2026-01-01&to=2026-01-02&group=hour&x=1', null)).toBe('x=1');
  });

  it('round-trips what it writes', () => {
    for (const range of [
      { startDay: '2026-11-01', endDay: today, timeGroup: 'hour' as const },
      { startDay: '2026-10-01', endDay: '2026-10-31', timeGroup: 'month' as const },
      { startDay: '2026-03-04', endDay: '2026-05-06', timeGroup: 'day' as const },
    ]) {
      const back = readRangeParams(writeRangeParams(new URLSearchParams(), range, today), today);
      expect(back).toMatchObject({ kind: 'range', range });
    }
  });

  it('carries the range parameters onto a query a screen rebuilt', () => {
    const current = new URLSearchParams('event=view&range=last30&group=week');
    expect(keepRangeParams(new URLSearchParams('event=purchase&metric=revenue'), current).toString()).toBe('event=purchase&metric=revenue&range=last30&group=week');
    expect(keepRangeParams(new URLSearchParams('event=purchase&range=today'), new URLSearchParams('event=view')).toString()).toBe('event=purchase');
  });
});
