/**
 * What a condition means: for each filter kind (and, for attributes, each attribute) the kind of
 * value it filters, the operators that apply, what the `id` names and what value an operator
 * takes. SPEC.md names the filter kinds, attributes and operators only; this table is our
 * decision, shared by the API's compiler (api-server/src/features/segments/compile.ts, where the
 * SQL meaning of every entry is written down) and the segment editor.
 *
 * `id` per filter kind:
 * - attribute: a SegmentAttribute;
 * - aevent: a built-in event name (`gd_...`) or the screen event; user_event: any other event name;
 * - user_tag: the tag's id (uuid); its value type (text, number, date) picks the operators;
 * - user_event_tag: `<event name>/<property>`; user_product_tag: a property of the purchase event
 *   (PURCHASE_EVENT), e.g. PURCHASE_PRODUCT_PROPERTY; user_purchase_tag: `revenue` or `conversions`;
 * - inapp_impressions, inapp_clicks: an in-app message id, or `*` for any in-app message;
 * - device_os: a device field (`os`, `os_version`, `model`) matched on any of the person's devices;
 * - filter_campaign: a message channel (push, inapp, email, native) or `any`;
 * - unsupported: anything; such a condition is kept in documents but never evaluates.
 * With `with_property` on an event kind the id is `<event name>/<property>` as for user_event_tag.
 */
import { z } from 'zod';
import { EVENT_NAME_PATTERN, EVENT_PREFIX, InteractionChannel, SCREEN_EVENT, builtInEventName, isBuiltInEvent } from '../behaviour/events.ts';
import { DateString } from '../formats.ts';
import type { TagValueType } from '../schemas/tags.ts';
import { SegmentAttribute, type SegmentCondition, type SegmentFilterKind, type SegmentOperator } from './model.ts';

/** The purchase event and the property that names a purchase's product (a string, or an array of them). */
export const PURCHASE_EVENT = builtInEventName('transaction');
export const PURCHASE_PRODUCT_PROPERTY = 'product_id';
/** The screen event's property naming the screen. */
export const SCREEN_PROPERTY = 'screen';
/** `id` of inapp_impressions / inapp_clicks meaning any in-app message. */
export const ANY_MESSAGE = '*';
export const CampaignChannel = z.enum([...InteractionChannel.options, 'any']);
export type CampaignChannel = z.infer<typeof CampaignChannel>;
export const PurchaseMeasure = z.enum(['revenue', 'conversions']);
export type PurchaseMeasure = z.infer<typeof PurchaseMeasure>;
export const DeviceField = z.enum(['os', 'os_version', 'model']);
export type DeviceField = z.infer<typeof DeviceField>;

/** What a target's value is. */
export type ConditionValueType =
  | 'text' // a text field; '' counts as not set
  | 'version' // a dotted version string, ordered part by part
  | 'number'
  | 'timestamp' // an instant, read as a calendar day in the app's time zone
  | 'date' // a calendar day
  | 'boolean'
  | 'occurrence' // rows in time: events, in-app impressions or clicks
  | 'property' // a property of the events or purchases a person made
  | 'membership' // audiences
  | 'messages' // messages sent to the person
  | 'count' // a number of things in a time window (pushes received, purchases, revenue)
  | 'unsupported';

const TEXT = ['equals', 'not_equals', 'contains', 'is_set', 'is_not_set'] as const;
const VERSION = [...TEXT, 'greater_than', 'minor_than'] as const;
const NUMBER = ['equals', 'not_equals', 'greater_than', 'minor_than', 'more_than', 'less_than', 'is_set', 'is_not_set'] as const;
const RELATIVE = ['was_ago', 'was_not_ago', 'was_more_than', 'was_less_than', 'was_not_more_than', 'was_not_less_than'] as const;
const TIMESTAMP = ['was_on', 'was_not_on', ...RELATIVE, 'anniversary_is', 'greater_than', 'minor_than', 'is_set', 'is_not_set'] as const;
const DATE = [...TIMESTAMP, 'will_be_in', 'equals', 'not_equals'] as const;
const BOOLEAN = ['is_true', 'is_false'] as const;
const OCCURRENCE = ['was_made', 'was_not_made', 'more_than', 'less_than', 'was_on', 'was_not_on', ...RELATIVE] as const;
const PROPERTY = ['equals', 'not_equals', 'contains', 'greater_than', 'minor_than', 'is_set', 'is_not_set', 'is_true', 'is_false'] as const;
const MEMBERSHIP = ['in_audience', 'not_in_audience'] as const;
const MESSAGES = ['sent', 'not_sent', 'clicked', 'not_clicked', 'engaged'] as const;
const COUNT = ['equals', 'not_equals', 'greater_than', 'minor_than', 'more_than', 'less_than'] as const;

