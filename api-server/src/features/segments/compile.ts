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
 * Event properties: equals/contains compare the text of the value (or of any element of an
 * array), greater_than/minor_than its number (numbers, or strings spelling one), is_true/is_false
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
 * The `unsupported` kind never compiles (AudienceNotValid).
 */
import {
  ANY_MESSAGE, PURCHASE_EVENT, conditionDay, conditionNumber, conditionTarget, conditionValues, parseEventProperty,
  SegmentStructureCode, segmentConditions, semanticProblems, validateSegment, type ConditionTarget, type Segment, type SegmentAttribute,
  type SegmentConditionNode, type SegmentNode, type SegmentOperator, type SegmentSemanticCode, type SegmentViolationCode,
  type TagValueType,
} from '@gd/shared';

export interface CompileContext {
  appId: string;
  timezone: string;
  /** "Now": today and relative days are computed from it, in `timezone`. */
  now: Date;
  /** Tags of the app referenced by the segment, by id. */
  tags: ReadonlyMap<string, TagValueType>;
  /** Audiences of the app (not deleted) referenced by the segment. */
  audiences: ReadonlySet<string>;
  /** The audience being refreshed: it may not depend on itself. */
  selfAudienceId?: string | undefined;
}

/** Besides the shared codes: a missing audience, an audience naming itself, an audience without conditions. */
export type CompileProblemCode = SegmentViolationCode | SegmentSemanticCode | 'audience_not_exist' | 'self_reference' | 'segment_empty';
export interface CompileProblem {
  key: string;
  path: (string | number)[];
  code: CompileProblemCode;
  /** SPEC.md section 8 audience error names. */
  error: 'AudienceNotValid' | 'AudienceNotExist';
}

export interface CompiledSegment {
  /** `SELECT p.id FROM people p WHERE <where>`. */
  sql: string;
  /** The condition on `people p`, merged people and other apps excluded. */
  where: string;
  params: unknown[];
}

export type CompileResult = { ok: true; value: CompiledSegment } | { ok: false; problems: CompileProblem[] };

/** Tag and audience ids a segment names (to load its context). */
export function segmentReferences(segment: Segment): { tagIds: string[]; audienceIds: string[] } {
  const tagIds = new Set<string>();
  const audienceIds = new Set<string>();
  for (const c of segmentConditions(segment)) {
    if (c.type === 'user_tag' && c.id) tagIds.add(c.id.trim());
    if (c.type === 'attribute' && c.id === 'audience') for (const v of conditionValues(c)) audienceIds.add(v);
  }
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
  return { tagIds: [...tagIds].filter((id) => uuid.test(id)), audienceIds: [...audienceIds].filter((id) => uuid.test(id)) };
}

// ---------------------------------------------------------------------------------------------
// Parameters and the fixed SQL pieces.

interface Params {
  add(value: unknown, cast: Cast): string;
  /** The app's time zone and "now", added once on first use. */
  tz(): string;
  now(): string;
  values: unknown[];
}
type Cast = 'text' | 'text[]' | 'numeric' | 'numeric[]' | 'int' | 'bigint' | 'date' | 'uuid' | 'uuid[]' | 'timestamptz';

function createParams(ctx: CompileContext): Params {
  const values: unknown[] = [];
  const add = (value: unknown, cast: Cast) => `$${values.push(value)}::${cast}`;
  let tz: string | undefined;
  let now: string | undefined;
  return { values, add, tz: () => (tz ??= add(ctx.timezone, 'text')), now: () => (now ??= add(ctx.now.toISOString(), 'timestamptz')) };
}

const today = (p: Params) => `((${p.now()} AT TIME ZONE ${p.tz()})::date)`;
const dayStart = (p: Params, day: string) => `((${day})::timestamp AT TIME ZONE ${p.tz()})`;
const plusDays = (day: string, n: string) => `(${day} + ${n})`;

/** A half-open range of local days [from, to); either end may be open. */
interface DayRange { from: string | null; to: string | null }

/** What a date operator reads: an instant (read as a local day) or a calendar day. */
type DateOperand = { kind: 'instant' | 'day'; sql: string };

function inDays(p: Params, operand: DateOperand, range: DayRange): string {
  const parts: string[] = [];
  const at = (day: string) => (operand.kind === 'instant' ? dayStart(p, day) : day);
  if (range.from) parts.push(`${operand.sql} >= ${at(range.from)}`);
  if (range.to) parts.push(`${operand.sql} < ${at(range.to)}`);
  return parts.length ? parts.join(' AND ') : `${operand.sql} IS NOT NULL`;
}

