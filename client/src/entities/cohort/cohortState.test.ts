import { describe, expect, it } from 'vitest';
import { DEFAULT_COHORT_STATE, cohortQuery, readCohortState, writeCohortState, type CohortState } from './cohortState.ts';

describe('cohort state in the URL', () => {
  it('round-trips a full state and leaves defaults out', () => {
    const state: CohortState = {
      start: 'gd_install', startFilters: [{ property: 'plan', op: 'eq', value: 'pro' }], returnEvent: 'purchase', returnFilters: [{ property: 'amount', op: 'gt', value: 10 }],
      mode: 'recurring', period: 'month', periods: 6, returnOn: 'onOrAfter', breakdown: { kind: 'property', property: 'plan:tier' }, segment: 'pro',
    };
    expect(readCohortState(writeCohortState(state))).toEqual(state);
    expect(writeCohortState({ ...DEFAULT_COHORT_STATE, start: 'open' }).toString()).toBe('start=open');
  });
  it('falls back to defaults on malformed values', () => {
    const state = readCohortState(new URLSearchParams('start=open&sf=%7Bbad&mode=x&period=year&periods=99&on=never&bd=attribute:shoe'));
    expect(state).toEqual({ ...DEFAULT_COHORT_STATE, start: 'open' });
  });
  it('builds the query, or nothing without a start event', () => {
    const range = { startDay: '2026-01-01', endDay: '2026-01-31' };
    expect(cohortQuery(DEFAULT_COHORT_STATE, range)).toBeNull();
    expect(cohortQuery({ ...DEFAULT_COHORT_STATE, start: 'open', breakdown: { kind: 'attribute', field: 'country' } }, range)).toEqual({
      ...range, start: { event: 'open', filters: [] }, return: null, mode: 'first', period: 'week', returnOn: 'on', breakdown: { kind: 'attribute', field: 'country' },
    });
  });
});