export interface ConditionTarget {
  valueType: ConditionValueType;
  operators: readonly SegmentOperator[];
  /** For `with_property`: the operators its tag condition may use. */
  propertyOperators: readonly SegmentOperator[];
  /** Whether `dateRange` / `dateDays` narrow the condition to a time window (besides the date operators). */
  windowed: boolean;
}

const target = (valueType: ConditionValueType, operators: readonly SegmentOperator[], extra: Partial<ConditionTarget> = {}): ConditionTarget =>
  ({ valueType, operators, propertyOperators: [], windowed: false, ...extra });

const ATTRIBUTE_TARGETS: Record<SegmentAttribute, ConditionTarget> = {
  app_version: target('version', VERSION),
  os_version: target('version', VERSION),
  sdk_version: target('version', VERSION),
  city: target('text', TEXT),
  country: target('text', TEXT),
  state: target('text', TEXT),
  email: target('text', TEXT),
  campaign: target('text', [...TEXT, 'attributed']),
  source: target('text', [...TEXT, 'attributed']),
  first_login: target('timestamp', TIMESTAMP),
  last_login: target('timestamp', TIMESTAMP),
  first_purchase: target('timestamp', TIMESTAMP),
  last_purchase: target('timestamp', TIMESTAMP),
  first_session: target('timestamp', TIMESTAMP),
  last_session: target('timestamp', TIMESTAMP),
  registered: target('timestamp', TIMESTAMP),
  install: target('timestamp', TIMESTAMP),
  birthday: target('date', DATE),
  push_active: target('boolean', BOOLEAN),
  push_open: target('boolean', BOOLEAN, { windowed: true }),
  push_over_limit: target('count', COUNT, { windowed: true }),
  audience: target('membership', MEMBERSHIP),
  journey: target('messages', MESSAGES, { windowed: true }),
};

const TAG_TARGETS: Record<TagValueType, ConditionTarget> = {
  text: target('text', [...TEXT, 'with_property', 'changed_value'], { propertyOperators: TEXT, windowed: true }),
  number: target('number', [...NUMBER, 'with_property', 'changed_value'], { propertyOperators: NUMBER, windowed: true }),
  date: target('date', [...DATE, 'with_property', 'changed_value'], { propertyOperators: DATE, windowed: true }),
};

export const attributeTarget = (attribute: SegmentAttribute): ConditionTarget => ATTRIBUTE_TARGETS[attribute];
export const tagTarget = (valueType: TagValueType): ConditionTarget => TAG_TARGETS[valueType];

/** An event-and-property id: `<event name>/<property>`. */
export function parseEventProperty(id: string): { event: string; property: string } | null {
  const slash = id.indexOf('/');
  if (slash <= 0) return null;
  const event = id.slice(0, slash);
  const property = id.slice(slash + 1);
  if (!EVENT_NAME_PATTERN.test(event) || property.length < 1 || property.length > 64) return null;
  return { event, property };
}

/** Built-in (automatic) events and the screen event are `aevent`s; the app's own events `user_event`s. */
export const isAutomaticEvent = (name: string) => isBuiltInEvent(name) || name === SCREEN_EVENT;
const isAppEvent = (name: string) => EVENT_NAME_PATTERN.test(name) && !name.startsWith(EVENT_PREFIX) && name !== SCREEN_EVENT;

