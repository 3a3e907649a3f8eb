/**
 * The home screen's key figures as people read them (pure): each figure's value in the user's
 * language (revenue in the answer's currency when it has one, else a plain number with cents), its
 * change on the previous period (a percentage, "no previous data" when the previous period is
 * zero, "no change" when equal) and the colour of that change.
 */
import { addDays } from '@gd/shared/dateRange';
import { localeFor, type Language } from '@gd/shared/language';
import type { HomeFigure, HomeFigureName } from '@gd/shared/schemas/home';

export const FIGURE_ORDER = ['people', 'sessions', 'events', 'revenue'] as const satisfies readonly HomeFigureName[];

export type Change =
  | { kind: 'noPrevious' }
  | { kind: 'same' }
  | { kind: 'up' | 'down'; ratio: number };

/** The change from the previous period to the current one. */
export function changeOf({ current, previous }: HomeFigure): Change {
  if (previous === 0) return { kind: 'noPrevious' };
  if (current === previous) return { kind: 'same' };
  const ratio = (current - previous) / Math.abs(previous);
  return { kind: ratio > 0 ? 'up' : 'down', ratio };
}

/** Growth is good news for every figure of the home: up teal, down red, the rest grey. */
export function changeColor(change: Change): 'teal' | 'red' | 'gray' {
  switch (change.kind) {
    case 'up':
      return 'teal';
    case 'down':
      return 'red';
    case 'same':
    case 'noPrevious':
      return 'gray';
    default: {
      const never: never = change;
      throw new Error(`unknown change ${JSON.stringify(never)}`);
    }
  }
}

/**
 * A change as a signed percentage with at most one decimal ("+12.5%", "−3%"); a change too small
 * to show at that precision reads "+<0.1%" rather than a misleading "0%".
 */
export function formatChange(lang: Language, change: Extract<Change, { ratio: number }>): string {
  const locale = localeFor(lang);
  const format = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1, signDisplay: 'always' });
  if (Math.abs(change.ratio) < 0.0005) {
    const tiny = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }).format(0.001);
    const sign = format.formatToParts(change.kind === 'up' ? 1 : -1).find((p) => p.type === 'plusSign' || p.type === 'minusSign')?.value ?? '';
    return `${sign}<${tiny}`;
  }
  return format.format(change.ratio);
}

const isCurrency = (code: string) => {
  try {
    new Intl.NumberFormat('en-US', { style: 'currency', currency: code });
    return true;
  } catch {
    return false;
  }
};

/** A figure's value: counts as integers, revenue with cents and its currency when known. */
export function formatFigure(lang: Language, name: HomeFigureName, value: number, currency: string | null): string {
  const locale = localeFor(lang);
  if (name !== 'revenue') return new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(value);
  if (currency && isCurrency(currency)) return new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value);
  return new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value);
}

const asDate = (day: string) => new Date(`${day}T00:00:00Z`);

/** A range of days ("18–24 Nov 2026"), or one day. */
export function formatDays(lang: Language, range: { startDay: string; endDay: string }): string {
  const format = new Intl.DateTimeFormat(localeFor(lang), { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
  return range.startDay === range.endDay ? format.format(asDate(range.startDay)) : format.formatRange(asDate(range.startDay), asDate(range.endDay));
}

/** The period of the same length that ends the day before `range` starts (as the API compares). */
export function previousRange(range: { startDay: string; endDay: string }): { startDay: string; endDay: string } {
  const days = Math.round((asDate(range.endDay).getTime() - asDate(range.startDay).getTime()) / 86_400_000) + 1;
  return { startDay: addDays(range.startDay, -days), endDay: addDays(range.startDay, -1) };
}
