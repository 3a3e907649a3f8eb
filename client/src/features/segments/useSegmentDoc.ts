/**
 * The editor loop over a segment document (shared docs/segmentDoc.ts): on every change the document
 * is read (`segmentFromDoc`) and normalized with the shared editing rules (edit.ts). A writable
 * client whose merged document is not normal (two valid concurrent edits can leave a child listed
 * twice or a node unreachable) writes the repair back (REPAIR_ORIGIN, not undoable, at most a few
 * per second). Edits are SegmentOps applied to the document's current segment and written as a
 * minimal diff (LOCAL_ORIGIN, undoable per person). Nothing is written before the server's initial
 * content has arrived (`meta.kind`): the client never seeds a document. Read-only clients never write.
 */
import { useCallback } from 'react';
import type * as Y from 'yjs';
import { normalSegmentOf, segmentRepair } from '@gd/shared/docs/repairs';
import { applySegmentToDoc } from '@gd/shared/docs/segmentDoc';
import type { Segment } from '@gd/shared/segment/model';
import { useDocView, type DocViewSource } from '../../sync/docView.ts';
import { useSafeRepair, type RepairInput } from '../../sync/repair.ts';
import { LOCAL_ORIGIN, REPAIR_ORIGIN } from '../../sync/origins.ts';
import { applySegmentOp, type SegmentOp } from './segmentOps.ts';

export interface SegmentView {
  segment: Segment;
  /** The stored document already is normal (no repair needed). */
  normal: boolean;
  /** The server's initial content is here (the document may be written). */
  hasContent: boolean;
}

/** Segment-document roots undo covers (conditions and groups), and those the editor reads. */
export const SEGMENT_UNDO_ROOTS = ['nodes'] as const;
const OBSERVED_ROOTS = ['meta', 'nodes'] as const;

const EMPTY_VIEW: SegmentView = { segment: { rootKey: 'root', nodes: [] }, normal: true, hasContent: false };

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function readSegmentView(doc: Y.Doc): SegmentView {
  return { ...normalSegmentOf(doc), hasContent: doc.getMap('meta').has('kind') };
}

const SEGMENT_VIEW: DocViewSource<SegmentView> = { read: readSegmentView, empty: EMPTY_VIEW, roots: OBSERVED_ROOTS, same: sameJson };

export interface SegmentDoc extends SegmentView {
  onOp: (op: SegmentOp) => void;
}

/** A segment with content (never seed) that the rules would change (shared docs/repairs.ts). */
const segmentBroken = (doc: Y.Doc) => segmentRepair(doc) !== null;
const repairSegment = (doc: Y.Doc) => {
  const repaired = segmentRepair(doc);
  if (repaired) applySegmentToDoc(doc, repaired, REPAIR_ORIGIN);
};

export function useSegmentDoc(doc: Y.Doc | null, canWrite: boolean, sync: Pick<RepairInput, 'status' | 'awareness'>): SegmentDoc {
  const view = useDocView(doc, SEGMENT_VIEW);

  // Repair after merges, only when safe (sync/repair.ts).
  useSafeRepair({ doc, canWrite, status: sync.status, awareness: sync.awareness, version: view, broken: segmentBroken, repair: repairSegment });

  const onOp = useCallback(
    (op: SegmentOp) => {
      if (!doc || !canWrite || !doc.getMap('meta').has('kind')) return;
      // The document's current content, not a rendered (possibly older) view.
      const current = readSegmentView(doc).segment;
      const next = applySegmentOp(current, op);
      if (next !== current) applySegmentToDoc(doc, next, LOCAL_ORIGIN);
    },
    [doc, canWrite],
  );

  return { ...view, onOp };
}
