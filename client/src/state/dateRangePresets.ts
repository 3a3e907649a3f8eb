/**
 * Date range presets for the shell's range control. Days are YYYY-MM-DD in the current app's
 * time zone ("today" there), so a range means the same days to everyone looking at the app.
 */
import { addDays, defaultDateRange, type DateRange } from '@gd/shared/dateRange';
import type { TimeGroup } from '@gd/shared/enums';

export const PRESETS = ['today', 'yesterday', 'last7', 'last14', 'last30', 'last90', 'thisMonth', 'lastMonth'] as const;
export type Preset = (typeof PRESETS)[number];

/** Today as YYYY-MM-DD in a time zone (the browser's when none or an unknown one is given). */
export function todayIn(timeZone: string | undefined, now: Date = new Date()): string {
  const format = (tz: string | undefined) => {
    const parts = new Intl.DateTimeFormat('en-US', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(now);
    const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
    return `${get('year')}-${get('month')}-${get('day')}`;
  };
  try {
    return format(timeZone);
  } catch {
    return format(undefined);
  }
}

const monthStart = (day: string) => `${day.slice(0, 7)}-01`;

export function presetRange(preset: Preset, today: string, timeGroup: TimeGroup = 'day'): DateRange {
  switch (preset) {
    case 'today':
      return { startDay: today, endDay: today, timeGroup };
    case 'yesterday': {
      const y = addDays(today, -1);
      return { startDay: y, endDay: y, timeGroup };
    }
    case 'last7':
      return { ...defaultDateRange(today), timeGroup };
    case 'last14':
      return { startDay: addDays(today, -13), endDay: today, timeGroup };
    case 'last30':
      return { startDay: addDays(today, -29), endDay: today, timeGroup };
    case 'last90':
      return { startDay: addDays(today, -89), endDay: today, timeGroup };
    case 'thisMonth':
      return { startDay: monthStart(today), endDay: today, timeGroup };
    case 'lastMonth': {
      const lastDayOfPrevious = addDays(monthStart(today), -1);
      return { startDay: monthStart(lastDayOfPrevious), endDay: lastDayOfPrevious, timeGroup };
    }
    default: {
      const never: never = preset;
      throw new Error(`unknown preset ${String(never)}`);
    }
  }
}

/** The preset a range corresponds to today, or undefined for a custom range. */
export function matchPreset(range: DateRange, today: string): Preset | undefined {
  return PRESETS.find((p) => {
    const r = presetRange(p, today, range.timeGroup);
    return r.startDay === range.startDay && r.endDay === range.endDay;
  });
}

/** Number of days in a range, both ends included. */
export function rangeDays(range: Pick<DateRange, 'startDay' | 'endDay'>): number {
  const ms = Date.parse(`${range.endDay}T00:00:00Z`) - Date.parse(`${range.startDay}T00:00:00Z`);
  return Math.round(ms / 86_400_000) + 1;
}
