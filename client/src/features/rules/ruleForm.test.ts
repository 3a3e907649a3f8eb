/** The rule dialog's pure parts: the body per kind, the shared checks on their fields, a round trip of a stored rule, the list's summary. */
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@gd/shared/errors';
import { RuleKind } from '@gd/shared/rules/model';
import type { Rule, RuleChoices } from '@gd/shared/schemas/rules';
import { ApiError } from '../../api/errors.ts';
import type { TFunction } from '../../i18n/keys.ts';
import { initialRuleValues, operatorsFor, ruleBody, ruleFailure, triggerSummary, validateRuleForm, type RuleFormValues } from './ruleForm.ts';

const t = ((key: string, vars?: Record<string, unknown>) => (vars ? `${key} ${JSON.stringify(vars)}` : key)) as TFunction;
const MSG = '5d2f6c1e-1f0a-4c5e-9a41-2f8f1e0c9d12';
const DRAFT = '6d2f6c1e-1f0a-4c5e-9a41-2f8f1e0c9d13';
const TAG = '0b6a3c1e-5f0a-4c5e-9a41-2f8f1e0c9d11';
const COUPON = '7d2f6c1e-1f0a-4c5e-9a41-2f8f1e0c9d14';
const choices: RuleChoices = {
  messages: [{ id: MSG, name: 'Wishes', type: 'push', status: 'Approved', approved: true }, { id: DRAFT, name: 'Draft', type: 'push', status: 'Draft', approved: false }],
  coupons: [{ id: COUPON, name: 'Ten off' }],
  tags: [{ id: TAG, name: 'tier', valueType: 'number' }],
};
const base = (over: Partial<RuleFormValues>): RuleFormValues => ({ ...initialRuleValues(), name: 'R', messageId: MSG, ...over });

describe('rule form', () => {
  it('sends only the chosen kind\'s parameters, and a send hour only for the daily kinds', () => {
    expect(ruleBody(base({ kind: 'birthday', sendHour: '8', screen: 'leftover' }))).toEqual({ name: 'R', trigger: { kind: 'birthday' }, messageId: MSG, sendHour: 8 });
    expect(ruleBody(base({ kind: 'onscreen', screen: ' Home ' }))).toEqual({ name: 'R', trigger: { kind: 'onscreen', screen: 'Home' }, messageId: MSG, sendHour: null });
    expect(ruleBody(base({ kind: 'coupon_redeemed' })).trigger).toEqual({ kind: 'coupon_redeemed', messageId: null });
    expect(ruleBody(base({ kind: 'spent_at_least', amount: 20, per: 'purchase', days: 7 })).trigger).toEqual({ kind: 'spent_at_least', amount: 20, per: 'purchase', days: null });
    expect(ruleBody(base({ kind: 'spent_at_least', amount: '20', per: 'total', days: 7 })).trigger).toEqual({ kind: 'spent_at_least', amount: 20, per: 'total', days: 7 });
    // A number tag's value goes as a number.
    expect(ruleBody(base({ kind: 'tag_value', tagId: TAG, operator: 'greater_than', value: '3' }), choices).trigger).toEqual({ kind: 'tag_value', tagId: TAG, operator: 'greater_than', value: 3 });
  });

  it('shows schema and shared-rule problems on their fields', () => {
    expect(validateRuleForm(base({ kind: 'onscreen', screen: '' }), t, choices)).toEqual({ screen: 'validation.required' });
    expect(validateRuleForm(base({ messageId: '' }), t, choices)).toEqual({ messageId: 'validation.required' });
    expect(validateRuleForm(base({ messageId: DRAFT }), t, choices)).toEqual({ messageId: 'rules.issue.message_not_approved' });
    expect(validateRuleForm(base({ kind: 'tag_value', tagId: TAG, operator: 'contains', value: '3' }), t, choices)).toEqual({ operator: 'rules.issue.operator_not_for_type' });
    expect(validateRuleForm(base({ kind: 'tag_value', tagId: TAG, operator: 'equals', value: 'x' }), t, choices)).toEqual({ value: 'rules.issue.value_not_number' });
    expect(validateRuleForm(base({ kind: 'event_made', eventId: 'bad name' }), t, choices)).toHaveProperty('eventId');
    expect(validateRuleForm(base({ kind: 'spent_at_least', amount: '' }), t, choices)).toHaveProperty('amount');
    expect(validateRuleForm(base({ kind: 'coupon_redeemed', couponId: COUPON }), t, choices)).toEqual({});
    expect(operatorsFor({ tagId: TAG }, choices)).not.toContain('contains');
  });

  it.each(RuleKind.options)('round-trips a stored %s rule through the form', (kind) => {
    const triggers = {
      birthday: { kind: 'birthday' }, registered_yesterday: { kind: 'registered_yesterday' }, onscreen: { kind: 'onscreen', screen: 'Home' },
      coupon_redeemed: { kind: 'coupon_redeemed', messageId: COUPON }, spent_at_least: { kind: 'spent_at_least', amount: 5, per: 'total', days: 30 },
      purchased_product: { kind: 'purchased_product', productId: 'sku' }, tag_value: { kind: 'tag_value', tagId: TAG, operator: 'less_than', value: 4 },
      event_made: { kind: 'event_made', eventId: 'add_to_cart' },
    } as const;
    const daily = kind === 'birthday' || kind === 'registered_yesterday' || kind === 'tag_value';
    const rule = { id: 'x', appId: 'a', name: 'N', trigger: triggers[kind], messageId: MSG, messageName: 'Wishes', messageType: 'push', sendHour: daily ? 7 : null, status: 'active', ownerId: null, ownerName: null, createdAt: '', updatedAt: '', lastRunAt: null, sends: 0 } as Rule;
    expect(ruleBody(initialRuleValues(rule), choices)).toEqual({ name: 'N', trigger: triggers[kind], messageId: MSG, sendHour: daily ? 7 : null });
    expect(triggerSummary(rule.trigger, rule.sendHour, t, choices)).not.toBe('');
  });

  it('puts the API\'s refusals on the form\'s fields', () => {
    expect(ruleFailure(new ApiError(ErrorCode.NAME_DUPLICATED, 'taken', [{ path: 'name', message: 'name_taken' }]), t)).toEqual({ fieldErrors: { name: 'rules.nameTaken' }, formError: null });
    const refused = ruleFailure(new ApiError(ErrorCode.MANDATORY, 'bad', [{ path: 'trigger.tagId', message: 'tag_not_found' }]), t);
    expect(refused).toEqual({ fieldErrors: { tagId: 'rules.issue.tag_not_found' }, formError: null });
  });
});
