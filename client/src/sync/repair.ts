/**
 * Repairs after merges, made safe. Two valid concurrent edits can leave a document that breaks the
 * editing rules (a dangling link, an open end); a writer writes the normal form back. Done at the
 * wrong moment, a repair corrupts: a document still receiving (an update whose dependencies have not
 * arrived is held back by Yjs, so a link another person replaced reads as removed, an open end) was
 * "repaired" with an end step that then won over the real replacement, cutting steps off for good.
 *
 * So a repair runs only
 * - on a settled document: connected, in sync, nothing of ours unconfirmed (`status` online), and no
 *   received update waiting for one it depends on (`isSettled`: Yjs holds no pending structs or
 *   deletions);
 * - by one replica: the present writer with the smallest client id (`isDesignatedRepairer`; presence
 *   is stamped by the server, and viewers publish none), so two replicas never write competing repairs;
 * - after the document has been quiet for REPAIR_QUIET_MS, checked again right before writing, and
 *   at most a few times per second (`repairAllowed`).
 */
import { useEffect } from 'react';
import type { Awareness } from 'y-protocols/awareness';
import type * as Y from 'yjs';
import { isDesignatedRepairer, isSettled } from '@gd/shared/docs/settled';
import { repairAllowed } from './docView.ts';
import type { SyncStatus } from './status.ts';

export const REPAIR_QUIET_MS = 400;

export { isDesignatedRepairer, isSettled };

export interface RepairInput {
  doc: Y.Doc | null;
  canWrite: boolean;
  status: SyncStatus;
  awareness: Awareness | null;
  /** Changes whenever the document's view does (the effect runs again). */
  version: unknown;
  /** The document breaks the rules now (read again at the moment of writing). */
  broken: (doc: Y.Doc) => boolean;
  repair: (doc: Y.Doc) => void;
}

export function useSafeRepair({ doc, canWrite, status, awareness, version, broken, repair }: RepairInput): void {
  useEffect(() => {
    if (!doc || !canWrite || status !== 'online') return;
    const timer = setTimeout(() => {
      if (!broken(doc) || !isSettled(doc)) return;
      if (awareness && !isDesignatedRepairer(doc.clientID, awareness.getStates())) return;
      if (repairAllowed(doc)) repair(doc);
    }, REPAIR_QUIET_MS);
    return () => clearTimeout(timer);
  }, [doc, canWrite, status, awareness, version, broken, repair]);
}
