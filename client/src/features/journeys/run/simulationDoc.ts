/**
 * The last simulation run on a journey, kept in the journey's collaborative document so everyone
 * who has the editor open sees the same one: the root map `simulation` (shared docs/schema.ts),
 * plain values `request`, `answer`, `by` (who ran it) and `at` (when). The journey itself never
 * reads this map (journeyFromDoc reads meta, steps and settings), undo does not cover it, and a
 * value that does not parse (an older or newer shape) reads as no simulation.
 */
import { useCallback, useSyncExternalStore } from 'react';
import { z } from 'zod';
import type * as Y from 'yjs';
import { JourneySimulationAnswer, JourneySimulationRequest } from '@gd/shared/schemas/journeySimulation';

export const SIMULATION_ROOT = 'simulation';

export const StoredSimulation = z.object({
  request: JourneySimulationRequest,
  answer: z.object(JourneySimulationAnswer),
  by: z.object({ userId: z.string(), name: z.string() }),
  at: z.string(),
});
export type StoredSimulation = z.infer<typeof StoredSimulation>;

/**
 * The largest simulation written to the document (its JSON text): a sync message is refused past
 * 512 KB (docs/schema.ts MAX_UPDATE_BYTES); a longer one stays on the screen of who ran it.
 */
export const MAX_STORED_SIMULATION_CHARS = 200_000;

/** Transaction origin of a simulation written here (not LOCAL_ORIGIN: never undone). */
export const SIMULATION_ORIGIN = { name: 'gd-simulation' } as const;

export function readSimulation(doc: Y.Doc): StoredSimulation | null {
  const map = doc.getMap<unknown>(SIMULATION_ROOT);
  if (map.size === 0) return null;
  const parsed = StoredSimulation.safeParse(map.toJSON());
  return parsed.success ? parsed.data : null;
}

/** Writes the simulation in one transaction; false when it is too large to share. */
export function writeSimulation(doc: Y.Doc, stored: StoredSimulation): boolean {
  if (JSON.stringify(stored).length > MAX_STORED_SIMULATION_CHARS) return false;
  doc.transact(() => {
    const map = doc.getMap<unknown>(SIMULATION_ROOT);
    map.set('request', stored.request);
    map.set('answer', stored.answer);
    map.set('by', stored.by);
    map.set('at', stored.at);
  }, SIMULATION_ORIGIN);
  return true;
}

/** The stored simulation, as it changes (someone else's run shows up at once). */
export function useStoredSimulation(doc: Y.Doc | null): StoredSimulation | null {
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (!doc) return () => undefined;
      const map = doc.getMap<unknown>(SIMULATION_ROOT);
      map.observe(onChange);
      return () => map.unobserve(onChange);
    },
    [doc],
  );
  // The parsed value is cached per document state: useSyncExternalStore needs a stable snapshot.
  const snapshot = useCallback(() => (doc ? cachedRead(doc) : null), [doc]);
  return useSyncExternalStore(subscribe, snapshot);
}

const cache = new WeakMap<Y.Doc, { key: string; value: StoredSimulation | null }>();
function cachedRead(doc: Y.Doc): StoredSimulation | null {
  const map = doc.getMap<unknown>(SIMULATION_ROOT);
  const at = map.get('at');
  const key = `${map.size}:${typeof at === 'string' ? at : ''}:${JSON.stringify(map.get('by') ?? null)}`;
  const hit = cache.get(doc);
  if (hit && hit.key === key) return hit.value;
  const value = readSimulation(doc);
  cache.set(doc, { key, value });
  return value;
}
