/**
 * Restoring a kept copy (a writer's browser copy that the server refused and the browser dropped,
 * see client/src/sync/RecoveryNotice.tsx) into the open document, as one edit of the person's.
 *
 * The kept state and the open document share their history, so the two are merged the Yjs way in
 * a scratch document first: the person's unconfirmed changes join everything others did meanwhile
 * (nobody's work is undone by a restore). Only what the editor reads from the merge (the kind's
 * content, normalized) is written into the open document, as a diff: whatever made the server
 * refuse the copy (a root this kind does not have, a malformed value) is not read, so not written.
 * A step that the merge left cut off (the kept copy and someone else linked a step in the same
 * place) is put back where its chain rejoins the journey (relinkOrphan), whichever side it came from.
 */
import * as Y from 'yjs';
import { connectedSteps } from '../journey/graph.ts';
import { reconnect } from '../journey/edit.ts';
import { normalizeJourney } from '../journey/normalize.ts';
import { normalizeSegment } from '../segment/edit.ts';
import { jsonEqual } from '../journey/json.ts';
import { applyJourneyToDoc, journeyFromDoc, readLayout, writeLayoutPosition } from './journeyDoc.ts';
import { applySegmentToDoc, segmentFromDoc } from './segmentDoc.ts';

function merged(doc: Y.Doc, kept: Uint8Array): { scratch: Y.Doc; copy: Y.Doc } {
  const scratch = new Y.Doc();
  Y.applyUpdate(scratch, Y.encodeStateAsUpdate(doc));
  Y.applyUpdate(scratch, kept);
  const copy = new Y.Doc();
  Y.applyUpdate(copy, kept);
  return { scratch, copy };
}

/** Writes the journey of `doc` merged with the kept state; false when that changes nothing. */
export function restoreJourney(doc: Y.Doc, kept: Uint8Array, origin?: unknown): boolean {
  const { scratch, copy } = merged(doc, kept);
  // Steps that were connected, in the kept copy or in the document as it is, stay connected.
  const current = normalizeJourney(journeyFromDoc(doc));
  const wasConnected = new Set([...connectedSteps(normalizeJourney(journeyFromDoc(copy))), ...connectedSteps(current)]);
  const journey = reconnect(journeyFromDoc(scratch), wasConnected);
  const layout = readLayout(scratch);
  const before = readLayout(doc);
  const moved = Object.entries(layout).filter(([id, pos]) => journey.steps.some((s) => s.id === id) && !jsonEqual(before[id], pos));
  if (jsonEqual(current, journey) && moved.length === 0) return false;
  doc.transact(() => {
    applyJourneyToDoc(doc, journey);
    for (const [id, pos] of moved) writeLayoutPosition(doc, id, pos);
  }, origin);
  return true;
}

/** Whether restoring `kept` would change `doc` (tried on a copy). */
export function wouldRestore(restore: (doc: Y.Doc, kept: Uint8Array) => boolean, doc: Y.Doc, kept: Uint8Array): boolean {
  const probe = new Y.Doc();
  Y.applyUpdate(probe, Y.encodeStateAsUpdate(doc));
  return restore(probe, kept);
}

/** Writes the segment of `doc` merged with the kept state; false when that changes nothing. */
export function restoreSegment(doc: Y.Doc, kept: Uint8Array, origin?: unknown): boolean {
  const { scratch } = merged(doc, kept);
  const segment = normalizeSegment(segmentFromDoc(scratch));
  if (jsonEqual(normalizeSegment(segmentFromDoc(doc)), segment)) return false;
  applySegmentToDoc(doc, segment, origin);
  return true;
}
