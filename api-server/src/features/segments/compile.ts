/**
 * Segment → SQL. A pure compiler from a segment (SPEC.md section 3 "Segment condition") to one
 * parameterised query, `SELECT p.id FROM people p WHERE ...`, over people, devices, events,
 * sessions, lifecycle events, message interactions, tags and audience members.
 *
 * Safety: values only ever travel as `$n` parameters; every identifier (table, column, cast) in
 * the SQL is a constant of this file chosen by a closed switch, never text from the segment.
 *
 * Decisions (the spec names the fields and operators only; shared/src/segment/semantics.ts says
 * which operators apply to what, this says what they mean):
 *
 * People
 * - Merged people (`merged_into` set) never match. Only the app's own people are considered.
 * - A group combines its children with and/or; a group without conditions is ignored (an empty
 *   segment matches every person).
 *
 * Negation and empty values
 * - Every negated operator is the exact complement of its positive one: not_equals = NOT equals,
 *   is_not_set = NOT is_set, is_false = NOT is_true, was_not_made, was_not_on, was_not_ago,
 *   was_not_more_than, was_not_less_than, not_sent, not_clicked, not_in_audience likewise.
 *   So a person with no value matches the negations and never the positives.
 * - is_set is false for NULL and for ''; is_not_set is true for both.
 * - Text comparisons (equals, contains) ignore case; several values (multiSelect) mean "any of".
 *
 * Dates and time zones (the app's `timezone`; "today" is the app's calendar day at `now`)
 * - An instant (last login, an event) is on day D when it falls in D's local midnight-to-midnight.
 * - was_on [start, end]: on one of those days. was_ago N: on the day N days before today.
 *   was_more_than N: before that day. was_less_than N: after it, up to today (the last N days
 *   including today; N = 0 counts as today). will_be_in N: on the day N days after today.
 *   greater_than D / minor_than D: after / before day D. equals D (dates): on day D.
 * - anniversary_is: the month and day of the date equal those of the target day (input: N days
 *   from today, 0 = today, or a YYYY-MM-DD day), and the date is before the target day (a
 *   registration today is not its own anniversary). Feb 29 falls on Feb 28 in non-leap years.
 *   Instants are first read as local days.
 *
 * Attributes (type `attribute`) read the person's row: app_version, os_version, sdk_version,
 * city, country, state, email; campaign = from_campaign and source = from_source (first
 * attribution); first/last login, purchase, session, registered, install as instants (first
 * session = the earliest session row); birthday as a day. Versions order part by part
 * ("1.10" > "1.9", gd_version_key). `attributed` on campaign/source: any install or reinstall of
 * the person was attributed to one of the values (not only the first one).
 * - push_active: the person has a device with a push token and push enabled.
 * - push_open: the person opened (clicked) a push, in the condition's window if it has one.
 * - push_over_limit: the number of pushes received (push impressions) in the window (default:
 *   today), compared with the input.
 * - audience (in_audience): a member of one of the audiences (as of their last refresh).
 * - journey (sent/clicked/engaged): a message of one of the journeys reached the person (any
 *   interaction) / was clicked / any click or open of a journey message.
 *
 * Events (`aevent`: built-in and screen events; `user_event`: the app's own), in-app impressions
 * and clicks (`id` a message id or `*`): every operator asks whether at least one occurrence
 * exists: was_made (in the window when the condition has one: dateRange, else the last dateDays
 * days), was_on / was_ago / was_more_than / was_less_than (an occurrence on those days), more_than
 * N / less_than N (the number of occurrences in the window). with_property (id
 * `<event>/<property>`): an occurrence in the window whose property satisfies the tag condition;
 * a negated tag condition is the complement on the property value (an occurrence without the
 * property has it "not equal").
 * Event properties: equals/contains compare the text of the value (of an array: of any of its
 * elements, never the array's own JSON text), greater_than/minor_than its number (numbers, or strings spelling one), is_true/is_false
 * the JSON boolean, is_set a value that is neither null nor "".
 * - user_event_tag (`<event>/<property>`) and user_product_tag (a property of the purchase event)
 *   are the same as with_property, with the condition as the tag condition.
 * - user_purchase_tag: `revenue` (amount spent) or `conversions` (purchases); lifetime totals, or
 *   the purchase events in the window when the condition has one.
 *
 * Tags (`user_tag`, id the tag's id): the tag's value by its type (text, number, date), with the
 * operators of that type; with_property applies the tag condition to the value; changed_value:
 * the value was set or changed in the window (default: today).
 *
 * Devices (`device_os`, id os / os_version / model): one of the person's devices matches.
 * Messages (`filter_campaign`, id a channel or `any`): sent = a message of one of the campaigns
 * reached the person (any interaction: there is no send log yet), clicked = one was clicked,
 * engaged = any click or open on that channel; in the window when the condition has one.
 *
 * The `unsupported` kind never compiles (AudienceNotValid), nor does a condition holding text
 * Postgres cannot store (NUL, unpaired surrogates: value_invalid).
 *
 * shared/src/segment/evaluate.ts evaluates the same meaning in memory; segments/differential.int.test.ts
 * checks the two against each other on random segments and people.
 */
