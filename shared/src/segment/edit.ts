/**
 * Pure editing operations on a flat segment. Each returns a new, normalized segment.
 * Normalization repairs what two valid concurrent edits can break: children that point to missing
 * nodes, a node listed under two groups, cycles, and nodes no longer reachable from the root.
 */
import { createGroupNode, type Segment, type SegmentNode } from './model.ts';

export function normalizeSegment(segment: Segment): Segment {
  const byKey = new Map<string, SegmentNode>();
  for (const n of segment.nodes) if (!byKey.has(n.key)) byKey.set(n.key, n);
  let root = byKey.get(segment.rootKey);
  if (!root || root.kind !== 'group') {
    // A root that is missing or not a group: start a fresh root that keeps a condition root inside.
    const fresh = createGroupNode(segment.rootKey);
    if (root) {
      const moved = { ...root, key: uniqueKey(`${root.key}-condition`, byKey) };
      byKey.set(moved.key, moved);
      fresh.children.push(moved.key);
    }
    byKey.set(fresh.key, fresh);
    root = fresh;
  }
  const kept = new Map<string, SegmentNode>();
  const visit = (key: string) => {
    const node = byKey.get(key);
    if (!node || kept.has(key)) return;
    if (node.kind === 'condition') {
      kept.set(key, node);
      return;
    }
    const copy = { ...node, children: [] as string[] };
    kept.set(key, copy);
    for (const child of node.children) {
      if (!byKey.has(child) || kept.has(child) || copy.children.includes(child)) continue;
      copy.children.push(child);
      visit(child);
    }
  };
  visit(root.key);
  return { rootKey: root.key, nodes: [...kept.values()] };
}

function uniqueKey(base: string, taken: Map<string, unknown>): string {
  let key = base;
  for (let i = 2; taken.has(key); i++) key = `${base}-${i}`;
  return key;
}

/** Adds `node` under the group `parentKey` at `index` (default: last). A taken key is a no-op. */
export function addSegmentNode(segment: Segment, parentKey: string, node: SegmentNode, index?: number): Segment {
  const s = normalizeSegment(segment);
  const parent = s.nodes.find((n) => n.key === parentKey);
  if (!parent || parent.kind !== 'group' || s.nodes.some((n) => n.key === node.key)) return s;
  const children = [...parent.children];
  children.splice(index ?? children.length, 0, node.key);
  const nodes = s.nodes.map((n) => (n.key === parentKey ? { ...parent, children } : n));
  const added = node.kind === 'group' ? { ...node, children: [] } : node;
  return normalizeSegment({ rootKey: s.rootKey, nodes: [...nodes, added] });
}

/** Removes a node and everything under it. The root cannot be removed (it is emptied instead). */
export function removeSegmentNode(segment: Segment, key: string): Segment {
  const s = normalizeSegment(segment);
  if (key === s.rootKey) return { rootKey: s.rootKey, nodes: [createGroupNode(s.rootKey, rootCombinator(s))] };
  const nodes = s.nodes.map((n) => (n.kind === 'group' ? { ...n, children: n.children.filter((c) => c !== key) } : n));
  return normalizeSegment({ rootKey: s.rootKey, nodes });
}

/** Replaces the node with the same key (a group keeps its children unless the new one lists them). */
export function updateSegmentNode(segment: Segment, node: SegmentNode): Segment {
  const s = normalizeSegment(segment);
  if (!s.nodes.some((n) => n.key === node.key)) return s;
  return normalizeSegment({ rootKey: s.rootKey, nodes: s.nodes.map((n) => (n.key === node.key ? node : n)) });
}

function rootCombinator(s: Segment) {
  const root = s.nodes.find((n) => n.key === s.rootKey);
  return root?.kind === 'group' ? root.combinator : 'and';
}
