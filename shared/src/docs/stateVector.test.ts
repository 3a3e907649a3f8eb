import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { decodeVersionVector, docEditedSince, hasEditsBeyond, transactionAuthor } from './stateVector.ts';

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

describe('transactionAuthor', () => {
  const authorsOf = (target: Y.Doc, update: Uint8Array): (number | null)[] => {
    const seen: (number | null)[] = [];
    const onTr = (tr: Y.Transaction) => seen.push(transactionAuthor(tr, target.clientID));
    target.on('afterTransaction', onTr);
    Y.applyUpdate(target, update);
    target.off('afterTransaction', onTr);
    return seen;
  };

  it('names the one client whose writes a received update holds', () => {
    const mine = new Y.Doc();
    const theirs = new Y.Doc();
    mine.getMap('steps').set('a', 1);
    Y.applyUpdate(theirs, Y.encodeStateAsUpdate(mine));
    theirs.getMap('steps').delete('a');
    theirs.getMap('steps').set('b', 2);
    expect(authorsOf(mine, Y.encodeStateAsUpdate(theirs, Y.encodeStateVector(mine)))).toEqual([theirs.clientID]);
  });

  it('is null for a removal that wrote nothing new, and for the merged work of several people', () => {
    const mine = new Y.Doc();
    const a = new Y.Doc();
    const b = new Y.Doc();
    mine.getMap('steps').set('a', 1);
    const start = Y.encodeStateAsUpdate(mine);
    Y.applyUpdate(a, start);
    Y.applyUpdate(b, start);
    a.getMap('steps').delete('a');
    expect(authorsOf(mine, Y.encodeStateAsUpdate(a, Y.encodeStateVector(mine)))).toEqual([null]);
    a.getMap('steps').set('x', 1);
    b.getMap('steps').set('y', 1);
    const both = Y.mergeUpdates([Y.encodeStateAsUpdate(a), Y.encodeStateAsUpdate(b)]);
    expect(authorsOf(mine, both)).toEqual([null]);
  });

  it('leaves out our own client', () => {
    const mine = new Y.Doc();
    expect(transactionAuthor({ beforeState: new Map([[mine.clientID, 0]]), afterState: new Map([[mine.clientID, 3]]) }, mine.clientID)).toBeNull();
  });
});