const NEGATION: Partial<Record<SegmentOperator, SegmentOperator>> = {
  not_equals: 'equals', is_not_set: 'is_set', is_false: 'is_true', was_not_made: 'was_made', was_not_on: 'was_on',
  was_not_ago: 'was_ago', was_not_more_than: 'was_more_than', was_not_less_than: 'was_less_than', not_sent: 'sent',
  not_clicked: 'clicked', not_in_audience: 'in_audience',
};
const positiveOf = (op: SegmentOperator) => ({ op: NEGATION[op] ?? op, negated: NEGATION[op] !== undefined });

/** Scalar predicates may be NULL on missing values: make them false, so NOT gives the complement. */
const nullSafe = (sql: string) => `coalesce((${sql}), false)`;

class CompileError extends Error {
  readonly problem: Omit<CompileProblem, 'key'>;
  constructor(problem: Omit<CompileProblem, 'key'>) {
    super(problem.code);
    this.problem = problem;
  }
}
const invalid = (field: string, code: CompileProblemCode = 'value_invalid'): never => {
  throw new CompileError({ path: [field], code, error: 'AudienceNotValid' });
};

// ---------------------------------------------------------------------------------------------
// One condition.

interface Cond {
  node: SegmentConditionNode;
  p: Params;
  ctx: CompileContext;
}

const values = (c: Cond) => conditionValues(c.node);
const numberValue = (c: Cond) => conditionNumber(c.node) ?? invalid('input');
const numberValues = (c: Cond) => values(c).map((v) => (/^-?\d+(\.\d+)?$/.test(v) ? Number(v) : invalid('input')));
const dayValue = (c: Cond) => conditionDay(c.node) ?? invalid('input');
const days = (c: Cond) => c.node.dateDays ?? invalid('dateDays', 'date_days_missing');

/** The condition's own window (dateRange, else the last dateDays days), or null. */
function conditionWindow(c: Cond): DayRange | null {
  const { dateRange, dateDays } = c.node;
  if (dateRange) return { from: c.p.add(dateRange.startDay, 'date'), to: plusDays(c.p.add(dateRange.endDay, 'date'), '1') };
  if (dateDays !== null) return lastDays(c, dateDays);
  return null;
}
const lastDays = (c: Cond, n: number): DayRange => ({ from: plusDays(today(c.p), c.p.add(1 - Math.max(n, 1), 'int')), to: plusDays(today(c.p), '1') });
const todayRange = (c: Cond): DayRange => ({ from: today(c.p), to: plusDays(today(c.p), '1') });

/** The local days a positive date operator selects. */
function dateOperatorRange(c: Cond, op: SegmentOperator): DayRange | null {
  switch (op) {
    case 'was_on': {
      const range = c.node.dateRange ?? invalid('dateRange', 'date_range_missing');
      return { from: c.p.add(range.startDay, 'date'), to: plusDays(c.p.add(range.endDay, 'date'), '1') };
    }
    case 'was_ago': {
      const day = plusDays(today(c.p), c.p.add(-days(c), 'int'));
      return { from: day, to: plusDays(day, '1') };
    }
    case 'was_more_than':
      return { from: null, to: plusDays(today(c.p), c.p.add(-days(c), 'int')) };
    case 'was_less_than':
      return lastDays(c, days(c));
    case 'will_be_in': {
      const day = plusDays(today(c.p), c.p.add(days(c), 'int'));
      return { from: day, to: plusDays(day, '1') };
    }
    case 'greater_than':
      return { from: plusDays(c.p.add(dayValue(c), 'date'), '1'), to: null };
    case 'minor_than':
      return { from: null, to: c.p.add(dayValue(c), 'date') };
    case 'equals': {
      const day = c.p.add(dayValue(c), 'date');
      return { from: day, to: plusDays(day, '1') };
    }
    default:
      return null;
  }
}

