import { describe, expect, it } from 'vitest';
import type { EventSummary } from '@gd/shared/schemas/behaviour';
import { DEFAULT_SORT, filterRows, nextSort, sortRows, toRows } from './eventRows.ts';

const event = (name: string, over: Partial<EventSummary> = {}): EventSummary => ({
  name, builtIn: false, label: null, hidden: false, events: 0, people: 0, revenue: 0, currency: null, previousEvents: 0, ...over,
});
const rows = toRows([
  event('purchase', { label: 'Purchase', events: 10, previousEvents: 20, people: 4 }),
  event('view', { events: 50, previousEvents: 25, people: 9 }),
  event('signup', { events: 3, hidden: true }),
  event('gone', { events: 0, previousEvents: 7 }),
  event('idle'),
], (e) => e.label ?? e.name);

describe('events table rows', () => {
  it('computes the change on the previous period', () => {
    expect(rows.map((r) => [r.name, r.change])).toEqual([['purchase', -0.5], ['view', 1], ['signup', null], ['gone', -1], ['idle', null]]);
  });

  it('filters by name or label and hides hidden events unless asked', () => {
    expect(filterRows(rows, 'PURCH', false).map((r) => r.name)).toEqual(['purchase']);
    expect(filterRows(rows, '', false).map((r) => r.name)).not.toContain('signup');
    expect(filterRows(rows, 'sign', true).map((r) => r.name)).toEqual(['signup']);
  });

  it('sorts by a column in either direction, new events above any change', () => {
    expect(sortRows(rows, DEFAULT_SORT).map((r) => r.name)).toEqual(['view', 'purchase', 'signup', 'gone', 'idle']);
    expect(sortRows(rows, { column: 'display', direction: 'asc' }).map((r) => r.display)).toEqual(['gone', 'idle', 'Purchase', 'signup', 'view']);
    expect(sortRows(rows, { column: 'change', direction: 'desc' }).map((r) => r.name)).toEqual(['signup', 'view', 'purchase', 'gone', 'idle']);
    expect(sortRows(rows, { column: 'people', direction: 'asc' }).map((r) => r.name).slice(-2)).toEqual(['purchase', 'view']);
  });

  it('flips the sorted column and starts others descending', () => {
    expect(nextSort(DEFAULT_SORT, 'events')).toEqual({ column: 'events', direction: 'asc' });
    expect(nextSort(DEFAULT_SORT, 'people')).toEqual({ column: 'people', direction: 'desc' });
    expect(nextSort(DEFAULT_SORT, 'display')).toEqual({ column: 'display', direction: 'asc' });
  });
});
