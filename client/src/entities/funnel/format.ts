/**
 * Funnel figures as people read them (pure): conversion percentages and durations. A duration
 * takes the largest unit that keeps it at least 1 (seconds, minutes, hours, days), one decimal
 * under 10 of that unit.
 */
import { localeFor, type Language } from '@gd/shared/language';

export function formatPercent(ratio: number, lang: Language): string {
  return new Intl.NumberFormat(localeFor(lang), { style: 'percent', maximumFractionDigits: 1 }).format(ratio);
}

export type DurationUnit = 's' | 'm' | 'h' | 'd';
const UNITS: [DurationUnit, number][] = [['d', 86_400], ['h', 3600], ['m', 60], ['s', 1]];

/** A duration in seconds as a number and unit: 90 -> 1.5 m, 7200 -> 2 h, 0 -> 0 s. */
export function durationParts(seconds: number): { n: number; unit: DurationUnit } {
  const [unit, size] = UNITS.find(([, s]) => seconds >= s) ?? ['s', 1];
  const value = seconds / size;
  return { n: value < 10 ? Math.round(value * 10) / 10 : Math.round(value), unit };
}

export function formatCount(n: number, lang: Language): string {
  return new Intl.NumberFormat(localeFor(lang), { maximumFractionDigits: 0 }).format(n);
}
