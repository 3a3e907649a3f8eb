import { describe, expect, it } from 'vitest';
import { markState } from './breakdowns.ts';

const progress = { backfilled: false, attempts: 0, maxAttempts: 5, leased: false };

describe('the state of a breakdown mark', () => {
  it('is counting before its first run, while a run holds it and between failed runs with attempts left', () => {
    expect(markState(progress)).toBe('counting');
    expect(markState({ ...progress, attempts: 1, leased: true })).toBe('counting');
    expect(markState({ ...progress, attempts: 4 })).toBe('counting');
  });

  it('is counting while its last attempt runs, and failed once no run holds it', () => {
    expect(markState({ ...progress, attempts: 5, leased: true })).toBe('counting');
    expect(markState({ ...progress, attempts: 5 })).toBe('failed');
    // A row given fewer attempts than it used (max_attempts lowered) is failed too.
    expect(markState({ ...progress, attempts: 6, maxAttempts: 3 })).toBe('failed');
  });

  it('is ready once backfilled, whatever its attempts', () => {
    expect(markState({ ...progress, backfilled: true })).toBe('ready');
    expect(markState({ ...progress, backfilled: true, attempts: 5 })).toBe('ready');
    expect(markState({ ...progress, backfilled: true, attempts: 2, leased: true })).toBe('ready');
  });
});
