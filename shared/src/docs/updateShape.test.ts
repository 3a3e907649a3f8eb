import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { fullJourney } from '../journey/testing.ts';
import { applyJourneyToDoc, initJourneyDoc, writeLayoutPosition } from './journeyDoc.ts';
import { initMessageDoc } from './messageDoc.ts';
import { initSegmentDoc } from './segmentDoc.ts';
import { MAX_UPDATE_BYTES } from './schema.ts';
import { checkUpdateShape, updateShapeProblem } from './updateShape.ts';

const ids = '11111111-1111-4111-8111-111111111111/22222222-2222-4222-8222-222222222222';
const ID = '33333333-3333-4333-8333-333333333333';

/** The update a change to `doc` produces. */
function updateOf(doc: Y.Doc, f: (d: Y.Doc) => void): Uint8Array {
  let update: Uint8Array = new Uint8Array();
  const on = (u: Uint8Array) => (update = u);
  doc.on('update', on);
  doc.transact(() => f(doc));
  doc.off('update', on);
  return update;
}

describe('checkUpdateShape', () => {
  it('accepts what the editors of each kind write', () => {
    const journey = new Y.Doc();
    expect(checkUpdateShape(updateOf(journey, (d) => initJourneyDoc(d, `${ids}/journey/${ID}`)), 'journey')).toBeNull();
    expect(checkUpdateShape(updateOf(journey, (d) => applyJourneyToDoc(d, fullJourney())), 'journey')).toBeNull();
    expect(checkUpdateShape(updateOf(journey, (d) => writeLayoutPosition(d, 's', { x: 1, y: 1 })), 'journey')).toBeNull();
    expect(checkUpdateShape(Y.encodeStateAsUpdate(journey), 'journey')).toBeNull();
    expect(checkUpdateShape(updateOf(new Y.Doc(), (d) => initSegmentDoc(d, `${ids}/segment/${ID}`)), 'segment')).toBeNull();
    expect(checkUpdateShape(updateOf(new Y.Doc(), (d) => initMessageDoc(d, `${ids}/message/${ID}`)), 'message')).toBeNull();
    expect(checkUpdateShape(Y.encodeStateAsUpdate(new Y.Doc()), 'message')).toBeNull();
  });

  it('rejects a top-level type outside the kind’s roots', () => {
    const u = updateOf(new Y.Doc(), (d) => d.getMap('evil').set('x', 1));
    expect(checkUpdateShape(u, 'journey')).toBe('unknown_root:evil');
    const steps = updateOf(new Y.Doc(), (d) => d.getMap('steps').set('x', new Y.Map()));
    expect(checkUpdateShape(steps, 'journey')).toBeNull();
    expect(checkUpdateShape(steps, 'message')).toBe('unknown_root:steps');
  });

  it('rejects a root used as an array or text, unknown meta keys and wrong root values', () => {
    expect(checkUpdateShape(updateOf(new Y.Doc(), (d) => d.getArray('steps').insert(0, [1])), 'journey')).toBe('root_not_map:steps');
    expect(checkUpdateShape(updateOf(new Y.Doc(), (d) => d.getText('content').insert(0, 'x')), 'message')).toBe('root_not_map:content');
    expect(checkUpdateShape(updateOf(new Y.Doc(), (d) => d.getMap('meta').set('owner', 'me')), 'journey')).toBe('unknown_meta_key:owner');
    expect(checkUpdateShape(updateOf(new Y.Doc(), (d) => d.getMap('meta').set('rootKey', 'r')), 'segment')).toBeNull();
    expect(checkUpdateShape(updateOf(new Y.Doc(), (d) => d.getMap('steps').set('s', { type: 'end' })), 'journey')).toBe('root_value:steps.s');
    expect(checkUpdateShape(updateOf(new Y.Doc(), (d) => d.getMap('layout').set('s', new Y.Map())), 'journey')).toBe('root_value:layout.s');
  });

  it('rejects empty, oversized and malformed updates', () => {
    expect(checkUpdateShape(new Uint8Array(), 'journey')).toBe('empty');
    const big = updateOf(new Y.Doc(), (d) => d.getMap('content').set('html_body', 'x'.repeat(MAX_UPDATE_BYTES)));
    expect(updateShapeProblem(big, 'message')).toEqual({ code: 'too_large', bytes: big.byteLength, limit: MAX_UPDATE_BYTES });
    expect(checkUpdateShape(big, 'message')).toMatch(/^too_large:/);
    expect(checkUpdateShape(new Uint8Array([1, 1, 1, 1, 250, 250, 250]), 'journey')).toBe('malformed');
  });
});
