/**
 * How the acquisition reports write their figures (pure): counts, money (two decimals), rates and
 * ROI as percentages; a figure with nothing to divide by (null) reads "–". Changes on the
 * previous period use shared `variation` (null when the previous period had nothing).
 */
import { localeFor, type Language } from '@gd/shared/language';
import { variation } from '@gd/shared/messageAnalytics/variation';

export const DASH = '–';
export type FigureKind = 'count' | 'money' | 'percent';

export function formatFigure(lang: Language, kind: FigureKind, value: number | null): string {
  if (value === null || !Number.isFinite(value)) return DASH;
  const locale = localeFor(lang);
  switch (kind) {
    case 'count':
      return new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(value);
    case 'money':
      return new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value);
    case 'percent':
      return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }).format(value);
    default: {
      const never: never = kind;
      throw new Error(`unknown figure kind ${String(never)}`);
    }
  }
}

export type Change = { kind: 'none' } | { kind: 'same' } | { kind: 'up' | 'down'; ratio: number };

/** The change of a figure on the previous period. */
export function changeOf(current: number | null, previous: number | null): Change {
  const v = variation(current, previous);
  if (v === null) return { kind: 'none' };
  if (v === 0) return { kind: 'same' };
  return { kind: v > 0 ? 'up' : 'down', ratio: v };
}

/** Up is good news except for cost (spending more is not, by itself). */
export function changeColor(change: Change, lowerIsBetter = false): 'teal' | 'red' | 'gray' {
  if (change.kind !== 'up' && change.kind !== 'down') return 'gray';
  return (change.kind === 'up') !== lowerIsBetter ? 'teal' : 'red';
}
