/** Operators on one value: a scalar of a type (text, version, number, date, instant) or a JSON property. */
import type { SegmentOperator } from '@gd/shared';
import { anniversary, dateOperatorRange, inDays, invalid, numberValue, numberValues, values, type Cond, type DateOperand } from './sql.ts';

/** A positive operator on a scalar value of `type`; may be NULL when the value is missing. */
export function scalarPredicate(c: Cond, type: 'text' | 'version' | 'number' | 'date' | 'instant', op: SegmentOperator, sql: string): string {
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

/**
 * A JSON value as a number: JSON numbers, and strings that spell a decimal with ASCII white space
 * around; else NULL. (Not migration 004's gd_jsonb_numeric: its `\s` also matches Unicode spaces,
 * which the numeric cast then refuses, failing the whole query.)
 */
const jsonNumeric = (v: string) =>
  `(CASE WHEN jsonb_typeof(${v}) = 'number' THEN (${v} #>> '{}')::numeric
     WHEN jsonb_typeof(${v}) = 'string' AND (${v} #>> '{}') ~ '^[ \\t\\n\\r\\f\\v]*-?[0-9]{1,30}(\\.[0-9]{1,30})?[ \\t\\n\\r\\f\\v]*$' THEN (${v} #>> '{}')::numeric END)`;

/** A positive operator on a JSON property value `v` (jsonb); may be NULL. */
export function propertyPredicate(c: Cond, op: SegmentOperator, v: string): string {
  const asText = `(${v} #>> '{}')`;
  const elements = (test: (x: string) => string) =>
    `(jsonb_typeof(${v}) = 'array' AND EXISTS (SELECT 1 FROM jsonb_array_elements_text(${v}) AS el(x) WHERE ${test('el.x')}))`;
  switch (op) {
    case 'equals': {
      const list = c.p.add(values(c), 'text[]');
      const test = (x: string) => `lower(${x}) = ANY(gd_lower_all(${list}))`;
      return `(jsonb_typeof(${v}) <> 'array' AND ${test(asText)} OR ${elements(test)})`;
    }
    case 'contains': {
      const list = c.p.add(values(c), 'text[]');
      const test = (x: string) => `EXISTS (SELECT 1 FROM unnest(${list}) AS q(y) WHERE strpos(lower(${x}), lower(q.y)) > 0)`;
      return `(jsonb_typeof(${v}) <> 'array' AND ${test(asText)} OR ${elements(test)})`;
    }
    case 'greater_than': return `${jsonNumeric(v)} > ${c.p.add(numberValue(c), 'numeric')}`;
    case 'minor_than': return `${jsonNumeric(v)} < ${c.p.add(numberValue(c), 'numeric')}`;
    case 'is_set': return `(${v} IS NOT NULL AND ${v} <> 'null'::jsonb AND ${v} <> '""'::jsonb)`;
    case 'is_true': return `${v} = 'true'::jsonb`;
    default: return invalid('tagCondition', 'tag_condition_not_applicable');
  }
}
