/**
 * What a condition row offers, derived from the shared tables (pure, tested):
 *
 * - the target of (filter kind, id), from `conditionTarget` (shared segment/semantics.ts);
 * - the input kinds of that target, in the order the operator list shows them. The spec says only
 *   that "each input kind maps to a set of allowed operators" (INPUT_KIND_OPERATORS); which input
 *   kinds a target takes is our decision, written in `INPUT_KINDS` below. The operator select lists,
 *   under each input kind, the operators of INPUT_KIND_OPERATORS[kind] that the target accepts, each
 *   operator once (under its first kind), so an input kind never offers an operator it does not allow;
 * - the value widget of the chosen operator (`valueWidget`), from the shared `conditionValueKind`
 *   and the operator's input kind (a multiselect takes several values, a select one of a list);
 * - the patches that keep a condition consistent when its filter kind, id or operator changes (a
 *   value typed for one operator is dropped when the next one takes another kind of value).
 *
 * Events (`aevent`, `user_event`): `with_property` needs the id `<event>/<property>`. The row shows
 * an event picker and, for `with_property`, a property field; the id is composed from both.
 */
import { SCREEN_EVENT } from '@gd/shared/behaviour/events';
import {
  INPUT_KIND_OPERATORS,
  emptyCondition,
  type SegmentCondition,
  type SegmentFilterKind,
  type SegmentInputKind,
  type SegmentOperator,
} from '@gd/shared/segment/model';
import {
  conditionTarget,
  conditionValueKind,
  parseEventProperty,
  type ConditionTarget,
  type ConditionValueType,
} from '@gd/shared/segment/semantics';
import type { TagValueType } from '@gd/shared/schemas/tags';

export type TagTypeOf = (tagId: string) => TagValueType | undefined;

/** Input kinds per value type (empty groups, where the target takes none of a kind's operators, are dropped). */
const INPUT_KINDS: Record<ConditionValueType, readonly SegmentInputKind[]> = {
  text: ['input', 'subtag', 'none'],
  version: ['input', 'number'],
  number: ['number', 'subtag', 'none'],
  timestamp: ['date', 'relative_date'],
  date: ['date', 'relative_date', 'subtag', 'none'],
  boolean: ['none'],
  occurrence: ['none', 'number', 'date', 'relative_date', 'subtag'],
  property: ['input', 'number', 'none'],
  membership: ['list'],
  messages: ['list', 'none'],
  count: ['number'],
  unsupported: [],
};

/** Text fields with a known short list of values (select) or usually several values (multiselect). */
function specialTextKinds(type: SegmentFilterKind, id: string): readonly SegmentInputKind[] | null {
  if (type === 'attribute' && (id === 'campaign' || id === 'source')) return ['source', 'input'];
  if (type === 'attribute' && (id === 'country' || id === 'city' || id === 'state')) return ['multiselect'];
  if (type === 'device_os' && id === 'os') return ['select', 'input'];
  return null;
}

export const isEventKind = (type: SegmentFilterKind | null): type is 'aevent' | 'user_event' => type === 'aevent' || type === 'user_event';

/** The event of an event-kind id (`<event>` or `<event>/<property>`). */
export function eventOf(id: string | null): string {
  if (!id) return '';
  return parseEventProperty(id)?.event ?? (id.includes('/') ? id.slice(0, id.indexOf('/')) : id);
}
/** The property of an `<event>/<property>` id, or ''. */
export function propertyOf(id: string | null): string {
  if (!id) return '';
  const slash = id.indexOf('/');
  return slash < 0 ? '' : id.slice(slash + 1);
}
export const composeEventId = (event: string, property: string): string => (property.trim() === '' ? event : `${event}/${property.trim()}`);

/**
 * The target as the editor offers it. For events the operators are those of the event itself
 * plus `with_property` (whose property the row asks for), whatever the id holds now.
 */
export function editorTarget(type: SegmentFilterKind | null, id: string | null, tagType: TagTypeOf): ConditionTarget | null {
  if (type === null || id === null || id.trim() === '') return null;
  if (isEventKind(type)) {
    const event = eventOf(id.trim());
    const base = conditionTarget(type, event, tagType);
    const withProperty = conditionTarget(type, `${event}/property`, tagType);
    if (!base || !withProperty) return null;
    return { ...base, operators: [...base.operators, 'with_property'], propertyOperators: withProperty.propertyOperators };
  }
  return conditionTarget(type, id.trim(), tagType);
}

