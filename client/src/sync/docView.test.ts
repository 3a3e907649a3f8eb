import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { docViewStore, repairAllowed, type DocViewSource } from './docView.ts';

const source: DocViewSource<{ n: number }> = {
  read: (doc) => ({ n: Number(doc.getMap('a').get('n') ?? 0) }),
  empty: { n: -1 },
  roots: ['a'],
  same: (x, y) => x.n === y.n,
};

describe('document views', () => {
  it('reads again on a change under an observed root, not under others, and stops after unsubscribe', () => {
    const doc = new Y.Doc();
    const store = docViewStore(doc, source);
    let calls = 0;
    const unsubscribe = store.subscribe(() => { calls += 1; });
    doc.getMap('a').set('n', 2);
    expect(store.get()).toEqual({ n: 2 });
    doc.getMap('other').set('n', 5);
    doc.getMap('a').set('x', 'same n');
    expect(calls).toBe(1);
    unsubscribe();
    doc.getMap('a').set('n', 3);
    expect([calls, store.get().n]).toEqual([1, 2]);
  });

  it('answers the empty view without a document', () => {
    expect(docViewStore(null, source).get()).toEqual({ n: -1 });
  });

  it('allows at most five repairs per document and second', () => {
    const doc = new Y.Doc();
    const t0 = 1_000_000;
    const allowed = Array.from({ length: 7 }, (_, i) => repairAllowed(doc, t0 + i));
    expect(allowed).toEqual([true, true, true, true, true, false, false]);
    expect(repairAllowed(new Y.Doc(), t0)).toBe(true);
    expect(repairAllowed(doc, t0 + 1_500)).toBe(true);
  });
});
