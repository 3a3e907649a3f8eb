/** Facts for tests, at absolute times (epoch milliseconds). Not exported from the package index. */
import type { InteractionType } from '../model.ts';
import type { Facts } from './types.ts';

export interface FixedFacts {
  events?: { eventId: string; at: number }[];
  /** Interactions with the message that `stepId` sent. */
  interactions?: { stepId: string; kind: InteractionType; at: number }[];
  segments?: Record<string, boolean>;
}

/** Facts over fixed lists, with the tie rules of the Facts contract (the kind or event listed first). */
export function fixedFacts(f: FixedFacts = {}): Facts {
  const earliest = <T extends { at: number }>(items: readonly T[], rank: (t: T) => number): T | null => {
    let best: T | null = null;
    for (const t of items) {
      if (rank(t) < 0) continue;
      if (!best || t.at < best.at || (t.at === best.at && rank(t) < rank(best))) best = t;
    }
    return best;
  };
  return {
    event(eventIds, since, until) {
      const hit = earliest((f.events ?? []).filter((e) => e.at >= since && e.at <= until), (e) => eventIds.indexOf(e.eventId));
      return hit && { eventId: hit.eventId, at: hit.at };
    },
    interaction(stepId, kinds, since, until) {
      const mine = (f.interactions ?? []).filter((i) => i.stepId === stepId && i.at >= since && i.at <= until);
      const hit = earliest(mine, (i) => kinds.indexOf(i.kind));
      return hit && { kind: hit.kind, at: hit.at };
    },
    inSegment: (stepId, pathId) => f.segments?.[`${stepId}:${pathId}`] === true,
  };
}

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
/** Monday 6 January 2025, 09:00 UTC. */
export const T0 = Date.UTC(2025, 0, 6, 9);
