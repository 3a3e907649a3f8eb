import { describe, expect, it } from 'vitest';
import { SegmentAttribute, SegmentOperator, operatorValueNeed, type SegmentCondition, type SegmentFilterKind } from './model.ts';
import {
  attributeTarget, conditionDay, conditionNumber, conditionTarget, conditionValueKind, conditionValues, parseEventProperty,
  semanticProblems, tagTarget, type ConditionTarget,
} from './semantics.ts';

const TAG = '0b6a3c1e-5f0a-4c5e-9a41-2f8f1e0c9d11';
const tagType = (id: string) => (id === TAG ? 'number' as const : undefined);
const cond = (c: Partial<SegmentCondition>): SegmentCondition => ({
  type: null, id: null, condition: null, tagCondition: null, input: null, multiSelect: [], dateRange: null, dateDays: null, ...c,
});

/** Every target the table knows, with a sample id. */
const TARGETS: [string, ConditionTarget][] = [
  ...SegmentAttribute.options.map((a) => [`attribute ${a}`, attributeTarget(a)] as [string, ConditionTarget]),
  ...(['text', 'number', 'date'] as const).map((t) => [`user_tag ${t}`, tagTarget(t)] as [string, ConditionTarget]),
  ...([
    ['aevent', 'gd_login'], ['aevent', 'e_screen_name/screen'], ['user_event', 'buy'], ['user_event', 'buy/plan'], ['user_event_tag', 'buy/plan'],
    ['user_product_tag', 'product_id'], ['user_purchase_tag', 'revenue'], ['inapp_impressions', '*'], ['inapp_clicks', 'm1'],
    ['device_os', 'os'], ['device_os', 'os_version'], ['filter_campaign', 'any'],
  ] as [SegmentFilterKind, string][]).map(([k, id]) => [`${k} ${id}`, conditionTarget(k, id, tagType)!] as [string, ConditionTarget]),
];

describe('the semantic table', () => {
  it('uses every operator somewhere', () => {
    const used = new Set(TARGETS.flatMap(([, t]) => [...t.operators, ...t.propertyOperators]));
    expect(SegmentOperator.options.filter((op) => !used.has(op))).toEqual([]);
  });

  it('asks for the same kind of value as the section 5 rules', () => {
    for (const [name, t] of TARGETS) {
      for (const op of t.operators) {
        const kind = conditionValueKind(t, op);
        const need = operatorValueNeed(op);
        const expected = { none: ['none'], dateRange: ['date_range'], days: ['days'], property: ['property'] }[need as string] ?? null;
        if (expected) expect(expected, `${name} ${op}`).toContain(kind);
        else expect(['none', 'date_range', 'days', 'property'], `${name} ${op}`).not.toContain(kind);
      }
    }
  });

  it('tells which ids fit which kind', () => {
    expect(conditionTarget('attribute', 'nickname', tagType)).toBeNull();
    expect(conditionTarget('aevent', 'buy', tagType)).toBeNull();
    expect(conditionTarget('user_event', 'gd_login', tagType)).toBeNull();
    expect(conditionTarget('user_event', 'buy/plan', tagType)!.operators).toEqual(['with_property']);
    expect(conditionTarget('user_tag', 'missing', tagType)).toBeNull();
    expect(conditionTarget('user_tag', TAG, tagType)!.valueType).toBe('number');
    expect(conditionTarget('device_os', 'os_version', tagType)!.valueType).toBe('version');
    expect(conditionTarget('device_os', 'carrier', tagType)).toBeNull();
    expect(conditionTarget('filter_campaign', 'sms', tagType)).toBeNull();
    expect(conditionTarget('user_purchase_tag', 'profit', tagType)).toBeNull();
    expect(parseEventProperty('buy/plan/tier')).toEqual({ event: 'buy', property: 'plan/tier' });
    expect(parseEventProperty('/plan')).toBeNull();
    expect(parseEventProperty('bad event/plan')).toBeNull();
  });
});

describe('values', () => {
  it('prefers the selections, trimmed, over the input', () => {
    expect(conditionValues(cond({ input: 'x', multiSelect: [' a ', '', 'b'] }))).toEqual(['a', 'b']);
    expect(conditionValues(cond({ input: ' x ' }))).toEqual(['x']);
    expect(conditionValues(cond({ input: 0 }))).toEqual(['0']);
    expect(conditionNumber(cond({ input: '3.5' }))).toBe(3.5);
    expect(conditionNumber(cond({ input: '3,5' }))).toBeNull();
    expect(conditionDay(cond({ input: '2026-02-30' }))).toBeNull();
    expect(conditionDay(cond({ multiSelect: ['2026-02-28'] }))).toBe('2026-02-28');
  });
});

describe('semanticProblems', () => {
  const problems = (c: Partial<SegmentCondition>) => semanticProblems(cond(c), tagType).map((p) => `${p.field} ${p.code}`);
  it('finds what the section 5 rules cannot', () => {
    expect(problems({ type: 'attribute', id: 'country', condition: 'equals', input: 'ES' })).toEqual([]);
    expect(problems({ type: 'attribute', id: 'country', condition: 'was_made' })).toEqual(['condition operator_not_applicable']);
    expect(problems({ type: 'attribute', id: 'nickname', condition: 'equals', input: 'x' })).toEqual(['id unknown_target']);
    expect(problems({ type: 'unsupported', id: 'x', condition: 'equals', input: 'x' })).toEqual(['type unsupported']);
    expect(problems({ type: 'user_tag', id: TAG, condition: 'greater_than', input: 'many' })).toEqual(['input value_invalid']);
    expect(problems({ type: 'user_tag', id: TAG, condition: 'with_property', tagCondition: 'contains', input: '1' })).toEqual(['tagCondition tag_condition_not_applicable']);
    expect(problems({ type: 'user_tag', id: TAG, condition: 'with_property', tagCondition: 'greater_than', input: '1' })).toEqual([]);
    expect(problems({ type: 'attribute', id: 'registered', condition: 'greater_than', input: 'yesterday' })).toEqual(['input value_invalid']);
    expect(problems({ type: 'attribute', id: 'birthday', condition: 'anniversary_is', input: 400 })).toEqual(['input value_invalid']);
    expect(problems({ type: 'attribute', id: 'birthday', condition: 'anniversary_is', input: '2026-03-01' })).toEqual([]);
    expect(problems({ type: 'user_event', id: 'buy', condition: 'with_property', tagCondition: 'equals', input: 'x' })).toEqual(['condition operator_not_applicable']);
    expect(problems({ type: 'user_event', id: 'buy/plan', condition: 'with_property', tagCondition: 'was_ago', dateDays: 1 })).toEqual(['tagCondition tag_condition_not_applicable']);
  });
});
