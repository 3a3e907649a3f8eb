/**
 * The variation of a KPI against the previous period (SPEC.md "KPI: total, variation"), pure:
 * the relative change (0.25 = +25 %), null when the previous period had nothing to compare with
 * (the screens say "no previous data"), 0 when both are zero or equal. A ratio KPI (ctr) may be
 * null itself: no variation then.
 */
export function variation(current: number | null, previous: number | null): number | null {
  if (current === null || previous === null) return null;
  if (current === previous) return 0;
  if (previous === 0) return null;
  return (current - previous) / Math.abs(previous);
}

/** Sums figures over several rows (the report's total); `ctr` is recomputed from the sums. */
export function sumKpis<T extends Record<string, number | null>>(rows: readonly T[], empty: T): T {
  const out: Record<string, number | null> = { ...empty };
  for (const row of rows) {
    for (const [key, value] of Object.entries(row)) {
      if (key === 'ctr' || value === null) continue;
      out[key] = (out[key] ?? 0) + value;
    }
  }
  if ('ctr' in out) {
    const delivered = out.delivered ?? 0;
    out.ctr = delivered > 0 ? (out.clicks ?? 0) / delivered : null;
  }
  return out as T;
}
