import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, bucketOffset, cohortGrid } from '@gd/shared';
import { BEFORE_BIT, LATER_BIT, monthMasks, rowBits } from './monthMasks.ts';

describe('month masks', () => {
  it('map every day of a month row to its bucket bit, later and before folded', () => {
    fc.assert(fc.property(
      fc.integer({ min: 0, max: 200 }), fc.integer({ min: 1, max: 60 }), fc.constantFrom('day' as const, 'week' as const, 'month' as const),
      fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.integer({ min: 0, max: 8 }),
      (startAt, length, period, periods, days, monthPick) => {
        const today = '2026-11-20';
        const range = { startDay: addDays('2026-03-01', startAt), endDay: addDays('2026-03-01', startAt + length) };
        const grid = cohortGrid(range, period, today);
        const size = grid.count + periods;
        if (size > LATER_BIT) return;
        const masks = monthMasks(grid, size, today);
        const m = masks[Math.min(monthPick, masks.length - 1)];
        if (!m) return;
        let expected = 0n;
        for (let d = 1; d <= 31; d += 1) {
          if (!(days & (1 << (d - 1)))) continue;
          const day = `${m.month.slice(0, 8)}${String(d).padStart(2, '0')}`;
          if (addDays(m.month, d - 1) !== day || day > today) continue; // past the month's end, or after today
          const idx = bucketOffset(grid.first, day, period);
          expected |= 1n << BigInt(idx < 0 ? BEFORE_BIT : idx >= size ? LATER_BIT : idx);
        }
        expect(rowBits(m, days, period)).toBe(expected);
      },
    ));
  });
});
