/**
 * How the person-month bitmaps (event_person_months: bit d-1 = day d of the month) become bucket
 * bitmaps in one pass (pure). For every month from the grid's first to today's, the days of the
 * month in each grid bucket form a mask; a person's row maps to a bigint whose bit i is set when
 * they did the event in bucket i of the grid (0 = the first cohort). Buckets at or past `size` fold
 * into bit LATER_BIT ("some later bucket", all "on or after" needs), days before the grid into
 * BEFORE_BIT (a first-time start before the grid), days after today into nothing. A grid therefore
 * holds at most LATER_BIT buckets (cohorts + periods); larger ones take the generic path.
 *
 * Weeks and months touch at most six buckets per month: one mask and one bit per bucket
 * (`masks`/`bits`, padded with zeros to six). Days shift the month's bitmask into place instead
 * (`shr`, `shl`), with `inMask` the days inside the grid.
 */
import { addDays, bucketOffset, shiftBucket, type CohortPeriod } from '@gd/shared';

export const LATER_BIT = 61;
export const BEFORE_BIT = 62;
export const MASK_SLOTS = 6;

export interface MonthMask {
  month: string;
  masks: number[];
  bits: bigint[];
  inMask: number;
  laterMask: number;
  beforeMask: number;
  shr: number;
  shl: number;
}

const daysInMonth = (month: string) => Number(addDays(shiftBucket(month, 1, 'month'), -1).slice(8, 10));

export function monthMasks(grid: { first: string; period: CohortPeriod }, size: number, today: string): MonthMask[] {
  if (size > LATER_BIT) throw new Error(`a grid of ${size} buckets does not fit the bitmap path`);
  const out: MonthMask[] = [];
  for (let month = `${grid.first.slice(0, 7)}-01`; month <= today; month = shiftBucket(month, 1, 'month')) {
    const byBucket = new Map<number, number>();
    let inMask = 0, laterMask = 0, beforeMask = 0;
    const base = bucketOffset(grid.first, month, 'day');
    for (let d = 1; d <= daysInMonth(month); d += 1) {
      const day = `${month.slice(0, 8)}${String(d).padStart(2, '0')}`;
      if (day > today) break;
      const bit = 1 << (d - 1);
      const idx = bucketOffset(grid.first, day, grid.period);
      if (idx < 0) beforeMask |= bit;
      else if (idx >= size) laterMask |= bit;
      else {
        inMask |= bit;
        byBucket.set(idx, (byBucket.get(idx) ?? 0) | bit);
      }
    }
    const entries = [...byBucket.entries()];
    if (grid.period !== 'day' && entries.length > MASK_SLOTS) throw new Error('a month spans at most six weeks');
    const masks = Array.from({ length: MASK_SLOTS }, (_, k) => (grid.period === 'day' ? 0 : (entries[k]?.[1] ?? 0)));
    const bits = Array.from({ length: MASK_SLOTS }, (_, k) => (grid.period === 'day' || entries[k] === undefined ? 0n : 1n << BigInt(entries[k][0])));
    out.push({ month, masks, bits, inMask, laterMask, beforeMask, shr: Math.max(0, -base), shl: Math.max(0, base) });
  }
  return out;
}

/** The bucket bitmap of one month row, as the SQL computes it (the reference for the tests). */
export function rowBits(m: MonthMask, days: number, period: CohortPeriod): bigint {
  let bits = 0n;
  if (period === 'day') bits = (BigInt(days & m.inMask) >> BigInt(m.shr)) << BigInt(m.shl);
  else m.masks.forEach((mask, k) => { if (days & mask) bits |= m.bits[k] ?? 0n; });
  if (days & m.laterMask) bits |= 1n << BigInt(LATER_BIT);
  if (days & m.beforeMask) bits |= 1n << BigInt(BEFORE_BIT);
  return bits;
}

/** One group of people with the same cohort bits `s` and return bits `r` (and breakdown key). */
export interface BitmapGroup { s: bigint; r: bigint; key: string; people: number }

const highestBit = (x: bigint): number => {
  let i = -1;
  for (let v = x; v > 0n; v >>= 1n) i += 1;
  return i;
};

/**
 * The retention cells of grouped bitmaps (see retention.ts `RetentionCell`): each cohort bit of `s`
 * below `cohorts` (for `first` the SQL already kept only the lowest), period 0 its people; for
 * `on` every period n whose bucket c+n is in `r`; for `onOrAfter` the period of the last return
 * (LATER_BIT = past the grid, so past every period).
 */
export function cellsFromBitmaps(groups: Iterable<BitmapGroup>, cohorts: number, periods: number, returnOn: 'on' | 'onOrAfter') {
  const cells: { cohort: number; key: string; period: number; people: number }[] = [];
  for (const g of groups) {
    const r = g.r & ~(1n << BigInt(BEFORE_BIT));
    const last = highestBit(r);
    for (let c = 0; c < cohorts; c += 1) {
      if (!((g.s >> BigInt(c)) & 1n)) continue;
      cells.push({ cohort: c, key: g.key, period: 0, people: g.people });
      if (returnOn === 'on') {
        for (let n = 1; n <= periods; n += 1) if ((r >> BigInt(c + n)) & 1n) cells.push({ cohort: c, key: g.key, period: n, people: g.people });
      } else if (last - c >= 1) {
        cells.push({ cohort: c, key: g.key, period: Math.min(last - c, periods), people: g.people });
      }
    }
  }
  return cells;
}
