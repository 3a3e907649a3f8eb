/** Number formats and chart colours of the A/B analysis and the histograms (pure). */
import { localeFor, type Language } from '@gd/shared/language';

export const GRID_COLOR = '#e9ecef';
export const AXIS_COLOR = '#868e96';
export const SEND_COLOR = '#228be6';
export const OPEN_COLOR = '#12b886';
export const WINNER_COLOR = '#2f9e44';
export const VARIANT_COLOR = '#74c0fc';
export const INTERVAL_COLOR = '#495057';

export const TOOLTIP_STYLE = {
  contentStyle: { borderRadius: 8, border: '1px solid #dee2e6', boxShadow: '0 4px 12px rgba(0, 0, 0, 0.08)', fontSize: 13, padding: '8px 12px' },
  labelStyle: { fontWeight: 600, marginBottom: 4 },
  wrapperStyle: { zIndex: 10 },
} as const;

/** 0.1234 → "12.3%" ("12,3 %" in Spanish). */
export function percent(lang: Language): (rate: number) => string {
  const format = new Intl.NumberFormat(localeFor(lang), { style: 'percent', maximumFractionDigits: 1 });
  return (rate) => format.format(rate);
}

/** Whole numbers with the language's grouping. */
export function count(lang: Language): (n: number) => string {
  const format = new Intl.NumberFormat(localeFor(lang));
  return (n) => format.format(n);
}

/** A p-value as people read it: "p < 0.001" below that, else "p = " and three decimals. */
export function pValueText(p: number, lang: Language): string {
  const format = new Intl.NumberFormat(localeFor(lang), { minimumFractionDigits: 3, maximumFractionDigits: 3 });
  return p < 0.001 ? `p < ${format.format(0.001)}` : `p = ${format.format(p)}`;
}

/** A significance threshold: "0.05", "0.025". */
export function thresholdText(p: number, lang: Language): string {
  return new Intl.NumberFormat(localeFor(lang), { maximumFractionDigits: 4 }).format(p);
}

/** A difference of rates in percentage points, signed: "+12.5". */
export function points(difference: number, lang: Language): { sign: string; points: string } {
  const format = new Intl.NumberFormat(localeFor(lang), { maximumFractionDigits: 1 });
  return { sign: difference > 0 ? '+' : difference < 0 ? '−' : '', points: format.format(Math.abs(difference) * 100) };
}

