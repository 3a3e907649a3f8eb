/**
 * What happens in the editor when another person's concurrent change replaced one of this
 * person's writes (shared/src/docs/overwrites.ts, journeyConflicts.ts):
 * - a lost link is put back at once (the person's step stays connected: two steps inserted on one
 *   link at once both stay, a step linked after one that someone removed meanwhile is re-linked),
 *   on a settled document only (nothing received waits for an update it depends on) and never on a
 *   read-only one; only the replica whose write lost does it, so it happens once; a step whose
 *   place is cut off too (until another person's re-link arrives) waits for the next change;
 * - a lost value of any other field is listed (`conflicts`): which step and field, who changed it,
 *   their value and ours, with `restore` (writes ours back, an undoable edit) and `dismiss`.
 * Who: the name the sync server stamped on that Yjs client's presence (sync/usePeerNames.ts, `names`).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type * as Y from 'yjs';
import { watchJourneyConflicts, type JourneyConflict } from '@gd/shared/docs/journeyConflicts';
import { LOCAL_ORIGIN, REPAIR_ORIGIN } from '../../sync/origins.ts';

export interface ShownConflict extends JourneyConflict {
  key: string;
  /** The name of who replaced the value, when known. */
  by: string | null;
}

const conflictKey = (c: JourneyConflict): string => `${c.stepId}|${c.pathId ?? ''}|${c.field}`;

/** Conflicts listed at most (the oldest give way). */
const MAX_SHOWN = 20;

export function useJourneyConflicts(doc: Y.Doc | null, canWrite: boolean, names: ReadonlyMap<number, string>) {
  const [found, setFound] = useState<JourneyConflict[]>([]);
  const canWriteRef = useRef(canWrite);
  useEffect(() => {
    canWriteRef.current = canWrite;
  }, [canWrite]);

  useEffect(() => {
    if (!doc) return;
    const stop = watchJourneyConflicts(doc, {
      canWrite: () => canWriteRef.current,
      origin: REPAIR_ORIGIN,
      onConflicts: (fresh) =>
        setFound((current) => {
          const keys = new Set(fresh.map(conflictKey));
          return [...current.filter((c) => !keys.has(conflictKey(c))), ...fresh].slice(-MAX_SHOWN);
        }),
    });
    return () => {
      stop();
      // A new document (reloaded from the server) starts with nothing to tell.
      setFound([]);
    };
  }, [doc]);

  const conflicts = useMemo(
    () => found.map((c): ShownConflict => ({ ...c, key: conflictKey(c), by: c.byClient === null ? null : (names.get(c.byClient) ?? null) })),
    [found, names],
  );
  const dismiss = useCallback((key: string) => setFound((current) => current.filter((c) => conflictKey(c) !== key)), []);
  const restore = useCallback(
    (key: string) => {
      const conflict = conflicts.find((c) => c.key === key);
      if (conflict && canWriteRef.current) conflict.restore(LOCAL_ORIGIN);
      dismiss(key);
    },
    [conflicts, dismiss],
  );
  return { conflicts, dismiss, restore };
}
