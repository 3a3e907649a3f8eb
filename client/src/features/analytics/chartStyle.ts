/**
 * Chart colours and axis labels shared by the analytics charts. Series keep their colour by
 * position; "Other" is always grey, so it reads as the remainder it is.
 */
import { OTHER_SENTINEL } from '@gd/shared/behaviour/events';
import { localeFor, type Language } from '@gd/shared/language';

const PALETTE = ['#228be6', '#12b886', '#fab005', '#e8590c', '#7950f2', '#e64980', '#15aabf', '#82c91e', '#4c6ef5', '#be4bdb', '#fd7e14'];
const OTHER_COLOR = '#adb5bd';

export function seriesColor(index: number, key: string | null): string {
  return key === OTHER_SENTINEL ? OTHER_COLOR : (PALETTE[index % PALETTE.length] ?? '#228be6');
}

export const GRID_COLOR = '#e9ecef';
export const AXIS_COLOR = '#868e96';

/** Axis tick of a bucket: HH:00 as it is, a day as "4 Mar" / "Mar 4" in the user's language. */
export function bucketTick(bucket: string, lang: Language): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(bucket)) return bucket;
  return new Intl.DateTimeFormat(localeFor(lang), { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(new Date(`${bucket}T12:00:00Z`));
}

/** Compact axis numbers: 1.2K, 3.4M. */
export function compactNumber(lang: Language): (n: number) => string {
  const format = new Intl.NumberFormat(localeFor(lang), { notation: 'compact', maximumFractionDigits: 1 });
  return (n) => format.format(n);
}

/** Tooltip box in the app's card style. */
export const TOOLTIP_STYLE = {
  contentStyle: { borderRadius: 8, border: '1px solid #dee2e6', boxShadow: '0 4px 12px rgba(0, 0, 0, 0.08)', fontSize: 13, padding: '8px 12px' },
  labelStyle: { fontWeight: 600, marginBottom: 4 },
  wrapperStyle: { zIndex: 10 },
} as const;
