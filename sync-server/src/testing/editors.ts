/**
 * The journey and segment editors as the simulation (simulation.ts) runs them: the same shared code
 * the browser's editors call (journey: applyJourneyToDoc of the normalized result, lost links put
 * back by watchJourneyConflicts; segment: applySegmentToDoc, values merged as a set; the repairs
 * of docs/repairs.ts for both), and what must hold after healing.
 */
import { watchJourneyConflicts } from '@gd/shared/docs/journeyConflicts';
import { applyJourneyToDoc, journeyFromDoc } from '@gd/shared/docs/journeyDoc';
import { journeyRepair, normalJourneyOf, normalSegmentOf, segmentRepair } from '@gd/shared/docs/repairs';
import { applySegmentToDoc, segmentFromDoc } from '@gd/shared/docs/segmentDoc';
import { arbInsertOrRemove, applyInsertOrRemove, type InsertOrRemove } from '@gd/shared/journey/arbitraries';
import { connectedSteps } from '@gd/shared/journey/graph';
import { journeyInvariantIssues } from '@gd/shared/journey/invariants';
import { addSegmentNode, removeSegmentNode, updateSegmentNode } from '@gd/shared/segment/edit';
import { createConditionNode, createGroupNode, type Segment, type SegmentNode } from '@gd/shared/segment/model';
import fc from 'fast-check';
import { expect } from 'vitest';
import { LOCAL, REPAIR, type EditorKind } from './simulation.ts';

/** Steps a person added and saw connected; steps a person's edit removed. */
interface JourneyRecord {
  added: Set<string>;
  removed: Set<string>;
}

export const journeyEditor: EditorKind<InsertOrRemove, JourneyRecord> = {
  newDoc: (fx) => fx.newJourneyDoc(),
  arbOp: arbInsertOrRemove,
  watch: (doc) => watchJourneyConflicts(doc, { canWrite: () => true, onConflicts: () => undefined, origin: REPAIR }),
  newRecord: () => ({ added: new Set(), removed: new Set() }),
  edit(doc, op, id, record) {
    const before = normalJourneyOf(doc).journey;
    const after = applyInsertOrRemove(before, op, id);
    for (const s of before.steps) if (!after.steps.some((t) => t.id === s.id)) record.removed.add(s.id);
    if (connectedSteps(after).has(id)) record.added.add(id);
    applyJourneyToDoc(doc, after, LOCAL);
  },
  repair(doc) {
    const repaired = journeyRepair(doc);
    return repaired ? () => applyJourneyToDoc(doc, repaired, REPAIR) : null;
  },
  read: (doc) => journeyFromDoc(doc),
  check(final, { added, removed }) {
    const journey = journeyFromDoc(final);
    expect(journeyInvariantIssues(journey)).toEqual([]);
    const live = connectedSteps(journey);
    for (const id of added) {
      if (!removed.has(id) && journey.steps.some((s) => s.id === id)) expect(live.has(id), `${id} is reachable`).toBe(true);
    }
  },
};

export type SegmentEdit =
  | { kind: 'condition'; parent: number; values: number }
  | { kind: 'group'; parent: number }
  | { kind: 'remove'; node: number }
  | { kind: 'addValue'; node: number }
  | { kind: 'removeValue'; node: number; value: number }
  | { kind: 'combinator'; node: number };

const idx = fc.nat({ max: 40 });
export const arbSegmentEdit: fc.Arbitrary<SegmentEdit> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('condition' as const), parent: idx, values: fc.integer({ min: 0, max: 2 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('group' as const), parent: idx }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), node: idx }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('addValue' as const), node: idx }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('removeValue' as const), node: idx, value: idx }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('combinator' as const), node: idx }) },
);

/**
 * Nodes a person added with the nodes above them then; nodes someone removed (with what was
 * under them); values a person added to a condition; values someone removed.
 */
interface SegmentRecord {
  added: Map<string, string[]>;
  removed: Set<string>;
  values: Map<string, string>;
  removedValues: Set<string>;
}

const pick = <T>(items: readonly T[], i: number): T | undefined => (items.length === 0 ? undefined : items[i % items.length]);
const byKey = (s: Segment) => new Map(s.nodes.map((n) => [n.key, n]));