import {
  ANY_MESSAGE, PURCHASE_EVENT, conditionTarget, conditionValues, isStorableText, parseEventProperty, SegmentStructureCode, segmentConditions,
  semanticProblems, validateSegment, type ConditionTarget, type Segment, type SegmentAttribute, type SegmentConditionNode,
  type SegmentNode, type SegmentOperator,
} from '@gd/shared';
import { attributePredicate } from './compile/attributes.ts';
import { eventPropertyPredicate, interactions, messagesPredicate, occurrencePredicate, timeIn, type Occurrences } from './compile/occurrences.ts';
import { CompileError, conditionWindow, createParams, invalid, nullSafe, positiveOf, type Cond, type Params } from './compile/sql.ts';
import { tagPredicate } from './compile/tags.ts';
import type { CompileContext, CompileProblem, CompileResult } from './compile/types.ts';
import { scalarPredicate } from './compile/values.ts';

export type { CompileContext, CompileProblem, CompileProblemCode, CompiledSegment, CompileResult } from './compile/types.ts';

/** Tag and audience ids a segment names (to load its context). */
export function segmentReferences(segment: Segment): { tagIds: string[]; audienceIds: string[] } {
  const tagIds = new Set<string>();
  const audienceIds = new Set<string>();
  for (const c of segmentConditions(segment)) {
    if (c.type === 'user_tag' && c.id) tagIds.add(c.id.trim());
    if (c.type === 'attribute' && c.id?.trim() === 'audience') for (const v of conditionValues(c)) audienceIds.add(v);
  }
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
  return { tagIds: [...tagIds].filter((id) => uuid.test(id)), audienceIds: [...audienceIds].filter((id) => uuid.test(id)) };
}

// ---------------------------------------------------------------------------------------------
// One condition.

/** The positive form of the condition (negation is applied by the caller). */
function positivePredicate(c: Cond, t: ConditionTarget, op: SegmentOperator): string {
  const node = c.node;
  const id = (node.id ?? '').trim();
  switch (node.type) {
    case 'attribute':
      return attributePredicate(c, id as SegmentAttribute, op);
    case 'aevent':
    case 'user_event': {
      if (op === 'with_property') {
        const parsed = parseEventProperty(id) ?? invalid('id', 'unknown_target');
        return eventPropertyPredicate(c, parsed.event, parsed.property, node.tagCondition ?? invalid('tagCondition', 'tag_condition_missing'));
      }
      return occurrencePredicate(c, () => {
        const name = c.p.add(id, 'text');
        return { table: 'events', alias: 'e', filters: [`e.name = ${name}`], eventName: name };
      }, op);
    }
    case 'user_event_tag': {
      const parsed = parseEventProperty(id) ?? invalid('id', 'unknown_target');
      return eventPropertyPredicate(c, parsed.event, parsed.property, op);
    }
    case 'user_product_tag':
      return eventPropertyPredicate(c, PURCHASE_EVENT, id, op);
    case 'user_purchase_tag': {
      const window = conditionWindow(c);
      const column = id === 'revenue' ? 'p.revenue' : 'p.conversions';
      if (!window) return nullSafe(scalarPredicate(c, 'number', op, column));
      const measure = id === 'revenue' ? 'coalesce(sum(e.revenue), 0)' : 'count(*)';
      const o: Occurrences = { table: 'events', alias: 'e', filters: [`e.name = ${c.p.add(PURCHASE_EVENT, 'text')}`] };
      const sql = `(SELECT ${measure} FROM events e WHERE e.app_id = p.app_id AND e.person_id = p.id AND ${[...o.filters, ...timeIn(c.p, o, window)].join(' AND ')})`;
      return nullSafe(scalarPredicate(c, 'number', op, sql));
    }
    case 'user_tag': {
      const valueType = c.ctx.tags.get(id) ?? invalid('id', 'unknown_target');
      if (op === 'with_property') {
        const inner = positiveOf(node.tagCondition ?? invalid('tagCondition', 'tag_condition_missing'));
        const sql = tagPredicate(c, id, valueType, inner.op);
        return inner.negated ? `NOT ${sql}` : sql;
      }
      return tagPredicate(c, id, valueType, op);
    }
    case 'inapp_impressions':
    case 'inapp_clicks': {
      const kind = node.type === 'inapp_clicks' ? `mi.kind = 'click'` : `mi.kind = 'impression'`;
      return occurrencePredicate(c, () => interactions([`mi.channel = 'inapp'`, kind, ...(id === ANY_MESSAGE ? [] : [`mi.message_id = ${c.p.add(id, 'text')}`])]), op);
    }
    case 'device_os': {
      const column = id === 'os' ? 'd.os' : id === 'os_version' ? 'd.os_version' : id === 'model' ? 'd.model' : invalid('id', 'unknown_target');
      return `EXISTS (SELECT 1 FROM devices d WHERE d.app_id = p.app_id AND d.person_id = p.id AND ${scalarPredicate(c, t.valueType === 'version' ? 'version' : 'text', op, column)})`;
    }
    case 'filter_campaign':
      return messagesPredicate(c, op, id === 'any' ? null : id, 'mi.campaign_id');
    case 'unsupported':
    case null:
      return invalid('type', 'unsupported');
    default: {
      const never: never = node.type;
      throw new Error(`unknown filter kind ${String(never)}`);
    }
  }
}

