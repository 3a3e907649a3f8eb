/**
 * "Edited since launch", live: from the open document against the live version's state vector (in
 * the summary), recomputed as the document changes, so the person who edits sees it at once (the
 * summary's own flag reflects the stored document, which is written up to 10 s later). Falls back
 * to the summary's flag while there is no document or no vector. A simulation run (written in the
 * document, run/simulationDoc.ts) is no edit of the journey (shared docs/editedBeyond.ts).
 */
import { useCallback, useMemo, useSyncExternalStore } from 'react';
import type * as Y from 'yjs';
import { decodeVersionVector } from '@gd/shared/docs/stateVector';
import { JOURNEY_NON_MODEL_ROOTS, editedBeyond } from '@gd/shared/docs/editedBeyond';

export function useEditedSinceLaunch(doc: Y.Doc | null, liveStateVector: string | null, fromSummary: boolean): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (!doc) return () => undefined;
      doc.on('update', onChange);
      return () => doc.off('update', onChange);
    },
    [doc],
  );
  const version = useMemo(() => (liveStateVector ? decodeVersionVector(liveStateVector) : null), [liveStateVector]);
  // A state vector is a few bytes per person who ever edited: cheap to read on every render.
  const snapshot = useCallback(() => (doc && version ? editedBeyond(doc, version, JOURNEY_NON_MODEL_ROOTS) : fromSummary), [doc, version, fromSummary]);
  return useSyncExternalStore(subscribe, snapshot);
}
