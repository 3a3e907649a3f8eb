/**
 * The statistics of an A/B analysis (pure): a rate with its 95% Wilson score interval, the
 * difference of two rates with a two-sided two-proportion z-test, and the rule that declares a
 * winner.
 *
 * Decisions:
 * - **Wilson, not Wald**: the Wald interval (p ± 1.96·√(p(1−p)/n)) collapses to a point at 0% and
 *   100% and leaves [0, 1] on small samples, which is exactly where a test starts.
 * - **The winner rule** (`declareWinner`): the variant with the highest rate is declared the winner
 *   only when
 *   1. the sample is enough: every variant was sent to at least `AB_STATS.minSends` people, and in
 *      each comparison the pooled rate predicts at least `AB_STATS.minExpected` successes and as many
 *      failures in both variants (the usual condition for the z-test's normal approximation);
 *   2. it beats every other variant significantly: a two-sided p-value below 0.05, divided by the
 *      number of comparisons when there are more than two variants (Bonferroni, so that ten
 *      variants do not give ten chances of a false winner).
 *   Equal best rates declare nothing.
 */
import { z } from 'zod';

export const AB_STATS = {
  /** z of a two-sided 95% interval. */
  z95: 1.959963984540054,
  alpha: 0.05,
  minSends: 10,
  minExpected: 5,
} as const;

/** A rate (successes / trials; 0 without trials) and its interval. */
export const RateInterval = z.object({ rate: z.number(), low: z.number(), high: z.number() });
export type RateInterval = z.infer<typeof RateInterval>;

/** A rate with its Wilson score interval at `z` (95% by default). No trials: rate 0, interval [0, 1]. */
export function wilsonInterval(successes: number, trials: number, z: number = AB_STATS.z95): RateInterval {
  if (trials <= 0) return { rate: 0, low: 0, high: 1 };
  const p = successes / trials;
  const z2 = z * z;
  const denominator = 1 + z2 / trials;
  const centre = (p + z2 / (2 * trials)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials))) / denominator;
  return { rate: p, low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** erfc(x) (Numerical Recipes' Chebyshev fit, fractional error below 1.2e-7 everywhere). */
export function erfc(x: number): number {
  const t = 1 / (1 + 0.5 * Math.abs(x));
  const y = t * Math.exp(-x * x - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 +
    t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))));
  return x >= 0 ? y : 2 - y;
}

/** P(|Z| ≥ |z|) for a standard normal Z. */
export function twoSidedP(z: number): number {
  return Math.min(1, erfc(Math.abs(z) / Math.SQRT2));
}

/** Rate of b minus rate of a, the z statistic, and the two-sided p-value of "the rates are equal" (1 when there is nothing to compare). */
export const ProportionTest = z.object({ difference: z.number(), z: z.number(), pValue: z.number() });
export type ProportionTest = z.infer<typeof ProportionTest>;

/** Two-proportion z-test (pooled standard error) of a = xa/na against b = xb/nb. */
export function twoProportionTest(xa: number, na: number, xb: number, nb: number): ProportionTest {
  if (na <= 0 || nb <= 0) return { difference: 0, z: 0, pValue: 1 };
  const pa = xa / na;
  const pb = xb / nb;
  const pooled = (xa + xb) / (na + nb);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / na + 1 / nb));
  if (se === 0) return { difference: pb - pa, z: 0, pValue: 1 };
  const z = (pb - pa) / se;
  return { difference: pb - pa, z, pValue: twoSidedP(z) };
}

export interface VariantCounts {
  id: string;
  successes: number;
  trials: number;
}

/** Why a winner was or was not declared. */
export const WinnerReason = z.enum(['significant', 'notSignificant', 'tooFew', 'tie', 'noData']);
export type WinnerReason = z.infer<typeof WinnerReason>;

export interface WinnerDecision {
  winnerId: string | null;
  reason: WinnerReason;
  /** The best rate's variant (the winner when significant), null without data or on a tie. */
  bestId: string | null;
  /** The p-value each comparison must stay under (0.05, or 0.05 / comparisons). */
  threshold: number;
}

/** Whether the z-test's approximation holds for a against b: enough expected successes and failures in both. */
export function sampleEnough(a: VariantCounts, b: VariantCounts): boolean {
  if (a.trials < AB_STATS.minSends || b.trials < AB_STATS.minSends) return false;
  const pooled = (a.successes + b.successes) / (a.trials + b.trials);
  return [a.trials, b.trials].every((n) => n * pooled >= AB_STATS.minExpected && n * (1 - pooled) >= AB_STATS.minExpected);
}

/** The winner rule of the module comment. */
export function declareWinner(variants: readonly VariantCounts[]): WinnerDecision {
  const comparisons = Math.max(1, variants.length - 1);
  const threshold = AB_STATS.alpha / comparisons;
  const none = (reason: WinnerReason, bestId: string | null = null): WinnerDecision => ({ winnerId: null, reason, bestId, threshold });
  if (variants.length < 2 || variants.every((v) => v.trials === 0)) return none('noData');
  const rate = (v: VariantCounts) => (v.trials > 0 ? v.successes / v.trials : 0);
  const sorted = [...variants].sort((a, b) => rate(b) - rate(a));
  const [best, second] = sorted;
  if (!best || !second) return none('noData');
  if (rate(best) === rate(second)) return none('tie');
  const others = sorted.slice(1);
  if (variants.some((v) => v.trials < AB_STATS.minSends) || others.some((o) => !sampleEnough(best, o))) return none('tooFew', best.id);
  const significant = others.every((o) => twoProportionTest(o.successes, o.trials, best.successes, best.trials).pValue < threshold);
  return significant ? { winnerId: best.id, reason: 'significant', bestId: best.id, threshold } : none('notSignificant', best.id);
}
