/**
 * Segment condition validity (SPEC.md section 5) and the structure checks of a flat segment.
 * Pure; returns typed codes, never text (the UI translates).
 */
import { z } from 'zod';
import {
  operatorValueNeed,
  segmentConditions,
  firstSegmentCondition,
  type Segment,
  type SegmentCondition,
  type SegmentOperator,
} from './model.ts';

export const SegmentConditionCode = z.enum([
  'type_missing',
  'id_missing',
  'condition_missing',
  'tag_condition_missing',
  'tag_condition_invalid',
  'value_missing',
  'date_range_missing',
  'date_days_missing',
]);
export type SegmentConditionCode = z.infer<typeof SegmentConditionCode>;

export const SegmentStructureCode = z.enum(['root_missing', 'root_not_group', 'dangling_child', 'node_shared', 'cycle']);
export type SegmentStructureCode = z.infer<typeof SegmentStructureCode>;

export type SegmentViolationCode = SegmentConditionCode | SegmentStructureCode;

export interface SegmentViolation {
  /** The node concerned (the root key for root problems). */
  key: string;
  /** Field path inside the node. */
  path: (string | number)[];
  code: SegmentViolationCode;
  params?: Record<string, string | number>;
}

export interface ConditionProblem {
  code: SegmentConditionCode;
  field: keyof SegmentCondition;
}

const hasValue = (c: SegmentCondition) =>
  (typeof c.input === 'string' && c.input.trim() !== '') ||
  (typeof c.input === 'number' && Number.isFinite(c.input)) ||
  c.multiSelect.some((v) => v.trim() !== '');

/** What the operator `op` (applied as condition or tag condition) still lacks in `c`. */
function valueProblems(c: SegmentCondition, op: SegmentOperator): ConditionProblem[] {
  switch (operatorValueNeed(op)) {
    case 'none':
      return [];
    case 'value':
      return hasValue(c) ? [] : [{ code: 'value_missing', field: 'input' }];
    case 'dateRange':
      return c.dateRange ? [] : [{ code: 'date_range_missing', field: 'dateRange' }];
    case 'days':
      return c.dateDays !== null ? [] : [{ code: 'date_days_missing', field: 'dateDays' }];
    case 'property':
      // Only reachable for a tag condition of `with_property`, which makes no sense.
      return [{ code: 'tag_condition_invalid', field: 'tagCondition' }];
  }
}

/**
 * SPEC.md section 5: type, id and condition set; "with property" needs a tag condition and a
 * value when that tag condition needs one; value-type conditions need an input or selection;
 * "was on" (and "was not on") needs a date range; the "was ago" family and "will be in" need a
 * day count.
 */
export function conditionProblems(c: SegmentCondition): ConditionProblem[] {
  const problems: ConditionProblem[] = [];
  if (c.type === null) problems.push({ code: 'type_missing', field: 'type' });
  if (c.id === null || c.id.trim() === '') problems.push({ code: 'id_missing', field: 'id' });
  if (c.condition === null) {
    problems.push({ code: 'condition_missing', field: 'condition' });
    return problems;
  }
  if (c.condition === 'with_property') {
    if (c.tagCondition === null) problems.push({ code: 'tag_condition_missing', field: 'tagCondition' });
    else problems.push(...valueProblems(c, c.tagCondition));
  } else {
    problems.push(...valueProblems(c, c.condition));
  }
  return problems;
}

export const isConditionValid = (c: SegmentCondition) => conditionProblems(c).length === 0;

/** Structure (root, links, sharing, cycles) and every reachable condition. */
export function validateSegment(segment: Segment): SegmentViolation[] {
  const out: SegmentViolation[] = [];
  const byKey = new Map(segment.nodes.map((n) => [n.key, n]));
  const root = byKey.get(segment.rootKey);
  if (!root) return [{ key: segment.rootKey, path: [], code: 'root_missing' }];
  if (root.kind !== 'group') out.push({ key: root.key, path: [], code: 'root_not_group' });

  const seen = new Set<string>();
  const onStack = new Set<string>();
  const visit = (key: string) => {
    const node = byKey.get(key);
    if (!node) return;
    seen.add(key);
    onStack.add(key);
    if (node.kind === 'group') {
      node.children.forEach((child, i) => {
        if (!byKey.has(child)) out.push({ key, path: ['children', i], code: 'dangling_child', params: { child } });
        else if (onStack.has(child)) out.push({ key, path: ['children', i], code: 'cycle', params: { child } });
        else if (seen.has(child)) out.push({ key, path: ['children', i], code: 'node_shared', params: { child } });
        else visit(child);
      });
    } else {
      for (const p of conditionProblems(node)) out.push({ key, path: [p.field], code: p.code });
    }
    onStack.delete(key);
  };
  visit(segment.rootKey);
  return out;
}

export const isSegmentValid = (segment: Segment) => validateSegment(segment).length === 0;

/** Non-empty (at least one reachable condition) and valid: what a journey split path needs. */
export const isSegmentUsable = (segment: Segment | null | undefined): boolean =>
  !!segment && segmentConditions(segment).length > 0 && isSegmentValid(segment);

/** An audience source's segment counts when its first condition is valid. */
export function firstConditionValid(segment: Segment | null | undefined): boolean {
  if (!segment) return false;
  const first = firstSegmentCondition(segment);
  return !!first && isConditionValid(first);
}