/** What the (kind, id) pair names, or null when the id does not fit the kind (an unknown tag included). */
export function conditionTarget(type: SegmentFilterKind, id: string, tagType: (tagId: string) => TagValueType | undefined): ConditionTarget | null {
  switch (type) {
    case 'attribute': {
      const attribute = SegmentAttribute.safeParse(id);
      return attribute.success ? attributeTarget(attribute.data) : null;
    }
    case 'aevent':
    case 'user_event': {
      const property = parseEventProperty(id);
      const event = property ? property.event : id;
      const fits = type === 'aevent' ? isAutomaticEvent(event) : isAppEvent(event);
      if (!fits) return null;
      // With a property in the id only with_property applies; without one, every occurrence operator.
      return property
        ? target('occurrence', ['with_property'], { propertyOperators: PROPERTY, windowed: true })
        : target('occurrence', OCCURRENCE, { windowed: true });
    }
    case 'user_tag': {
      const valueType = tagType(id);
      return valueType ? tagTarget(valueType) : null;
    }
    case 'user_event_tag':
      return parseEventProperty(id) ? target('property', PROPERTY, { windowed: true }) : null;
    case 'user_product_tag':
      return id.length >= 1 && id.length <= 64 ? target('property', PROPERTY, { windowed: true }) : null;
    case 'user_purchase_tag':
      return PurchaseMeasure.safeParse(id).success ? target('count', COUNT, { windowed: true }) : null;
    case 'inapp_impressions':
    case 'inapp_clicks':
      return id.length >= 1 && id.length <= 64 ? target('occurrence', OCCURRENCE, { windowed: true }) : null;
    case 'device_os': {
      const field = DeviceField.safeParse(id);
      if (!field.success) return null;
      return field.data === 'os_version' ? target('version', VERSION) : target('text', TEXT);
    }
    case 'filter_campaign':
      return CampaignChannel.safeParse(id).success ? target('messages', MESSAGES, { windowed: true }) : null;
    case 'unsupported':
      return target('unsupported', []);
    default: {
      const never: never = type;
      throw new Error(`unknown filter kind ${String(never)}`);
    }
  }
}

/** The values of a condition: the non-blank selections, else the typed input (trimmed). */
export function conditionValues(c: Pick<SegmentCondition, 'input' | 'multiSelect'>): string[] {
  const selected = c.multiSelect.map((v) => v.trim()).filter((v) => v !== '');
  if (selected.length > 0) return selected;
  if (typeof c.input === 'number') return Number.isFinite(c.input) ? [String(c.input)] : [];
  if (typeof c.input === 'string' && c.input.trim() !== '') return [c.input.trim()];
  return [];
}

/** The first value as a finite number, or null. */
export function conditionNumber(c: Pick<SegmentCondition, 'input' | 'multiSelect'>): number | null {
  return conditionNumbers(c)?.[0] ?? null;
}

/**
 * Every value as a number (the selections, else the input, as `conditionValues` picks them; a
 * typed number as it is, whatever its spelling), or null when there is none or one is not a number.
 */
export function conditionNumbers(c: Pick<SegmentCondition, 'input' | 'multiSelect'>): number[] | null {
  const selected = c.multiSelect.some((v) => v.trim() !== '');
  if (!selected && typeof c.input === 'number') return Number.isFinite(c.input) ? [c.input] : null;
  const numbers = conditionValues(c).map((v) => (/^-?\d+(\.\d+)?$/.test(v) ? Number(v) : Number.NaN));
  return numbers.length > 0 && numbers.every(Number.isFinite) ? numbers : null;
}

/** The first value as a YYYY-MM-DD day, or null. */
export function conditionDay(c: Pick<SegmentCondition, 'input' | 'multiSelect'>): string | null {
  const first = conditionValues(c)[0];
  return first !== undefined && DateString.safeParse(first).success ? first : null;
}

/** What an operator's value is, for a target (the editor's widget; the compiler's parsing). */
export type ConditionValueKind =
  | 'none' | 'text' | 'number' | 'day' | 'days' | 'date_range' | 'anniversary'
  | 'audience_ids' | 'campaign_ids' | 'journey_ids' | 'attribution' | 'property';

