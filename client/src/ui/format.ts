import { localeFor, type Language } from '@gd/shared/language';

export function formatDate(iso: string | null | undefined, lang: Language): string {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : new Intl.DateTimeFormat(localeFor(lang), { dateStyle: 'medium' }).format(date);
}

export function formatDateTime(iso: string | null | undefined, lang: Language): string {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : new Intl.DateTimeFormat(localeFor(lang), { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/**
 * A change on the previous period ("+25 %", "−50 %", "0 %") in the user's language; null (no
 * previous figure) answers null. The message reports and the behaviour analytics share it.
 */
export function formatVariation(ratio: number, lang: Language): string;
export function formatVariation(ratio: number | null, lang: Language): string | null;
export function formatVariation(ratio: number | null, lang: Language): string | null {
  if (ratio === null) return null;
  return new Intl.NumberFormat(localeFor(lang), { style: 'percent', maximumFractionDigits: 1, signDisplay: 'exceptZero' }).format(ratio);
}

/** Every IANA time zone the browser knows, UTC first. */
export function timeZones(): string[] {
  const zones = Intl.supportedValuesOf('timeZone');
  return ['UTC', ...zones.filter((z) => z !== 'UTC')];
}
