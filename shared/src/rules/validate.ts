/**
 * The checks of a rule beyond its schema's shapes, pure and shared: the form shows them under
 * their fields, the API answers them as 10001 with `details` (`{ path, message: code }`).
 *
 * What the schema cannot know comes in `facts`, looked up by the caller: the message (of this app,
 * not deleted; its origin and whether it has an approved version), the tag's value type, the
 * coupon message. A fact left out is not checked (the form checks what it knows, the API all).
 */
import { isDateString } from '../formats.ts';
import type { MessageOrigin } from '../message/draft.ts';
import type { CommunicationType } from '../message/model.ts';
import type { TagValueType } from '../schemas/tags.ts';
import { isTimeRule, numberOf, type RuleInput, type TagOperator } from './model.ts';

export type RuleViolationCode =
  /** A time-based rule needs its send hour. */
  | 'send_hour_required'
  /** The message is not one of this app's (or it was deleted). */
  | 'message_not_found'
  /** Rules send messages made for them (origin automaticRule); a classic or journey message has its own sender. */
  | 'message_wrong_origin'
  /** The message has no approved version yet: nothing could go out. */
  | 'message_not_approved'
  /** No user tag of the app with that id. */
  | 'tag_not_found'
  /** The operator does not apply to the tag's type (contains is for text, greater/less than for numbers and dates). */
  | 'operator_not_for_type'
  | 'value_not_number'
  | 'value_not_date'
  /** No coupon message of the app with that id. */
  | 'coupon_not_found';

export interface RuleViolation {
  path: string;
  code: RuleViolationCode;
  params?: Record<string, string | number>;
}

export interface RuleFacts {
  /** The message named by `messageId`: null when the app has none (or it is deleted). */
  message?: { origin: MessageOrigin; approved: boolean } | null;
  /** The value type of the user tag named by a tag rule: null when the app has no such user tag. */
  tagType?: TagValueType | null;
  /** The message named by a coupon rule: null when the app has none. */
  coupon?: { type: CommunicationType } | null;
}

/** Operators per tag type. */
export const TAG_OPERATORS: Readonly<Record<TagValueType, readonly TagOperator[]>> = {
  text: ['equals', 'not_equals', 'contains'],
  number: ['equals', 'not_equals', 'greater_than', 'less_than'],
  date: ['equals', 'not_equals', 'greater_than', 'less_than'],
};

export function validateRule(input: RuleInput, facts: RuleFacts = {}): RuleViolation[] {
  const out: RuleViolation[] = [];
  const trigger = input.trigger;
  if (isTimeRule(trigger.kind) && input.sendHour === null) out.push({ path: 'sendHour', code: 'send_hour_required' });

  if (facts.message === null) out.push({ path: 'messageId', code: 'message_not_found' });
  else if (facts.message) {
    if (facts.message.origin !== 'automaticRule') out.push({ path: 'messageId', code: 'message_wrong_origin', params: { origin: facts.message.origin } });
    else if (!facts.message.approved) out.push({ path: 'messageId', code: 'message_not_approved' });
  }

  if (trigger.kind === 'tag_value') {
    if (facts.tagType === null) out.push({ path: 'trigger.tagId', code: 'tag_not_found' });
    else if (facts.tagType) {
      const type = facts.tagType;
      if (!TAG_OPERATORS[type].includes(trigger.operator)) out.push({ path: 'trigger.operator', code: 'operator_not_for_type', params: { type } });
      else if (type === 'number' && numberOf(trigger.value) === null) out.push({ path: 'trigger.value', code: 'value_not_number' });
      else if (type === 'date' && !(typeof trigger.value === 'string' && isDateString(trigger.value))) out.push({ path: 'trigger.value', code: 'value_not_date' });
    }
  }

  if (trigger.kind === 'coupon_redeemed' && trigger.messageId !== null) {
    if (facts.coupon === null || (facts.coupon && facts.coupon.type !== 'coupon')) out.push({ path: 'trigger.messageId', code: 'coupon_not_found' });
  }
  return out;
}

/** The input as stored: a send hour only on time-based rules, the window of a total only per total. */
export function normalizeRuleInput(input: RuleInput): RuleInput {
  const trigger = input.trigger.kind === 'spent_at_least' && input.trigger.per === 'purchase' ? { ...input.trigger, days: null } : input.trigger;
  return { ...input, trigger, sendHour: isTimeRule(trigger.kind) ? input.sendHour : null };
}
