/**
 * Automatic rules (/communication/rules; SPEC.md section 3, "Audience rule kinds", and the
 * `automaticRule` message origin): "when this happens to a person, send them this approved message".
 *
 * A rule has a trigger (one of the eight audience rule kinds, each with its parameters), the
 * message it sends (an approved message of origin automaticRule of the same app), a status
 * (active or paused) and an owner. Two families:
 *
 * - **Time-based** (birthday, registered yesterday, tag value) run once a day per rule, at
 *   `sendHour` o'clock in the app's time zone, over the people who match that day. Each person is
 *   sent at most once per rule and day (`r:<ruleId>:<personId>:<YYYY-MM-DD>`).
 * - **Event-based** (onscreen, coupon redeemed, spent at least, purchased product, event made) run
 *   when the event arrives, once per event (`r:<ruleId>:<personId>:<clientId of the event>`).
 *
 * Our decisions where SPEC names only the kinds:
 * - birthday: people whose birthday (month and day) is today in the app's time zone; a 29 February
 *   birthday falls on 28 February in other years (as the audience rule does).
 * - registered yesterday: registered during the app's calendar day before today.
 * - tag value: a user tag compared with a value (equals, not equals, contains for text; equals,
 *   not equals, greater/less than for numbers and dates). A matching person is sent once per
 *   value they were given: a person is reached again only after their tag was set again
 *   (`person_tags.updated_at` after the rule's last send to them), not every day.
 * - onscreen: the screen event (`e_screen_name`) with its `screen` property equal to the screen.
 * - coupon redeemed: a redemption of that coupon message (or of any coupon, `messageId` null).
 * - spent at least: `per: 'purchase'`, one purchase of at least `amount`; `per: 'total'`, the
 *   purchase that brings the person's total over the last `days` days (null: ever) to `amount` or
 *   more (sent when the total crosses the amount, not again on the purchases after it). Amounts
 *   are the purchase event's revenue as sent, currencies not converted.
 * - purchased product: a purchase whose `product_id` property is the product.
 * - event made: the event, by name (built-in or custom).
 */
import { z } from 'zod';
import { EVENT_NAME_PATTERN, SCREEN_EVENT } from '../behaviour/events.ts';
import { AudienceRuleKind } from '../segment/model.ts';
import { PURCHASE_EVENT, PURCHASE_PRODUCT_PROPERTY as PRODUCT_PROPERTY, SCREEN_PROPERTY } from '../segment/semantics.ts';
import { Name } from '../schemas/common.ts';

/** The kinds of SPEC.md ("Audience rule kinds"), one list shared with audience rules. */
export const RuleKind = AudienceRuleKind;
export type RuleKind = AudienceRuleKind;

export const RuleStatus = z.enum(['active', 'paused']);
export type RuleStatus = z.infer<typeof RuleStatus>;

/** Kinds run once a day at the send hour; the others run when their event arrives. */
export const TIME_RULE_KINDS = ['birthday', 'registered_yesterday', 'tag_value'] as const satisfies readonly RuleKind[];
export type TimeRuleKind = (typeof TIME_RULE_KINDS)[number];
export const isTimeRule = (kind: RuleKind): kind is TimeRuleKind => (TIME_RULE_KINDS as readonly string[]).includes(kind);

/** The purchase event (its revenue and `product_id` property) and the screen event's `screen` property, as segments read them. */
export { PURCHASE_EVENT, PRODUCT_PROPERTY, SCREEN_PROPERTY };

export const TagOperator = z.enum(['equals', 'not_equals', 'contains', 'greater_than', 'less_than']);
export type TagOperator = z.infer<typeof TagOperator>;

export const SpentPer = z.enum(['purchase', 'total']);
export type SpentPer = z.infer<typeof SpentPer>;

const Text = z.string().trim().min(1, 'Required').max(256);
const Id = z.string().uuid();

