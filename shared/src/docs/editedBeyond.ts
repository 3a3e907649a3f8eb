/**
 * "Edited since launch" that leaves out the document roots that are no part of the journey (the
 * shared simulation, client features/journeys/run/simulationDoc.ts): the editor's badge and the
 * API's journey summaries (`editedSinceLaunch`) both ask it. Running a simulation writes to the document, and that
 * must not make a live journey look changed. Like shared docs/stateVector.ts, it compares the
 * document with the launched version's state vector, client by client, but counts only what was
 * written after the version under another root. Content written and removed since (garbage
 * collected, its root unknown) counts as no change: it is not there any more.
 */
import * as Y from 'yjs';
import { hasEditsBeyond } from './stateVector.ts';

function rootNameOf(doc: Y.Doc, item: Y.Item, names: Map<unknown, string>): string | null {
  let parent: unknown = item.parent;
  for (;;) {
    if (!(parent instanceof Y.AbstractType)) return null;
    const owner: Y.Item | null = parent._item;
    if (owner === null) break;
    parent = owner.parent;
  }
  if (names.size === 0) for (const [name, type] of doc.share) names.set(type, name);
  return names.get(parent) ?? null;
}

/** Whether `doc` holds edits beyond the version (its state vector) outside the `ignored` roots. */
export function editedBeyond(doc: Y.Doc, version: ReadonlyMap<number, number>, ignored: readonly string[]): boolean {
  const names = new Map<unknown, string>();
  for (const [client, structs] of doc.store.clients) {
    const known = version.get(client) ?? 0;
    // Structs are sorted by clock: walk back from the newest to the version's clock.
    for (let i = structs.length - 1; i >= 0; i--) {
      const s = structs[i];
      if (!s || s.id.clock + s.length <= known) break;
      if (!(s instanceof Y.Item)) continue;
      const root = rootNameOf(doc, s, names);
      if (root === null || !ignored.includes(root)) return true;
    }
  }
  return false;
}

/** Roots of a journey document that are no part of the journey (schema.ts): writing them is no edit. */
export const JOURNEY_NON_MODEL_ROOTS: readonly string[] = ['simulation'];

/** Whether a journey document's stored state holds edits to the journey beyond the launched version's state vector. */
export function journeyStateEditedBeyond(state: Uint8Array, version: ReadonlyMap<number, number>): boolean {
  const doc = new Y.Doc();
  try {
    Y.applyUpdate(doc, state);
    return editedBeyond(doc, version, JOURNEY_NON_MODEL_ROOTS);
  } finally {
    doc.destroy();
  }
}

/**
 * Whether a journey's stored document differs from its launched version (the summaries' flag, the
 * home screen's attention item): the state vectors first (cheap), then, only for a document written
 * to since, whether any of it touches the journey (journeyStateEditedBeyond).
 */
export function journeyDraftChanged(docState: Uint8Array, launchedStateVector: Uint8Array): boolean {
  const launched = Y.decodeStateVector(launchedStateVector);
  return hasEditsBeyond(Y.decodeStateVector(Y.encodeStateVectorFromUpdate(docState)), launched) && journeyStateEditedBeyond(docState, launched);
}
