import { describe, expect, it } from 'vitest';
import { shouldPollOnVisible, shouldPollTick } from './polling.ts';

describe('shouldPollTick', () => {
  it('refetches in a visible tab with nothing in flight', () => {
    expect(shouldPollTick({ hidden: false, loading: false })).toBe(true);
  });
  it('skips ticks while the tab is hidden', () => {
    expect(shouldPollTick({ hidden: true, loading: false })).toBe(false);
  });
  it('does not start a new request while the previous one loads', () => {
    expect(shouldPollTick({ hidden: false, loading: true })).toBe(false);
  });
});

describe('shouldPollOnVisible', () => {
  it('refetches once when the tab comes back', () => {
    expect(shouldPollOnVisible({ hidden: false, loading: false }, 5000)).toBe(true);
  });
  it('does nothing when polling is off', () => {
    expect(shouldPollOnVisible({ hidden: false, loading: false }, null)).toBe(false);
  });
  it('does nothing while a request is in flight or the tab is still hidden', () => {
    expect(shouldPollOnVisible({ hidden: false, loading: true }, 5000)).toBe(false);
    expect(shouldPollOnVisible({ hidden: true, loading: false }, 5000)).toBe(false);
  });
});
