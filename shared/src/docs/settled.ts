/**
 * When a replica may write something derived from what it received (a repair, a re-link), and
 * which replica does: see client/src/sync/repair.ts for why a repair on a half-arrived document
 * corrupts it.
 */
import type * as Y from 'yjs';

/** Nothing received waits for an update it depends on (Yjs holds no pending structs or deletions). */
export function isSettled(doc: Y.Doc): boolean {
  return doc.store.pendingStructs === null && doc.store.pendingDs === null;
}

/** Whether `self` is the present writer with the smallest client id (the one that repairs). */
export function isDesignatedRepairer(self: number, states: ReadonlyMap<number, Record<string, unknown> | null>): boolean {
  for (const [clientId, state] of states) {
    if (clientId < self && state && state.user) return false;
  }
  return true;
}