function anniversary(c: Cond, operand: DateOperand): string {
  const n = conditionNumber(c.node);
  const target = n !== null && Number.isInteger(n) && n >= 0 && n <= 366 ? plusDays(today(c.p), c.p.add(n, 'int')) : c.p.add(dayValue(c), 'date');
  const day = operand.kind === 'instant' ? `(${operand.sql} AT TIME ZONE ${c.p.tz()})::date` : operand.sql;
  const md = (d: string) => `to_char(${d}, 'MM-DD')`;
  return `${day} < ${target} AND (${md(day)} = ${md(target)} OR (${md(day)} = '02-29' AND ${md(target)} = '02-28' AND ${md(plusDays(target, '1'))} = '03-01'))`;
}

/** A positive operator on a scalar value of `type`; may be NULL when the value is missing. */
function scalarPredicate(c: Cond, type: 'text' | 'version' | 'number' | 'date' | 'instant', op: SegmentOperator, sql: string): string {
  if (type === 'date' || type === 'instant') {
    const operand: DateOperand = { kind: type === 'date' ? 'day' : 'instant', sql };
    if (op === 'is_set') return `${sql} IS NOT NULL`;
    if (op === 'anniversary_is') return anniversary(c, operand);
    const range = dateOperatorRange(c, op);
    return range ? inDays(c.p, operand, range) : invalid('condition', 'operator_not_applicable');
  }
  if (type === 'number') {
    switch (op) {
      case 'equals': return `${sql} = ANY(${c.p.add(numberValues(c), 'numeric[]')})`;
      case 'greater_than': case 'more_than': return `${sql} > ${c.p.add(numberValue(c), 'numeric')}`;
      case 'minor_than': case 'less_than': return `${sql} < ${c.p.add(numberValue(c), 'numeric')}`;
      case 'is_set': return `${sql} IS NOT NULL`;
      default: return invalid('condition', 'operator_not_applicable');
    }
  }
  switch (op) {
    case 'equals': return `lower(${sql}) = ANY(gd_lower_all(${c.p.add(values(c), 'text[]')}))`;
    case 'contains': return `EXISTS (SELECT 1 FROM unnest(${c.p.add(values(c), 'text[]')}) AS v(x) WHERE strpos(lower(${sql}), lower(v.x)) > 0)`;
    case 'is_set': return `${sql} <> ''`;
    case 'greater_than': case 'minor_than':
      if (type !== 'version') return invalid('condition', 'operator_not_applicable');
      return `gd_version_key(${sql}) ${op === 'greater_than' ? '>' : '<'} gd_version_key(${c.p.add(values(c)[0] ?? '', 'text')})`;
    default: return invalid('condition', 'operator_not_applicable');
  }
}

/** A positive operator on a JSON property value `v` (jsonb); may be NULL. */
function propertyPredicate(c: Cond, op: SegmentOperator, v: string): string {
  const asText = `(${v} #>> '{}')`;
  const elements = (test: (x: string) => string) =>
    `(jsonb_typeof(${v}) = 'array' AND EXISTS (SELECT 1 FROM jsonb_array_elements_text(${v}) AS el(x) WHERE ${test('el.x')}))`;
  switch (op) {
    case 'equals': {
      const list = c.p.add(values(c), 'text[]');
      const test = (x: string) => `lower(${x}) = ANY(gd_lower_all(${list}))`;
      return `(${test(asText)} OR ${elements(test)})`;
    }
    case 'contains': {
      const list = c.p.add(values(c), 'text[]');
      const test = (x: string) => `EXISTS (SELECT 1 FROM unnest(${list}) AS q(y) WHERE strpos(lower(${x}), lower(q.y)) > 0)`;
      return `(jsonb_typeof(${v}) <> 'array' AND ${test(asText)} OR ${elements(test)})`;
    }
    case 'greater_than': return `gd_jsonb_numeric(${v}) > ${c.p.add(numberValue(c), 'numeric')}`;
    case 'minor_than': return `gd_jsonb_numeric(${v}) < ${c.p.add(numberValue(c), 'numeric')}`;
    case 'is_set': return `(${v} IS NOT NULL AND ${v} <> 'null'::jsonb AND ${v} <> '""'::jsonb)`;
    case 'is_true': return `${v} = 'true'::jsonb`;
    default: return invalid('tagCondition', 'tag_condition_not_applicable');
  }
}

/** A source of timed rows for one person: events or message interactions, with fixed filters. */
interface Occurrences { table: 'events' | 'message_interactions'; alias: 'e' | 'mi'; filters: string[] }