/** The keys from the root down to `key` (exclusive), or null when it hangs nowhere. */
function ancestors(s: Segment, key: string): string[] | null {
  const parent = new Map<string, string>();
  for (const n of s.nodes) if (n.kind === 'group') for (const c of n.children) parent.set(c, n.key);
  const path: string[] = [];
  for (let k = parent.get(key); k !== undefined; k = parent.get(k)) {
    if (path.includes(k)) return null;
    path.unshift(k);
  }
  return path[0] === s.rootKey || key === s.rootKey ? path : null;
}

function subtree(s: Segment, key: string): string[] {
  const nodes = byKey(s);
  const out: string[] = [];
  const visit = (k: string) => {
    const n = nodes.get(k);
    if (!n || out.includes(k)) return;
    out.push(k);
    if (n.kind === 'group') n.children.forEach(visit);
  };
  visit(key);
  return out;
}

function withValues(n: SegmentNode, values: string[]): SegmentNode {
  return n.kind === 'condition' ? { ...n, multiSelect: values } : n;
}

export const segmentEditor: EditorKind<SegmentEdit, SegmentRecord> = {
  newDoc: (fx) => fx.newSegmentDoc(),
  arbOp: arbSegmentEdit,
  newRecord: () => ({ added: new Map(), removed: new Set(), values: new Map(), removedValues: new Set() }),
  edit(doc, op, id, record) {
    const s = normalSegmentOf(doc).segment;
    const groups = s.nodes.filter((n) => n.kind === 'group');
    const conditions = s.nodes.filter((n) => n.kind === 'condition');
    let next = s;
    if (op.kind === 'condition' || op.kind === 'group') {
      const parent = pick(groups, op.parent);
      if (!parent) return;
      const values = Array.from({ length: op.kind === 'condition' ? op.values : 0 }, (_, i) => `${id}-v${i}`);
      const node = op.kind === 'condition' ? createConditionNode(id, { type: 'attribute', id: 'country', condition: 'equals', multiSelect: values }) : createGroupNode(id, 'or');
      next = addSegmentNode(s, parent.key, node);
      record.added.set(id, [...(ancestors(s, parent.key) ?? []), parent.key]);
      for (const v of values) record.values.set(v, id);
    } else if (op.kind === 'remove') {
      const node = pick(s.nodes.filter((n) => n.key !== s.rootKey), op.node);
      if (!node) return;
      for (const k of subtree(s, node.key)) record.removed.add(k);
      next = removeSegmentNode(s, node.key);
    } else if (op.kind === 'addValue') {
      const node = pick(conditions, op.node);
      if (!node || node.kind !== 'condition') return;
      const value = `${id}-v`;
      record.values.set(value, node.key);
      next = updateSegmentNode(s, withValues(node, [...node.multiSelect, value]));
    } else if (op.kind === 'removeValue') {
      const node = pick(conditions, op.node);
      const value = node?.kind === 'condition' ? pick(node.multiSelect, op.value) : undefined;
      if (!node || value === undefined || node.kind !== 'condition') return;
      record.removedValues.add(value);
      next = updateSegmentNode(s, withValues(node, node.multiSelect.filter((v) => v !== value)));
    } else {
      const group = pick(groups, op.node);
      if (!group || group.kind !== 'group') return;
      next = updateSegmentNode(s, { ...group, combinator: group.combinator === 'and' ? 'or' : 'and' });
    }
    applySegmentToDoc(doc, next, LOCAL);
  },
  repair(doc) {
    const repaired = segmentRepair(doc);
    return repaired ? () => applySegmentToDoc(doc, repaired, REPAIR) : null;
  },
  read: (doc) => segmentFromDoc(doc),
  check(final, { added, removed, values, removedValues }) {
    const { segment, normal } = normalSegmentOf(final);
    expect(normal, 'the segment is normal').toBe(true);
    const nodes = byKey(segment);
    // A node someone added is there unless someone removed it or a node it was put under.
    for (const [key, above] of added) {
      if (removed.has(key) || above.some((k) => removed.has(k))) continue;
      expect(nodes.has(key), `${key} is in the segment`).toBe(true);
    }
    // A value someone added is on its condition unless someone removed it (values are unique).
    for (const [value, key] of values) {
      const node = nodes.get(key);
      if (!node || node.kind !== 'condition') continue;
      expect(node.multiSelect.includes(value), `${value} on ${key}`).toBe(!removedValues.has(value));
    }
  },
};
