/** Bucket labels of the acquisition charts: HH:00 as it is, a day as "4 Mar" (tick) or "4 Mar 2026" (tooltip). */
import { localeFor, type Language } from '@gd/shared/language';

const isDay = (label: string) => /^\d{4}-\d{2}-\d{2}$/.test(label);

export function tick(label: string, lang: Language): string {
  if (!isDay(label)) return label;
  return new Intl.DateTimeFormat(localeFor(lang), { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(new Date(`${label}T12:00:00Z`));
}

export function bucketLabel(label: string, lang: Language): string {
  if (!isDay(label)) return label;
  return new Intl.DateTimeFormat(localeFor(lang), { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${label}T12:00:00Z`));
}
