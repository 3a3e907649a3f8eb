import { describe, expect, it } from 'vitest';
import { RuleKind, RuleInput, RuleTrigger, TIME_RULE_KINDS, eventMatches, isTimeRule, ruleSendKey, triggerEvents, type RuleTriggerInput } from './model.ts';
import { TAG_OPERATORS, normalizeRuleInput, validateRule } from './validate.ts';

const TAG = '0b6a3c1e-5f0a-4c5e-9a41-2f8f1e0c9d11';
const MESSAGE = '5d2f6c1e-1f0a-4c5e-9a41-2f8f1e0c9d12';
const EXAMPLES: Record<RuleKind, RuleTriggerInput> = {
  birthday: { kind: 'birthday' },
  registered_yesterday: { kind: 'registered_yesterday' },
  onscreen: { kind: 'onscreen', screen: 'Checkout' },
  coupon_redeemed: { kind: 'coupon_redeemed', messageId: MESSAGE },
  spent_at_least: { kind: 'spent_at_least', amount: 50, per: 'total', days: 30 },
  purchased_product: { kind: 'purchased_product', productId: 'sku-1' },
  tag_value: { kind: 'tag_value', tagId: TAG, operator: 'equals', value: 'gold' },
  event_made: { kind: 'event_made', eventId: 'add_to_cart' },
};
const input = (trigger: RuleTriggerInput, sendHour: number | null = null) => RuleInput.parse({ name: 'R', trigger, messageId: MESSAGE, sendHour });
const codes = (...args: Parameters<typeof validateRule>) => validateRule(...args).map((v) => `${v.code}:${v.path}`);

describe('rule model', () => {
  it.each(RuleKind.options)('%s has a schema that parses its example', (kind) => {
    expect(RuleTrigger.parse(EXAMPLES[kind]).kind).toBe(kind);
  });

  it('splits the kinds into time-based and event-based, and knows which events each listens to', () => {
    expect(RuleKind.options.filter(isTimeRule)).toEqual([...TIME_RULE_KINDS]);
    const events = Object.fromEntries(RuleKind.options.map((k) => [k, triggerEvents(RuleTrigger.parse(EXAMPLES[k]))]));
    expect(events).toEqual({
      birthday: [], registered_yesterday: [], tag_value: [], coupon_redeemed: [],
      onscreen: ['e_screen_name'], spent_at_least: ['gd_transaction'], purchased_product: ['gd_transaction'], event_made: ['add_to_cart'],
    });
  });

  it('refuses bad parameters with the field that is wrong', () => {
    const paths = (value: unknown) => {
      const parsed = RuleInput.safeParse(value);
      return parsed.success ? [] : parsed.error.issues.map((i) => i.path.join('.'));
    };
    expect(paths({ name: '', trigger: EXAMPLES.birthday, messageId: MESSAGE })).toEqual(['name']);
    expect(paths({ name: 'R', trigger: { kind: 'onscreen', screen: '  ' }, messageId: MESSAGE })).toEqual(['trigger.screen']);
    expect(paths({ name: 'R', trigger: { kind: 'spent_at_least', amount: 0 }, messageId: MESSAGE })).toEqual(['trigger.amount']);
    expect(paths({ name: 'R', trigger: { kind: 'event_made', eventId: 'not an event' }, messageId: MESSAGE })).toEqual(['trigger.eventId']);
    expect(paths({ name: 'R', trigger: { kind: 'nope' }, messageId: MESSAGE })).toEqual(['trigger.kind']);
    expect(paths({ name: 'R', trigger: EXAMPLES.birthday, messageId: 'x', sendHour: 24 })).toEqual(['messageId', 'sendHour']);
  });

  it('keys a send per rule, person and occasion', () => {
    expect(ruleSendKey('r1', '42', '2026-03-01')).toBe('r:r1:42:2026-03-01');
  });
});

