/**
 * Automatic layout of a journey: a top-down tree by depth. Pure and deterministic, so every
 * editor of a journey draws unstored steps in the same place.
 *
 * Positions are the top-centre of a node (the canvas uses nodeOrigin [0.5, 0]), so narrow end
 * nodes centre under their parent. A step with a stored position keeps it; a step without one is
 * placed relative to its tree parent's final position (a new step appears under the step it was
 * added after, wherever that was moved), then pushed right while it overlaps another node.
 */
import type { LayoutPosition } from '@gd/shared/docs/journeyDoc';
import { outEdges } from '@gd/shared/journey/graph';
import type { Journey } from '@gd/shared/journey/model';

export const NODE_WIDTH = 240;
export const NODE_HEIGHT = 84;
/** Horizontal distance between neighbouring leaves, vertical distance between depths. */
export const COLUMN_WIDTH = 280;
export const ROW_HEIGHT = 170;

const targetsOf = (j: Journey) => {
  const ids = new Set(j.steps.map((s) => s.id));
  const out = new Map<string, string[]>();
  for (const s of j.steps) {
    const seen = new Set<string>();
    for (const e of outEdges(s)) if (e.to !== null && ids.has(e.to) && !seen.has(e.to)) seen.add(e.to);
    out.set(s.id, [...seen]);
  }
  return out;
};

/** Depth-first search from the entry, then from other steps without incoming links, then the rest. */
function depthFirst(j: Journey, targets: Map<string, string[]>) {
  const incoming = new Set([...targets.values()].flat());
  const roots = [
    ...(j.entryId !== null && targets.has(j.entryId) ? [j.entryId] : []),
    ...j.steps.filter((s) => !incoming.has(s.id)).map((s) => s.id),
    ...j.steps.map((s) => s.id),
  ];
  const state = new Map<string, 'open' | 'done'>();
  const postorder: string[] = [];
  const back = new Set<string>();
  const treeRoots: string[] = [];
  for (const root of roots) {
    if (state.has(root)) continue;
    treeRoots.push(root);
    state.set(root, 'open');
    const frames = [{ id: root, i: 0 }];
    while (frames.length) {
      const top = frames[frames.length - 1] as { id: string; i: number };
      const next = (targets.get(top.id) ?? [])[top.i++];
      if (next === undefined) {
        state.set(top.id, 'done');
        postorder.push(top.id);
        frames.pop();
      } else if (state.get(next) === 'open') back.add(`${top.id}>${next}`);
      else if (!state.has(next)) {
        state.set(next, 'open');
        frames.push({ id: next, i: 0 });
      }
    }
  }
  return { order: postorder.reverse(), back, treeRoots };
}

/** Tree positions in slot units: x by leaf order (parents centred), y by longest-path depth. */
function treeSlots(j: Journey) {
  const targets = targetsOf(j);
  const { order, back, treeRoots } = depthFirst(j, targets);
  const forward = (from: string) => (targets.get(from) ?? []).filter((to) => !back.has(`${from}>${to}`));
  const depth = new Map(order.map((id) => [id, 0]));
  const parent = new Map<string, string>();
  for (const id of order) {
    for (const to of forward(id)) depth.set(to, Math.max(depth.get(to) ?? 0, (depth.get(id) ?? 0) + 1));
  }
  for (const id of order) {
    for (const to of forward(id)) {
      const current = parent.get(to);
      if (current === undefined || (depth.get(id) ?? 0) > (depth.get(current) ?? 0)) parent.set(to, id);
    }
  }
  const children = (id: string) => forward(id).filter((to) => parent.get(to) === id);
  // A part that is not reached from the entry (a root without incoming links) moves down to just
  // above the steps it links to, instead of starting at the top row.
  for (const root of treeRoots.slice(1)) {
    const members = new Set<string>();
    const stack = [root];
    while (stack.length) {
      const id = stack.pop() as string;
      members.add(id);
      stack.push(...children(id));
    }
    let shift = Infinity;
    for (const id of members) {
      for (const to of forward(id)) if (!members.has(to)) shift = Math.min(shift, (depth.get(to) ?? 0) - (depth.get(id) ?? 0) - 1);
    }
    if (Number.isFinite(shift) && shift > 0) for (const id of members) depth.set(id, (depth.get(id) ?? 0) + shift);
  }
  const column = new Map<string, number>();
  let cursor = 0;
  const place = (root: string) => {
    // Iterative post-order: a node is placed after its children.
    const stack: { id: string; expanded: boolean }[] = [{ id: root, expanded: false }];
    while (stack.length) {
      const top = stack.pop() as { id: string; expanded: boolean };
      const kids = children(top.id);
      if (!top.expanded && kids.length > 0) {
        stack.push({ id: top.id, expanded: true });
        for (const kid of [...kids].reverse()) stack.push({ id: kid, expanded: false });
      } else if (kids.length === 0) column.set(top.id, cursor++);
      else column.set(top.id, ((column.get(kids[0] ?? '') ?? 0) + (column.get(kids[kids.length - 1] ?? '') ?? 0)) / 2);
    }
  };
  treeRoots.forEach((root, i) => {
    if (i > 0) cursor += 1; // a free column between disconnected parts
    place(root);
  });
  return { order, parent, depth, column };
}

const overlaps = (a: LayoutPosition, b: LayoutPosition) =>
  Math.abs(a.x - b.x) < NODE_WIDTH + 16 && Math.abs(a.y - b.y) < NODE_HEIGHT + 24;

const usable = (p: LayoutPosition | undefined): p is LayoutPosition =>
  !!p && Number.isFinite(p.x) && Number.isFinite(p.y);

/** A position for every step: the stored one when there is one, else an automatic one. */
export function autoLayout(journey: Journey, stored: Readonly<Record<string, LayoutPosition>>): Record<string, LayoutPosition> {
  const { order, parent, depth, column } = treeSlots(journey);
  const tree = (id: string): LayoutPosition => ({ x: (column.get(id) ?? 0) * COLUMN_WIDTH, y: (depth.get(id) ?? 0) * ROW_HEIGHT });
  const out: Record<string, LayoutPosition> = {};
  const placed: LayoutPosition[] = [];
  for (const id of order) {
    const own = stored[id];
    if (usable(own)) {
      out[id] = { x: own.x, y: own.y };
      placed.push(out[id]);
    }
  }
  for (const id of order) {
    if (out[id]) continue;
    const up = parent.get(id);
    const anchor = up === undefined ? undefined : out[up];
    let pos = tree(id);
    if (up !== undefined && anchor) {
      const base = tree(up);
      pos = { x: anchor.x + pos.x - base.x, y: anchor.y + pos.y - base.y };
    }
    for (let i = 0; i < 200 && placed.some((p) => overlaps(p, pos)); i++) pos = { x: pos.x + COLUMN_WIDTH, y: pos.y };
    out[id] = pos;
    placed.push(pos);
  }
  return out;
}
