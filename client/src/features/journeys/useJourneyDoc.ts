/**
 * The editor loop over a journey document (shared/CONTEXT.md): on every change the document is read
 * (`journeyFromDoc`), normalized with the shared rules and validated; a writable client whose
 * merged document is not normal writes the repair back (REPAIR_ORIGIN, not undoable). Edits are
 * JourneyOps applied to the current journey and written as a minimal diff (LOCAL_ORIGIN, undoable);
 * positions are written when a move ends only. Read-only clients never write.
 */
import { useCallback, useMemo } from 'react';
import type * as Y from 'yjs';
import { applyJourneyToDoc, readJourneySettings, readLayout, writeJourneySettings, writeLayoutPosition, type LayoutPosition } from '@gd/shared/docs/journeyDoc';
import { journeyRepair, normalJourneyOf } from '@gd/shared/docs/repairs';
import type { Journey } from '@gd/shared/journey/model';
import { DEFAULT_JOURNEY_SETTINGS, type JourneySettings } from '@gd/shared/journey/settings';
import { validateJourney, type JourneyViolation } from '@gd/shared/journey/validate';
import { useDocView, type DocViewSource } from '../../sync/docView.ts';
import { useSafeRepair, type RepairInput } from '../../sync/repair.ts';
import { LOCAL_ORIGIN, REPAIR_ORIGIN } from '../../sync/origins.ts';
import { applyOp } from './canvas/ops.ts';
import { messageContext } from './messages.ts';
import type { JourneyOp } from './canvas/types.ts';

export interface JourneyView {
  journey: Journey;
  layout: Record<string, LayoutPosition>;
  /** The stored document already satisfies the editing rules (no repair needed). */
  normal: boolean;
}

const EMPTY_VIEW: JourneyView = { journey: { entryId: null, steps: [] }, layout: {}, normal: true };
/** Journey-document roots the editor reads and undo covers (settings included: undo takes back a settings change too). */
export const JOURNEY_UNDO_ROOTS = ['steps', 'layout', 'settings'] as const;
const OBSERVED_ROOTS = ['meta', 'steps', 'layout', 'settings'] as const;

export function readJourneyView(doc: Y.Doc): JourneyView {
  return { ...normalJourneyOf(doc), layout: readLayout(doc) };
}

const JOURNEY_VIEW: DocViewSource<JourneyView> = { read: readJourneyView, empty: EMPTY_VIEW, roots: OBSERVED_ROOTS };

export interface JourneyDoc extends JourneyView {
  violations: JourneyViolation[];
  onOp: (op: JourneyOp) => void;
  onMoveEnd: (stepId: string, pos: LayoutPosition) => void;
  /** Changes the journey's settings (applied to the document's latest ones; only the groups that changed are written). */
  onSettings: (change: (settings: JourneySettings) => JourneySettings) => void;
}

/** A journey with content (never seed) that the rules would change (shared docs/repairs.ts). */
const journeyBroken = (doc: Y.Doc) => journeyRepair(doc) !== null;
const repairJourney = (doc: Y.Doc) => {
  const repaired = journeyRepair(doc);
  if (repaired) applyJourneyToDoc(doc, repaired, REPAIR_ORIGIN);
};

/** `messageKeys`: what message steps may name (useJourneyMessages), null while not known. */
export function useJourneyDoc(doc: Y.Doc | null, canWrite: boolean, sync: Pick<RepairInput, 'status' | 'awareness'>, messageKeys: ReadonlySet<string> | null): JourneyDoc {
  const view = useDocView(doc, JOURNEY_VIEW);
  const violations = useMemo(() => validateJourney(view.journey, messageContext(messageKeys)), [view.journey, messageKeys]);

  // Repair after merges, only when safe (sync/repair.ts).
  useSafeRepair({ doc, canWrite, status: sync.status, awareness: sync.awareness, version: view, broken: journeyBroken, repair: repairJourney });

  const onOp = useCallback(
    (op: JourneyOp) => {
      if (!doc || !canWrite) return;
      // The current document, not a rendered (possibly older) view.
      const current = readJourneyView(doc).journey;
      const next = applyOp(current, op);
      applyJourneyToDoc(doc, next, LOCAL_ORIGIN);
    },
    [doc, canWrite],
  );

  const onMoveEnd = useCallback(
    (stepId: string, pos: LayoutPosition) => {
      if (!doc || !canWrite) return;
      writeLayoutPosition(doc, stepId, { x: Math.round(pos.x), y: Math.round(pos.y) }, LOCAL_ORIGIN);
    },
    [doc, canWrite],
  );

  const onSettings = useCallback(
    (change: (settings: JourneySettings) => JourneySettings) => {
      if (!doc || !canWrite) return;
      const current = readJourneySettings(doc) ?? structuredClone(DEFAULT_JOURNEY_SETTINGS);
      writeJourneySettings(doc, change(current), LOCAL_ORIGIN);
    },
    [doc, canWrite],
  );

  return { ...view, violations, onOp, onMoveEnd, onSettings };
}
