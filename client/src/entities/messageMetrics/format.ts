/**
 * How message KPIs read (pure): counts as whole numbers, ctr as a percentage, revenue with cents
 * (messages' revenue names no currency: it adds the purchases of any currency, like the home's
 * revenue without one), and a variation as a signed percentage.
 */
import type { MessageKpis } from '@gd/shared/schemas/messageAnalytics';
import { localeFor, type Language } from '@gd/shared/language';

export type KpiKey = keyof MessageKpis;

/** The KPIs in the order tiles, tables and exports show them. */
export const KPI_ORDER = [
  'sents', 'delivered', 'fails', 'impressions', 'opens', 'clicks', 'ctr', 'redeems', 'conversionsDirect', 'conversionsIndirect', 'revenueDirect', 'revenueIndirect',
] as const satisfies readonly KpiKey[];

export function formatKpi(key: KpiKey, value: number | null, lang: Language): string {
  const locale = localeFor(lang);
  if (value === null) return '–';
  if (key === 'ctr') return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }).format(value);
  if (key === 'revenueDirect' || key === 'revenueIndirect') return new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value);
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(value);
}

/** Whether growth of a KPI is good news (fails growing is not). */
export const goodWhenUp = (key: KpiKey) => key !== 'fails';
