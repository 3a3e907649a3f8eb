import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { addSegmentNode, normalizeSegment, removeSegmentNode } from '../segment/edit.ts';
import { createConditionNode, createGroupNode, createSegment, type Segment } from '../segment/model.ts';
import { migrateDoc } from './migrate.ts';
import { SCHEMA_VERSION } from './schema.ts';
import { applySegmentToDoc, initSegmentDoc, segmentFromDoc } from './segmentDoc.ts';
import { replica, sync } from './testing.ts';

const ids = '11111111-1111-4111-8111-111111111111/22222222-2222-4222-8222-222222222222';
const ID = '33333333-3333-4333-8333-333333333333';
const sortNodes = (s: Segment): Segment => ({ ...s, nodes: [...s.nodes].sort((a, b) => (a.key < b.key ? -1 : 1)) });

function richSegment(): Segment {
  let s = addSegmentNode(createSegment('root'), 'root', createConditionNode('c1', { type: 'attribute', id: 'country', condition: 'equals', multiSelect: ['ES', 'FR'] }));
  s = addSegmentNode(s, 'root', createGroupNode('g', 'or'));
  s = addSegmentNode(s, 'g', createConditionNode('c2', { type: 'user_event', id: 'purchase', condition: 'was_on', dateRange: { startDay: '2024-01-01', endDay: '2024-01-02' } }));
  return addSegmentNode(s, 'g', createConditionNode('c3', { type: 'user_tag', id: 'points', condition: 'with_property', tagCondition: 'greater_than', input: 10, dateDays: 3 }));
}

describe('segment ⇄ doc', () => {
  it('round-trips nested groups and every condition field', () => {
    const s = richSegment();
    const doc = new Y.Doc();
    applySegmentToDoc(doc, s);
    expect(segmentFromDoc(doc)).toEqual(sortNodes(s));
    expect(segmentFromDoc(replica(doc))).toEqual(sortNodes(s));
    expect((doc.getMap('nodes').get('g') as Y.Map<unknown>).get('children')).toBeInstanceOf(Y.Array);
  });

  it('merges conditions added to one group concurrently and repairs a removed parent', () => {
    const base = new Y.Doc();
    applySegmentToDoc(base, richSegment());
    const a = replica(base);
    const b = replica(base);
    applySegmentToDoc(a, addSegmentNode(segmentFromDoc(a), 'g', createConditionNode('fromA')));
    applySegmentToDoc(b, addSegmentNode(segmentFromDoc(b), 'g', createConditionNode('fromB')));
    sync(a, b);
    const g = segmentFromDoc(a).nodes.find((n) => n.key === 'g');
    expect(g?.kind === 'group' ? [...g.children].sort() : []).toEqual(['c2', 'c3', 'fromA', 'fromB']);
    applySegmentToDoc(a, removeSegmentNode(segmentFromDoc(a), 'g'));
    applySegmentToDoc(b, addSegmentNode(segmentFromDoc(b), 'g', createConditionNode('late')));
    sync(a, b);
    const merged = normalizeSegment(segmentFromDoc(a));
    expect(merged.nodes.map((n) => n.key)).toEqual(['root', 'c1']);
  });

  it('merges a condition\'s values as a set: concurrent additions and removals of different values all hold', () => {
    const base = new Y.Doc();
    applySegmentToDoc(base, richSegment());
    const a = replica(base);
    const b = replica(base);
    const c = replica(base);
    const withValues = (doc: Y.Doc, values: (current: string[]) => string[]) => {
      const s = segmentFromDoc(doc);
      applySegmentToDoc(doc, { ...s, nodes: s.nodes.map((n) => (n.key === 'c1' && n.kind === 'condition' ? { ...n, multiSelect: values(n.multiSelect) } : n)) });
    };
    withValues(a, (v) => [...v, 'DE']); // added offline
    withValues(b, (v) => [...v, 'IT', 'PT']);
    withValues(c, (v) => v.filter((x) => x !== 'FR'));
    withValues(b, (v) => [...v, 'DE']); // the same value added by two people at once
    sync(a, b);
    sync(b, c);
    sync(a, c);
    const values = (doc: Y.Doc) => (segmentFromDoc(doc).nodes.find((n) => n.key === 'c1') as { multiSelect: string[] }).multiSelect;
    expect([...values(a)].sort()).toEqual(['DE', 'ES', 'IT', 'PT']);
    expect(values(b)).toEqual(values(a));
    expect(values(c)).toEqual(values(a));
    // Removing a value that two people added removes it for good.
    withValues(c, (v) => v.filter((x) => x !== 'DE'));
    sync(a, c);
    expect(values(a)).not.toContain('DE');
  });

  it('migrates version 1 documents, whose values were one plain list, to the set', () => {
    const doc = new Y.Doc();
    initSegmentDoc(doc, `${ids}/segment/${ID}`);
    doc.transact(() => {
      doc.getMap('meta').set('schemaVersion', 1);
      const node = new Y.Map<unknown>();
      doc.getMap('nodes').set('old', node);
      for (const [k, v] of Object.entries({ ...createConditionNode('old', { type: 'attribute', id: 'country', condition: 'equals' }), multiSelect: ['ES', 'FR', 'ES'] })) {
        if (k !== 'key') node.set(k, v);
      }
      ((doc.getMap('nodes').get('root') as Y.Map<unknown>).get('children') as Y.Array<string>).push(['old']);
    });
    expect(migrateDoc(doc)).toEqual({ status: 'migrated', kind: 'segment', from: 1, to: 2 });
    const node = doc.getMap('nodes').get('old') as Y.Map<unknown>;
    expect(node.get('multiSelect')).toBeInstanceOf(Y.Array);
    expect((segmentFromDoc(doc).nodes.find((n) => n.key === 'old') as { multiSelect: string[] }).multiSelect).toEqual(['ES', 'FR']);
  });

  it('initSegmentDoc writes meta and an empty root once', () => {
    const doc = new Y.Doc();
    expect(initSegmentDoc(doc, `${ids}/segment/${ID}`)).toBe(true);
    expect(initSegmentDoc(doc, `${ids}/segment/${ID}`)).toBe(false);
    expect(doc.getMap('meta').toJSON()).toEqual({ schemaVersion: SCHEMA_VERSION.segment, kind: 'segment', rootKey: 'root' });
    expect(segmentFromDoc(doc)).toEqual(createSegment('root'));
    expect(() => initSegmentDoc(new Y.Doc(), `${ids}/message/${ID}`)).toThrow();
  });
});
