import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { applySegmentToDoc, segmentFromDoc } from '@gd/shared/docs/segmentDoc';
import { normalizeSegment } from '@gd/shared/segment/edit';
import { createSegment, segmentConditions } from '@gd/shared/segment/model';
import { applySegmentOp } from './segmentOps.ts';

describe('segment ops', () => {
  it('build nested and/or groups and edit them', () => {
    let s = createSegment();
    s = applySegmentOp(s, { kind: 'addCondition', parentKey: 'root', key: 'c1' });
    s = applySegmentOp(s, { kind: 'addGroup', parentKey: 'root', key: 'g1', conditionKey: 'c2' });
    s = applySegmentOp(s, { kind: 'addCondition', parentKey: 'g1', key: 'c3' });
    s = applySegmentOp(s, { kind: 'combinator', key: 'g1', combinator: 'and' });
    s = applySegmentOp(s, { kind: 'patch', key: 'c3', patch: { type: 'attribute', id: 'city' } });
    expect(s.nodes.find((n) => n.key === 'root')).toMatchObject({ children: ['c1', 'g1'] });
    expect(s.nodes.find((n) => n.key === 'g1')).toMatchObject({ combinator: 'and', children: ['c2', 'c3'] });
    expect(s.nodes.find((n) => n.key === 'c3')).toMatchObject({ kind: 'condition', type: 'attribute', id: 'city' });
    s = applySegmentOp(s, { kind: 'remove', key: 'g1' });
    expect(segmentConditions(s).map((c) => c.key)).toEqual(['c1']);
  });

  it('ignore ops on nodes that are gone (a peer removed them)', () => {
    const s = createSegment();
    expect(applySegmentOp(s, { kind: 'patch', key: 'nope', patch: { id: 'x' } })).toBe(s);
    expect(applySegmentOp(s, { kind: 'combinator', key: 'nope', combinator: 'or' })).toBe(s);
  });

  it('give random keys by default', () => {
    const s = applySegmentOp(applySegmentOp(createSegment(), { kind: 'addCondition', parentKey: 'root' }), { kind: 'addCondition', parentKey: 'root' });
    const keys = segmentConditions(s).map((c) => c.key);
    expect(new Set(keys).size).toBe(2);
  });

  it('two people adding at once through the document keep both conditions', () => {
    const server = new Y.Doc();
    applySegmentToDoc(server, createSegment());
    const a = new Y.Doc();
    const b = new Y.Doc();
    Y.applyUpdate(a, Y.encodeStateAsUpdate(server));
    Y.applyUpdate(b, Y.encodeStateAsUpdate(server));
    applySegmentToDoc(a, applySegmentOp(normalizeSegment(segmentFromDoc(a)), { kind: 'addCondition', parentKey: 'root', key: 'ca' }));
    applySegmentToDoc(b, applySegmentOp(normalizeSegment(segmentFromDoc(b)), { kind: 'addCondition', parentKey: 'root', key: 'cb' }));
    Y.applyUpdate(a, Y.encodeStateAsUpdate(b));
    Y.applyUpdate(b, Y.encodeStateAsUpdate(a));
    const keys = (d: Y.Doc) => segmentConditions(normalizeSegment(segmentFromDoc(d))).map((c) => c.key).sort();
    expect(keys(a)).toEqual(['ca', 'cb']);
    expect(keys(b)).toEqual(['ca', 'cb']);
  });
});
