import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { docEditedSince } from '@gd/shared/docs/stateVector';
import { editedBeyond } from './editedBeyond.ts';

const vector = (doc: Y.Doc) => Y.decodeStateVector(Y.encodeStateVector(doc));

describe('edited since launch, leaving out the simulation', () => {
  it('does not count a simulation written (and rewritten) after the launch', () => {
    const doc = new Y.Doc();
    const step = new Y.Map<unknown>();
    doc.getMap('steps').set('s', step);
    step.set('type', 'sourceEvents');
    const launched = vector(doc);
    doc.getMap('simulation').set('answer', { timeline: [1] });
    doc.getMap('simulation').set('answer', { timeline: [1, 2] });
    expect(docEditedSince(doc, launched)).toBe(true);
    expect(editedBeyond(doc, launched, ['simulation'])).toBe(false);
  });

  it('counts an edit of a step, also deep inside it, and of another person', () => {
    const doc = new Y.Doc();
    const step = new Y.Map<unknown>();
    doc.getMap('steps').set('s', step);
    const launched = vector(doc);
    doc.getMap('simulation').set('at', 'x');
    expect(editedBeyond(doc, launched, ['simulation'])).toBe(false);
    step.set('name', 'Welcome');
    expect(editedBeyond(doc, launched, ['simulation'])).toBe(true);

    const other = new Y.Doc();
    Y.applyUpdate(other, Y.encodeStateAsUpdate(doc, Y.encodeStateVectorFromUpdate(Y.encodeStateAsUpdate(new Y.Doc()))));
    const again = vector(other);
    const peer = new Y.Doc();
    Y.applyUpdate(peer, Y.encodeStateAsUpdate(other));
    peer.getMap('layout').set('s', { x: 1, y: 2 });
    Y.applyUpdate(other, Y.encodeStateAsUpdate(peer));
    expect(editedBeyond(other, again, ['simulation'])).toBe(true);
  });

  it('is unchanged right after a launch', () => {
    const doc = new Y.Doc();
    doc.getMap('steps').set('s', new Y.Map());
    expect(editedBeyond(doc, vector(doc), ['simulation'])).toBe(false);
  });
});
