import { describe, expect, it } from 'vitest';
import { INPUT_KIND_OPERATORS, SegmentAttribute, emptyCondition, type SegmentCondition, type SegmentFilterKind } from '@gd/shared/segment/model';
import { conditionTarget } from '@gd/shared/segment/semantics';
import {
  composeEventId, conditionWidgets, editorTarget, eventOf, groupOperators, inputKindOf, operatorGroups, patchId, patchOperator,
  patchTagCondition, patchType, propertyOf, tagConditionGroups,
} from './conditionShape.ts';

const TAG = '0b8f2a5e-3c4d-4e5f-8a9b-0c1d2e3f4a5b';
const tagType = (id: string) => (id === TAG ? 'number' as const : undefined);
const c = (patch: Partial<SegmentCondition>): SegmentCondition => ({ ...emptyCondition(), ...patch });
const ops = (type: SegmentFilterKind, id: string) => operatorGroups(type, id, tagType).flatMap((g) => g.operators);

describe('operator groups', () => {
  it('offer under each input kind only operators that kind allows, each once, all accepted by the target', () => {
    const cases: [SegmentFilterKind, string][] = [
      ...SegmentAttribute.options.map((a) => ['attribute', a] as [SegmentFilterKind, string]),
      ['aevent', 'gd_install'], ['user_event', 'add_to_cart'], ['user_tag', TAG], ['user_event_tag', 'add_to_cart/sku'],
      ['user_product_tag', 'product_id'], ['user_purchase_tag', 'revenue'], ['inapp_impressions', '*'], ['inapp_clicks', 'm1'],
      ['device_os', 'os'], ['device_os', 'os_version'], ['device_os', 'model'], ['filter_campaign', 'push'],
    ];
    for (const [type, id] of cases) {
      const groups = operatorGroups(type, id, tagType);
      expect(groups.length, `${type} ${id}`).toBeGreaterThan(0);
      const seen = new Set<string>();
      const target = editorTarget(type, id, tagType);
      for (const g of groups) {
        for (const op of g.operators) {
          expect(INPUT_KIND_OPERATORS[g.inputKind] as readonly string[], `${type} ${id} ${op}`).toContain(op);
          expect(target?.operators, `${type} ${id} ${op}`).toContain(op);
          expect(seen.has(op)).toBe(false);
          seen.add(op);
        }
      }
    }
  });

  it('use every input kind somewhere', () => {
    const kinds = new Set<string>();
    const add = (type: SegmentFilterKind, id: string) => operatorGroups(type, id, tagType).forEach((g) => kinds.add(g.inputKind));
    SegmentAttribute.options.forEach((a) => add('attribute', a));
    add('aevent', 'gd_login'); add('device_os', 'os'); add('user_tag', TAG); add('filter_campaign', 'any');
    expect([...kinds].sort()).toEqual(Object.keys(INPUT_KIND_OPERATORS).sort());
  });

  it('pick the input kind by field', () => {
    expect(operatorGroups('attribute', 'country', tagType).map((g) => g.inputKind)).toEqual(['multiselect']);
    expect(operatorGroups('attribute', 'source', tagType).map((g) => g.inputKind)).toEqual(['source', 'input']);
    expect(operatorGroups('attribute', 'last_login', tagType).map((g) => g.inputKind)).toEqual(['date', 'relative_date']);
    expect(operatorGroups('device_os', 'os', tagType)[0]).toEqual({ inputKind: 'select', operators: ['equals', 'not_equals', 'is_set', 'is_not_set'] });
    expect(ops('attribute', 'push_active')).toEqual(['is_true', 'is_false']);
    expect(ops('attribute', 'audience')).toEqual(['in_audience', 'not_in_audience']);
  });

  it('offer with_property on events whatever the id holds, never on in-app messages', () => {
    expect(ops('user_event', 'add_to_cart')).toContain('with_property');
    expect(ops('user_event', 'add_to_cart/sku')).toContain('was_made');
    expect(ops('inapp_clicks', '*')).not.toContain('with_property');
    expect(ops('aevent', 'add_to_cart')).toEqual([]);
  });

  it('group tag conditions by the property value', () => {
    expect(tagConditionGroups('user_event', 'add_to_cart/sku', tagType).map((g) => g.inputKind)).toEqual(['input', 'number', 'none']);
    expect(tagConditionGroups('user_tag', TAG, tagType).flatMap((g) => g.operators)).not.toContain('with_property');
    expect(tagConditionGroups('attribute', 'city', tagType)).toEqual([]);
  });

  it('groupOperators drops empty kinds', () => {
    expect(groupOperators(['none', 'list'], ['sent'])).toEqual([{ inputKind: 'list', operators: ['sent'] }]);
    expect(inputKindOf(groupOperators(['none', 'list'], ['sent']), 'sent')).toBe('list');
    expect(inputKindOf([], null)).toBeNull();
  });
});

