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

/** Every IANA time zone the browser knows, UTC first. */
export function timeZones(): string[] {
  const zones = Intl.supportedValuesOf('timeZone');
  return ['UTC', ...zones.filter((z) => z !== 'UTC')];
}
