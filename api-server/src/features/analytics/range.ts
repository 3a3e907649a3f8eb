/**
 * Ranges and buckets of the analytics answers (pure). See shared/src/schemas/behaviour.ts for the
 * rules: hour buckets are the 24 hours of the day (HH:00); day, week (ISO, from Monday) and month
 * buckets are labelled with the day they start on, clipped to the range start.
 */
import { HOUR_LABELS, addDays, defaultDateRange, rangeLength, type DayRange, type ResolvedRange, type TimeGroup } from '@gd/shared';

/** The query's range, or the default one (last 7 days including `today`) when it gives no days. */
export function resolveRange(query: { startDay?: string | undefined; endDay?: string | undefined; timeGroup: TimeGroup }, today: string): ResolvedRange {
  if (query.startDay !== undefined && query.endDay !== undefined) return { startDay: query.startDay, endDay: query.endDay, timeGroup: query.timeGroup };
  return { ...defaultDateRange(today), timeGroup: query.timeGroup };
}

/** The range of the same length that ends the day before `range.startDay`. */
export function previousPeriod(range: DayRange): DayRange {
  const days = rangeLength(range.startDay, range.endDay);
  return { startDay: addDays(range.startDay, -days), endDay: addDays(range.startDay, -1) };
}

const weekday = (day: string) => new Date(`${day}T00:00:00Z`).getUTCDay(); // 0 = Sunday

/** Whether `day` starts a bucket of `group` (the range start always does). */
function startsBucket(day: string, group: Exclude<TimeGroup, 'hour'>): boolean {
  switch (group) {
    case 'day':
      return true;
    case 'week':
      return weekday(day) === 1;
    case 'month':
      return day.endsWith('-01');
    default: {
      const never: never = group;
      throw new Error(`unknown time group ${String(never)}`);
    }
  }
}

/** Bucket labels of a range, in order: HH:00 for hours, else the day each bucket starts on. */
export function bucketLabels(range: ResolvedRange): string[] {
  if (range.timeGroup === 'hour') return [...HOUR_LABELS];
  const labels = [range.startDay];
  for (let day = addDays(range.startDay, 1); day <= range.endDay; day = addDays(day, 1)) {
    if (startsBucket(day, range.timeGroup)) labels.push(day);
  }
  return labels;
}