/** Text Postgres cannot store (NUL, unpaired surrogates) in a condition: it would fail the whole query. */
function unstorableField(node: SegmentConditionNode): string | null {
  if (node.id !== null && !isStorableText(node.id)) return 'id';
  if (typeof node.input === 'string' && !isStorableText(node.input)) return 'input';
  if (node.multiSelect.some((v) => !isStorableText(v))) return 'multiSelect';
  return null;
}

function compileCondition(node: SegmentConditionNode, p: Params, ctx: CompileContext): string {
  const unstorable = unstorableField(node);
  if (unstorable) invalid(unstorable);
  const tagType = (id: string) => ctx.tags.get(id);
  const problem = semanticProblems(node, tagType)[0];
  if (problem) throw new CompileError({ path: [problem.field], code: problem.code, error: 'AudienceNotValid' });
  const t = conditionTarget(node.type ?? 'unsupported', (node.id ?? '').trim(), tagType) ?? invalid('id', 'unknown_target');
  const condition = node.condition ?? invalid('condition', 'condition_missing');
  // Event-property kinds negate the property value, inside the "made such an event" test.
  if (node.type === 'user_event_tag' || node.type === 'user_product_tag') return positivePredicate({ node, p, ctx }, t, condition);
  const { op, negated } = positiveOf(condition);
  const sql = positivePredicate({ node, p, ctx }, t, op);
  return negated ? `NOT ${sql}` : sql;
}

// ---------------------------------------------------------------------------------------------
// The tree.

/**
 * Compiles a segment. Structure and SPEC.md section 5 problems, operators that do not apply,
 * unknown tags and bad values answer AudienceNotValid; an audience that does not exist (or was
 * deleted) AudienceNotExist. Every condition's problems are listed, in tree order (a broken tree
 * alone, since it cannot be walked).
 */
export function compileSegment(segment: Segment, ctx: CompileContext): CompileResult {
  const violations = validateSegment(segment);
  const asProblem = (v: (typeof violations)[number]): CompileProblem => ({ key: v.key, path: v.path, code: v.code, error: 'AudienceNotValid' });
  // A broken tree (missing root, dangling or shared nodes, cycles) cannot be walked: report it alone.
  if (violations.some((v) => SegmentStructureCode.safeParse(v.code).success)) return { ok: false, problems: violations.map(asProblem) };
  const incomplete = new Map<string, CompileProblem[]>();
  for (const v of violations) incomplete.set(v.key, [...(incomplete.get(v.key) ?? []), asProblem(v)]);
  const p = createParams(ctx);
  p.add(ctx.appId, 'uuid');
  const byKey = new Map<string, SegmentNode>(segment.nodes.map((n) => [n.key, n]));
  const problems: CompileProblem[] = [];

  const visit = (key: string): string | null => {
    const node = byKey.get(key);
    if (!node) return null;
    if (node.kind === 'condition') {
      const sectionFive = incomplete.get(key);
      if (sectionFive) {
        problems.push(...sectionFive);
        return null;
      }
      try {
        return compileCondition(node, p, ctx);
      } catch (error) {
        if (!(error instanceof CompileError)) throw error;
        problems.push({ key, ...error.problem });
        return null;
      }
    }
    const parts = node.children.map(visit).filter((s): s is string => s !== null);
    if (parts.length <= 1) return parts[0] ?? null;
    return `(${parts.join(node.combinator === 'and' ? ' AND ' : ' OR ')})`;
  };
  const tree = visit(segment.rootKey);
  if (problems.length > 0) return { ok: false, problems };
  const where = `p.app_id = $1::uuid AND p.merged_into IS NULL${tree ? ` AND ${tree}` : ''}`;
  return { ok: true, value: { where, sql: `SELECT p.id FROM people p WHERE ${where}`, params: p.values } };
}