export interface OperatorGroup {
  inputKind: SegmentInputKind;
  operators: SegmentOperator[];
}

/** Operators by input kind, each operator once, only those the target accepts and its input kinds allow. */
export function groupOperators(kinds: readonly SegmentInputKind[], allowed: readonly SegmentOperator[]): OperatorGroup[] {
  const used = new Set<SegmentOperator>();
  const groups: OperatorGroup[] = [];
  for (const inputKind of kinds) {
    const operators = (INPUT_KIND_OPERATORS[inputKind] as readonly SegmentOperator[]).filter((op) => allowed.includes(op) && !used.has(op));
    for (const op of operators) used.add(op);
    if (operators.length > 0) groups.push({ inputKind, operators });
  }
  return groups;
}

export function inputKindsFor(type: SegmentFilterKind, id: string, target: ConditionTarget): readonly SegmentInputKind[] {
  return (target.valueType === 'text' && specialTextKinds(type, id)) || INPUT_KINDS[target.valueType];
}

/** The operator groups of a condition's own operator. */
export function operatorGroups(type: SegmentFilterKind | null, id: string | null, tagType: TagTypeOf): OperatorGroup[] {
  const target = editorTarget(type, id, tagType);
  if (!target || type === null || id === null) return [];
  return groupOperators(inputKindsFor(type, id.trim(), target), target.operators);
}

/** The target the tag condition of `with_property` applies to: the tag's own type, or an event property. */
export function propertyTarget(type: SegmentFilterKind | null, id: string | null, tagType: TagTypeOf): ConditionTarget | null {
  const target = editorTarget(type, id, tagType);
  if (!target || target.propertyOperators.length === 0) return null;
  // A tag's property condition compares the tag's own value; an event's, the property's.
  return { valueType: type === 'user_tag' ? target.valueType : 'property', operators: target.propertyOperators, propertyOperators: [], windowed: true };
}

/** The operator groups of the tag condition (for `with_property`). */
export function tagConditionGroups(type: SegmentFilterKind | null, id: string | null, tagType: TagTypeOf): OperatorGroup[] {
  const inner = propertyTarget(type, id, tagType);
  if (!inner) return [];
  const kinds = INPUT_KINDS[inner.valueType].filter((k) => k !== 'subtag');
  return groupOperators(kinds, inner.operators);
}

/** The input kind an operator is offered under (null when it is not offered). */
export function inputKindOf(groups: readonly OperatorGroup[], op: SegmentOperator | null): SegmentInputKind | null {
  if (op === null) return null;
  return groups.find((g) => g.operators.includes(op))?.inputKind ?? null;
}

/** How the row asks for an operator's value. */
export type ValueWidget =
  | 'none'
  | 'text' // one text (input)
  | 'texts' // several texts (multiSelect)
  | 'choice' // one of a short list (input)
  | 'number' // a number (input)
  | 'day' // a YYYY-MM-DD day (input)
  | 'days' // a day count (dateDays)
  | 'date_range' // dateRange
  | 'anniversary' // days from today (input)
  | 'audiences' // audience ids (multiSelect)
  | 'journeys' // journey ids (multiSelect)
  | 'property'; // a tag condition and its own value

export function valueWidget(target: ConditionTarget, op: SegmentOperator, inputKind: SegmentInputKind | null, type: SegmentFilterKind): ValueWidget {
  const kind = conditionValueKind(target, op, type);
  switch (kind) {
    case 'none':
      return 'none';
    case 'text':
      if (inputKind === 'multiselect' || inputKind === 'source') return 'texts';
      return inputKind === 'select' ? 'choice' : 'text';
    case 'number':
    case 'day':
    case 'days':
    case 'date_range':
    case 'anniversary':
    case 'property':
      return kind;
    case 'audience_ids':
      return 'audiences';
    case 'journey_ids':
      return 'journeys';
    case 'campaign_ids':
    case 'attribution':
      return 'texts';
    default: {
      const never: never = kind;
      throw new Error(`unknown value kind ${String(never)}`);
    }
  }
}

