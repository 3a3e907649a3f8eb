/**
 * The problems shown next to each condition while editing (pure, tested): first SPEC.md section 5
 * (shared `conditionProblems`: type, id and condition set, a value, a date range or a day count
 * where the operator needs one, a tag condition for "with property"), then, for a condition that
 * passes it, whether it means something (shared `semanticProblems`: the id fits the filter kind,
 * the operator the field, the value the operator). Tag conditions are checked only once the app's
 * tags are known (a user without the tags list would otherwise see every tag as unknown).
 *
 * The estimate leaves out what cannot be evaluated yet (`estimableSegment`), so a person sees the
 * count of what they have finished while they fill in the next condition.
 */
import {
  conditionOf,
  segmentConditions,
  type Segment,
  type SegmentCondition,
  type SegmentNode,
} from '@gd/shared/segment/model';
import { semanticProblems, type SegmentSemanticCode } from '@gd/shared/segment/semantics';
import { conditionProblems, type SegmentConditionCode } from '@gd/shared/segment/validate';
import { needsEventProperty, type TagTypeOf } from './conditionShape.ts';

export type RowProblemCode = SegmentConditionCode | SegmentSemanticCode | 'property_missing';

export interface RowProblem {
  code: RowProblemCode;
  field: keyof SegmentCondition;
}

export function rowProblems(c: SegmentCondition, tagType: TagTypeOf, tagsKnown: boolean): RowProblem[] {
  const basic = conditionProblems(c);
  if (basic.length > 0) return basic;
  if (needsEventProperty(c)) return [{ code: 'property_missing', field: 'id' }];
  if (c.type === 'user_tag' && !tagsKnown) return [];
  return semanticProblems(c, tagType);
}

/** Problems of every reachable condition, by node key (conditions without problems are absent). */
export function segmentRowProblems(segment: Segment, tagType: TagTypeOf, tagsKnown: boolean): Map<string, RowProblem[]> {
  const out = new Map<string, RowProblem[]>();
  for (const node of segmentConditions(segment)) {
    const problems = rowProblems(conditionOf(node), tagType, tagsKnown);
    if (problems.length > 0) out.set(node.key, problems);
  }
  return out;
}

/**
 * The segment without the conditions that have problems (groups keep their other children; a
 * group left empty is ignored by the server), and how many were left out.
 */
export function estimableSegment(segment: Segment, problems: ReadonlyMap<string, unknown>): { segment: Segment; leftOut: number } {
  if (problems.size === 0) return { segment, leftOut: 0 };
  const nodes: SegmentNode[] = [];
  let leftOut = 0;
  for (const node of segment.nodes) {
    if (node.kind === 'condition') {
      if (problems.has(node.key)) leftOut += 1;
      else nodes.push(node);
    } else {
      nodes.push({ ...node, children: node.children.filter((k) => !problems.has(k)) });
    }
  }
  return { segment: { rootKey: segment.rootKey, nodes }, leftOut };
}

/** Field paths of a refused estimate or save (`nodes.<key>.<field>`, message the rule code), by node key. */
export function serverProblems(details: readonly { path: string; message: string }[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const d of details) {
    const match = /^nodes\.([^.]+)(?:\.|$)/.exec(d.path);
    if (!match?.[1]) continue;
    out.set(match[1], [...(out.get(match[1]) ?? []), d.message]);
  }
  return out;
}