describe('rule validation', () => {
  it('needs a send hour on time-based rules only, and drops it elsewhere', () => {
    expect(codes(input(EXAMPLES.birthday))).toEqual(['send_hour_required:sendHour']);
    expect(codes(input(EXAMPLES.birthday, 9))).toEqual([]);
    expect(codes(input(EXAMPLES.event_made, 9))).toEqual([]);
    expect(normalizeRuleInput(input(EXAMPLES.event_made, 9)).sendHour).toBeNull();
    expect(normalizeRuleInput(input({ kind: 'spent_at_least', amount: 5, per: 'purchase', days: 7 })).trigger).toMatchObject({ days: null });
  });

  it('needs an approved rule message of the app', () => {
    const rule = input(EXAMPLES.event_made);
    expect(codes(rule, { message: null })).toEqual(['message_not_found:messageId']);
    expect(codes(rule, { message: { origin: 'classic', approved: true } })).toEqual(['message_wrong_origin:messageId']);
    expect(codes(rule, { message: { origin: 'automaticRule', approved: false } })).toEqual(['message_not_approved:messageId']);
    expect(codes(rule, { message: { origin: 'automaticRule', approved: true } })).toEqual([]);
  });

  it('checks the tag, the operator for its type and the value', () => {
    const tag = (operator: string, value: string | number) => input({ kind: 'tag_value', tagId: TAG, operator: operator as 'equals', value }, 9);
    expect(codes(tag('equals', 'gold'), { tagType: null })).toEqual(['tag_not_found:trigger.tagId']);
    expect(codes(tag('contains', 'old'), { tagType: 'text' })).toEqual([]);
    expect(codes(tag('greater_than', 'a'), { tagType: 'text' })).toEqual(['operator_not_for_type:trigger.operator']);
    expect(codes(tag('contains', 3), { tagType: 'number' })).toEqual(['operator_not_for_type:trigger.operator']);
    expect(codes(tag('greater_than', 'x'), { tagType: 'number' })).toEqual(['value_not_number:trigger.value']);
    expect(codes(tag('greater_than', '12.5'), { tagType: 'number' })).toEqual([]);
    expect(codes(tag('less_than', '2026-02-30'), { tagType: 'date' })).toEqual(['value_not_date:trigger.value']);
    expect(codes(tag('less_than', '2026-02-28'), { tagType: 'date' })).toEqual([]);
    expect(Object.values(TAG_OPERATORS).flat().every((op) => typeof op === 'string')).toBe(true);
  });

  it('needs a coupon message for a coupon rule that names one', () => {
    const coupon = input(EXAMPLES.coupon_redeemed);
    expect(codes(coupon, { coupon: null })).toEqual(['coupon_not_found:trigger.messageId']);
    expect(codes(coupon, { coupon: { type: 'push' } })).toEqual(['coupon_not_found:trigger.messageId']);
    expect(codes(coupon, { coupon: { type: 'coupon' } })).toEqual([]);
    expect(codes(input({ kind: 'coupon_redeemed', messageId: null }), { coupon: null })).toEqual([]);
  });
});

describe('event matching', () => {
  const t = (kind: RuleKind) => RuleTrigger.parse(EXAMPLES[kind]);
  const purchase = (revenue: number | null, properties: Record<string, unknown> = {}) => ({ name: 'gd_transaction', properties, revenue });

  it('onscreen: the screen event of that screen', () => {
    expect(eventMatches(t('onscreen'), { name: 'e_screen_name', properties: { screen: 'Checkout' }, revenue: null })).toBe(true);
    expect(eventMatches(t('onscreen'), { name: 'e_screen_name', properties: { screen: 'Home' }, revenue: null })).toBe(false);
    expect(eventMatches(t('onscreen'), { name: 'other', properties: { screen: 'Checkout' }, revenue: null })).toBe(false);
  });

  it('purchased product: a purchase of that product (one or a list)', () => {
    expect(eventMatches(t('purchased_product'), purchase(3, { product_id: 'sku-1' }))).toBe(true);
    expect(eventMatches(t('purchased_product'), purchase(3, { product_id: ['a', 'sku-1'] }))).toBe(true);
    expect(eventMatches(t('purchased_product'), purchase(3, { product_id: 'sku-2' }))).toBe(false);
  });

  it('spent at least: per purchase, or the purchase whose total crosses the amount', () => {
    const per = RuleTrigger.parse({ kind: 'spent_at_least', amount: 50 });
    expect(eventMatches(per, purchase(50))).toBe(true);
    expect(eventMatches(per, purchase(49.99))).toBe(false);
    expect(eventMatches(per, purchase(null, { revenue: '60' }))).toBe(true);
    const total = t('spent_at_least');
    expect(eventMatches(total, purchase(20), 20)).toBe(false);
    expect(eventMatches(total, purchase(20), 35)).toBe(true);
    expect(eventMatches(total, purchase(20), 55)).toBe(false);
  });

  it('event made: that event; time and coupon rules never match an event', () => {
    expect(eventMatches(t('event_made'), { name: 'add_to_cart', properties: {}, revenue: null })).toBe(true);
    expect(eventMatches(t('event_made'), { name: 'search', properties: {}, revenue: null })).toBe(false);
    for (const kind of ['birthday', 'registered_yesterday', 'tag_value', 'coupon_redeemed'] as const) {
      expect(eventMatches(t(kind), { name: 'add_to_cart', properties: {}, revenue: null })).toBe(false);
    }
  });
});
