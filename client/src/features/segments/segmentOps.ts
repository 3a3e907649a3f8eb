/**
 * The editor's operations on a segment (pure, tested), applied to the document's current segment
 * with the shared editing rules (shared segment/edit.ts). New nodes get random keys, so two people
 * adding at the same moment never write the same node.
 */
import { addSegmentNode, removeSegmentNode, updateSegmentNode } from '@gd/shared/segment/edit';
import {
  createConditionNode,
  createGroupNode,
  type Segment,
  type SegmentCombinator,
  type SegmentCondition,
} from '@gd/shared/segment/model';

export type SegmentOp =
  | { kind: 'addCondition'; parentKey: string; key?: string }
  | { kind: 'addGroup'; parentKey: string; combinator?: SegmentCombinator; key?: string; conditionKey?: string }
  | { kind: 'remove'; key: string }
  | { kind: 'combinator'; key: string; combinator: SegmentCombinator }
  | { kind: 'patch'; key: string; patch: Partial<SegmentCondition> };

export const newNodeKey = (prefix: 'c' | 'g'): string => `${prefix}-${crypto.randomUUID().slice(0, 13)}`;

export function applySegmentOp(segment: Segment, op: SegmentOp): Segment {
  switch (op.kind) {
    case 'addCondition':
      return addSegmentNode(segment, op.parentKey, createConditionNode(op.key ?? newNodeKey('c')));
    case 'addGroup': {
      // A new group starts with one empty condition: a group alone says nothing.
      const groupKey = op.key ?? newNodeKey('g');
      const withGroup = addSegmentNode(segment, op.parentKey, createGroupNode(groupKey, op.combinator ?? 'or'));
      return addSegmentNode(withGroup, groupKey, createConditionNode(op.conditionKey ?? newNodeKey('c')));
    }
    case 'remove':
      return removeSegmentNode(segment, op.key);
    case 'combinator': {
      const node = segment.nodes.find((n) => n.key === op.key);
      if (!node || node.kind !== 'group' || node.combinator === op.combinator) return segment;
      return updateSegmentNode(segment, { ...node, combinator: op.combinator });
    }
    case 'patch': {
      const node = segment.nodes.find((n) => n.key === op.key);
      if (!node || node.kind !== 'condition') return segment;
      return updateSegmentNode(segment, { ...node, ...op.patch, key: node.key, kind: 'condition' });
    }
    default: {
      const never: never = op;
      throw new Error(`unknown segment op ${String(never)}`);
    }
  }
}
