import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { addStepAfter } from '../journey/edit.ts';
import { reachable } from '../journey/graph.ts';
import { normalizeJourney } from '../journey/normalize.ts';
import { applyJourneyToDoc, initialJourney, journeyFromDoc } from './journeyDoc.ts';
import { revertKeepingStepsConnected } from './structuralUndo.ts';
import { sync } from './testing.ts';

const LOCAL = Symbol('local');
const REPAIR = Symbol('repair');
const journeyOf = (doc: Y.Doc) => normalizeJourney(journeyFromDoc(doc));
const connected = (doc: Y.Doc) => {
  const j = journeyOf(doc);
  return reachable(j, [j.entryId ?? 'source']);
};

/** Ana inserts a step; Bea links hers after it; Ana sees it. */
function scene() {
  const ana = new Y.Doc();
  applyJourneyToDoc(ana, normalizeJourney(initialJourney()));
  const undo = new Y.UndoManager([ana.getMap('steps'), ana.getMap('meta')], { trackedOrigins: new Set([LOCAL]) });
  applyJourneyToDoc(ana, addStepAfter(journeyOf(ana), 'source', null, 'actionPostback', 'anas'), LOCAL);
  undo.stopCapturing();
  const bea = new Y.Doc();
  sync(ana, bea);
  applyJourneyToDoc(bea, addStepAfter(journeyOf(bea), 'anas', null, 'updateTagCount', 'beas'));
  sync(ana, bea);
  return { ana, bea, undo };
}

describe('revertKeepingStepsConnected', () => {
  it('a raw undo of a step that someone built on cuts their step off', () => {
    const { ana, undo } = scene();
    undo.undo();
    expect(connected(ana).has('beas')).toBe(false);
  });

  it('undo is the opposite edit: the step goes, the one built on it takes its place; redo brings it back, still connected', () => {
    const { ana, bea, undo } = scene();
    revertKeepingStepsConnected(ana, () => undo.undo(), REPAIR);
    expect(journeyOf(ana).steps.some((s) => s.id === 'anas')).toBe(false);
    expect(connected(ana).has('beas')).toBe(true);
    expect(journeyOf(ana).steps.find((s) => s.id === 'source')).toMatchObject({ next: 'beas' });
    // The re-link is not an undoable edit of Ana's: redo is still there.
    expect(undo.redoStack.length).toBe(1);
    revertKeepingStepsConnected(ana, () => undo.redo(), REPAIR);
    expect(connected(ana).has('anas')).toBe(true);
    expect(connected(ana).has('beas')).toBe(true);
    expect(journeyOf(ana).steps.find((s) => s.id === 'source')).toMatchObject({ next: 'anas' });
    sync(ana, bea);
    expect(journeyOf(bea)).toEqual(journeyOf(ana));
  });
});
