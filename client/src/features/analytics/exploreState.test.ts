import { describe, expect, it } from 'vitest';
import { ExploreQuery } from '@gd/shared/schemas/behaviour';
import { DEFAULT_STATE, exploreQuery, mostFrequentEvent, readExploreState, writeExploreState } from './exploreState.ts';

const range = { startDay: '2026-03-01', endDay: '2026-03-07', timeGroup: 'day' as const };

describe('explore state in the URL', () => {
  it('round-trips a state, leaving defaults out', () => {
    const state = { event: 'purchase', metric: 'people' as const, breakdown: 'property' as const, property: 'plan', compare: true, chart: 'bars' as const };
    const params = writeExploreState(state);
    expect(params.toString()).toBe('event=purchase&metric=people&breakdown=property&property=plan&compare=true&chart=bars');
    expect(readExploreState(params)).toEqual(state);
    expect(writeExploreState(DEFAULT_STATE).toString()).toBe('');
  });

  it('falls back to defaults for unknown values', () => {
    expect(readExploreState(new URLSearchParams('metric=clicks&breakdown=city&chart=pie&property=plan&compare=yes'))).toEqual(DEFAULT_STATE);
  });

  it('builds a query the API accepts, or none while it cannot run', () => {
    expect(exploreQuery(DEFAULT_STATE, range)).toBeNull();
    expect(exploreQuery({ ...DEFAULT_STATE, event: 'buy', breakdown: 'property' }, range)).toBeNull();
    const query = exploreQuery({ ...DEFAULT_STATE, event: 'buy', breakdown: 'country' }, range);
    expect(query).toEqual({ event: 'buy', metric: 'events', startDay: '2026-03-01', endDay: '2026-03-07', timeGroup: 'day', compare: false, breakdown: 'country' });
    expect(ExploreQuery.safeParse(query).success).toBe(true);
  });
});

describe('the event explore opens on', () => {
  const e = (name: string, events: number, hidden = false) => ({ name, events, hidden });

  it('is the one with the most events in the range, ties by name', () => {
    expect(mostFrequentEvent([e('view', 40), e('purchase', 90), e('gd_start_session', 60)])).toBe('purchase');
    expect(mostFrequentEvent([e('zoom', 5), e('add', 5)])).toBe('add');
  });

  it('leaves hidden events and events with none in the range out', () => {
    expect(mostFrequentEvent([e('debug_ping', 500, true), e('view', 3)])).toBe('view');
    expect(mostFrequentEvent([e('old', 0), e('debug_ping', 9, true)])).toBeNull();
    expect(mostFrequentEvent([])).toBeNull();
  });
});
