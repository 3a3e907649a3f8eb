/**
 * "Edited since launch", live: from the open document against the live version's state vector (in
 * the summary), recomputed as the document changes, so the person who edits sees it at once (the
 * summary's own flag reflects the stored document, which is written up to 10 s later). Falls back
 * to the summary's flag while there is no document or no vector.
 */
import { useCallback, useMemo, useSyncExternalStore } from 'react';
import type * as Y from 'yjs';
import { decodeVersionVector, docEditedSince } from '@gd/shared/docs/stateVector';

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
  const snapshot = useCallback(() => (doc && version ? docEditedSince(doc, version) : fromSummary), [doc, version, fromSummary]);
  return useSyncExternalStore(subscribe, snapshot);
}
