/**
 * The building blocks of the segment compiler: query parameters (each value a typed `$n`), the
 * app's local days as SQL, the operators' negations, the compile errors, one condition's values
 * and the day ranges of the date operators.
 */
import { conditionDay, conditionNumber, conditionNumbers, conditionValues, type SegmentConditionNode, type SegmentOperator } from '@gd/shared';
import type { CompileContext, CompileProblem, CompileProblemCode } from './types.ts';

export interface Params {
  add(value: unknown, cast: Cast): string;
  /** The app's time zone and "now", added once on first use. */
  tz(): string;
  now(): string;
  values: unknown[];
}
export type Cast = 'text' | 'text[]' | 'numeric' | 'numeric[]' | 'int' | 'bigint' | 'date' | 'uuid' | 'uuid[]' | 'timestamptz';

export function createParams(ctx: CompileContext): Params {
  const values: unknown[] = [];
  const add = (value: unknown, cast: Cast) => `$${values.push(value)}::${cast}`;
  let tz: string | undefined;
  let now: string | undefined;
  return { values, add, tz: () => (tz ??= add(ctx.timezone, 'text')), now: () => (now ??= add(ctx.now.toISOString(), 'timestamptz')) };
}

export const today = (p: Params) => `((${p.now()} AT TIME ZONE ${p.tz()})::date)`;
export const dayStart = (p: Params, day: string) => `((${day})::timestamp AT TIME ZONE ${p.tz()})`;
export const plusDays = (day: string, n: string) => `(${day} + ${n})`;

/** A half-open range of local days [from, to); either end may be open. */
export interface DayRange { from: string | null; to: string | null }

/** What a date operator reads: an instant (read as a local day) or a calendar day. */
export type DateOperand = { kind: 'instant' | 'day'; sql: string };

export function inDays(p: Params, operand: DateOperand, range: DayRange): string {
  const parts: string[] = [];
  const at = (day: string) => (operand.kind === 'instant' ? dayStart(p, day) : day);
  if (range.from) parts.push(`${operand.sql} >= ${at(range.from)}`);
  if (range.to) parts.push(`${operand.sql} < ${at(range.to)}`);
  return parts.length ? parts.join(' AND ') : `${operand.sql} IS NOT NULL`;
}

export const NEGATION: Partial<Record<SegmentOperator, SegmentOperator>> = {
  not_equals: 'equals', is_not_set: 'is_set', is_false: 'is_true', was_not_made: 'was_made', was_not_on: 'was_on',
  was_not_ago: 'was_ago', was_not_more_than: 'was_more_than', was_not_less_than: 'was_less_than', not_sent: 'sent',
  not_clicked: 'clicked', not_in_audience: 'in_audience',
};
export const positiveOf = (op: SegmentOperator) => ({ op: NEGATION[op] ?? op, negated: NEGATION[op] !== undefined });

/** Scalar predicates may be NULL on missing values: make them false, so NOT gives the complement. */
export const nullSafe = (sql: string) => `coalesce((${sql}), false)`;

export class CompileError extends Error {
  readonly problem: Omit<CompileProblem, 'key'>;
  constructor(problem: Omit<CompileProblem, 'key'>) {
    super(problem.code);
    this.problem = problem;
  }
}
export const invalid = (field: string, code: CompileProblemCode = 'value_invalid'): never => {
  throw new CompileError({ path: [field], code, error: 'AudienceNotValid' });
};

export interface Cond {
  node: SegmentConditionNode;
  p: Params;
  ctx: CompileContext;
}

export const values = (c: Cond) => conditionValues(c.node);
export const numberValue = (c: Cond) => conditionNumber(c.node) ?? invalid('input');
export const numberValues = (c: Cond) => conditionNumbers(c.node) ?? invalid('input');
export const dayValue = (c: Cond) => conditionDay(c.node) ?? invalid('input');
export const days = (c: Cond) => c.node.dateDays ?? invalid('dateDays', 'date_days_missing');

/** The condition's own window (dateRange, else the last dateDays days), or null. */
export function conditionWindow(c: Cond): DayRange | null {
  const { dateRange, dateDays } = c.node;
  if (dateRange) return { from: c.p.add(dateRange.startDay, 'date'), to: plusDays(c.p.add(dateRange.endDay, 'date'), '1') };
  if (dateDays !== null) return lastDays(c, dateDays);
  return null;
}
export const lastDays = (c: Cond, n: number): DayRange => ({ from: plusDays(today(c.p), c.p.add(1 - Math.max(n, 1), 'int')), to: plusDays(today(c.p), '1') });
export const todayRange = (c: Cond): DayRange => ({ from: today(c.p), to: plusDays(today(c.p), '1') });

/** The local days a positive date operator selects. */
export function dateOperatorRange(c: Cond, op: SegmentOperator): DayRange | null {
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

export function anniversary(c: Cond, operand: DateOperand): string {
  const n = conditionNumber(c.node);
  const target = n !== null && Number.isInteger(n) && n >= 0 && n <= 366 ? plusDays(today(c.p), c.p.add(n, 'int')) : c.p.add(dayValue(c), 'date');
  const day = operand.kind === 'instant' ? `(${operand.sql} AT TIME ZONE ${c.p.tz()})::date` : operand.sql;
  const md = (d: string) => `to_char(${d}, 'MM-DD')`;
  return `${day} < ${target} AND (${md(day)} = ${md(target)} OR (${md(day)} = '02-29' AND ${md(target)} = '02-28' AND ${md(plusDays(target, '1'))} = '03-01'))`;
}
