/**
 * The rule form's values, checks and body, pure so they are tested. The form is flat (one field
 * per parameter of every kind); the body takes the chosen kind's parameters only. Checks are the
 * shared ones: the schema (RuleInput) and rules/validate.ts with what the form knows (the app's
 * rule messages, tags and coupons), so the form says what the API would refuse, in its words.
 */
import { ErrorCode } from '@gd/shared/errors';
import type { z } from 'zod';
import { DEFAULT_SEND_HOUR, RuleInput, isTimeRule, type RuleKind, type RuleTrigger, type RuleTriggerInput, type SpentPer, type TagOperator } from '@gd/shared/rules/model';
import { TAG_OPERATORS, validateRule, type RuleFacts } from '@gd/shared/rules/validate';
import type { Rule, RuleChoices } from '@gd/shared/schemas/rules';
import type { ValidationIssue } from '@gd/shared/errors';
import { ApiError } from '../../api/errors.ts';
import type { TFunction, TKey } from '../../i18n/keys.ts';
import { splitFailure, validationText } from '../../ui/forms.ts';

export interface RuleFormValues {
  name: string;
  kind: RuleKind;
  messageId: string;
  /** '0' to '23'. */
  sendHour: string;
  screen: string;
  /** '' : any coupon. */
  couponId: string;
  amount: number | string;
  per: SpentPer;
  /** '' : every purchase ever. */
  days: number | string;
  productId: string;
  tagId: string;
  operator: TagOperator;
  value: string;
  eventId: string;
}

export const FORM_FIELDS = ['name', 'kind', 'messageId', 'sendHour', 'screen', 'couponId', 'amount', 'per', 'days', 'productId', 'tagId', 'operator', 'value', 'eventId'] as const;

/** A path of the request (`trigger.screen`) as the form field that holds it. */
export function fieldOf(path: string): string {
  if (path === 'trigger.messageId') return 'couponId';
  if (path === 'trigger.kind') return 'kind';
  return path.startsWith('trigger.') ? path.slice('trigger.'.length) : path;
}

export function initialRuleValues(rule?: Rule): RuleFormValues {
  const blank: RuleFormValues = {
    name: '', kind: 'birthday', messageId: '', sendHour: String(DEFAULT_SEND_HOUR), screen: '', couponId: '', amount: '', per: 'purchase', days: '',
    productId: '', tagId: '', operator: 'equals', value: '', eventId: '',
  };
  if (!rule) return blank;
  const t = rule.trigger;
  const values: RuleFormValues = { ...blank, name: rule.name, kind: t.kind, messageId: rule.messageId, sendHour: rule.sendHour === null ? blank.sendHour : String(rule.sendHour) };
  switch (t.kind) {
    case 'onscreen':
      return { ...values, screen: t.screen };
    case 'coupon_redeemed':
      return { ...values, couponId: t.messageId ?? '' };
    case 'spent_at_least':
      return { ...values, amount: t.amount, per: t.per, days: t.days ?? '' };
    case 'purchased_product':
      return { ...values, productId: t.productId };
    case 'tag_value':
      return { ...values, tagId: t.tagId, operator: t.operator, value: String(t.value) };
    case 'event_made':
      return { ...values, eventId: t.eventId };
    case 'birthday':
    case 'registered_yesterday':
      return values;
  }
}

const numberOrText = (v: number | string) => (v === '' ? Number.NaN : Number(v));

/** The chosen kind's trigger (not yet checked: the schema does that). */
function triggerOf(values: RuleFormValues, choices?: RuleChoices): RuleTriggerInput {
  switch (values.kind) {
    case 'birthday':
    case 'registered_yesterday':
      return { kind: values.kind };
    case 'onscreen':
      return { kind: values.kind, screen: values.screen.trim() };
    case 'coupon_redeemed':
      return { kind: values.kind, messageId: values.couponId || null };
    case 'spent_at_least':
      return { kind: values.kind, amount: numberOrText(values.amount), per: values.per, days: values.per === 'total' && values.days !== '' ? Number(values.days) : null };
    case 'purchased_product':
      return { kind: values.kind, productId: values.productId.trim() };
    case 'tag_value': {
      const type = choices?.tags.find((t) => t.id === values.tagId)?.valueType;
      const text = values.value.trim();
      const value = type === 'number' && text !== '' && Number.isFinite(Number(text)) ? Number(text) : text;
      return { kind: values.kind, tagId: values.tagId, operator: values.operator, value };
    }
    case 'event_made':
      return { kind: values.kind, eventId: values.eventId.trim() };
  }
}

/** The request body as sent (the send hour only for daily kinds). */
export function ruleBody(values: RuleFormValues, choices?: RuleChoices): z.input<typeof RuleInput> {
  return {
    name: values.name.trim(),
    trigger: triggerOf(values, choices),
    messageId: values.messageId,
    sendHour: isTimeRule(values.kind) ? Number(values.sendHour) : null,
  };
}

