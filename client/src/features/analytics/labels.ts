/**
 * Labels and numbers of the analytics screens (pure). Built-in events take their label from the
 * i18n catalogue, custom ones their catalogue label or else their name (the screen event reads "Screen
 * view"); breakdown sentinels read
 * "(empty)" and "Other". Labels shown in tables, legends and pickers truncate at 50 characters.
 */
import { EMPTY_SENTINEL, OTHER_SENTINEL, SCREEN_EVENT, builtInEventKey } from '@gd/shared/behaviour/events';
import { localeFor, truncateLabel, type Language } from '@gd/shared/language';
import type { ExploreMetric } from '@gd/shared/schemas/behaviour';
import type { TFunction } from '../../i18n/keys.ts';
import { moneyFormatter } from '../../ui/money.ts';

export { truncateLabel };

export function eventLabel(t: TFunction, name: string, custom?: string | null): string {
  const key = builtInEventKey(name);
  if (key) return t(`builtInEvent.${key}`);
  if (custom?.trim()) return custom;
  return name === SCREEN_EVENT ? t('analytics.screenEvent') : name;
}

/** A breakdown value as people read it; `whole` names the series of a query without a breakdown. */
export function seriesLabel(t: TFunction, key: string | null, whole: string): string {
  if (key === null) return whole;
  if (key === EMPTY_SENTINEL || key === '') return t('analytics.empty');
  if (key === OTHER_SENTINEL) return t('analytics.other');
  return key;
}

/**
 * Number formatting per metric: counts as integers, revenue with cents (in `currency` when the
 * answer names one: ui/money.ts), ratios with two decimals.
 */
export function metricFormatter(lang: Language, metric: ExploreMetric, currency: string | null = null): (n: number) => string {
  if (metric === 'revenue') return moneyFormatter(lang, currency);
  const options: Intl.NumberFormatOptions =
    metric === 'eventsPerPerson' ? { maximumFractionDigits: 2 } : { maximumFractionDigits: 0 };
  const format = new Intl.NumberFormat(localeFor(lang), options);
  return (n) => format.format(n);
}

/** Relative change from `previous` to `current`: null when there was nothing before. */
export function variation(current: number, previous: number): number | null {
  return previous === 0 ? null : (current - previous) / previous;
}
