import { describe, expect, it } from 'vitest';
import { AudienceRuleKind, segmentConditions } from './model.ts';
import { AudienceRule, audienceRulesToSegment, type AudienceRuleInput } from './audience.ts';
import { semanticProblems } from './semantics.ts';
import { validateSegment } from './validate.ts';

const TAG = '0b6a3c1e-5f0a-4c5e-9a41-2f8f1e0c9d11';
const EXAMPLES: Record<AudienceRuleKind, AudienceRuleInput> = {
  birthday: { kind: 'birthday' },
  registered_yesterday: { kind: 'registered_yesterday' },
  onscreen: { kind: 'onscreen', screen: 'Checkout', days: 7 },
  coupon_redeemed: { kind: 'coupon_redeemed', messageId: 'coupon-1' },
  spent_at_least: { kind: 'spent_at_least', amount: 50, days: 30 },
  purchased_product: { kind: 'purchased_product', products: ['sku-1', 'sku-2'] },
  tag_value: { kind: 'tag_value', tagId: TAG, value: 'gold' },
  event_made: { kind: 'event_made', event: 'gd_register' },
};

describe('audience rules', () => {
  it.each(AudienceRuleKind.options)('%s expands into conditions that evaluate', (kind) => {
    const rule = AudienceRule.parse(EXAMPLES[kind]);
    const segment = audienceRulesToSegment([rule]);
    expect(validateSegment(segment)).toEqual([]);
    const conditions = segmentConditions(segment);
    expect(conditions.length).toBeGreaterThan(0);
    for (const c of conditions) expect(semanticProblems(c, (id) => (id === TAG ? 'text' : undefined))).toEqual([]);
  });

  it('says what each rule means in conditions', () => {
    const expand = (input: AudienceRuleInput) => segmentConditions(audienceRulesToSegment([AudienceRule.parse(input)]))
      .map(({ type, id, condition, input: value, dateDays, multiSelect }) => ({ type, id, condition, value, dateDays, multiSelect }));
    expect(expand({ kind: 'birthday', daysAhead: 2 })).toEqual([{ type: 'attribute', id: 'birthday', condition: 'anniversary_is', value: 2, dateDays: null, multiSelect: [] }]);
    expect(expand({ kind: 'registered_yesterday' })).toMatchObject([{ type: 'attribute', id: 'registered', condition: 'was_ago', dateDays: 1 }]);
    expect(expand({ kind: 'onscreen', screen: 'Home' })).toMatchObject([{ type: 'user_event_tag', id: 'e_screen_name/screen', condition: 'equals', value: 'Home', dateDays: null }]);
    expect(expand({ kind: 'spent_at_least', amount: 50, days: 30 })).toMatchObject([
      { type: 'user_purchase_tag', id: 'revenue', condition: 'greater_than', value: 50, dateDays: 30 },
      { type: 'user_purchase_tag', id: 'revenue', condition: 'equals', value: 50, dateDays: 30 },
    ]);
    expect(expand({ kind: 'event_made', event: 'gd_register' })).toMatchObject([{ type: 'aevent', condition: 'was_made' }]);
    expect(expand({ kind: 'event_made', event: 'add_to_cart', days: 3 })).toMatchObject([{ type: 'user_event', id: 'add_to_cart', condition: 'was_made', dateDays: 3 }]);
    expect(expand({ kind: 'purchased_product', products: ['a'] })).toMatchObject([{ type: 'user_product_tag', id: 'product_id', multiSelect: ['a'] }]);
    expect(expand({ kind: 'coupon_redeemed', messageId: 'c' })).toMatchObject([{ type: 'inapp_clicks', id: 'c', condition: 'was_made' }]);
  });

  it('combines several rules with and, and at least one is needed to be useful', () => {
    const segment = audienceRulesToSegment([AudienceRule.parse(EXAMPLES.birthday), AudienceRule.parse(EXAMPLES.tag_value)]);
    const root = segment.nodes.find((n) => n.key === segment.rootKey);
    expect(root).toMatchObject({ kind: 'group', combinator: 'and' });
    expect(root?.kind === 'group' ? root.children.length : 0).toBe(2);
    expect(AudienceRule.safeParse({ kind: 'spent_at_least', amount: -1 }).success).toBe(false);
    expect(AudienceRule.safeParse({ kind: 'event_made', event: 'not an event' }).success).toBe(false);
  });
});