function occurrencesExist(o: Occurrences, extra: string[], offset?: string): string {
  const where = [`${o.alias}.app_id = p.app_id`, `${o.alias}.person_id = p.id`, ...o.filters, ...extra].join(' AND ');
  return `EXISTS (SELECT 1 FROM ${o.table} ${o.alias} WHERE ${where}${offset ? ` OFFSET ${offset}` : ''})`;
}
const timeIn = (p: Params, o: Occurrences, range: DayRange | null) => (range ? [inDays(p, { kind: 'instant', sql: `${o.alias}.event_time` }, range)] : []);

/** Positive operators on occurrences (events, in-app impressions or clicks). */
function occurrencePredicate(c: Cond, o: Occurrences, op: SegmentOperator): string {
  switch (op) {
    case 'was_made':
      return occurrencesExist(o, timeIn(c.p, o, conditionWindow(c)));
    case 'more_than': {
      // count > x  <=>  at least floor(x) + 1 rows: a row exists after skipping floor(x).
      const x = numberValue(c);
      if (x < 0) return 'TRUE';
      return occurrencesExist(o, timeIn(c.p, o, conditionWindow(c)), c.p.add(Math.floor(x), 'bigint'));
    }
    case 'less_than': {
      // count < x  <=>  not at least ceil(x) rows.
      const k = Math.ceil(numberValue(c));
      if (k <= 0) return 'FALSE';
      return `NOT ${occurrencesExist(o, timeIn(c.p, o, conditionWindow(c)), c.p.add(k - 1, 'bigint'))}`;
    }
    case 'was_on': case 'was_ago': case 'was_more_than': case 'was_less_than':
      return occurrencesExist(o, timeIn(c.p, o, dateOperatorRange(c, op)));
    default:
      return invalid('condition', 'operator_not_applicable');
  }
}

/** Events with a property condition: with_property, user_event_tag, user_product_tag. */
function eventPropertyPredicate(c: Cond, event: string, property: string, op: SegmentOperator): string {
  const o: Occurrences = { table: 'events', alias: 'e', filters: [`e.name = ${c.p.add(event, 'text')}`] };
  const { op: positive, negated } = positiveOf(op);
  const inner = nullSafe(propertyPredicate(c, positive, `(e.properties -> ${c.p.add(property, 'text')})`));
  return occurrencesExist(o, [...timeIn(c.p, o, conditionWindow(c)), negated ? `NOT ${inner}` : inner]);
}

const ATTRIBUTE_COLUMNS = {
  app_version: { type: 'version', sql: 'p.app_version' },
  os_version: { type: 'version', sql: 'p.os_version' },
  sdk_version: { type: 'version', sql: 'p.sdk_version' },
  city: { type: 'text', sql: 'p.city' },
  country: { type: 'text', sql: 'p.country' },
  state: { type: 'text', sql: 'p.state' },
  email: { type: 'text', sql: 'p.email' },
  campaign: { type: 'text', sql: 'p.from_campaign' },
  source: { type: 'text', sql: 'p.from_source' },
  first_login: { type: 'instant', sql: 'p.first_login_at' },
  last_login: { type: 'instant', sql: 'p.last_login_at' },
  first_purchase: { type: 'instant', sql: 'p.first_purchase_at' },
  last_purchase: { type: 'instant', sql: 'p.last_purchase_at' },
  first_session: { type: 'instant', sql: '(SELECT min(s.started_at) FROM sessions s WHERE s.app_id = p.app_id AND s.person_id = p.id)' },
  last_session: { type: 'instant', sql: 'p.last_session_at' },
  registered: { type: 'instant', sql: 'p.registered_at' },
  install: { type: 'instant', sql: 'p.install_at' },
  birthday: { type: 'date', sql: 'p.birthday' },
} as const satisfies Partial<Record<SegmentAttribute, { type: 'text' | 'version' | 'instant' | 'date'; sql: string }>>;

const interactions = (filters: string[]): Occurrences => ({ table: 'message_interactions', alias: 'mi', filters });

