import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { decodeVersionVector, docEditedSince, hasEditsBeyond } from './stateVector.ts';

const base64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

describe('edited since a version', () => {
  it('is false at the version and for a replica behind it, true once anyone edits beyond it', () => {
    const doc = new Y.Doc();
    doc.getMap('steps').set('a', 1);
    const launched = decodeVersionVector(base64(Y.encodeStateVector(doc)));
    expect(docEditedSince(doc, launched)).toBe(false);
    expect(docEditedSince(new Y.Doc(), launched)).toBe(false);
    const other = new Y.Doc();
    Y.applyUpdate(other, Y.encodeStateAsUpdate(doc));
    other.getMap('layout').set('a', { x: 1, y: 2 });
    expect(docEditedSince(other, launched)).toBe(true);
    doc.getMap('steps').set('a', 2);
    expect(docEditedSince(doc, launched)).toBe(true);
  });

  it('compares client by client', () => {
    expect(hasEditsBeyond(new Map([[1, 5]]), new Map([[1, 5], [2, 3]]))).toBe(false);
    expect(hasEditsBeyond(new Map([[1, 5], [3, 1]]), new Map([[1, 5], [2, 3]]))).toBe(true);
  });
});
