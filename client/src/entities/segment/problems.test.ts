import { describe, expect, it } from 'vitest';
import { createConditionNode, createGroupNode, emptyCondition, type Segment, type SegmentCondition } from '@gd/shared/segment/model';
import { estimableSegment, rowProblems, segmentRowProblems, serverProblems } from './problems.ts';

const TAG = '0b8f2a5e-3c4d-4e5f-8a9b-0c1d2e3f4a5b';
const tagType = (id: string) => (id === TAG ? 'text' as const : undefined);
const c = (patch: Partial<SegmentCondition>): SegmentCondition => ({ ...emptyCondition(), ...patch });

describe('row problems', () => {
  it('are the section 5 rules first', () => {
    expect(rowProblems(c({}), tagType, true).map((p) => p.code)).toEqual(['type_missing', 'id_missing', 'condition_missing']);
    expect(rowProblems(c({ type: 'attribute', id: 'city', condition: 'equals' }), tagType, true)).toEqual([{ code: 'value_missing', field: 'input' }]);
    expect(rowProblems(c({ type: 'attribute', id: 'last_login', condition: 'was_on' }), tagType, true)[0]?.code).toBe('date_range_missing');
    expect(rowProblems(c({ type: 'attribute', id: 'last_login', condition: 'was_ago' }), tagType, true)[0]?.code).toBe('date_days_missing');
    expect(rowProblems(c({ type: 'user_event', id: 'buy/sku', condition: 'with_property' }), tagType, true)[0]?.code).toBe('tag_condition_missing');
  });
  it('then what the condition means', () => {
    expect(rowProblems(c({ type: 'user_event', id: 'buy', condition: 'with_property', tagCondition: 'is_set' }), tagType, true)[0]?.code).toBe('property_missing');
    expect(rowProblems(c({ type: 'attribute', id: 'nope', condition: 'equals', input: 'x' }), tagType, true)[0]?.code).toBe('unknown_target');
    expect(rowProblems(c({ type: 'user_purchase_tag', id: 'revenue', condition: 'greater_than', input: 'lots' }), tagType, true)[0]?.code).toBe('value_invalid');
    expect(rowProblems(c({ type: 'unsupported', id: 'x', condition: 'is_set' }), tagType, true)[0]?.code).toBe('unsupported');
    expect(rowProblems(c({ type: 'attribute', id: 'city', condition: 'equals', multiSelect: ['Sevilla'] }), tagType, true)).toEqual([]);
  });
  it('skip tag meaning while the tags are not known', () => {
    const unknownTag = c({ type: 'user_tag', id: '11111111-2222-4333-8444-555555555555', condition: 'is_set' });
    expect(rowProblems(unknownTag, tagType, true)[0]?.code).toBe('unknown_target');
    expect(rowProblems(unknownTag, tagType, false)).toEqual([]);
  });
});

describe('estimable segment', () => {
  const segment: Segment = {
    rootKey: 'root',
    nodes: [
      { ...createGroupNode('root'), children: ['a', 'g'] },
      createConditionNode('a', { type: 'attribute', id: 'city', condition: 'equals', input: 'Sevilla' }),
      { ...createGroupNode('g', 'or'), children: ['b', 'c'] },
      createConditionNode('b', { type: 'attribute', id: 'country' }),
      createConditionNode('c', { type: 'attribute', id: 'country', condition: 'equals', input: 'ES' }),
    ],
  };
  it('leaves out the conditions with problems', () => {
    const problems = segmentRowProblems(segment, tagType, true);
    expect([...problems.keys()]).toEqual(['b']);
    const { segment: out, leftOut } = estimableSegment(segment, problems);
    expect(leftOut).toBe(1);
    expect(out.nodes.map((n) => n.key)).toEqual(['root', 'a', 'g', 'c']);
    expect(out.nodes.find((n) => n.key === 'g')).toMatchObject({ children: ['c'] });
  });
  it('is the segment itself without problems', () => {
    expect(estimableSegment(segment, new Map()).segment).toBe(segment);
  });
});

describe('server problems', () => {
  it('group refusal details by node', () => {
    const out = serverProblems([
      { path: 'nodes.c1.input', message: 'value_invalid' },
      { path: 'nodes.root', message: 'segment_empty' },
      { path: 'name', message: 'Required' },
    ]);
    expect([...out]).toEqual([['c1', ['value_invalid']], ['root', ['segment_empty']]]);
  });
});
