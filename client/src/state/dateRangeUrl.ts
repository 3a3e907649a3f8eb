/**
 * The shared date range in the address, so a view can be shared (pure; the shell keeps the two in
 * step: shell/useDateRangeInUrl.ts).
 *
 * - A preset is written by name, `?range=last30`, and means that preset on the day the link is
 *   opened (in the app's time zone): "the last 30 days" stays the last 30 days.
 * - Any other range is written by its days, `?from=2026-11-01&to=2026-11-24` (YYYY-MM-DD, both
 *   included, as shared/src/dateRange.ts defines them).
 * - The time group is `&group=week|month|hour`, left out for `day` (the default).
 * - `range` wins over `from`/`to` when a URL has both. A URL naming an unknown preset, a day that
 *   does not exist, a start after its end or more than ANALYTICS_LIMITS.maxRangeDays days is
 *   invalid: it is ignored (the screen keeps the range it had, the default on a fresh page). An
 *   unknown `group` alone is ignored, the group then being `day`.
 * - The range the person never chose (the default, following the app's today) is not written:
 *   such an address keeps whatever range the reader has.
 * Other query parameters (explore's, the journey editor's `id`) are kept as they are.
 */
import { type DateRange } from '@gd/shared/dateRange';
import { TimeGroup } from '@gd/shared/enums';
import { isDateString } from '@gd/shared/formats';
import { ANALYTICS_LIMITS, rangeLength } from '@gd/shared/schemas/behaviour';
import { PRESETS, matchPreset, presetRange, type Preset } from './dateRangePresets.ts';

export const RANGE_PARAMS = ['range', 'from', 'to', 'group'] as const;

export type RangeFromUrl =
  | { kind: 'none' }
  | { kind: 'invalid' }
  | { kind: 'range'; range: DateRange; preset: Preset | null };

const isPreset = (value: string): value is Preset => (PRESETS as readonly string[]).includes(value);

/** The range a URL's query names, relative to `today` (YYYY-MM-DD in the app's time zone). */
export function readRangeParams(params: URLSearchParams, today: string): RangeFromUrl {
  const name = params.get('range');
  const from = params.get('from');
  const to = params.get('to');
  if (name === null && from === null && to === null) return { kind: 'none' };
  const group = TimeGroup.safeParse(params.get('group'));
  const timeGroup: TimeGroup = group.success ? group.data : 'day';
  if (name !== null) {
    return isPreset(name) ? { kind: 'range', range: presetRange(name, today, timeGroup), preset: name } : { kind: 'invalid' };
  }
  if (from === null || to === null || !isDateString(from) || !isDateString(to) || from > to) return { kind: 'invalid' };
  if (rangeLength(from, to) > ANALYTICS_LIMITS.maxRangeDays) return { kind: 'invalid' };
  return { kind: 'range', range: { startDay: from, endDay: to, timeGroup }, preset: null };
}

/**
 * `params` with the range's parameters set to `range` (a preset by name when the range is one
 * today), or removed when `range` is null. Every other parameter is kept, in its order.
 */
export function writeRangeParams(params: URLSearchParams, range: DateRange | null, today: string): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const key of RANGE_PARAMS) next.delete(key);
  if (!range) return next;
  const preset = matchPreset(range, today);
  if (preset) next.set('range', preset);
  else {
    next.set('from', range.startDay);
    next.set('to', range.endDay);
  }
  if (range.timeGroup !== 'day') next.set('group', range.timeGroup);
  return next;
}

/** `next` with the range parameters `current` carries (for screens that rebuild their query). */
export function keepRangeParams(next: URLSearchParams, current: URLSearchParams): URLSearchParams {
  const out = new URLSearchParams(next);
  for (const key of RANGE_PARAMS) {
    out.delete(key);
    const value = current.get(key);
    if (value !== null) out.set(key, value);
  }
  return out;
}
