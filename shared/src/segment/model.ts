/**
 * Segment conditions (SPEC.md section 3 "Segment condition"). A segment is a tree of and/or groups
 * whose leaves are conditions, stored flat: `{ rootKey, nodes }`, each group listing its children
 * by key. The flat form maps one to one onto the Yjs `nodes` map (see docs/segmentDoc.ts).
 *
 * Field meaning (the spec names the fields only; the meaning is ours):
 * - `type`: the filter kind (what is filtered: an attribute, an event, a user tag, ...);
 * - `id`: what exactly, within that kind (the attribute name, the event id, the tag id, ...);
 * - `condition`: the operator;
 * - `tagCondition`: the operator applied to the event or tag property when `condition` is
 *   `with_property`;
 * - `input` / `multiSelect`: the value, typed or chosen;
 * - `dateRange`: for `was_on` and `was_not_on`;
 * - `dateDays`: the day count of the "was ago" family and `will_be_in`.
 */
import { z } from 'zod';
import { DateString } from '../formats.ts';

export const SegmentCombinator = z.enum(['and', 'or']);
export type SegmentCombinator = z.infer<typeof SegmentCombinator>;

/** Every operator of SPEC.md section 3, once. */
export const SegmentOperator = z.enum([
  'equals',
  'not_equals',
  'is_set',
  'is_not_set',
  'greater_than',
  'minor_than',
  'more_than',
  'less_than',
  'is_true',
  'is_false',
  'was_made',
  'was_not_made',
  'was_on',
  'was_not_on',
  'was_ago',
  'was_not_ago',
  'was_more_than',
  'was_less_than',
  'was_not_more_than',
  'was_not_less_than',
  'will_be_in',
  'with_property',
  'anniversary_is',
  'contains',
  'sent',
  'not_sent',
  'clicked',
  'not_clicked',
  'changed_value',
  'in_audience',
  'not_in_audience',
  'engaged',
  'attributed',
]);
export type SegmentOperator = z.infer<typeof SegmentOperator>;

export const SegmentInputKind = z.enum([
  'none',
  'select',
  'multiselect',
  'input',
  'date',
  'relative_date',
  'number',
  'subtag',
  'list',
  'source',
]);
export type SegmentInputKind = z.infer<typeof SegmentInputKind>;

export const SegmentFilterKind = z.enum([
  'attribute',
  'aevent',
  'user_tag',
  'user_event',
  'user_event_tag',
  'user_product_tag',
  'user_purchase_tag',
  'unsupported',
  'inapp_impressions',
  'inapp_clicks',
  'device_os',
  'filter_campaign',
]);
export type SegmentFilterKind = z.infer<typeof SegmentFilterKind>;

/**
 * User and device attributes that can be filtered (`type: 'attribute'`, `id` one of these). The
 * spec's list ("many user and device attributes", section 3) plus the user fields the audience
 * rules need: `birthday` (rule birthday), `registered` (rule registered yesterday) and `install`.
 * What each means and which operators it takes: semantics.ts.
 */
export const SegmentAttribute = z.enum([
  'app_version',
  'os_version',
  'sdk_version',
  'city',
  'country',
  'email',
  'first_login',
  'last_login',
  'first_purchase',
  'last_purchase',
  'first_session',
  'last_session',
  'push_active',
  'push_open',
  'push_over_limit',
  'audience',
  'campaign',
  'source',
  'state',
  'journey',
  'birthday',
  'registered',
  'install',
]);
export type SegmentAttribute = z.infer<typeof SegmentAttribute>;

export const AudienceRuleKind = z.enum([
  'birthday',
  'registered_yesterday',
  'onscreen',
  'coupon_redeemed',
  'spent_at_least',
  'purchased_product',
  'tag_value',
  'event_made',
]);
export type AudienceRuleKind = z.infer<typeof AudienceRuleKind>;

/**
 * Input kind → allowed operators. The spec says only that each kind maps to a set; the sets
 * are ours, chosen so that each operator's value need (OPERATOR_VALUE) fits the input widget.
 */
export const INPUT_KIND_OPERATORS = {
  none: ['is_set', 'is_not_set', 'is_true', 'is_false', 'was_made', 'was_not_made', 'engaged', 'changed_value'],
  select: ['equals', 'not_equals', 'is_set', 'is_not_set'],
  multiselect: ['equals', 'not_equals', 'contains', 'is_set', 'is_not_set'],
  input: ['equals', 'not_equals', 'contains', 'is_set', 'is_not_set'],
  date: ['was_on', 'was_not_on', 'anniversary_is', 'is_set', 'is_not_set'],
  relative_date: [
    'was_ago',
    'was_not_ago',
    'was_more_than',
    'was_less_than',
    'was_not_more_than',
    'was_not_less_than',
    'will_be_in',
  ],
  number: ['equals', 'not_equals', 'greater_than', 'minor_than', 'more_than', 'less_than', 'is_set', 'is_not_set'],
  subtag: ['with_property', 'was_made', 'was_not_made'],
  list: ['in_audience', 'not_in_audience', 'sent', 'not_sent', 'clicked', 'not_clicked'],
  source: ['attributed', 'equals', 'not_equals'],
} as const satisfies Record<SegmentInputKind, readonly SegmentOperator[]>;

