import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { createMessageContent, type MessageContent } from '../message/model.ts';
import { addSegmentNode, normalizeSegment, removeSegmentNode } from '../segment/edit.ts';
import { createConditionNode, createGroupNode, createSegment, type Segment } from '../segment/model.ts';
import { applyMessageToDoc, initMessageDoc, messageFromDoc } from './messageDoc.ts';
import { applySegmentToDoc, initSegmentDoc, segmentFromDoc } from './segmentDoc.ts';

const ids = '11111111-1111-4111-8111-111111111111/22222222-2222-4222-8222-222222222222';
const ID = '33333333-3333-4333-8333-333333333333';
const sortNodes = (s: Segment): Segment => ({ ...s, nodes: [...s.nodes].sort((a, b) => (a.key < b.key ? -1 : 1)) });
const replica = (doc: Y.Doc) => {
  const copy = new Y.Doc();
  Y.applyUpdate(copy, Y.encodeStateAsUpdate(doc));
  return copy;
};
function sync(a: Y.Doc, b: Y.Doc) {
  Y.applyUpdate(b, Y.encodeStateAsUpdate(a, Y.encodeStateVector(b)));
  Y.applyUpdate(a, Y.encodeStateAsUpdate(b, Y.encodeStateVector(a)));
}

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

  it('initSegmentDoc writes meta and an empty root once', () => {
    const doc = new Y.Doc();
    expect(initSegmentDoc(doc, `${ids}/segment/${ID}`)).toBe(true);
    expect(initSegmentDoc(doc, `${ids}/segment/${ID}`)).toBe(false);
    expect(doc.getMap('meta').toJSON()).toEqual({ schemaVersion: 1, kind: 'segment', rootKey: 'root' });
    expect(segmentFromDoc(doc)).toEqual(createSegment('root'));
    expect(() => initSegmentDoc(new Y.Doc(), `${ids}/message/${ID}`)).toThrow();
  });
});

describe('message ⇄ doc', () => {
  const email: MessageContent = {
    ...createMessageContent('email'),
    subject: 'Hello',
    html_body: '<p>Hi</p>',
    sender_email: 'news@example.com',
    buttons: [{ text: 'Go', action: 'deeplink', target_url: 'app://x', open_in: 'app' }],
    life: 3600,
  };

  it('round-trips content and merges edits of different fields', () => {
    const doc = new Y.Doc();
    applyMessageToDoc(doc, email);
    expect(messageFromDoc(doc)).toEqual(email);
    const a = replica(doc);
    const b = replica(doc);
    applyMessageToDoc(a, { ...messageFromDoc(a), subject: 'From A' });
    applyMessageToDoc(b, { ...messageFromDoc(b), sender_name: 'From B' });
    sync(a, b);
    expect(messageFromDoc(a)).toEqual({ ...email, subject: 'From A', sender_name: 'From B' });
  });

  it('writes only changed fields and reads broken fields as defaults', () => {
    const doc = new Y.Doc();
    applyMessageToDoc(doc, email);
    const updates: Uint8Array[] = [];
    doc.on('update', (u: Uint8Array) => updates.push(u));
    applyMessageToDoc(doc, email);
    expect(updates).toEqual([]);
    doc.getMap('content').set('life', 'forever');
    doc.getMap('content').set('type', 'nonsense');
    expect(messageFromDoc(doc)).toEqual({ ...email, type: 'push', life: null, position: null });
  });

  it('initMessageDoc writes meta and empty content of the type once', () => {
    const doc = new Y.Doc();
    expect(initMessageDoc(doc, `${ids}/message/${ID}`, 'banner')).toBe(true);
    expect(initMessageDoc(doc, `${ids}/message/${ID}`)).toBe(false);
    expect(doc.getMap('meta').toJSON()).toEqual({ schemaVersion: 1, kind: 'message' });
    expect(messageFromDoc(doc)).toEqual(createMessageContent('banner'));
  });
});
