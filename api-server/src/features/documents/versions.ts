/**
 * Freezing a collaborative document into an immutable version (a launched journey today, an
 * approved message next): the exact Yjs state, its state vector (to tell later whether the draft
 * holds edits beyond it, docs/stateVector) and a SHA-256 of the state, stored with the version.
 */
import { createHash } from 'node:crypto';
import * as Y from 'yjs';

export interface FrozenState { state: Uint8Array; stateVector: Uint8Array; sha256: string }

export function freeze(doc: Y.Doc): FrozenState {
  const state = Y.encodeStateAsUpdate(doc);
  return { state, stateVector: Y.encodeStateVector(doc), sha256: createHash('sha256').update(state).digest('hex') };
}
