/** Conditions on a user tag's value (by its type) or on when it changed. */
import type { SegmentOperator, TagValueType } from '@gd/shared';
import { conditionWindow, inDays, todayRange, type Cond } from './sql.ts';
import { scalarPredicate } from './values.ts';

export const TAG_COLUMNS = { text: 't.value_text', number: 't.value_number', date: 't.value_date' } as const;

export function tagPredicate(c: Cond, tagId: string, valueType: TagValueType, op: SegmentOperator): string {
  const base = `t.app_id = p.app_id AND t.person_id = p.id AND t.tag_id = ${c.p.add(tagId, 'uuid')}`;
  if (op === 'changed_value') {
    return `EXISTS (SELECT 1 FROM person_tags t WHERE ${base} AND ${inDays(c.p, { kind: 'instant', sql: 't.updated_at' }, conditionWindow(c) ?? todayRange(c))})`;
  }
  const type = valueType === 'date' ? 'date' : valueType;
  return `EXISTS (SELECT 1 FROM person_tags t WHERE ${base} AND ${scalarPredicate(c, type, op, TAG_COLUMNS[valueType])})`;
}