/** What the form knows of the references, for the shared checks. */
export function factsOf(values: RuleFormValues, choices: RuleChoices): RuleFacts {
  const message = choices.messages.find((m) => m.id === values.messageId);
  const facts: RuleFacts = message ? { message: { origin: 'automaticRule', approved: message.approved } } : {};
  if (values.kind === 'tag_value' && values.tagId) facts.tagType = choices.tags.find((t) => t.id === values.tagId)?.valueType ?? null;
  if (values.kind === 'coupon_redeemed' && values.couponId) facts.coupon = choices.coupons.some((c) => c.id === values.couponId) ? { type: 'coupon' } : null;
  return facts;
}

/** The operators a tag rule offers for the chosen tag (every one before a tag is chosen). */
export function operatorsFor(values: Pick<RuleFormValues, 'tagId'>, choices?: RuleChoices): readonly TagOperator[] {
  const type = choices?.tags.find((t) => t.id === values.tagId)?.valueType;
  return type ? TAG_OPERATORS[type] : ['equals', 'not_equals', 'contains', 'greater_than', 'less_than'];
}

/** Field errors of the form (empty when it may be sent). */
export function validateRuleForm(values: RuleFormValues, t: TFunction, choices?: RuleChoices): Record<string, string> {
  const errors: Record<string, string> = {};
  const parsed = RuleInput.safeParse(ruleBody(values, choices));
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = fieldOf(issue.path.map(String).join('.'));
      if (field in errors) continue;
      errors[field] = field === 'messageId' && values.messageId === '' ? t('validation.required') : validationText(issue as ValidationIssue, t);
    }
    return errors;
  }
  for (const v of validateRule(parsed.data, choices ? factsOf(values, choices) : {})) {
    const field = fieldOf(v.path);
    errors[field] ??= t(`rules.issue.${v.code}` as TKey);
  }
  return errors;
}

const ISSUE_CODES = new Set(['send_hour_required', 'message_not_found', 'message_wrong_origin', 'message_not_approved', 'tag_not_found', 'operator_not_for_type', 'value_not_number', 'value_not_date', 'coupon_not_found']);

/** A refused save as field errors and a form error: a name taken (30) on the name, the checks' codes on their fields. */
export function ruleFailure(error: unknown, t: TFunction): { fieldErrors: Record<string, string>; formError: unknown } {
  if (error instanceof ApiError && error.code === ErrorCode.NAME_DUPLICATED) return { fieldErrors: { name: t('rules.nameTaken') }, formError: null };
  // The API names request paths (`trigger.screen`); the form's fields are flat (`screen`).
  const mapped = error instanceof ApiError ? new ApiError(error.code, error.message, error.details.map((d) => ({ ...d, path: fieldOf(d.path) })), error.httpStatus) : error;
  return splitFailure(mapped, t, FORM_FIELDS, (message) => (ISSUE_CODES.has(message) ? t(`rules.issue.${message}` as TKey) : undefined));
}

/** The trigger in a few words, for the list. */
export function triggerSummary(trigger: RuleTrigger, sendHour: number | null, t: TFunction, choices?: RuleChoices): string {
  const daily = sendHour === null ? '' : ` · ${t('rules.summary.daily', { hour: `${String(sendHour).padStart(2, '0')}:00` })}`;
  switch (trigger.kind) {
    case 'birthday':
    case 'registered_yesterday':
      return `${t(`rules.kind.${trigger.kind}`)}${daily}`;
    case 'onscreen':
      return t('rules.summary.onscreen', { screen: trigger.screen });
    case 'coupon_redeemed': {
      if (trigger.messageId === null) return t('rules.summary.couponAny');
      const name = choices?.coupons.find((c) => c.id === trigger.messageId)?.name ?? trigger.messageId.slice(0, 8);
      return t('rules.summary.coupon', { name });
    }
    case 'spent_at_least': {
      const amount = String(trigger.amount);
      const text = trigger.per === 'purchase' ? t('rules.summary.perPurchase', { amount })
        : trigger.days === null ? t('rules.summary.total', { amount }) : t('rules.summary.totalDays', { amount, days: trigger.days });
      return `${t('rules.kind.spent_at_least')} ${text}`;
    }
    case 'purchased_product':
      return t('rules.summary.product', { product: trigger.productId });
    case 'tag_value': {
      const tag = choices?.tags.find((x) => x.id === trigger.tagId)?.name ?? trigger.tagId.slice(0, 8);
      return `${t('rules.summary.tag', { tag, operator: t(`rules.operator.${trigger.operator}`), value: String(trigger.value) })}${daily}`;
    }
    case 'event_made':
      return t('rules.summary.event', { event: trigger.eventId });
  }
}
