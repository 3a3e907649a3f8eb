/** Date ranges (SPEC.md sections 3, 4 and 9). Dates are YYYY-MM-DD strings in the app's calendar. */
import { z } from 'zod';
import { TimeGroup } from './enums.ts';
import { DateString } from './formats.ts';

export const DateRange = z
  .object({ startDay: DateString, endDay: DateString, timeGroup: TimeGroup })
  .refine((r) => r.startDay <= r.endDay, { message: 'startDay must not be after endDay', path: ['endDay'] });
export type DateRange = z.infer<typeof DateRange>;

export const DEFAULT_RANGE_DAYS = 7;
export const DAY_END_MINUTE = 1439;
export const HOURS_PER = { day: 24, month: 720, year: 8640 } as const;

const iso = (d: Date) => d.toISOString().slice(0, 10);
/** `today` is the local calendar day as YYYY-MM-DD. */
export function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return iso(d);
}

/** The last 7 days including today, grouped by day. */
export function defaultDateRange(today: string): DateRange {
  return { startDay: addDays(today, -(DEFAULT_RANGE_DAYS - 1)), endDay: today, timeGroup: 'day' };
}

export const sameRange = (a: DateRange, b: DateRange) =>
  a.startDay === b.startDay && a.endDay === b.endDay && a.timeGroup === b.timeGroup;

/** A change of range is announced only if it differs from the current one. */
export function changeRange(current: DateRange, next: DateRange, announce: (r: DateRange) => void): DateRange {
  if (sameRange(current, next)) return current;
  announce(next);
  return next;
}

/** Hourly data has 24 buckets labelled HH:00. */
export const HOUR_LABELS = Array.from({ length: 24 }, (_, h) => `${String(h).padStart(2, '0')}:00`);