export function operatorsForInput(kind: SegmentInputKind): readonly SegmentOperator[] {
  return INPUT_KIND_OPERATORS[kind];
}

/** What an operator needs besides type, id and condition. */
export type OperatorValueNeed = 'none' | 'value' | 'dateRange' | 'days' | 'property';

export function operatorValueNeed(op: SegmentOperator): OperatorValueNeed {
  switch (op) {
    case 'is_set':
    case 'is_not_set':
    case 'is_true':
    case 'is_false':
    case 'was_made':
    case 'was_not_made':
    case 'engaged':
    case 'changed_value':
      return 'none';
    case 'equals':
    case 'not_equals':
    case 'greater_than':
    case 'minor_than':
    case 'more_than':
    case 'less_than':
    case 'contains':
    case 'anniversary_is':
    case 'in_audience':
    case 'not_in_audience':
    case 'sent':
    case 'not_sent':
    case 'clicked':
    case 'not_clicked':
    case 'attributed':
      return 'value';
    case 'was_on':
    case 'was_not_on':
      return 'dateRange';
    case 'was_ago':
    case 'was_not_ago':
    case 'was_more_than':
    case 'was_less_than':
    case 'was_not_more_than':
    case 'was_not_less_than':
    case 'will_be_in':
      return 'days';
    case 'with_property':
      return 'property';
    default: {
      const never: never = op;
      throw new Error(`unknown operator ${String(never)}`);
    }
  }
}

export const ConditionDateRange = z
  .object({ startDay: DateString, endDay: DateString })
  .refine((r) => r.startDay <= r.endDay, { message: 'startDay must not be after endDay', path: ['endDay'] });
export type ConditionDateRange = z.infer<typeof ConditionDateRange>;

/** A condition as edited: everything may still be unset (null); validity is checked separately. */
export const SegmentCondition = z.object({
  type: SegmentFilterKind.nullable(),
  id: z.string().max(200).nullable(),
  condition: SegmentOperator.nullable(),
  tagCondition: SegmentOperator.nullable(),
  input: z.union([z.string().max(2000), z.number().finite()]).nullable(),
  multiSelect: z.array(z.string().max(2000)).max(1000),
  dateRange: ConditionDateRange.nullable(),
  dateDays: z.number().int().min(0).max(36_500).nullable(),
});
export type SegmentCondition = z.infer<typeof SegmentCondition>;

export const SegmentNodeKey = z.string().min(1).max(128);

export const SegmentGroupNode = z.object({
  key: SegmentNodeKey,
  kind: z.literal('group'),
  combinator: SegmentCombinator,
  children: z.array(SegmentNodeKey),
});
export type SegmentGroupNode = z.infer<typeof SegmentGroupNode>;

export const SegmentConditionNode = SegmentCondition.extend({ key: SegmentNodeKey, kind: z.literal('condition') });
export type SegmentConditionNode = z.infer<typeof SegmentConditionNode>;

export const SegmentNode = z.discriminatedUnion('kind', [SegmentGroupNode, SegmentConditionNode]);
export type SegmentNode = z.infer<typeof SegmentNode>;

/** The root must be a group; nested groups combine their children with and/or. */
export const Segment = z.object({ rootKey: SegmentNodeKey, nodes: z.array(SegmentNode).max(2000) });
export type Segment = z.infer<typeof Segment>;

export const emptyCondition = (): SegmentCondition => ({
  type: null,
  id: null,
  condition: null,
  tagCondition: null,
  input: null,
  multiSelect: [],
  dateRange: null,
  dateDays: null,
});

export const createConditionNode = (key: string, condition: Partial<SegmentCondition> = {}): SegmentConditionNode => ({
  ...emptyCondition(),
  ...condition,
  key,
  kind: 'condition',
});

export const createGroupNode = (key: string, combinator: SegmentCombinator = 'and'): SegmentGroupNode => ({
  key,
  kind: 'group',
  combinator,
  children: [],
});

/** An empty segment: a root `and` group. */
export const createSegment = (rootKey = 'root'): Segment => ({ rootKey, nodes: [createGroupNode(rootKey)] });

/** The condition fields of a node (drops `key` and `kind`). */
export function conditionOf(node: SegmentConditionNode): SegmentCondition {
  const { type, id, condition, tagCondition, input, multiSelect, dateRange, dateDays } = node;
  return { type, id, condition, tagCondition, input, multiSelect, dateRange, dateDays };
}

/** Conditions reachable from the root, depth first in child order. */
export function segmentConditions(segment: Segment): SegmentConditionNode[] {
  const byKey = new Map(segment.nodes.map((n) => [n.key, n]));
  const out: SegmentConditionNode[] = [];
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const node = byKey.get(key);
    if (!node) return;
    if (node.kind === 'condition') out.push(node);
    else node.children.forEach(visit);
  };
  visit(segment.rootKey);
  return out;
}

export const firstSegmentCondition = (segment: Segment): SegmentConditionNode | undefined =>
  segmentConditions(segment)[0];
