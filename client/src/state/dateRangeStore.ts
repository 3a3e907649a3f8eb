/**
 * The shared date range of the analytics screens (SPEC.md sections 3, 4 and 9). Default: the
 * last 7 days including today, grouped by day. A change is announced (subscribers notified)
 * only when it differs from the current range. The shell keeps it in the address (?range= or
 * ?from=&to=, see dateRangeUrl.ts): a range opened from a link counts as chosen.
 */
import { create } from 'zustand';
import { changeRange, defaultDateRange, sameRange, type DateRange } from '@gd/shared/dateRange';
import { todayIn } from './dateRangePresets.ts';

interface DateRangeState {
  range: DateRange;
  /** True once the user picked a range; until then the default follows the app's "today". */
  chosen: boolean;
  setRange: (next: DateRange) => void;
  /** The range a link names: applied (when it differs) and marked chosen even if it is the default. */
  openRange: (next: DateRange) => void;
  /** The default range for the current app's time zone, unless the user chose one. */
  followToday: (timeZone: string | undefined) => void;
}

export const useDateRange = create<DateRangeState>((set) => ({
  range: defaultDateRange(todayIn(undefined)),
  chosen: false,
  setRange(next) {
    set((s) => {
      let announced = false;
      const range = changeRange(s.range, next, () => {
        announced = true;
      });
      return announced ? { range, chosen: true } : s;
    });
  },
  openRange(next) {
    set((s) => {
      if (sameRange(s.range, next)) return s.chosen ? s : { chosen: true };
      return { range: changeRange(s.range, next, () => undefined), chosen: true };
    });
  },
  followToday(timeZone) {
    set((s) => {
      if (s.chosen) return s;
      let announced = false;
      const range = changeRange(s.range, defaultDateRange(todayIn(timeZone)), () => {
        announced = true;
      });
      return announced ? { range } : s;
    });
  },
}));
