/** Properties of the retention rules over random activity. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays } from '../dateRange.ts';
import { computeRetention, type RetentionParams } from './retention.ts';

const day = fc.integer({ min: 0, max: 120 }).map((n) => addDays('2026-01-01', n));
const person = fc.record({
  starts: fc.array(day, { maxLength: 4 }).map((ds) => ds.sort().map((d, i) => ({ day: d, key: i % 2 ? 'x' : '' }))),
  returns: fc.array(day, { maxLength: 6 }),
});
const params = fc.record({
  start: fc.integer({ min: 0, max: 60 }),
  length: fc.integer({ min: 1, max: 60 }),
  period: fc.constantFrom('day' as const, 'week' as const, 'month' as const),
  periods: fc.integer({ min: 1, max: 8 }),
  today: fc.integer({ min: 30, max: 130 }),
});

describe('retention properties', () => {
  it('on ≤ on or after, on or after never grows, counts within the cohort, first ⊆ recurring', () => {
    fc.assert(fc.property(fc.array(person, { maxLength: 25 }), params, (people, q) => {
      const p: RetentionParams = {
        range: { startDay: addDays('2026-01-01', q.start), endDay: addDays('2026-01-01', q.start + q.length) },
        period: q.period, periods: q.periods, mode: 'first', returnOn: 'on', breakdown: true, today: addDays('2026-01-01', q.today),
      };
      const on = computeRetention(people, p);
      const after = computeRetention(people, { ...p, returnOn: 'onOrAfter' });
      const recurring = computeRetention(people, { ...p, mode: 'recurring' });
      expect(recurring.size).toBeGreaterThanOrEqual(on.size);
      expect(on.segments?.reduce((a, x) => a + x.size, 0)).toBe(on.size);
      on.rows.forEach((row, i) => {
        const later = after.rows[i];
        row.counts.forEach((count, n) => {
          const a = later?.counts[n];
          if (count === null) { expect(a).toBeNull(); return; }
          expect(count).toBeLessThanOrEqual(row.size);
          expect(a).toBeGreaterThanOrEqual(count);
          if (n > 1) expect(a).toBeLessThanOrEqual(later?.counts[n - 1] ?? 0);
        });
        expect(row.counts[0]).toBe(row.size);
      });
      for (const point of on.curve) if (point.rate !== null) expect(point.rate).toBeLessThanOrEqual(1);
    }));
  });
});
