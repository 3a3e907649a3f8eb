/**
 * Heat colours and labels of a retention table (pure). The cell's background is the primary blue
 * with an opacity that grows with the rate, so it reads on the light and the dark theme alike; the
 * text turns white once the blue is strong enough. An incomplete period is hatched on top of its
 * colour (and dimmed), so "not over yet" reads at a glance without hiding the count so far.
 */
import { localeFor, type Language } from '@gd/shared/language';

const BLUE = '34, 139, 230';
const HATCH = 'repeating-linear-gradient(135deg, rgba(134, 142, 150, 0.35) 0 2px, transparent 2px 7px)';

export interface HeatStyle { background: string; color: string | undefined; opacity: number }

/** The style of a cell with `rate` (0..1, null = no value) and its completeness. */
export function heatStyle(rate: number | null, complete: boolean): HeatStyle {
  if (rate === null) return { background: 'transparent', color: undefined, opacity: 1 };
  const clamped = Math.min(1, Math.max(0, rate));
  const alpha = 0.06 + 0.84 * clamped;
  const fill = `rgba(${BLUE}, ${alpha.toFixed(3)})`;
  return {
    background: complete ? fill : `${HATCH}, linear-gradient(${fill}, ${fill})`,
    color: alpha >= 0.5 ? '#fff' : undefined,
    opacity: complete ? 1 : 0.8,
  };
}

/** A rate as a percentage with one decimal under 10%, none above ("7.5%", "42%"). */
export function percent(lang: Language): (rate: number | null) => string {
  const small = new Intl.NumberFormat(localeFor(lang), { style: 'percent', maximumFractionDigits: 1 });
  const large = new Intl.NumberFormat(localeFor(lang), { style: 'percent', maximumFractionDigits: 0 });
  return (rate) => (rate === null ? '—' : rate < 0.1 ? small.format(rate) : large.format(rate));
}

/** The rate of a count within its cohort, or null when there is nothing to compare. */
export const rateOf = (count: number | null | undefined, size: number): number | null => (count === null || count === undefined || size === 0 ? null : count / size);
