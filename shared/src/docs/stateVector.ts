/**
 * "Edited since launch": a document holds edits that a launched version lacks when, for some Yjs
 * client, its state vector has a higher clock than the version's (the version's state vector is
 * stored with it at launch). The API answers it from the stored document; an open editor from its
 * live document, so the owner sees it the moment they edit.
 */
import * as Y from 'yjs';

export function hasEditsBeyond(current: ReadonlyMap<number, number>, version: ReadonlyMap<number, number>): boolean {
  for (const [client, clock] of current) if ((version.get(client) ?? 0) < clock) return true;
  return false;
}

/** A version's state vector as the API sends it (base64). */
export const decodeVersionVector = (base64: string): Map<number, number> => Y.decodeStateVector(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));

/** Whether `doc` holds edits beyond the version whose state vector is `version`. */
export const docEditedSince = (doc: Y.Doc, version: ReadonlyMap<number, number>): boolean => hasEditsBeyond(Y.decodeStateVector(Y.encodeStateVector(doc)), version);

/**
 * Who wrote what a transaction brought in: the one Yjs client (other than `self`) whose clock it
 * advanced, or null when it advanced none (a removal that wrote nothing new) or several (merged
 * offline work of many people).
 */
export function transactionAuthor(tr: Pick<Y.Transaction, 'beforeState' | 'afterState'>, self: number): number | null {
  let author: number | null = null;
  for (const [client, clock] of tr.afterState) {
    if (client === self || (tr.beforeState.get(client) ?? 0) >= clock) continue;
    if (author !== null) return null;
    author = client;
  }
  return author;
}
