/**
 * The step open in the inspector, removed by someone else (their removal, their undo, a merge of
 * their offline work): instead of the settings vanishing, the panel says who removed it and offers
 * to put it back where it was, with what this person was typing (the inspector commits a pending
 * draft when it closes; `keepDraft` takes it, since the step it was meant for is gone).
 *
 * Only a remote transaction counts: this person's own removal or undo closes the panel silently.
 * The notice goes when another step is selected, the step is put back, or it is dismissed.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type * as Y from 'yjs';
import type { Journey, JourneyStep } from '@gd/shared/journey/model';
import { linksInto, type NamedLink } from '@gd/shared/journey/rules';
import { transactionAuthor } from '@gd/shared/docs/stateVector';

export interface RemovedStep {
  /** The step as it last was here, with this person's unsaved typing when there was some. */
  step: JourneyStep;
  /** The links that led into it: where it goes back. */
  into: NamedLink[];
  byClient: number | null;
  /** What this person was typing had not reached the document yet. */
  unsaved: boolean;
}

export function useRemovedWhileOpen(doc: Y.Doc | null, journey: Journey, selectedId: string | null) {
  const [removed, setRemoved] = useState<RemovedStep | null>(null);
  const open = useRef<{ step: JourneyStep; into: NamedLink[] } | null>(null);

  useEffect(() => {
    const step = selectedId === null ? undefined : journey.steps.find((s) => s.id === selectedId);
    if (step) open.current = { step, into: linksInto(journey, step.id) };
    else if (open.current?.step.id !== selectedId) open.current = null;
  }, [journey, selectedId]);

  useEffect(() => {
    if (!doc) return;
    const steps = doc.getMap('steps');
    const onTransaction = (tr: Y.Transaction) => {
      const seen = open.current;
      if (!seen || steps.has(seen.step.id)) return;
      open.current = null;
      if (tr.local) return;
      setRemoved({ ...seen, byClient: transactionAuthor(tr, doc.clientID), unsaved: false });
    };
    doc.on('afterTransaction', onTransaction);
    return () => {
      doc.off('afterTransaction', onTransaction);
      setRemoved(null);
    };
  }, [doc]);

  /** The inspector's last commit for a step that is gone: kept for putting the step back. */
  const keepDraft = useCallback((step: JourneyStep) => setRemoved((r) => (r && r.step.id === step.id ? { ...r, step, unsaved: true } : r)), []);
  const dismiss = useCallback(() => setRemoved(null), []);
  // Shown while its step is the selected one and still gone (put back, or their removal undone:
  // the inspector shows it again; another step selected: the notice was about the one left).
  const shown = removed && removed.step.id === selectedId && !journey.steps.some((s) => s.id === selectedId) ? removed : null;
  return { removed: shown, keepDraft, dismiss };
}
