/**
 * Segments evaluated in memory: which of a few people, given as plain records, a segment selects.
 *
 * The meaning is the one the API's compiler gives every operator in SQL (its doc comment in
 * api-server/src/features/segments/compile.ts is the reference; semantics.ts says which operators
 * apply to what). Written independently of the SQL, so the two can be checked against each other
 * (segments/differential.int.test.ts runs random segments over random people through both).
 *
 * What the records mean (one field per column the compiler reads):
 * - instants are ISO 8601 strings, read as calendar days in `ctx.timezone`; days are YYYY-MM-DD;
 * - text is compared ignoring case, one character at a time (the database's simple lower-case
 *   mapping: 'İ' → 'i', 'Σ' → 'σ' wherever it stands);
 * - amounts are decimals: revenue is kept to 4 decimals (the columns' numeric(18,4)); every
 *   comparison and sum is exact (`Decimal` below), never a float approximation;
 * - an event property's text is its JSON text as the database writes it (numbers in plain
 *   decimal notation, arrays and objects as jsonb prints them).
 *
 * A day's boundaries are its local midnights; time zones whose clocks jump at midnight are read
 * with the local calendar date, which is what the SQL's midnight bounds mean everywhere else.
 */
import type { InteractionChannel, InteractionKind } from '../behaviour/events.ts';
import { isStorableText } from '../formats.ts';
import type { TagValueType } from '../schemas/tags.ts';
import {
  SegmentStructureCode, validateSegment, type SegmentViolationCode,
} from './validate.ts';
import {
  ANY_MESSAGE, PURCHASE_EVENT, conditionDay, conditionNumber, conditionNumbers, conditionTarget, conditionValues, parseEventProperty,
  semanticProblems, type ConditionTarget, type SegmentSemanticCode,
} from './semantics.ts';
import type { Segment, SegmentAttribute, SegmentConditionNode, SegmentNode, SegmentOperator } from './model.ts';

// ---------------------------------------------------------------------------------------------
// The people.

export interface EvalDevice {
  os?: string | null;
  osVersion?: string | null;
  model?: string | null;
  pushToken?: string | null;
  pushEnabled?: boolean | null;
}
export interface EvalEvent {
  name: string;
  /** ISO 8601 instant. */
  time: string;
  properties?: Readonly<Record<string, unknown>>;
  revenue?: number | null;
}
export interface EvalInteraction {
  channel: InteractionChannel;
  kind: InteractionKind;
  time: string;
  campaignId?: string | null;
  messageId?: string | null;
  journeyId?: string | null;
}
export interface EvalLifecycle {
  kind: 'install' | 'reinstall' | 'uninstall';
  source?: string | null;
  campaign?: string | null;
}
/** A tag's value on a person: text, a number or a YYYY-MM-DD day by the tag's type (null: set without a value). */
export interface EvalTagValue {
  value: string | number | null;
  updatedAt: string;
}

export interface EvalPerson {
  id: string;
  /** Merged people never match. */
  mergedInto?: string | null;
  email?: string | null;
  country?: string | null;
  state?: string | null;
  city?: string | null;
  appVersion?: string | null;
  osVersion?: string | null;
  sdkVersion?: string | null;
  /** First attribution (attributes `source` and `campaign`). */
  source?: string | null;
  campaign?: string | null;
  installAt?: string | null;
  registeredAt?: string | null;
  firstLoginAt?: string | null;
  lastLoginAt?: string | null;
  lastSessionAt?: string | null;
  firstPurchaseAt?: string | null;
  lastPurchaseAt?: string | null;
  birthday?: string | null;
  /** Lifetime totals. */
  revenue?: number;
  conversions?: number;
  devices?: readonly EvalDevice[];
  events?: readonly EvalEvent[];
  sessions?: readonly { startedAt: string }[];
  lifecycle?: readonly EvalLifecycle[];
  interactions?: readonly EvalInteraction[];
  /** By tag id. */
  tags?: Readonly<Record<string, EvalTagValue>>;
  /** Ids of the audiences the person is a member of. */
  audiences?: readonly string[];
}

