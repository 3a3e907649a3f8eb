/** Retention tables with known answers, worked out by hand on tiny fixed data (see retention.ts for the rules). */
import { describe, expect, it } from 'vitest';
import { EMPTY_SENTINEL, OTHER_SENTINEL } from '../behaviour/events.ts';
import { bucketOffset, bucketStart, cohortGrid, computeRetention, shiftBucket, type PersonActivity, type RetentionParams } from './retention.ts';

const s = (...days: string[]) => days.map((day) => ({ day }));

// Weeks of March 2026: Mondays 2, 9, 16, 23, 30. Today is Wednesday 25 March.
const weekly: Record<string, PersonActivity> = {
  a: { starts: s('2026-03-03', '2026-03-11'), returns: ['2026-03-10', '2026-03-24'] },
  b: { starts: s('2026-03-04'), returns: ['2026-03-05', '2026-03-17'] },
  c: { starts: s('2026-03-10'), returns: ['2026-03-16'] },
  d: { starts: s('2026-02-25', '2026-03-03'), returns: [] }, // started before the range
  e: { starts: s('2026-03-20'), returns: ['2026-03-24'] }, // after the range
};
const base: RetentionParams = {
  range: { startDay: '2026-03-04', endDay: '2026-03-15' }, period: 'week', periods: 3, mode: 'first', returnOn: 'on', breakdown: false, today: '2026-03-25',
};

describe('buckets', () => {
  it('starts weeks on Monday and months on the 1st', () => {
    expect(bucketStart('2026-03-01', 'week')).toBe('2026-02-23'); // a Sunday
    expect(bucketStart('2026-03-02', 'week')).toBe('2026-03-02');
    expect(bucketStart('2026-03-31', 'month')).toBe('2026-03-01');
    expect(shiftBucket('2025-11-01', 3, 'month')).toBe('2026-02-01');
    expect(bucketOffset('2026-03-02', '2026-03-01', 'week')).toBe(-1);
    expect(bucketOffset('2025-12-01', '2026-02-28', 'month')).toBe(2);
  });
  it('takes whole buckets overlapping the range, none after today', () => {
    expect(cohortGrid({ startDay: '2026-03-04', endDay: '2026-03-15' }, 'week', '2026-03-25')).toEqual({ first: '2026-03-02', count: 2, period: 'week' });
    expect(cohortGrid({ startDay: '2026-03-04', endDay: '2026-04-15' }, 'week', '2026-03-25').count).toBe(4);
    expect(cohortGrid({ startDay: '2026-04-01', endDay: '2026-04-15' }, 'week', '2026-03-25').count).toBe(0);
  });
});

describe('weekly retention', () => {
  it('first time, on', () => {
    const r = computeRetention(Object.values(weekly), base);
    expect(r.rows).toEqual([
      { cohort: '2026-03-02', size: 2, counts: [2, 1, 1, 1], complete: [true, true, true, false] },
      { cohort: '2026-03-09', size: 1, counts: [1, 1, 0, null], complete: [true, true, false, false] },
    ]);
    expect(r.size).toBe(3);
    expect(r.curve).toEqual([
      { period: 0, people: 3, cohortPeople: 3, rate: 1 },
      { period: 1, people: 2, cohortPeople: 3, rate: 2 / 3 },
      { period: 2, people: 1, cohortPeople: 2, rate: 1 / 2 }, // the incomplete 9 March cell left out
      { period: 3, people: 0, cohortPeople: 0, rate: null },
    ]);
    expect(r.segments).toBeNull();
  });

  it('first time, on or after', () => {
    const r = computeRetention(Object.values(weekly), { ...base, returnOn: 'onOrAfter' });
    expect(r.rows.map((row) => row.counts)).toEqual([[2, 2, 2, 1], [1, 1, 0, null]]);
  });

  it('recurring, on: a person is in every bucket where they started', () => {
    const r = computeRetention(Object.values(weekly), { ...base, mode: 'recurring' });
    expect(r.rows.map((row) => [row.size, row.counts])).toEqual([[3, [3, 1, 1, 1]], [2, [2, 1, 1, null]]]);
  });

  it('a return in the start bucket only does not count', () => {
    const r = computeRetention([{ starts: s('2026-03-02'), returns: ['2026-03-08'] }], base);
    expect(r.rows[0]?.counts).toEqual([1, 0, 0, 0]);
  });
});

