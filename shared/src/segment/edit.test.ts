import { describe, expect, it } from 'vitest';
import { addSegmentNode, normalizeSegment, removeSegmentNode, updateSegmentNode } from './edit.ts';
import { createConditionNode, createGroupNode, createSegment, segmentConditions, type Segment } from './model.ts';
import { validateSegment } from './validate.ts';

const cond = (key: string) => createConditionNode(key, { type: 'attribute', id: 'country', condition: 'is_set' });

describe('segment editing', () => {
  it('adds conditions and groups under a group, at an index', () => {
    let s = addSegmentNode(createSegment(), 'root', cond('a'));
    s = addSegmentNode(s, 'root', createGroupNode('g', 'or'));
    s = addSegmentNode(s, 'g', cond('b'));
    s = addSegmentNode(s, 'root', cond('c'), 0);
    expect(segmentConditions(s).map((c) => c.key)).toEqual(['c', 'a', 'b']);
    expect(addSegmentNode(s, 'a', cond('x'))).toEqual(s);
    expect(addSegmentNode(s, 'root', cond('a'))).toEqual(s);
  });

  it('removes a node with everything under it; the root is only emptied', () => {
    let s = addSegmentNode(addSegmentNode(createSegment(), 'root', createGroupNode('g')), 'g', cond('b'));
    s = removeSegmentNode(s, 'g');
    expect(s.nodes.map((n) => n.key)).toEqual(['root']);
    expect(removeSegmentNode(addSegmentNode(createSegment(), 'root', cond('a')), 'root')).toEqual(createSegment());
  });

  it('updates a node in place', () => {
    const s = addSegmentNode(createSegment(), 'root', cond('a'));
    const u = updateSegmentNode(s, { ...cond('a'), condition: 'equals', input: 'ES' });
    expect(segmentConditions(u)[0]).toMatchObject({ condition: 'equals', input: 'ES' });
    expect(updateSegmentNode(s, cond('zz'))).toEqual(s);
  });

  it('normalization repairs dangling, shared and cyclic children and drops unreachable nodes', () => {
    const broken: Segment = {
      rootKey: 'root',
      nodes: [
        { ...createGroupNode('root'), children: ['a', 'ghost', 'a', 'g'] },
        { ...createGroupNode('g'), children: ['root', 'a', 'b'] },
        cond('a'),
        cond('b'),
        cond('orphan'),
      ],
    };
    const n = normalizeSegment(broken);
    expect(validateSegment(n)).toEqual([]);
    expect(n.nodes.map((x) => x.key)).toEqual(['root', 'a', 'g', 'b']);
  });

  it('normalization gives a condition root a group above it', () => {
    const n = normalizeSegment({ rootKey: 'root', nodes: [{ ...cond('root') }] });
    expect(validateSegment(n)).toEqual([]);
    expect(segmentConditions(n).map((c) => c.key)).toEqual(['root-condition']);
  });
});
