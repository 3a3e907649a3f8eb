/**
 * Revenue as people read it: in its currency (Intl currency style, the language's symbol and
 * placement: "€1,234.50", "1234,50 €") when the figure has one, else a plain number with cents.
 * Which currency a figure has is the API's answer (api-server features/analytics/currency.ts: the
 * one currency every revenue event it adds up named; none when they named several or none). A
 * code Intl does not know is shown as a plain number rather than failing.
 */
import { localeFor, type Language } from '@gd/shared/language';

const plain = (locale: string) => new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });

function currencyFormat(locale: string, currency: string | null | undefined): Intl.NumberFormat | null {
  const code = currency?.trim().toUpperCase();
  if (!code || !/^[A-Z]{3}$/.test(code)) return null;
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency: code });
  } catch {
    return null;
  }
}

/** A formatter for many amounts of one currency (tables, charts). */
export function moneyFormatter(lang: Language, currency: string | null | undefined): (amount: number) => string {
  const locale = localeFor(lang);
  const format = currencyFormat(locale, currency) ?? plain(locale);
  return (amount) => format.format(amount);
}

export function formatMoney(lang: Language, amount: number, currency: string | null | undefined): string {
  return moneyFormatter(lang, currency)(amount);
}
