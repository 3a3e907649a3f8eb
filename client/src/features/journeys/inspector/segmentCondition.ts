/** Editing the first condition of a segment (the inspector's simple segment editor). Pure. */
import {
  conditionOf,
  createConditionNode,
  createSegment,
  emptyCondition,
  firstSegmentCondition,
  type Segment,
  type SegmentCondition,
} from '@gd/shared/segment/model';

export const firstCondition = (segment: Segment | null): SegmentCondition => {
  const node = segment ? firstSegmentCondition(segment) : undefined;
  return node ? conditionOf(node) : emptyCondition();
};

/** The segment with its first condition patched; a segment (root group + one condition) is created when missing. */
export function withFirstCondition(segment: Segment | null, patch: Partial<SegmentCondition>): Segment {
  const node = segment ? firstSegmentCondition(segment) : undefined;
  if (segment && node) {
    return { ...segment, nodes: segment.nodes.map((n) => (n.key === node.key && n.kind === 'condition' ? { ...n, ...patch } : n)) };
  }
  const base = segment ?? createSegment();
  const used = new Set(base.nodes.map((n) => n.key));
  let key = 'c1';
  for (let i = 2; used.has(key); i++) key = `c${i}`;
  return {
    ...base,
    nodes: [
      ...base.nodes.map((n) => (n.key === base.rootKey && n.kind === 'group' ? { ...n, children: [key, ...n.children] } : n)),
      createConditionNode(key, patch),
    ],
  };
}
