/**
 * Audiences (SPEC.md sections 3 and 4): states, source types and the ready-made audience rules,
 * each expanded into segment conditions (so a rule is evaluated exactly like a condition the
 * person could have built in the editor).
 */
import { z } from 'zod';
import { EVENT_NAME_PATTERN, SCREEN_EVENT } from '../behaviour/events.ts';
import { AudienceErrorName } from '../errors.ts';
import {
  createConditionNode, createGroupNode, type AudienceRuleKind, type Segment, type SegmentCondition, type SegmentNode,
} from './model.ts';
import { PURCHASE_PRODUCT_PROPERTY, SCREEN_PROPERTY, isAutomaticEvent } from './semantics.ts';

/** SPEC.md section 4: "new, in progress, ready, sync, error, inactive". An audience starts as new. */
export const AudienceStatus = z.enum(['new', 'in_progress', 'ready', 'sync', 'error', 'inactive']);
export type AudienceStatus = z.infer<typeof AudienceStatus>;

/** SPEC.md section 3 audience types, in the source-type spelling (csv_dynamic, performance_report). */
export const AudienceSourceType = z.enum(['csv', 'csv_dynamic', 'segment', 'adobe', 'ftp', 'https', 's3', 'performance_report', 'external', 'none']);
export type AudienceSourceType = z.infer<typeof AudienceSourceType>;

/** User identifier types of imports: customerId, {product}Id (the contract spelling), deviceId. */
export const AudienceIdType = z.enum(['customerId', '{product}Id', 'deviceId']);
export type AudienceIdType = z.infer<typeof AudienceIdType>;

export const AudienceError = z.enum(AudienceErrorName);
export type AudienceError = z.infer<typeof AudienceError>;

/** Refresh period bounds of a segment audience, in minutes (default hourly). */
export const AUDIENCE_REFRESH_MINUTES = { min: 5, default: 60, max: 7 * 24 * 60 } as const;

const Days = z.number().int().min(1).max(3650).nullable().default(null);
const Text = z.string().trim().min(1).max(256);

/** A ready-made condition with its parameters. `days`: only in the last N days (null: ever). */
export const AudienceRule = z.discriminatedUnion('kind', [
  /** Birthday in `daysAhead` days (0: today), in the app's time zone; Feb 29 birthdays fall on Feb 28 in other years. */
  z.object({ kind: z.literal('birthday'), daysAhead: z.number().int().min(0).max(366).default(0) }),
  /** Registered yesterday (the app's calendar day before today). */
  z.object({ kind: z.literal('registered_yesterday') }),
  /** Viewed a screen (the screen event with that screen name). */
  z.object({ kind: z.literal('onscreen'), screen: Text, days: Days }),
  /** Redeemed a coupon: clicked the coupon's in-app message (the redeem button is its click). */
  z.object({ kind: z.literal('coupon_redeemed'), messageId: z.string().trim().min(1).max(64), days: Days }),
  /** Spent at least `amount` (purchase revenue, all purchases or those of the last N days). */
  z.object({ kind: z.literal('spent_at_least'), amount: z.number().finite().min(0).max(1e12), days: Days }),
  /** Bought one of the products (the purchase event's product property). */
  z.object({ kind: z.literal('purchased_product'), products: z.array(Text).min(1).max(1000), days: Days }),
  /** A user tag equals a value. */
  z.object({ kind: z.literal('tag_value'), tagId: z.string().uuid(), value: z.union([z.string().trim().min(1).max(1024), z.number().finite()]) }),
  /** Made an event. */
  z.object({ kind: z.literal('event_made'), event: z.string().regex(EVENT_NAME_PATTERN), days: Days }),
]);
export type AudienceRule = z.infer<typeof AudienceRule>;
export type AudienceRuleInput = z.input<typeof AudienceRule>;

// Every rule kind of the spec has a schema, and nothing else does.
type RuleKindsCovered = [AudienceRuleKind] extends [AudienceRule['kind']] ? ([AudienceRule['kind']] extends [AudienceRuleKind] ? true : never) : never;
export const RULE_KINDS_COVERED: RuleKindsCovered = true;

const windowed = (days: number | null): Partial<SegmentCondition> => (days === null ? {} : { dateDays: days });

/** The conditions of one rule, as nodes under a group keyed `key` (and-combined). */
export function audienceRuleNodes(rule: AudienceRule, key: string): SegmentNode[] {
  const group = createGroupNode(key, 'and');
  const conditions: SegmentNode[] = [];
  const add = (condition: Partial<SegmentCondition>) => {
    const node = createConditionNode(`${key}-${conditions.length + 1}`, condition);
    conditions.push(node);
    group.children.push(node.key);
    return node;
  };
  switch (rule.kind) {
    case 'birthday':
      add({ type: 'attribute', id: 'birthday', condition: 'anniversary_is', input: rule.daysAhead });
      break;
    case 'registered_yesterday':
      add({ type: 'attribute', id: 'registered', condition: 'was_ago', dateDays: 1 });
      break;
    case 'onscreen':
      add({ type: 'user_event_tag', id: `${SCREEN_EVENT}/${SCREEN_PROPERTY}`, condition: 'equals', input: rule.screen, ...windowed(rule.days) });
      break;
    case 'coupon_redeemed':
      add({ type: 'inapp_clicks', id: rule.messageId, condition: 'was_made', ...windowed(rule.days) });
      break;
    case 'spent_at_least': {
      // "At least" is greater than or equal: an or-group of the two operators.
      const either = createGroupNode(`${key}-or`, 'or');
      group.children.push(either.key);
      const measure = { type: 'user_purchase_tag', id: 'revenue', input: rule.amount, ...windowed(rule.days) } as const;
      const more = createConditionNode(`${key}-or-1`, { ...measure, condition: 'greater_than' });
      const same = createConditionNode(`${key}-or-2`, { ...measure, condition: 'equals' });
      either.children.push(more.key, same.key);
      conditions.push(either, more, same);
      break;
    }
    case 'purchased_product':
      add({ type: 'user_product_tag', id: PURCHASE_PRODUCT_PROPERTY, condition: 'equals', multiSelect: rule.products, ...windowed(rule.days) });
      break;
    case 'tag_value':
      add({ type: 'user_tag', id: rule.tagId, condition: 'equals', input: rule.value });
      break;
    case 'event_made':
      add({ type: isAutomaticEvent(rule.event) ? 'aevent' : 'user_event', id: rule.event, condition: 'was_made', ...windowed(rule.days) });
      break;
    default: {
      const never: never = rule;
      throw new Error(`unknown audience rule ${String(never)}`);
    }
  }
  return [group, ...conditions];
}

/** A segment requiring every rule (an and-group of the rules' groups). */
export function audienceRulesToSegment(rules: readonly AudienceRule[], rootKey = 'root'): Segment {
  const root = createGroupNode(rootKey, 'and');
  const nodes: SegmentNode[] = [root];
  rules.forEach((rule, i) => {
    const key = `rule-${i + 1}-${rule.kind}`;
    root.children.push(key);
    nodes.push(...audienceRuleNodes(rule, key));
  });
  return { rootKey, nodes };
}
