import { describe, expect, it } from 'vitest';
import { windowRanges } from '@gd/shared/dashboard/model';
import { exploreRequest, kpiRequests, postRequest } from './widgetQueries.ts';

// 2026-11-25 is a Wednesday.
const week = windowRanges('week', '2026-11-25');
const day = windowRanges('day', '2026-11-25');

describe('widget queries over the window', () => {
  it('a chart asks explore for the window so far: hours for a day, days otherwise', () => {
    expect(exploreRequest({ event: 'purchase', metric: 'people', breakdown: 'country' }, week)).toEqual({
      ok: true, query: { event: 'purchase', metric: 'people', breakdown: 'country', property: undefined, startDay: '2026-11-23', endDay: '2026-11-25', timeGroup: 'day' },
    });
    const hourly = exploreRequest({ event: 'purchase' }, day);
    expect(hourly.ok && hourly.query).toMatchObject({ startDay: '2026-11-25', endDay: '2026-11-25', timeGroup: 'hour', metric: 'events' });
  });

  it('a key figure asks for the window so far and the same days of the previous window', () => {
    expect(kpiRequests({ event: 'purchase', metric: 'revenue' }, week)).toEqual({
      ok: true, metric: 'revenue',
      current: { event: 'purchase', metric: 'revenue', timeGroup: 'day', startDay: '2026-11-23', endDay: '2026-11-25' },
      previous: { event: 'purchase', metric: 'revenue', timeGroup: 'day', startDay: '2026-11-16', endDay: '2026-11-18' },
    });
  });

  it('a stored query that no longer parses is the widget\'s error, not a request', () => {
    expect(exploreRequest({ metric: 'events' }, week).ok).toBe(false);
    expect(kpiRequests({ event: 'x', metric: 'sum' }, week).ok).toBe(false);
    expect(postRequest('funnel', { steps: [{ event: 'a' }] }, week).ok).toBe(false);
  });

  it('funnel and cohort queries take the window as their range (and a funnel never compares)', () => {
    const funnel = postRequest('funnel', { steps: [{ event: 'a' }, { event: 'b' }], startDay: '2020-01-01', compare: true }, week);
    expect(funnel).toMatchObject({ ok: true, body: { startDay: '2026-11-23', endDay: '2026-11-25', compare: false } });
    const cohort = postRequest('cohort', { start: { event: 'a' }, period: 'week' }, week);
    expect(cohort).toMatchObject({ ok: true, body: { startDay: '2026-11-23', endDay: '2026-11-25', start: { event: 'a' } } });
  });
});
