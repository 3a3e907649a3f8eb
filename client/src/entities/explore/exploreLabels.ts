/**
 * Labels and numbers of an explore answer drawn outside the explore screen (dashboard widgets):
 * built-in events read their catalogue label, breakdown sentinels "(empty)" and "Other", series
 * names truncate at 50 characters with an ellipsis (SPEC §9; the full text goes in a tooltip),
 * counts as integers, revenue in the answer's currency, ratios with two decimals.
 */
import { EMPTY_SENTINEL, OTHER_SENTINEL, SCREEN_EVENT, builtInEventKey } from '@gd/shared/behaviour/events';
import { localeFor, truncateLabel, type Language } from '@gd/shared/language';
import type { ExploreMetric } from '@gd/shared/schemas/behaviour';
import type { TFunction } from '../../i18n/keys.ts';
import { moneyFormatter } from '../../ui/money.ts';

export { truncateLabel };

export function eventName(t: TFunction, name: string, custom?: string | null): string {
  const key = builtInEventKey(name);
  if (key) return t(`builtInEvent.${key}`);
  if (custom?.trim()) return custom;
  return name === SCREEN_EVENT ? t('analytics.screenEvent') : name;
}

/** A series' full name: its breakdown value as people read it, or the metric without a breakdown. */
export function seriesName(t: TFunction, key: string | null, whole: string): string {
  if (key === null) return whole;
  if (key === EMPTY_SENTINEL || key === '') return t('analytics.empty');
  if (key === OTHER_SENTINEL) return t('analytics.other');
  return key;
}

export function metricFormat(lang: Language, metric: ExploreMetric, currency: string | null = null): (n: number) => string {
  if (metric === 'revenue') return moneyFormatter(lang, currency);
  const format = new Intl.NumberFormat(localeFor(lang), { maximumFractionDigits: metric === 'eventsPerPerson' ? 2 : 0 });
  return (n) => format.format(n);
}

export function compactFormat(lang: Language): (n: number) => string {
  const format = new Intl.NumberFormat(localeFor(lang), { notation: 'compact', maximumFractionDigits: 1 });
  return (n) => format.format(n);
}

/** Axis tick of a bucket: HH:00 as it is, a day as "4 Mar" / "Mar 4". */
export function bucketLabel(bucket: string, lang: Language): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(bucket)) return bucket;
  return new Intl.DateTimeFormat(localeFor(lang), { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(new Date(`${bucket}T12:00:00Z`));
}

const PALETTE = ['#228be6', '#12b886', '#fab005', '#e8590c', '#7950f2', '#e64980', '#15aabf', '#82c91e', '#4c6ef5', '#be4bdb', '#fd7e14'];
export const seriesColour = (index: number, key: string | null): string => (key === OTHER_SENTINEL ? '#adb5bd' : (PALETTE[index % PALETTE.length] ?? '#228be6'));