export function conditionValueKind(t: ConditionTarget, op: SegmentOperator, kind?: SegmentFilterKind): ConditionValueKind {
  switch (op) {
    case 'is_set': case 'is_not_set': case 'is_true': case 'is_false': case 'was_made': case 'was_not_made':
    case 'engaged': case 'changed_value':
      return 'none';
    case 'was_on': case 'was_not_on':
      return 'date_range';
    case 'was_ago': case 'was_not_ago': case 'was_more_than': case 'was_less_than': case 'was_not_more_than':
    case 'was_not_less_than': case 'will_be_in':
      return 'days';
    case 'anniversary_is':
      return 'anniversary';
    case 'with_property':
      return 'property';
    case 'in_audience': case 'not_in_audience':
      return 'audience_ids';
    case 'sent': case 'not_sent': case 'clicked': case 'not_clicked':
      return kind === 'filter_campaign' ? 'campaign_ids' : 'journey_ids';
    case 'attributed':
      return 'attribution';
    case 'more_than': case 'less_than':
      return 'number';
    case 'equals': case 'not_equals': case 'greater_than': case 'minor_than': case 'contains':
      if (t.valueType === 'number' || t.valueType === 'count') return 'number';
      // A property is compared as a number by greater_than / minor_than (as the compiler does).
      if (t.valueType === 'property' && (op === 'greater_than' || op === 'minor_than')) return 'number';
      if (t.valueType === 'date' || t.valueType === 'timestamp') return 'day';
      return 'text';
    default: {
      const never: never = op;
      throw new Error(`unknown operator ${String(never)}`);
    }
  }
}

export const SegmentSemanticCode = z.enum([
  'unknown_target', // the id does not fit the filter kind (or names an unknown tag)
  'unsupported', // the `unsupported` filter kind never evaluates
  'operator_not_applicable',
  'tag_condition_not_applicable',
  'value_invalid', // not a number / not a YYYY-MM-DD day / not a day count where one is needed
]);
export type SegmentSemanticCode = z.infer<typeof SegmentSemanticCode>;

export interface SemanticProblem {
  code: SegmentSemanticCode;
  field: keyof SegmentCondition;
}

function valueProblem(t: ConditionTarget, op: SegmentOperator, c: SegmentCondition, kind: SegmentFilterKind): SemanticProblem | null {
  const valueKind = conditionValueKind(t, op, kind);
  const invalid = { code: 'value_invalid', field: 'input' } as const;
  switch (valueKind) {
    case 'number':
      return conditionNumber(c) === null ? invalid : null;
    case 'day':
      return conditionDay(c) === null ? invalid : null;
    case 'anniversary': {
      const n = conditionNumber(c);
      return (n !== null && Number.isInteger(n) && n >= 0 && n <= 366) || conditionDay(c) !== null ? null : invalid;
    }
    case 'days':
      return c.dateDays === null ? { code: 'value_invalid', field: 'dateDays' } : null;
    default:
      return null;
  }
}

/**
 * Problems beyond SPEC.md section 5 (validate.ts): whether the id fits the kind, the operator
 * the target, and the value the operator. Checked only for conditions that pass section 5.
 */
export function semanticProblems(c: SegmentCondition, tagType: (tagId: string) => TagValueType | undefined): SemanticProblem[] {
  if (c.type === null || c.id === null || c.condition === null) return [];
  if (c.type === 'unsupported') return [{ code: 'unsupported', field: 'type' }];
  const t = conditionTarget(c.type, c.id.trim(), tagType);
  if (!t) return [{ code: 'unknown_target', field: 'id' }];
  if (!t.operators.includes(c.condition)) return [{ code: 'operator_not_applicable', field: 'condition' }];
  if (c.condition === 'with_property') {
    if (c.tagCondition === null) return [];
    if (!t.propertyOperators.includes(c.tagCondition)) return [{ code: 'tag_condition_not_applicable', field: 'tagCondition' }];
    const inner = c.type === 'user_tag' ? t : target('property', PROPERTY);
    const problem = valueProblem(inner, c.tagCondition, c, c.type);
    return problem ? [problem] : [];
  }
  const problem = valueProblem(t, c.condition, c, c.type);
  return problem ? [problem] : [];
}