describe('daily and monthly retention', () => {
  it('days: incomplete today, nothing after it', () => {
    const r = computeRetention([{ starts: s('2026-03-01'), returns: ['2026-03-02', '2026-03-04', '2026-03-05'] }], {
      ...base, range: { startDay: '2026-03-01', endDay: '2026-03-03' }, period: 'day', today: '2026-03-05',
    });
    expect(r.rows).toEqual([
      { cohort: '2026-03-01', size: 1, counts: [1, 1, 0, 1], complete: [true, true, true, true] },
      { cohort: '2026-03-02', size: 0, counts: [0, 0, 0, 0], complete: [true, true, true, false] },
      { cohort: '2026-03-03', size: 0, counts: [0, 0, 0, null], complete: [true, true, false, false] },
    ]);
  });

  it('months: month edges, the current month incomplete and out of the curve', () => {
    const people = [
      { starts: s('2026-01-31'), returns: ['2026-02-01'] },
      { starts: s('2026-02-28'), returns: ['2026-03-31'] },
      { starts: s('2026-02-01'), returns: [] },
    ];
    const r = computeRetention(people, { ...base, range: { startDay: '2026-01-15', endDay: '2026-02-10' }, period: 'month', periods: 2, today: '2026-03-31' });
    expect(r.rows).toEqual([
      { cohort: '2026-01-01', size: 1, counts: [1, 1, 0], complete: [true, true, false] },
      { cohort: '2026-02-01', size: 2, counts: [2, 1, null], complete: [true, false, false] },
    ]);
    expect(r.curve[1]).toEqual({ period: 1, people: 1, cohortPeople: 1, rate: 1 });
    const after = computeRetention(people, { ...base, range: { startDay: '2026-01-15', endDay: '2026-02-10' }, period: 'month', periods: 2, today: '2026-03-31', returnOn: 'onOrAfter' });
    expect(after.rows.map((row) => row.counts)).toEqual([[1, 1, 0], [2, 1, null]]);
  });

  it('on or after counts returns past the last period shown', () => {
    const r = computeRetention([{ starts: s('2026-03-02'), returns: ['2026-03-23'] }], { ...base, periods: 1, returnOn: 'onOrAfter' });
    expect(r.rows[0]?.counts).toEqual([1, 1]);
  });

  it('uses the default number of periods of the period', () => {
    expect(computeRetention([], { ...base, periods: undefined }).periods).toBe(12);
    expect(computeRetention([], { ...base, period: 'day', periods: undefined }).periods).toBe(14);
  });
});

describe('breakdown', () => {
  it('keys people by the start that put them in the cohort, empty and other folded', () => {
    const people: PersonActivity[] = [
      { starts: [{ day: '2026-03-03', key: 'es' }, { day: '2026-03-10', key: 'fr' }], returns: ['2026-03-10'] },
      { starts: [{ day: '2026-03-03', key: '' }], returns: [] },
      ...Array.from({ length: 11 }, (_, i) => ({ starts: [{ day: '2026-03-04', key: `v${String(i).padStart(2, '0')}` }], returns: [] })),
    ];
    const r = computeRetention(people, { ...base, breakdown: true });
    const segments = r.segments ?? [];
    expect(segments).toHaveLength(11);
    expect(segments.map((x) => x.key).slice(0, 3)).toEqual([EMPTY_SENTINEL, 'es', 'v00']);
    expect(segments.at(-1)).toMatchObject({ key: OTHER_SENTINEL, size: 3 });
    expect(segments.find((x) => x.key === 'es')?.rows[0]?.counts).toEqual([1, 1, 0, 0]);
    expect(segments.reduce((a, x) => a + x.size, 0)).toBe(r.size);
    const recurring = computeRetention(people, { ...base, breakdown: true, mode: 'recurring' });
    expect(recurring.segments?.find((x) => x.key === 'fr')?.rows[1]?.size).toBe(1);
  });
});