describe('value widgets', () => {
  const w = (cond: Partial<SegmentCondition>) => conditionWidgets(c(cond), tagType);
  it('follow the operator and its input kind', () => {
    expect(w({ type: 'attribute', id: 'country', condition: 'equals' }).widget).toBe('texts');
    expect(w({ type: 'attribute', id: 'email', condition: 'equals' }).widget).toBe('text');
    expect(w({ type: 'device_os', id: 'os', condition: 'equals' }).widget).toBe('choice');
    expect(w({ type: 'attribute', id: 'last_login', condition: 'was_on' }).widget).toBe('date_range');
    expect(w({ type: 'attribute', id: 'last_login', condition: 'was_less_than' }).widget).toBe('days');
    expect(w({ type: 'attribute', id: 'birthday', condition: 'anniversary_is' }).widget).toBe('anniversary');
    expect(w({ type: 'attribute', id: 'audience', condition: 'in_audience' }).widget).toBe('audiences');
    expect(w({ type: 'attribute', id: 'journey', condition: 'sent' }).widget).toBe('journeys');
    expect(w({ type: 'filter_campaign', id: 'push', condition: 'sent' }).widget).toBe('texts');
    expect(w({ type: 'user_purchase_tag', id: 'revenue', condition: 'greater_than' }).widget).toBe('number');
    expect(w({ type: 'attribute', id: 'push_active', condition: 'is_true' }).widget).toBe('none');
  });
  it('offer a window on windowed targets that have no dates of their own', () => {
    expect(w({ type: 'user_event', id: 'add_to_cart', condition: 'was_made' }).window).toBe(true);
    expect(w({ type: 'user_event', id: 'add_to_cart', condition: 'was_on' }).window).toBe(false);
    expect(w({ type: 'attribute', id: 'email', condition: 'equals' }).window).toBe(false);
    expect(w({ type: 'user_event', id: 'add_to_cart/sku', condition: 'with_property', tagCondition: 'equals' })).toEqual({ widget: 'property', inner: 'text', window: true });
  });
});

describe('patches', () => {
  it('a new filter kind starts over, with a sensible id where there is one', () => {
    expect(patchType('attribute')).toEqual(c({ type: 'attribute' }));
    expect(patchType('user_product_tag').id).toBe('product_id');
    expect(patchType('inapp_clicks').id).toBe('*');
  });
  it('a new id keeps operator and values that still mean the same', () => {
    const city = c({ type: 'attribute', id: 'city', condition: 'equals', multiSelect: ['Sevilla'] });
    expect(patchId(city, 'country', tagType)).toEqual({ id: 'country' });
    expect(patchId(city, 'last_login', tagType)).toMatchObject({ id: 'last_login', condition: null, multiSelect: [] });
  });
  it('a new operator drops values of another kind and an event property', () => {
    const days = c({ type: 'attribute', id: 'last_login', condition: 'was_less_than', dateDays: 7 });
    expect(patchOperator(days, 'was_more_than', tagType)).toEqual({ condition: 'was_more_than', tagCondition: null });
    expect(patchOperator(days, 'was_on', tagType)).toMatchObject({ condition: 'was_on', dateDays: null });
    const prop = c({ type: 'user_event', id: 'add_to_cart/sku', condition: 'with_property', tagCondition: 'equals', input: 'A' });
    expect(patchOperator(prop, 'was_made', tagType)).toMatchObject({ id: 'add_to_cart', tagCondition: null, input: null });
    expect(patchTagCondition(prop, 'not_equals', tagType)).toEqual({ tagCondition: 'not_equals' });
    expect(patchTagCondition(prop, 'is_set', tagType)).toMatchObject({ tagCondition: 'is_set', input: null });
  });
  it('event ids compose and split', () => {
    expect(composeEventId('buy', ' sku ')).toBe('buy/sku');
    expect(composeEventId('buy', '')).toBe('buy');
    expect(eventOf('buy/sku')).toBe('buy');
    expect(propertyOf('buy/sku')).toBe('sku');
    expect(propertyOf('buy')).toBe('');
    expect(conditionTarget('user_event', 'buy/sku', tagType)?.operators).toEqual(['with_property']);
  });
});
