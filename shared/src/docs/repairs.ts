/**
 * What an editor reads from a journey or segment document (its content as the editing rules make
 * it) and what a writer writes back when the merged document breaks those rules (the repair;
 * when and by whom: client/src/sync/repair.ts). Shared by the browser's editors and the sync
 * tests' simulated editors, so both repair alike. A document without content is never repaired
 * (a client never seeds one).
 */
import type * as Y from 'yjs';
import { jsonEqual } from '../journey/json.ts';
import type { Journey } from '../journey/model.ts';
import { normalizeJourney } from '../journey/normalize.ts';
import { normalizeSegment } from '../segment/edit.ts';
import type { Segment } from '../segment/model.ts';
import { journeyFromDoc } from './journeyDoc.ts';
import { segmentFromDoc } from './segmentDoc.ts';

/** The journey as the rules make it, and whether the stored one already is (`normal`). */
export function normalJourneyOf(doc: Y.Doc): { journey: Journey; normal: boolean } {
  const raw = journeyFromDoc(doc);
  try {
    const journey = normalizeJourney(raw);
    return { journey, normal: journey === raw };
  } catch {
    // A state the rules cannot settle: shown as stored (validation lists its problems).
    return { journey: raw, normal: true };
  }
}

/** The journey a writer repairs `doc` to, or null when nothing is to be repaired. */
export function journeyRepair(doc: Y.Doc): Journey | null {
  const { journey, normal } = normalJourneyOf(doc);
  return !normal && journey.steps.length > 0 ? journey : null;
}

const byKey = (s: Segment) => [...s.nodes].sort((a, b) => (a.key < b.key ? -1 : 1));

/** The segment as the rules make it, and whether the stored one already is (`normal`). */
export function normalSegmentOf(doc: Y.Doc): { segment: Segment; normal: boolean } {
  const raw = segmentFromDoc(doc);
  const segment = normalizeSegment(raw);
  // normalizeSegment keeps node order by reachability; the stored order is by key: compare as sets.
  return { segment, normal: raw.rootKey === segment.rootKey && jsonEqual(byKey(raw), byKey(segment)) };
}

/** The segment a writer repairs `doc` to, or null when nothing is to be repaired. */
export function segmentRepair(doc: Y.Doc): Segment | null {
  if (!doc.getMap('meta').has('kind')) return null;
  const { segment, normal } = normalSegmentOf(doc);
  return normal ? null : segment;
}
