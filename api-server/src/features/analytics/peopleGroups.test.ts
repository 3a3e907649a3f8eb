/** The day masks explore's distinct people are counted over (pure): every day of both periods in exactly one bucket and in its period. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, rangeLength, type TimeGroup } from '@gd/shared';
import { peopleRows } from './explore.ts';
import { bucketLabels, previousPeriod } from './range.ts';
import { peopleGroups } from './repository.ts';

const day = fc.integer({ min: 0, max: 800 }).map((n) => addDays('2025-01-01', n));
const query = fc.record({ start: day, length: fc.integer({ min: 1, max: 120 }), group: fc.constantFrom<Exclude<TimeGroup, 'hour'>>('day', 'week', 'month'), compare: fc.boolean() });

/** The days a group's masks stand for. */
const daysOf = (masks: Map<string, number>) => [...masks].flatMap(([month, mask]) =>
  Array.from({ length: 31 }, (_, i) => i).filter((i) => mask & (1 << i)).map((i) => `${month.slice(0, 8)}${String(i + 1).padStart(2, '0')}`));

describe('peopleGroups', () => {
  it('puts every day of the range (and of the previous period) in its period once and, for weeks and months, in exactly one bucket', () => {
    fc.assert(fc.property(query, ({ start, length, group, compare }) => {
      const range = { startDay: start, endDay: addDays(start, length - 1), timeGroup: group };
      const previous = compare ? previousPeriod(range) : null;
      const groups = peopleGroups({ range, previousStart: previous?.startDay ?? null, shift: rangeLength(range.startDay, range.endDay) });
      const labels = bucketLabels(range);
      for (const period of compare ? [0, 1] : [0]) {
        const first = period === 0 ? range.startDay : addDays(range.startDay, -length);
        const expected = Array.from({ length }, (_, i) => addDays(first, i));
        const total = groups.filter((g) => g.period === period && g.bucket === null);
        expect(total).toHaveLength(1);
        expect(daysOf(total[0]!.masks).sort()).toEqual(expected);
        const buckets = groups.filter((g) => g.period === period && g.bucket !== null);
        if (group === 'day') {
          expect(buckets).toHaveLength(0);
          continue;
        }
        expect(buckets.flatMap((g) => daysOf(g.masks)).sort()).toEqual(expected);
        for (const b of buckets) {
          expect(labels).toContain(b.bucket);
          // A bucket holds the days from its label up to the next label (the previous period shifted onto the range).
          for (const d of daysOf(b.masks)) {
            const shifted = period === 0 ? d : addDays(d, length);
            expect(labels.filter((l) => l <= shifted).at(-1)).toBe(b.bucket);
          }
        }
      }
    }));
  });
});

describe('peopleRows', () => {
  it('gives each bucket its events and each period the sum of its buckets', () => {
    const rows = peopleRows(
      [{ period: 0, bucket: '2025-01-01', people: 2 }, { period: 0, bucket: null, people: 3 }, { period: 1, bucket: null, people: 1 }],
      [{ period: 0, bucket: '2025-01-01', key: null, events: 5, people: null, revenue: 0 }, { period: 0, bucket: '2025-01-02', key: null, events: 4, people: null, revenue: 0 },
        { period: 1, bucket: '2025-01-01', key: null, events: 2, people: null, revenue: 0 }],
    );
    expect(rows.map((r) => [r.period, r.bucket, r.people, r.events])).toEqual([[0, '2025-01-01', 2, 5], [0, null, 3, 9], [1, null, 1, 2]]);
  });
});