export interface EvalContext {
  timezone: string;
  now: Date;
  /** The app's tags (by id) and audiences (not deleted) that a segment may name. */
  tags: ReadonlyMap<string, TagValueType>;
  audiences: ReadonlySet<string>;
  /** The audience being refreshed: it may not select by its own membership. */
  selfAudienceId?: string | undefined;
}

export type SegmentEvaluationCode = SegmentViolationCode | SegmentSemanticCode | 'audience_not_exist' | 'self_reference';
export interface SegmentEvaluationProblem {
  key: string;
  path: (string | number)[];
  code: SegmentEvaluationCode;
  error: 'AudienceNotValid' | 'AudienceNotExist';
}
export type SegmentEvaluation = { ok: true; ids: string[] } | { ok: false; problems: SegmentEvaluationProblem[] };

// ---------------------------------------------------------------------------------------------
// Exact decimals (value = n / 10^scale).

export interface Decimal { n: bigint; scale: number }

/** "12.5", "-3", "1e+21", "1.5e-7" → a decimal; null when the text is not a decimal number. */
export function parseDecimal(text: string): Decimal | null {
  const m = /^\s*([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?\s*$/.exec(text);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return null;
  const digits = `${m[2]}${m[3] ?? ''}`;
  let scale = (m[3] ?? '').length - Number(m[4] ?? 0);
  let n = BigInt(digits === '' ? '0' : digits);
  if (scale < 0) {
    n *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { n: m[1] === '-' ? -n : n, scale };
}
export const decimalOf = (x: number): Decimal => parseDecimal(String(x)) ?? { n: 0n, scale: 0 };

export function compareDecimal(a: Decimal, b: Decimal): number {
  const left = a.n * 10n ** BigInt(Math.max(b.scale - a.scale, 0));
  const right = b.n * 10n ** BigInt(Math.max(a.scale - b.scale, 0));
  return left < right ? -1 : left > right ? 1 : 0;
}
const addDecimal = (a: Decimal, b: Decimal): Decimal => {
  const scale = Math.max(a.scale, b.scale);
  return { n: a.n * 10n ** BigInt(scale - a.scale) + b.n * 10n ** BigInt(scale - b.scale), scale };
};
/** Rounded to `places` decimals, half away from zero (numeric(p, places)). */
export function roundDecimal(a: Decimal, places: number): Decimal {
  if (a.scale <= places) return a;
  const div = 10n ** BigInt(a.scale - places);
  const abs = a.n < 0n ? -a.n : a.n;
  const q = (abs + div / 2n) / div;
  return { n: a.n < 0n ? -q : q, scale: places };
}
/** Plain decimal notation (no exponent), as the database prints a numeric. */
export function decimalText(d: Decimal): string {
  const abs = (d.n < 0n ? -d.n : d.n).toString().padStart(d.scale + 1, '0');
  const text = d.scale > 0 ? `${abs.slice(0, abs.length - d.scale)}.${abs.slice(abs.length - d.scale)}` : abs;
  return d.n < 0n ? `-${text}` : text;
}
export const plainDecimal = (x: number): string => decimalText(decimalOf(x));
const money = (x: number | null | undefined): Decimal => roundDecimal(decimalOf(x ?? 0), 4);

// ---------------------------------------------------------------------------------------------
// Text.

/** Lower case one character at a time, each to one character (the database's simple mapping). */
export function lowerText(s: string): string {
  let out = '';
  for (const ch of s) {
    const lower = ch.toLowerCase();
    out += lower.length === ch.length ? lower : String.fromCodePoint(lower.codePointAt(0) ?? 0);
  }
  return out;
}

/** The JSON text of a value as jsonb prints it (`v #>> '{}'`); null for JSON null or no value. */
export function jsonText(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return v;
  return jsonRepr(v);
}
function jsonRepr(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number') return plainDecimal(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Array.isArray(v)) return `[${v.map(jsonRepr).join(', ')}]`;
  if (typeof v === 'object') {
    // jsonb orders keys by length, then byte by byte.
    const bytes = (k: string) => new TextEncoder().encode(k);
    const keys = Object.keys(v).sort((a, b) => {
      const [x, y] = [bytes(a), bytes(b)];
      if (x.length !== y.length) return x.length - y.length;
      for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return (x[i] ?? 0) - (y[i] ?? 0);
      return 0;
    });
    return `{${keys.map((k) => `${JSON.stringify(k)}: ${jsonRepr((v as Record<string, unknown>)[k])}`).join(', ')}}`;
  }
  return 'null';
}
/** A JSON value as a number: numbers, and strings spelling a decimal (up to 30 + 30 digits, ASCII spaces around). */
function jsonNumber(v: unknown): Decimal | null {
  if (typeof v === 'number') return decimalOf(v);
  if (typeof v === 'string' && /^[ \t\n\r\f\v]*-?[0-9]{1,30}(\.[0-9]{1,30})?[ \t\n\r\f\v]*$/.test(v)) return parseDecimal(v.replace(/^[ \t\n\r\f\v]+|[ \t\n\r\f\v]+$/g, ''));
  return null;
}

/** A dotted version's parts ("1.10.0" → [1, 10, 0]; a part's leading digits, else 0); null when blank. */
export function versionKey(v: string | null | undefined): number[] | null {
  if (v === null || v === undefined) return null;
  const trimmed = v.replace(/^ +| +$/g, '');
  if (trimmed === '') return null;
  return trimmed.split('.').map((part) => {
    const digits = /^[0-9]{1,9}/.exec(part);
    return digits ? Number(digits[0]) : 0;
  });
}
/** Part by part; a version that is a prefix of another is the smaller. */
export function compareVersions(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return (a[i] ?? 0) < (b[i] ?? 0) ? -1 : 1;
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

// ---------------------------------------------------------------------------------------------
// Days (numbered from 1970-01-01) in the app's time zone.

const DAY_MS = 86_400_000;
export const dayNumber = (day: string): number => Math.round(Date.parse(`${day}T00:00:00Z`) / DAY_MS);
const monthDay = (day: number) => {
  const d = new Date(day * DAY_MS);
  return `${String(d.getUTCMonth() + 1).padStart(2, '0')}-${String(d.getUTCDate()).padStart(2, '0')}`;
};
const formatters = new Map<string, Intl.DateTimeFormat>();
/** The local calendar day of an instant in a time zone. */
export function localDay(instant: string | Date, timezone: string): number {
  let f = formatters.get(timezone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: timezone, year: 'numeric', month: 'numeric', day: 'numeric', era: 'short' });
    formatters.set(timezone, f);
  }
  const parts = Object.fromEntries(f.formatToParts(typeof instant === 'string' ? new Date(instant) : instant).map((p) => [p.type, p.value]));
  const year = Number(parts.year) * (parts.era === 'BC' || parts.era === 'B' ? -1 : 1) + (parts.era === 'BC' || parts.era === 'B' ? 1 : 0);
  const date = new Date(0);
  date.setUTCFullYear(year, Number(parts.month) - 1, Number(parts.day));
  return Math.round(date.getTime() / DAY_MS);
}

/** Half-open range of days [from, to); an open end is null. */
interface DayRange { from: number | null; to: number | null }
const inRange = (day: number, r: DayRange) => (r.from === null || day >= r.from) && (r.to === null || day < r.to);

// ---------------------------------------------------------------------------------------------
// Conditions.

class Refused extends Error {
  readonly problem: Omit<SegmentEvaluationProblem, 'key'>;
  constructor(problem: Omit<SegmentEvaluationProblem, 'key'>) {
    super(problem.code);
    this.problem = problem;
  }
}
const refuse = (field: string, code: SegmentEvaluationCode = 'value_invalid'): never => {
  throw new Refused({ path: [field], code, error: 'AudienceNotValid' });
};

const NEGATION: Partial<Record<SegmentOperator, SegmentOperator>> = {
  not_equals: 'equals', is_not_set: 'is_set', is_false: 'is_true', was_not_made: 'was_made', was_not_on: 'was_on',
  was_not_ago: 'was_ago', was_not_more_than: 'was_more_than', was_not_less_than: 'was_less_than', not_sent: 'sent',
  not_clicked: 'clicked', not_in_audience: 'in_audience',
};
const positiveOf = (op: SegmentOperator) => ({ op: NEGATION[op] ?? op, negated: NEGATION[op] !== undefined });

type Pred = (p: EvalPerson) => boolean;
type Scalar = 'text' | 'version' | 'number' | 'date' | 'instant';
type Value = string | number | null | undefined;

interface Cond {
  node: SegmentConditionNode;
  ctx: EvalContext;
  today: number;
  day: (instant: string) => number;
}

const values = (c: Cond) => conditionValues(c.node);
const numberValue = (c: Cond) => conditionNumber(c.node) ?? refuse('input');
const numberValues = (c: Cond) => conditionNumbers(c.node) ?? refuse('input');
const dayValue = (c: Cond) => dayNumber(conditionDay(c.node) ?? refuse('input'));
const days = (c: Cond) => c.node.dateDays ?? refuse('dateDays', 'date_days_missing');

function lastDays(c: Cond, n: number): DayRange {
  return { from: c.today + 1 - Math.max(n, 1), to: c.today + 1 };
}
/** The condition's own window (dateRange, else the last dateDays days), or null. */
function conditionWindow(c: Cond): DayRange | null {
  const { dateRange, dateDays } = c.node;
  if (dateRange) return { from: dayNumber(dateRange.startDay), to: dayNumber(dateRange.endDay) + 1 };
  return dateDays !== null ? lastDays(c, dateDays) : null;
}
const todayRange = (c: Cond): DayRange => ({ from: c.today, to: c.today + 1 });

/** The days a positive date operator selects. */
function dateOperatorRange(c: Cond, op: SegmentOperator): DayRange | null {
  switch (op) {
    case 'was_on': {
      const range = c.node.dateRange ?? refuse('dateRange', 'date_range_missing');
      return { from: dayNumber(range.startDay), to: dayNumber(range.endDay) + 1 };
    }
    case 'was_ago': return { from: c.today - days(c), to: c.today - days(c) + 1 };
    case 'was_more_than': return { from: null, to: c.today - days(c) };
    case 'was_less_than': return lastDays(c, days(c));
    case 'will_be_in': return { from: c.today + days(c), to: c.today + days(c) + 1 };
    case 'greater_than': return { from: dayValue(c) + 1, to: null };
    case 'minor_than': return { from: null, to: dayValue(c) };
    case 'equals': { const d = dayValue(c); return { from: d, to: d + 1 }; }
    default: return null;
  }
}

/** The anniversary test: same month and day as the target (Feb 29 on Feb 28 of other years), before it. */
function anniversary(c: Cond): (day: number) => boolean {
  const n = conditionNumber(c.node);
  const target = n !== null && Number.isInteger(n) && n >= 0 && n <= 366 ? c.today + n : dayValue(c);
  const md = monthDay(target);
  const leapless = md === '02-28' && monthDay(target + 1) === '03-01';
  return (day) => day < target && (monthDay(day) === md || (leapless && monthDay(day) === '02-29'));
}

/** A positive operator on one value of a type; a missing value never matches. */
function scalar(c: Cond, type: Scalar, op: SegmentOperator): (v: Value) => boolean {
  if (type === 'date' || type === 'instant') {
    const dayOf = (v: Value): number | null =>
      v === null || v === undefined ? null : type === 'date' ? dayNumber(String(v)) : c.day(String(v));
    if (op === 'is_set') return (v) => v !== null && v !== undefined;
    if (op === 'anniversary_is') {
      const test = anniversary(c);
      return (v) => { const d = dayOf(v); return d !== null && test(d); };
    }
    const range = dateOperatorRange(c, op) ?? refuse('condition', 'operator_not_applicable');
    return (v) => { const d = dayOf(v); return d !== null && inRange(d, range); };
  }
  if (type === 'number') {
    const num = (v: Value) => (v === null || v === undefined ? null : typeof v === 'number' ? decimalOf(v) : parseDecimal(v));
    switch (op) {
      case 'equals': {
        const list = numberValues(c).map(decimalOf);
        return (v) => { const x = num(v); return x !== null && list.some((y) => compareDecimal(x, y) === 0); };
      }
      case 'greater_than': case 'more_than': {
        const y = decimalOf(numberValue(c));
        return (v) => { const x = num(v); return x !== null && compareDecimal(x, y) > 0; };
      }
      case 'minor_than': case 'less_than': {
        const y = decimalOf(numberValue(c));
        return (v) => { const x = num(v); return x !== null && compareDecimal(x, y) < 0; };
      }
      case 'is_set': return (v) => v !== null && v !== undefined;
      default: return refuse('condition', 'operator_not_applicable');
    }
  }
  const text = (v: Value) => (v === null || v === undefined ? null : String(v));
  switch (op) {
    case 'equals': {
      const list = values(c).map(lowerText);
      return (v) => { const t = text(v); return t !== null && list.includes(lowerText(t)); };
    }
    case 'contains': {
      const list = values(c).map(lowerText);
      return (v) => { const t = text(v); return t !== null && list.some((x) => lowerText(t).includes(x)); };
    }
    case 'is_set': return (v) => { const t = text(v); return t !== null && t !== ''; };
    case 'greater_than': case 'minor_than': {
      if (type !== 'version') return refuse('condition', 'operator_not_applicable');
      const target = versionKey(values(c)[0] ?? '');
      const sign = op === 'greater_than' ? 1 : -1;
      return (v) => {
        const key = versionKey(text(v));
        return key !== null && target !== null && compareVersions(key, target) === sign;
      };
    }
    default: return refuse('condition', 'operator_not_applicable');
  }
}

/** A positive operator on an event property's JSON value (undefined: the event does not have it). */
function property(c: Cond, op: SegmentOperator): (v: unknown) => boolean {
  // The text of the value, or of any element of an array (never an array's own JSON text).
  const texts = (v: unknown, test: (x: string) => boolean) =>
    (Array.isArray(v) ? v : [v]).some((x) => { const t = jsonText(x); return t !== null && test(t); });
  switch (op) {
    case 'equals': {
      const list = values(c).map(lowerText);
      return (v) => texts(v, (x) => list.includes(lowerText(x)));
    }
    case 'contains': {
      const list = values(c).map(lowerText);
      return (v) => texts(v, (x) => list.some((y) => lowerText(x).includes(y)));
    }
    case 'greater_than': case 'minor_than': {
      const y = decimalOf(numberValue(c));
      const sign = op === 'greater_than' ? 1 : -1;
      return (v) => { const x = jsonNumber(v); return x !== null && compareDecimal(x, y) === sign; };
    }
    case 'is_set': return (v) => v !== undefined && v !== null && v !== '';
    case 'is_true': return (v) => v === true;
    default: return refuse('tagCondition', 'tag_condition_not_applicable');
  }
}

/** Rows of a person in time (events, interactions) that pass `filter`, in a window of days. */
function count<T extends { time: string }>(c: Cond, rows: readonly T[] | undefined, filter: (row: T) => boolean, window: DayRange | null): number {
  let n = 0;
  for (const row of rows ?? []) if (filter(row) && (!window || inRange(c.day(row.time), window))) n++;
  return n;
}

function occurrences<T extends { time: string }>(c: Cond, rowsOf: (p: EvalPerson) => readonly T[] | undefined, filter: (row: T) => boolean, op: SegmentOperator): Pred {
  const exists = (window: DayRange | null): Pred => (p) => count(c, rowsOf(p), filter, window) > 0;
  switch (op) {
    case 'was_made': return exists(conditionWindow(c));
    case 'more_than': {
      const x = decimalOf(numberValue(c));
      const window = conditionWindow(c);
      return (p) => compareDecimal(decimalOf(count(c, rowsOf(p), filter, window)), x) > 0;
    }
    case 'less_than': {
      const x = decimalOf(numberValue(c));
      const window = conditionWindow(c);
      return (p) => compareDecimal(decimalOf(count(c, rowsOf(p), filter, window)), x) < 0;
    }
    case 'was_on': case 'was_ago': case 'was_more_than': case 'was_less_than':
      return exists(dateOperatorRange(c, op));
    default: return refuse('condition', 'operator_not_applicable');
  }
}

const eventsOf = (p: EvalPerson) => p.events;
const interactionsOf = (p: EvalPerson) => p.interactions;

/** with_property, user_event_tag, user_product_tag: an event in the window whose property passes (the negation is on the property). */
function eventProperty(c: Cond, event: string, name: string, op: SegmentOperator): Pred {
  const { op: positive, negated } = positiveOf(op);
  const test = property(c, positive);
  const window = conditionWindow(c);
  const passes = (e: EvalEvent) => {
    const v = e.properties && Object.hasOwn(e.properties, name) ? e.properties[name] : undefined;
    return test(v) !== negated;
  };
  return (p) => count(c, eventsOf(p), (e) => e.name === event && passes(e), window) > 0;
}

/** sent / clicked / engaged on message interactions, optionally of one channel. */
function messages(c: Cond, op: SegmentOperator, channel: string | null, by: 'campaignId' | 'journeyId'): Pred {
  const list = values(c);
  const listed = (id: string | null | undefined) => id !== null && id !== undefined && list.includes(id);
  let filter: (i: EvalInteraction) => boolean;
  switch (op) {
    case 'sent': filter = (i) => listed(i[by]); break;
    case 'clicked': filter = (i) => listed(i[by]) && i.kind === 'click'; break;
    case 'engaged': filter = (i) => (i.kind === 'click' || i.kind === 'open') && (by === 'campaignId' || (i.journeyId ?? null) !== null); break;
    default: return refuse('condition', 'operator_not_applicable');
  }
  const window = conditionWindow(c);
  return (p) => count(c, interactionsOf(p), (i) => (channel === null || i.channel === channel) && filter(i), window) > 0;
}

type AttributeColumn = { type: 'text' | 'version' | 'instant' | 'date'; read: (p: EvalPerson) => Value };
const ATTRIBUTES: Partial<Record<SegmentAttribute, AttributeColumn>> = {
  app_version: { type: 'version', read: (p) => p.appVersion },
  os_version: { type: 'version', read: (p) => p.osVersion },
  sdk_version: { type: 'version', read: (p) => p.sdkVersion },
  city: { type: 'text', read: (p) => p.city },
  country: { type: 'text', read: (p) => p.country },
  state: { type: 'text', read: (p) => p.state },
  email: { type: 'text', read: (p) => p.email },
  campaign: { type: 'text', read: (p) => p.campaign },
  source: { type: 'text', read: (p) => p.source },
  first_login: { type: 'instant', read: (p) => p.firstLoginAt },
  last_login: { type: 'instant', read: (p) => p.lastLoginAt },
  first_purchase: { type: 'instant', read: (p) => p.firstPurchaseAt },
  last_purchase: { type: 'instant', read: (p) => p.lastPurchaseAt },
  first_session: { type: 'instant', read: (p) => firstSession(p) },
  last_session: { type: 'instant', read: (p) => p.lastSessionAt },
  registered: { type: 'instant', read: (p) => p.registeredAt },
  install: { type: 'instant', read: (p) => p.installAt },
  birthday: { type: 'date', read: (p) => p.birthday },
};
function firstSession(p: EvalPerson): string | null {
  let first: string | null = null;
  for (const s of p.sessions ?? []) if (first === null || Date.parse(s.startedAt) < Date.parse(first)) first = s.startedAt;
  return first;
}

function attribute(c: Cond, name: SegmentAttribute, op: SegmentOperator): Pred {
  const column = ATTRIBUTES[name];
  if (column) {
    if (op === 'attributed') {
      const field = name === 'campaign' ? 'campaign' : name === 'source' ? 'source' : refuse('condition', 'operator_not_applicable');
      const list = values(c).map(lowerText);
      return (p) => (p.lifecycle ?? []).some((l) => (l.kind === 'install' || l.kind === 'reinstall') && l[field] != null && list.includes(lowerText(l[field])));
    }
    const test = scalar(c, column.type, op);
    return (p) => test(column.read(p));
  }
  switch (name) {
    case 'push_active':
      return (p) => (p.devices ?? []).some((d) => d.pushToken != null && d.pushToken !== '' && d.pushEnabled === true);
    case 'push_open': {
      const window = conditionWindow(c);
      return (p) => count(c, interactionsOf(p), (i) => i.channel === 'push' && (i.kind === 'click' || i.kind === 'open'), window) > 0;
    }
    case 'push_over_limit': {
      const window = conditionWindow(c) ?? todayRange(c);
      const test = scalar(c, 'number', op);
      return (p) => test(count(c, interactionsOf(p), (i) => i.channel === 'push' && i.kind === 'impression', window));
    }
    case 'audience': {
      const ids = values(c);
      for (const id of ids) {
        if (id === c.ctx.selfAudienceId) refuse('input', 'self_reference');
        if (!c.ctx.audiences.has(id)) throw new Refused({ path: ['input'], code: 'audience_not_exist', error: 'AudienceNotExist' });
      }
      return (p) => (p.audiences ?? []).some((a) => ids.includes(a));
    }
    case 'journey':
      return messages(c, op, null, 'journeyId');
    default:
      return refuse('id', 'unknown_target');
  }
}

function tag(c: Cond, tagId: string, valueType: TagValueType, op: SegmentOperator): Pred {
  if (op === 'changed_value') {
    const window = conditionWindow(c) ?? todayRange(c);
    return (p) => { const t = p.tags?.[tagId]; return t !== undefined && inRange(c.day(t.updatedAt), window); };
  }
  const test = scalar(c, valueType, op);
  return (p) => { const t = p.tags?.[tagId]; return t !== undefined && test(t.value); };
}

/** The positive form of a condition (negation is applied by the caller). */
function positive(c: Cond, t: ConditionTarget, op: SegmentOperator): Pred {
  const node = c.node;
  const id = (node.id ?? '').trim();
  switch (node.type) {
    case 'attribute':
      return attribute(c, id as SegmentAttribute, op);
    case 'aevent':
    case 'user_event': {
      if (op === 'with_property') {
        const parsed = parseEventProperty(id) ?? refuse('id', 'unknown_target');
        return eventProperty(c, parsed.event, parsed.property, node.tagCondition ?? refuse('tagCondition', 'tag_condition_missing'));
      }
      return occurrences(c, eventsOf, (e) => e.name === id, op);
    }
    case 'user_event_tag': {
      const parsed = parseEventProperty(id) ?? refuse('id', 'unknown_target');
      return eventProperty(c, parsed.event, parsed.property, op);
    }
    case 'user_product_tag':
      return eventProperty(c, PURCHASE_EVENT, id, op);
    case 'user_purchase_tag': {
      const window = conditionWindow(c);
      const test = scalar(c, 'number', op);
      if (!window) return (p) => test(id === 'revenue' ? decimalText(money(p.revenue)) : (p.conversions ?? 0));
      return (p) => {
        let total: Decimal = { n: 0n, scale: 0 };
        let purchases = 0;
        for (const e of p.events ?? []) {
          if (e.name !== PURCHASE_EVENT || !inRange(c.day(e.time), window)) continue;
          purchases++;
          if (e.revenue !== null && e.revenue !== undefined) total = addDecimal(total, money(e.revenue));
        }
        return test(id === 'revenue' ? decimalText(total) : purchases);
      };
    }
    case 'user_tag': {
      const valueType = c.ctx.tags.get(id) ?? refuse('id', 'unknown_target');
      if (op === 'with_property') {
        const inner = positiveOf(node.tagCondition ?? refuse('tagCondition', 'tag_condition_missing'));
        const test = tag(c, id, valueType, inner.op);
        return inner.negated ? (p) => !test(p) : test;
      }
      return tag(c, id, valueType, op);
    }
    case 'inapp_impressions':
    case 'inapp_clicks': {
      const kind = node.type === 'inapp_clicks' ? 'click' : 'impression';
      return occurrences(c, interactionsOf, (i) => i.channel === 'inapp' && i.kind === kind && (id === ANY_MESSAGE || i.messageId === id), op);
    }
    case 'device_os': {
      const read = id === 'os' ? (d: EvalDevice) => d.os : id === 'os_version' ? (d: EvalDevice) => d.osVersion : id === 'model' ? (d: EvalDevice) => d.model : refuse('id', 'unknown_target');
      const test = scalar(c, t.valueType === 'version' ? 'version' : 'text', op);
      return (p) => (p.devices ?? []).some((d) => test(read(d)));
    }
    case 'filter_campaign':
      return messages(c, op, id === 'any' ? null : id, 'campaignId');
    case 'unsupported':
    case null:
      return refuse('type', 'unsupported');
    default: {
      const never: never = node.type;
      throw new Error(`unknown filter kind ${String(never)}`);
    }
  }
}

/** Text the database cannot store (NUL, unpaired surrogates) in a condition: it never evaluates. */
function unstorableField(node: SegmentConditionNode): string | null {
  if (node.id !== null && !isStorableText(node.id)) return 'id';
  if (typeof node.input === 'string' && !isStorableText(node.input)) return 'input';
  if (node.multiSelect.some((v) => !isStorableText(v))) return 'multiSelect';
  return null;
}

function compileCondition(node: SegmentConditionNode, ctx: EvalContext, today: number, day: (instant: string) => number): Pred {
  const unstorable = unstorableField(node);
  if (unstorable) refuse(unstorable);
  const tagType = (id: string) => ctx.tags.get(id);
  const problem = semanticProblems(node, tagType)[0];
  if (problem) throw new Refused({ path: [problem.field], code: problem.code, error: 'AudienceNotValid' });
  const t = conditionTarget(node.type ?? 'unsupported', (node.id ?? '').trim(), tagType) ?? refuse('id', 'unknown_target');
  const condition = node.condition ?? refuse('condition', 'condition_missing');
  const c: Cond = { node, ctx, today, day };
  if (node.type === 'user_event_tag' || node.type === 'user_product_tag') return positive(c, t, condition);
  const { op, negated } = positiveOf(condition);
  const test = positive(c, t, op);
  return negated ? (p) => !test(p) : test;
}

// ---------------------------------------------------------------------------------------------
// The tree.

/**
 * The ids of the people a segment selects (in the order given), or its problems, as the API's
 * compiler reports them: a broken tree alone; else every condition's first problem, in tree order.
 * Merged people never match; a group without conditions is ignored (an empty segment selects all).
 */
export function evaluateSegment(segment: Segment, people: readonly EvalPerson[], ctx: EvalContext): SegmentEvaluation {
  const violations = validateSegment(segment);
  const asProblem = (v: (typeof violations)[number]): SegmentEvaluationProblem => ({ key: v.key, path: v.path, code: v.code, error: 'AudienceNotValid' });
  if (violations.some((v) => SegmentStructureCode.safeParse(v.code).success)) return { ok: false, problems: violations.map(asProblem) };
  const incomplete = new Map<string, SegmentEvaluationProblem[]>();
  for (const v of violations) incomplete.set(v.key, [...(incomplete.get(v.key) ?? []), asProblem(v)]);

  const today = localDay(ctx.now, ctx.timezone);
  const dayCache = new Map<string, number>();
  const day = (instant: string) => {
    let d = dayCache.get(instant);
    if (d === undefined) dayCache.set(instant, (d = localDay(instant, ctx.timezone)));
    return d;
  };
  const byKey = new Map<string, SegmentNode>(segment.nodes.map((n) => [n.key, n]));
  const problems: SegmentEvaluationProblem[] = [];

  const build = (key: string): Pred | null => {
    const node = byKey.get(key);
    if (!node) return null;
    if (node.kind === 'condition') {
      const sectionFive = incomplete.get(key);
      if (sectionFive) {
        problems.push(...sectionFive);
        return null;
      }
      try {
        return compileCondition(node, ctx, today, day);
      } catch (error) {
        if (!(error instanceof Refused)) throw error;
        problems.push({ key, ...error.problem });
        return null;
      }
    }
    const parts = node.children.map(build).filter((s): s is Pred => s !== null);
    if (parts.length <= 1) return parts[0] ?? null;
    return node.combinator === 'and' ? (p) => parts.every((f) => f(p)) : (p) => parts.some((f) => f(p));
  };
  const tree = build(segment.rootKey);
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, ids: people.filter((p) => !p.mergedInto && (tree === null || tree(p))).map((p) => p.id) };
}
