import { describe, expect, it } from 'vitest';
import {
  INPUT_KIND_OPERATORS,
  SegmentCondition,
  SegmentInputKind,
  SegmentOperator,
  createConditionNode,
  createGroupNode,
  emptyCondition,
  firstSegmentCondition,
  operatorValueNeed,
  segmentConditions,
  type Segment,
} from './model.ts';
import { conditionProblems, firstConditionValid, isConditionValid, isSegmentUsable, validateSegment } from './validate.ts';

const base = { ...emptyCondition(), type: 'attribute' as const, id: 'country' };
const codes = (c: Partial<SegmentCondition>) => conditionProblems({ ...base, ...c }).map((p) => p.code);

describe('segment condition validity', () => {
  it('needs type, id and condition', () => {
    expect(conditionProblems(emptyCondition()).map((p) => p.code)).toEqual(['type_missing', 'id_missing', 'condition_missing']);
    expect(codes({ id: '  ', condition: 'is_set' })).toEqual(['id_missing']);
    expect(isConditionValid({ ...base, condition: 'is_set' })).toBe(true);
  });

  it('value-type conditions need an input or a selection', () => {
    expect(codes({ condition: 'equals' })).toEqual(['value_missing']);
    expect(codes({ condition: 'equals', input: ' ' })).toEqual(['value_missing']);
    expect(codes({ condition: 'equals', input: 'ES' })).toEqual([]);
    expect(codes({ condition: 'greater_than', input: 0 })).toEqual([]);
    expect(codes({ condition: 'in_audience', multiSelect: ['a1'] })).toEqual([]);
  });

  it('"was on" needs a date range', () => {
    expect(codes({ condition: 'was_on' })).toEqual(['date_range_missing']);
    expect(codes({ condition: 'was_not_on' })).toEqual(['date_range_missing']);
    expect(codes({ condition: 'was_on', dateRange: { startDay: '2024-01-01', endDay: '2024-01-31' } })).toEqual([]);
  });

  it('"was ago" type conditions need a day count', () => {
    for (const condition of ['was_ago', 'was_not_ago', 'was_more_than', 'was_less_than', 'was_not_more_than', 'was_not_less_than', 'will_be_in'] as const) {
      expect(codes({ condition })).toEqual(['date_days_missing']);
      expect(codes({ condition, dateDays: 0 })).toEqual([]);
    }
  });

  it('"with property" needs a tag condition, and a value when that tag condition needs one', () => {
    expect(codes({ condition: 'with_property' })).toEqual(['tag_condition_missing']);
    expect(codes({ condition: 'with_property', tagCondition: 'is_set' })).toEqual([]);
    expect(codes({ condition: 'with_property', tagCondition: 'equals' })).toEqual(['value_missing']);
    expect(codes({ condition: 'with_property', tagCondition: 'equals', input: 'x' })).toEqual([]);
    expect(codes({ condition: 'with_property', tagCondition: 'was_on' })).toEqual(['date_range_missing']);
    expect(codes({ condition: 'with_property', tagCondition: 'was_ago' })).toEqual(['date_days_missing']);
    expect(codes({ condition: 'with_property', tagCondition: 'with_property' })).toEqual(['tag_condition_invalid']);
  });

  it('maps every input kind to operators, and every operator belongs to some kind', () => {
    const covered = new Set(SegmentInputKind.options.flatMap((k) => INPUT_KIND_OPERATORS[k]));
    expect(SegmentOperator.options.filter((op) => !covered.has(op))).toEqual([]);
    expect(INPUT_KIND_OPERATORS.relative_date.every((op) => operatorValueNeed(op) === 'days')).toBe(true);
  });

  it('rejects a reversed date range and a negative day count in the schema', () => {
    expect(SegmentCondition.safeParse({ ...base, dateRange: { startDay: '2024-02-01', endDay: '2024-01-01' } }).success).toBe(false);
    expect(SegmentCondition.safeParse({ ...base, dateDays: -1 }).success).toBe(false);
  });
});

const seg = (nodes: Segment['nodes'], rootKey = 'root'): Segment => ({ rootKey, nodes });
const ok = createConditionNode('c1', { ...base, condition: 'equals', input: 'ES' });
const bad = createConditionNode('c2', { ...base, condition: 'equals' });

describe('validateSegment', () => {
  it('accepts nested groups of valid conditions, in depth-first order', () => {
    const s = seg([{ ...createGroupNode('root', 'or'), children: ['g', 'c1'] }, { ...createGroupNode('g'), children: ['c3'] }, ok, { ...ok, key: 'c3' }]);
    expect(validateSegment(s)).toEqual([]);
    expect(segmentConditions(s).map((c) => c.key)).toEqual(['c3', 'c1']);
    expect(firstSegmentCondition(s)?.key).toBe('c3');
    expect(isSegmentUsable(s)).toBe(true);
  });

  it('reports invalid conditions with the field', () => {
    const s = seg([{ ...createGroupNode('root'), children: ['c1', 'c2'] }, ok, bad]);
    expect(validateSegment(s)).toEqual([{ key: 'c2', path: ['input'], code: 'value_missing' }]);
    expect(isSegmentUsable(s)).toBe(false);
    expect(firstConditionValid(s)).toBe(true);
  });

  it('reports a missing root, a condition root, dangling, shared and cyclic children', () => {
    expect(validateSegment(seg([ok], 'nope'))[0]?.code).toBe('root_missing');
    expect(validateSegment(seg([{ ...ok, key: 'root' }]))[0]?.code).toBe('root_not_group');
    expect(validateSegment(seg([{ ...createGroupNode('root'), children: ['x'] }]))[0]?.code).toBe('dangling_child');
    expect(validateSegment(seg([{ ...createGroupNode('root'), children: ['c1', 'c1'] }, ok]))[0]?.code).toBe('node_shared');
    expect(validateSegment(seg([{ ...createGroupNode('root'), children: ['g'] }, { ...createGroupNode('g'), children: ['root'] }]))[0]?.code).toBe('cycle');
  });

  it('an empty segment is valid but not usable', () => {
    const empty = seg([createGroupNode('root')]);
    expect(validateSegment(empty)).toEqual([]);
    expect(isSegmentUsable(empty)).toBe(false);
    expect(firstConditionValid(empty)).toBe(false);
    expect(isSegmentUsable(null)).toBe(false);
  });
});
