import { describe, expect, it } from 'vitest';
import { DEFAULT_BACKOFF, MAX_RETRY_AFTER_MS, backoffCeiling, backoffDelay, parseRetryAfter } from './backoff.ts';

describe('backoff', () => {
  it('doubles the ceiling from 1 s up to the 5 minute cap', () => {
    const ceilings = Array.from({ length: 12 }, (_, i) => backoffCeiling(i + 1, DEFAULT_BACKOFF));
    expect(ceilings).toEqual([1000, 2000, 4000, 8000, 16_000, 32_000, 64_000, 128_000, 256_000, 300_000, 300_000, 300_000]);
    expect(backoffCeiling(10_000, DEFAULT_BACKOFF)).toBe(300_000);
  });

  it('waits a uniformly random time between 0 and the ceiling (full jitter)', () => {
    for (let attempt = 1; attempt <= 12; attempt++) {
      const ceiling = backoffCeiling(attempt, DEFAULT_BACKOFF);
      expect(backoffDelay(attempt, DEFAULT_BACKOFF, null, () => 0)).toBe(0);
      expect(backoffDelay(attempt, DEFAULT_BACKOFF, null, () => 0.5)).toBe(ceiling / 2);
      expect(backoffDelay(attempt, DEFAULT_BACKOFF, null, () => 0.999_999)).toBeLessThan(ceiling);
    }
    const samples = Array.from({ length: 500 }, () => backoffDelay(4, DEFAULT_BACKOFF));
    expect(Math.min(...samples)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...samples)).toBeLessThan(8000);
    expect(new Set(samples).size).toBeGreaterThan(100);
  });

  it('never retries sooner than Retry-After asks, up to an hour', () => {
    expect(backoffDelay(1, DEFAULT_BACKOFF, 30_000, () => 0.9)).toBe(30_000);
    expect(backoffDelay(9, DEFAULT_BACKOFF, 30_000, () => 0.5)).toBe(128_000);
    expect(backoffDelay(1, DEFAULT_BACKOFF, 10 * MAX_RETRY_AFTER_MS, () => 0)).toBe(MAX_RETRY_AFTER_MS);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-05-01T10:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Fri, 01 May 2026 10:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Fri, 01 May 2026 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
    expect(parseRetryAfter('', now)).toBeNull();
  });
});