function attributePredicate(c: Cond, attribute: SegmentAttribute, op: SegmentOperator): string {
  if (attribute in ATTRIBUTE_COLUMNS) {
    const column = ATTRIBUTE_COLUMNS[attribute as keyof typeof ATTRIBUTE_COLUMNS];
    if (op === 'attributed') {
      const field = attribute === 'campaign' ? 'l.campaign' : attribute === 'source' ? 'l.source' : invalid('condition', 'operator_not_applicable');
      return `EXISTS (SELECT 1 FROM lifecycle_events l WHERE l.app_id = p.app_id AND l.person_id = p.id AND l.kind IN ('install','reinstall') AND lower(${field}) = ANY(gd_lower_all(${c.p.add(values(c), 'text[]')})))`;
    }
    return nullSafe(scalarPredicate(c, column.type, op, column.sql));
  }
  switch (attribute) {
    case 'push_active':
      return `EXISTS (SELECT 1 FROM devices d WHERE d.app_id = p.app_id AND d.person_id = p.id AND d.push_token <> '' AND d.push_enabled IS TRUE)`;
    case 'push_open': {
      const o = interactions([`mi.channel = 'push'`, `mi.kind IN ('click','open')`]);
      return occurrencesExist(o, timeIn(c.p, o, conditionWindow(c)));
    }
    case 'push_over_limit': {
      const o = interactions([`mi.channel = 'push'`, `mi.kind = 'impression'`]);
      const window = conditionWindow(c) ?? todayRange(c);
      const count = `(SELECT count(*) FROM message_interactions mi WHERE mi.app_id = p.app_id AND mi.person_id = p.id AND ${[...o.filters, ...timeIn(c.p, o, window)].join(' AND ')})`;
      return scalarPredicate(c, 'number', op, count);
    }
    case 'audience': {
      const ids = values(c);
      for (const id of ids) {
        if (id === c.ctx.selfAudienceId) invalid('input', 'self_reference');
        if (!c.ctx.audiences.has(id)) throw new CompileError({ path: ['input'], code: 'audience_not_exist', error: 'AudienceNotExist' });
      }
      return `EXISTS (SELECT 1 FROM audience_members m WHERE m.app_id = p.app_id AND m.person_id = p.id AND m.audience_id = ANY(${c.p.add(ids, 'uuid[]')}))`;
    }
    case 'journey':
      return messagesPredicate(c, op, null, 'mi.journey_id');
    default:
      return invalid('id', 'unknown_target');
  }
}

/** sent / clicked / engaged on message interactions, optionally of one channel. */
function messagesPredicate(c: Cond, op: SegmentOperator, channel: string | null, idColumn: 'mi.campaign_id' | 'mi.journey_id'): string {
  const filters = channel ? [`mi.channel = ${c.p.add(channel, 'text')}`] : [];
  switch (op) {
    case 'sent': filters.push(`${idColumn} = ANY(${c.p.add(values(c), 'text[]')})`); break;
    case 'clicked': filters.push(`${idColumn} = ANY(${c.p.add(values(c), 'text[]')})`, `mi.kind = 'click'`); break;
    case 'engaged': filters.push(`mi.kind IN ('click','open')`); if (idColumn === 'mi.journey_id') filters.push('mi.journey_id IS NOT NULL'); break;
    default: return invalid('condition', 'operator_not_applicable');
  }
  const o = interactions(filters);
  return occurrencesExist(o, timeIn(c.p, o, conditionWindow(c)));
}

const TAG_COLUMNS = { text: 't.value_text', number: 't.value_number', date: 't.value_date' } as const;

function tagPredicate(c: Cond, tagId: string, valueType: TagValueType, op: SegmentOperator): string {
  const base = `t.app_id = p.app_id AND t.person_id = p.id AND t.tag_id = ${c.p.add(tagId, 'uuid')}`;
  if (op === 'changed_value') {
    return `EXISTS (SELECT 1 FROM person_tags t WHERE ${base} AND ${inDays(c.p, { kind: 'instant', sql: 't.updated_at' }, conditionWindow(c) ?? todayRange(c))})`;
  }
  const type = valueType === 'date' ? 'date' : valueType;
  return `EXISTS (SELECT 1 FROM person_tags t WHERE ${base} AND ${scalarPredicate(c, type, op, TAG_COLUMNS[valueType])})`;
}

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
      return occurrencePredicate(c, { table: 'events', alias: 'e', filters: [`e.name = ${c.p.add(id, 'text')}`] }, op);
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
      const filters = [`mi.channel = 'inapp'`, node.type === 'inapp_clicks' ? `mi.kind = 'click'` : `mi.kind = 'impression'`];
      if (id !== ANY_MESSAGE) filters.push(`mi.message_id = ${c.p.add(id, 'text')}`);
      return occurrencePredicate(c, interactions(filters), op);
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

function compileCondition(node: SegmentConditionNode, p: Params, ctx: CompileContext): string {
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
