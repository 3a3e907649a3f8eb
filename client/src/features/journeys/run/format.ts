/**
 * Pure helpers of a running journey in the editor: simulated time offsets as people read them
 * ("+1 d 2 h"), the launched version's step counts mapped onto the draft's nodes, and the steps a
 * simulation passed (highlighted on the canvas).
 */
import type { Journey } from '@gd/shared/journey/model';
import type { JourneyStepCount } from '@gd/shared/schemas/journeyRun';

/** The unit words of an offset, translated by the caller. */
export interface OffsetUnits {
  d: string;
  h: string;
  min: string;
  s: string;
}

const UNITS = [
  ['d', 86_400],
  ['h', 3_600],
  ['min', 60],
  ['s', 1],
] as const;

/**
 * Seconds after a start as "+1 d 2 h": the two largest non-zero units, each a whole number (what
 * the smaller one leaves is dropped, the figure is never rounded up); "+0 s" at the start. Negative
 * or non-finite input reads as the start.
 */
export function formatOffset(seconds: number, units: OffsetUnits, parts = 2): string {
  let left = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  if (left === 0) return `+0 ${units.s}`;
  const out: string[] = [];
  for (const [unit, size] of UNITS) {
    if (out.length >= parts) break;
    const n = Math.floor(left / size);
    if (n > 0) {
      out.push(`${n} ${units[unit]}`);
      left -= n * size;
    } else if (out.length > 0) break; // "+1 d 5 min" would hide the hours: stop at the first gap.
  }
  return `+${out.join(' ')}`;
}

/** What a node shows of the launched version's counts. */
export interface NodeCount {
  now: number;
  total: number;
  conversions: number;
}

/**
 * The counts per step id, for the draft's steps that the counted version also has. A step of the
 * draft the version lacks (added since the launch) gets none; a counted step the draft no longer
 * has is left out (there is no node to show it on).
 */
export function nodeCounts(counts: readonly JourneyStepCount[] | undefined, journey: Pick<Journey, 'steps'>): Record<string, NodeCount> {
  if (!counts) return {};
  const draft = new Set(journey.steps.map((s) => s.id));
  const out: Record<string, NodeCount> = {};
  for (const c of counts) {
    if (!draft.has(c.currentStepId)) continue;
    out[c.currentStepId] = { now: c.users, total: c.cumulativeUsers, conversions: c.conversions };
  }
  return out;
}

/** A stable text of the counts, so the canvas re-renders its nodes only when a figure changes. */
export const countsKey = (counts: Readonly<Record<string, NodeCount>>): string =>
  Object.keys(counts)
    .sort()
    .map((id) => {
      const c = counts[id];
      return c ? `${id}:${c.now}:${c.total}:${c.conversions}` : id;
    })
    .join('|');

/** The steps a simulation passed, in order of first passage, and the one it stopped at. */
export function simulatedPath(timeline: readonly { stepId: string }[], stoppedAt: string | null): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const id of [...timeline.map((e) => e.stepId), ...(stoppedAt ? [stoppedAt] : [])]) {
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(id);
  }
  return out;
}

/** The share of `part` in `whole` in percent, one decimal; null when `whole` is zero. */
export const percentOf = (part: number, whole: number): number | null => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : null);
