/**
 * Undo and redo that never cut off someone else's step. A Yjs undo reverts this person's own items
 * (an inserted step goes, the link it replaced comes back); a step another person linked after it
 * meanwhile would be left pointing from a step that is gone. So an undo or redo here is the
 * structural opposite of the edit: the revert runs, then every step that was connected before it,
 * is still in the journey and is cut off now is put back on the link that led toward it (the last
 * step of its old path that is still connected: the removed step's predecessor), as
 * `relinkOrphan` puts back a lost link; a step the revert brought back (a redo of an insert) goes
 * where its own link leads into the journey. The re-link is written with an origin the undo manager does
 * not track, so it is never undone by itself and does not clear the redo stack.
 */
import type * as Y from 'yjs';
import { reconnect, type LostLink } from '../journey/edit.ts';
import { connectedSteps, outEdges, stepIndex } from '../journey/graph.ts';
import type { Journey } from '../journey/model.ts';
import { normalizeJourney } from '../journey/normalize.ts';
import { applyJourneyToDoc, journeyFromDoc } from './journeyDoc.ts';

/** The link of `before` (on its path from the entry to `id`) leaving the last step still connected in `now`. */
function linkToward(before: Journey, id: string, connectedNow: ReadonlySet<string>): LostLink | null {
  if (before.entryId === null) return null;
  const byId = stepIndex(before);
  // Breadth first from the entry: each step's way in (its predecessor and that one's path index).
  const cameFrom = new Map<string, { from: string; pathIndex: number | null }>();
  const queue = [before.entryId];
  const seen = new Set(queue);
  while (queue.length > 0 && !seen.has(id)) {
    const step = byId.get(queue.shift() as string);
    if (!step) continue;
    for (const e of outEdges(step)) {
      if (e.to === null || seen.has(e.to)) continue;
      seen.add(e.to);
      cameFrom.set(e.to, { from: step.id, pathIndex: e.pathIndex });
      queue.push(e.to);
    }
  }
  for (let at = cameFrom.get(id); at; at = cameFrom.get(at.from)) {
    if (connectedNow.has(at.from)) return { fromStepId: at.from, pathIndex: at.pathIndex };
  }
  return null;
}

/** Runs `revert` on `doc`, then re-links the steps it cut off (see above) with `origin`. */
export function revertKeepingStepsConnected(doc: Y.Doc, revert: () => void, origin: unknown): void {
  const before = normalizeJourney(journeyFromDoc(doc));
  const connectedBefore = connectedSteps(before);
  const existed = stepIndex(before);
  revert();
  const reverted = normalizeJourney(journeyFromDoc(doc));
  // Connected before, or brought back by this revert (a redo of an insert, an undo of a removal).
  const keep = reverted.steps.flatMap((s) => (connectedBefore.has(s.id) || !existed.has(s.id) ? [s.id] : []));
  const after = reconnect(reverted, keep, (id, connected) => linkToward(before, id, connected));
  if (after !== reverted) applyJourneyToDoc(doc, after, origin);
}