/** Each kind with its parameters. */
export const RuleTrigger = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('birthday') }),
  z.object({ kind: z.literal('registered_yesterday') }),
  z.object({ kind: z.literal('onscreen'), screen: Text }),
  /** null: a redemption of any coupon of the app. */
  z.object({ kind: z.literal('coupon_redeemed'), messageId: Id.nullable().default(null) }),
  z.object({
    kind: z.literal('spent_at_least'),
    amount: z.number().finite().positive().max(1e12),
    per: SpentPer.default('purchase'),
    /** `per: 'total'`: the window of the total in days (null: every purchase ever). Ignored per purchase. */
    days: z.number().int().min(1).max(3650).nullable().default(null),
  }),
  z.object({ kind: z.literal('purchased_product'), productId: Text }),
  z.object({
    kind: z.literal('tag_value'),
    tagId: Id,
    operator: TagOperator,
    value: z.union([z.string().trim().min(1, 'Required').max(1024), z.number().finite()]),
  }),
  z.object({ kind: z.literal('event_made'), eventId: z.string().trim().regex(EVENT_NAME_PATTERN, { message: 'Not an event name' }) }),
]);
export type RuleTrigger = z.infer<typeof RuleTrigger>;
export type RuleTriggerInput = z.input<typeof RuleTrigger>;

/** Send hours: 0 to 23, on the app's clock. */
export const SendHour = z.number().int().min(0).max(23);
export const DEFAULT_SEND_HOUR = 10;

/** What a person sends to create or edit a rule. `sendHour`: time-based rules only (null otherwise). */
export const RuleInput = z.object({
  name: Name,
  trigger: RuleTrigger,
  messageId: Id,
  sendHour: SendHour.nullable().default(null),
});
export type RuleInput = z.infer<typeof RuleInput>;

/** Event names an event rule listens to (what it registers in `trigger_interests`); none for time rules. */
export function triggerEvents(trigger: RuleTrigger): string[] {
  switch (trigger.kind) {
    case 'onscreen':
      return [SCREEN_EVENT];
    case 'spent_at_least':
    case 'purchased_product':
      return [PURCHASE_EVENT];
    case 'event_made':
      return [trigger.eventId];
    case 'coupon_redeemed':
    case 'birthday':
    case 'registered_yesterday':
    case 'tag_value':
      return [];
    default: {
      const never: never = trigger;
      throw new Error(`unknown rule kind ${String(never)}`);
    }
  }
}

/** An event as the rule engine sees it (from the trigger inbox). */
export interface RuleEvent {
  name: string;
  properties: Record<string, unknown>;
  /** The purchase's revenue (the event's `revenue`, when it has one). */
  revenue: number | null;
}

/** A number from an event property or revenue: numbers, and numeric text. */
export function numberOf(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

const sameText = (a: unknown, b: string) => (typeof a === 'string' || typeof a === 'number') && String(a) === b;

/**
 * Whether the event fires the rule, judged on the event alone. `spent_at_least` per total also
 * needs the person's total before the event (`totalBefore`, what the caller reads from the
 * purchases before it): it fires when the total crosses the amount with this purchase.
 * Coupon redemptions and time rules never come as events (false).
 */
export function eventMatches(trigger: RuleTrigger, event: RuleEvent, totalBefore = 0): boolean {
  switch (trigger.kind) {
    case 'onscreen':
      return event.name === SCREEN_EVENT && sameText(event.properties[SCREEN_PROPERTY], trigger.screen);
    case 'purchased_product': {
      if (event.name !== PURCHASE_EVENT) return false;
      const product = event.properties[PRODUCT_PROPERTY];
      return Array.isArray(product) ? product.some((p) => sameText(p, trigger.productId)) : sameText(product, trigger.productId);
    }
    case 'spent_at_least': {
      if (event.name !== PURCHASE_EVENT) return false;
      const revenue = event.revenue ?? numberOf(event.properties.revenue) ?? 0;
      if (trigger.per === 'purchase') return revenue >= trigger.amount;
      return revenue > 0 && totalBefore < trigger.amount && totalBefore + revenue >= trigger.amount;
    }
    case 'event_made':
      return event.name === trigger.eventId;
    case 'coupon_redeemed':
    case 'birthday':
    case 'registered_yesterday':
    case 'tag_value':
      return false;
    default: {
      const never: never = trigger;
      throw new Error(`unknown rule kind ${String(never)}`);
    }
  }
}

/** The idempotency key of a rule's send: per day for time rules, per event (its client id) for event rules. */
export const ruleSendKey = (ruleId: string, personId: string, occasion: string) => `r:${ruleId}:${personId}:${occasion}`;
