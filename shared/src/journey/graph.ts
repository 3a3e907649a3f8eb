/** Graph helpers over a flat journey: edges, predecessors, reachability, cycles. Pure. */
import type { Journey, JourneyStep } from './model.ts';

/** One outgoing link: `pathIndex` is null for a step's single `next`. */
export interface Edge {
  from: string;
  pathIndex: number | null;
  to: string | null;
}

export function outEdges(step: JourneyStep): Edge[] {
  if ('paths' in step) return step.paths.map((p, i) => ({ from: step.id, pathIndex: i, to: p.next }));
  if ('next' in step) return [{ from: step.id, pathIndex: null, to: step.next }];
  return [];
}

export const edgeTargets = (step: JourneyStep): string[] =>
  outEdges(step).flatMap((e) => (e.to === null ? [] : [e.to]));

/** The target of one link, or undefined when the step has no such link. */
export function edgeTarget(step: JourneyStep, pathIndex: number | null): string | null | undefined {
  if ('paths' in step) return pathIndex === null ? undefined : step.paths[pathIndex]?.next;
  if ('next' in step) return step.next;
  return undefined;
}

/** A copy of `step` with one link changed (unchanged when the link does not exist). */
export function withEdge(step: JourneyStep, pathIndex: number | null, to: string | null): JourneyStep {
  if ('paths' in step) {
    if (pathIndex === null || !step.paths[pathIndex]) return step;
    return { ...step, paths: step.paths.map((p, i) => (i === pathIndex ? { ...p, next: to } : p)) };
  }
  if ('next' in step) return { ...step, next: to };
  return step;
}

/**
 * The links followed from `start` along the way the journey continues (a step's `next`, a
 * branching step's last path), in order, until a link leads nowhere known or back to a step
 * already passed; at most `max` links.
 */
export function continuationEdges(byId: ReadonlyMap<string, JourneyStep>, start: string, max = Infinity): Edge[] {
  const edges: Edge[] = [];
  const seen = new Set<string>();
  for (let step = byId.get(start); step && !seen.has(step.id) && edges.length < max; ) {
    seen.add(step.id);
    const e = outEdges(step).at(-1);
    if (!e) break;
    edges.push(e);
    step = e.to === null ? undefined : byId.get(e.to);
  }
  return edges;
}

/** The connected steps of `j` (reachable from its entry). */
export const connectedSteps = (j: Journey): Set<string> => (j.entryId === null ? new Set() : reachable(j, [j.entryId]));

export const stepIndex = (j: Journey): Map<string, JourneyStep> => new Map(j.steps.map((s) => [s.id, s]));

/** Incoming edges per existing step id (edges to missing ids are left out). */
export function predecessors(j: Journey): Map<string, Edge[]> {
  const preds = new Map<string, Edge[]>(j.steps.map((s) => [s.id, []]));
  for (const s of j.steps) {
    for (const e of outEdges(s)) if (e.to !== null) preds.get(e.to)?.push(e);
  }
  return preds;
}

/** Ids reachable from `roots` (roots included), never entering `blocked`. */
export function reachable(j: Journey, roots: Iterable<string>, blocked: ReadonlySet<string> = new Set()): Set<string> {
  const byId = stepIndex(j);
  const seen = new Set<string>();
  const stack = [...roots].filter((r) => byId.has(r) && !blocked.has(r));
  while (stack.length) {
    const id = stack.pop() as string;
    if (seen.has(id)) continue;
    seen.add(id);
    const step = byId.get(id);
    if (!step) continue;
    for (const t of edgeTargets(step)) if (byId.has(t) && !blocked.has(t) && !seen.has(t)) stack.push(t);
  }
  return seen;
}

/** Edges that close a cycle (back edges of a depth-first search from every step). */
export function backEdges(j: Journey): Edge[] {
  const byId = stepIndex(j);
  const state = new Map<string, 'open' | 'done'>();
  const found: Edge[] = [];
  for (const start of j.steps) {
    if (state.has(start.id)) continue;
    // Iterative DFS: a frame is a step and the index of its next edge to follow.
    const frames: { step: JourneyStep; edges: Edge[]; i: number }[] = [{ step: start, edges: outEdges(start), i: 0 }];
    state.set(start.id, 'open');
    while (frames.length) {
      const top = frames[frames.length - 1] as (typeof frames)[number];
      const e = top.edges[top.i++];
      if (!e) {
        state.set(top.step.id, 'done');
        frames.pop();
        continue;
      }
      const target = e.to === null ? undefined : byId.get(e.to);
      if (!target) continue;
      const st = state.get(target.id);
      if (st === 'open') found.push(e);
      else if (st === undefined) {
        state.set(target.id, 'open');
        frames.push({ step: target, edges: outEdges(target), i: 0 });
      }
    }
  }
  return found;
}
