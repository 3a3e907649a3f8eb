/** Test support for document code: replicas of a Y.Doc and a two-way exchange between them. */
import * as Y from 'yjs';

/** A replica of `doc`, as a fresh client would get it. */
export function replica(doc: Y.Doc): Y.Doc {
  const copy = new Y.Doc();
  Y.applyUpdate(copy, Y.encodeStateAsUpdate(doc));
  return copy;
}

/** Exchanges what each side lacks, both ways (a reconnect of two replicas). */
export function sync(a: Y.Doc, b: Y.Doc): void {
  Y.applyUpdate(b, Y.encodeStateAsUpdate(a, Y.encodeStateVector(b)));
  Y.applyUpdate(a, Y.encodeStateAsUpdate(b, Y.encodeStateVector(a)));
}
