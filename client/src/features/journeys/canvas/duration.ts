/** Durations in seconds shown as a value and a unit (86400 s is "1 day"). Pure. */
import { MAX_DURATION_SECONDS } from '@gd/shared/journey/model';

export const DURATION_UNITS = ['minutes', 'hours', 'days'] as const;
export type DurationUnit = (typeof DURATION_UNITS)[number];
export const UNIT_SECONDS: Readonly<Record<DurationUnit, number>> = { minutes: 60, hours: 3_600, days: 86_400 };

/** The largest unit that divides the duration evenly (minutes, with decimals, otherwise). */
export function splitDuration(seconds: number): { value: number; unit: DurationUnit } {
  if (seconds <= 0) return { value: 0, unit: 'days' };
  for (const unit of [...DURATION_UNITS].reverse()) {
    if (seconds % UNIT_SECONDS[unit] === 0) return { value: seconds / UNIT_SECONDS[unit], unit };
  }
  return { value: Math.round((seconds / 60) * 100) / 100, unit: 'minutes' };
}

/** Seconds for a value in a unit: whole seconds, clamped to the schema's range. */
export function toSeconds(value: number, unit: DurationUnit): number {
  if (!Number.isFinite(value) || value <= 0) return 0;
  return Math.min(MAX_DURATION_SECONDS, Math.round(value * UNIT_SECONDS[unit]));
}