/** Whether the condition may be narrowed to "the last N days" (dateDays) besides its value. */
export function takesWindow(target: ConditionTarget, widget: ValueWidget, inner: ValueWidget | null): boolean {
  if (!target.windowed) return false;
  const uses = (w: ValueWidget | null) => w === 'days' || w === 'date_range';
  return !uses(widget) && !uses(inner);
}

/** The widget of the operator a condition holds now (for its tag condition when `with_property`). */
export function conditionWidgets(c: SegmentCondition, tagType: TagTypeOf): { widget: ValueWidget | null; inner: ValueWidget | null; window: boolean } {
  const target = editorTarget(c.type, c.id, tagType);
  if (!target || c.type === null || c.condition === null) return { widget: null, inner: null, window: false };
  const widget = valueWidget(target, c.condition, inputKindOf(operatorGroups(c.type, c.id, tagType), c.condition), c.type);
  let inner: ValueWidget | null = null;
  if (widget === 'property' && c.tagCondition !== null) {
    const p = propertyTarget(c.type, c.id, tagType);
    if (p) inner = valueWidget(p, c.tagCondition, inputKindOf(tagConditionGroups(c.type, c.id, tagType), c.tagCondition), c.type);
  }
  return { widget, inner, window: takesWindow(target, widget, inner) };
}

const CLEARED_VALUES: Pick<SegmentCondition, 'input' | 'multiSelect' | 'dateRange' | 'dateDays'> = { input: null, multiSelect: [], dateRange: null, dateDays: null };

/** A new filter kind: everything else starts over. */
export function patchType(type: SegmentFilterKind): SegmentCondition {
  return { ...emptyCondition(), type, id: type === 'user_product_tag' ? 'product_id' : type === 'inapp_impressions' || type === 'inapp_clicks' ? '*' : null };
}

/** A new id: the operator and values stay while they still mean the same; otherwise they start over. */
export function patchId(c: SegmentCondition, id: string | null, tagType: TagTypeOf): Partial<SegmentCondition> {
  const next: SegmentCondition = { ...c, id };
  const before = conditionWidgets(c, tagType);
  const offered = c.condition !== null && operatorGroups(c.type, id, tagType).some((g) => g.operators.includes(c.condition as SegmentOperator));
  const after = conditionWidgets(next, tagType);
  if (offered && before.widget === after.widget && before.inner === after.inner) return { id };
  return { id, condition: null, tagCondition: null, ...CLEARED_VALUES };
}

/** A new operator: values of another kind are dropped; leaving `with_property` drops the event's property. */
export function patchOperator(c: SegmentCondition, op: SegmentOperator | null, tagType: TagTypeOf): Partial<SegmentCondition> {
  const patch: Partial<SegmentCondition> = { condition: op };
  if (op !== 'with_property') patch.tagCondition = null;
  if (isEventKind(c.type) && op !== 'with_property' && c.id !== null && c.id.includes('/')) patch.id = eventOf(c.id);
  const before = conditionWidgets(c, tagType);
  const after = conditionWidgets({ ...c, ...patch }, tagType);
  if (before.widget !== after.widget || before.inner !== after.inner) Object.assign(patch, CLEARED_VALUES);
  else if (!after.window && before.window) patch.dateDays = null;
  return patch;
}

/** A new tag condition (of `with_property`): values of another kind are dropped. */
export function patchTagCondition(c: SegmentCondition, op: SegmentOperator | null, tagType: TagTypeOf): Partial<SegmentCondition> {
  const before = conditionWidgets(c, tagType);
  const after = conditionWidgets({ ...c, tagCondition: op }, tagType);
  if (before.inner === after.inner) return { tagCondition: op };
  return { tagCondition: op, input: null, multiSelect: [], dateRange: null, ...(after.window ? {} : { dateDays: null }) };
}

/** `with_property` on an event whose id names no property yet. */
export const needsEventProperty = (c: SegmentCondition): boolean =>
  isEventKind(c.type) && c.condition === 'with_property' && propertyOf(c.id) === '';

/** The screen event is an automatic event with its own label. */
export const SCREEN_EVENT_NAME = SCREEN_EVENT;
