/**
 * Editing operations on a journey (SPEC.md section 4). Each takes any journey, normalizes it,
 * applies the edit and returns the normalized result; an edit that does not apply (unknown step,
 * missing link, taken id, a link into a source) returns the normalized input unchanged.
 */
import { connectedSteps, continuationEdges, edgeTarget, edgeTargets, outEdges, predecessors, reachable, stepIndex, withEdge, type Edge } from './graph.ts';
import { jsonEqual } from './json.ts';
import { MAX_JOURNEY_STEPS, createPath, createStep, isSource, type Journey, type JourneyStep, type StepType } from './model.ts';
import { normalizeJourney } from './normalize.ts';

/**
 * Room for one more step and the automatic steps the rules may add with it (a wait before and
 * after, an end on each new path): the largest such insertion adds at most this many steps.
 */
const INSERT_ROOM = 3;

/**
 * True when a step of `type` can be inserted on the link (`fromStepId`, `pathIndex`), and the
 * journey has room for it under MAX_JOURNEY_STEPS.
 */
export function canAddAfter(j: Journey, fromStepId: string, pathIndex: number | null, type: StepType): boolean {
  const from = stepIndex(j).get(fromStepId);
  return !!from && edgeTarget(from, pathIndex) !== undefined && !isSource(type) && j.steps.length + INSERT_ROOM <= MAX_JOURNEY_STEPS;
}

/** Points a new step's onward link(s) at `next`: its `next`, or its last (otherwise/timeout) path. */
function continueWith(step: JourneyStep, next: string | null): JourneyStep {
  if ('paths' in step) return withEdge(step, step.paths.length - 1, next);
  return withEdge(step, null, next);
}

const withSteps = (j: Journey, steps: JourneyStep[]): Journey => ({ ...j, steps });

function setStep(j: Journey, step: JourneyStep): Journey {
  return withSteps(j, j.steps.map((s) => (s.id === step.id ? step : s)));
}

/**
 * Inserts a new step of `type` on the link (`fromStepId`, `pathIndex`; null for a single `next`).
 * What followed continues after the new step (through its last path when it branches: users
 * matching none of the new conditions carry on as before). Sources cannot be inserted; an end
 * cuts the link (what followed stays, unreachable, until reconnected or removed).
 */
export function addStepAfter(
  j: Journey,
  fromStepId: string,
  pathIndex: number | null,
  type: StepType,
  newId: string,
): Journey {
  const n = normalizeJourney(j);
  const byId = stepIndex(n);
  const from = byId.get(fromStepId);
  if (!from || !canAddAfter(n, fromStepId, pathIndex, type) || byId.has(newId)) return n;
  const oldNext = edgeTarget(from, pathIndex) ?? null;
  const step = continueWith(createStep(type, newId), oldNext);
  const linked = setStep(n, withEdge(from, pathIndex, newId));
  return normalizeJourney(withSteps(linked, [...linked.steps, step]));
}

/** Removes `roots` and everything below them that no other step reaches. */
function pruneDownstream(j: Journey, roots: readonly string[]): Journey {
  const downstream = reachable(j, roots);
  const outside = j.steps.filter((s) => !downstream.has(s.id)).map((s) => s.id);
  const alive = reachable(j, outside);
  return withSteps(j, j.steps.filter((s) => !downstream.has(s.id) || alive.has(s.id)));
}

/**
 * Removes a step. A branching step (more than one path) takes with it everything downstream that
 * is not reachable otherwise, and its predecessors' links become open (closed by automatic ends).
 * Any other step is cut out: its predecessors link to its successor. The entry source stays
 * (replace it with updateStep instead).
 */
export function removeStep(j: Journey, stepId: string): Journey {
  const n = normalizeJourney(j);
  const step = stepIndex(n).get(stepId);
  if (!step || stepId === n.entryId) return n;
  const incoming = predecessors(n).get(stepId) ?? [];
  const targets = edgeTargets(step).filter((t) => t !== stepId);
  const branching = 'paths' in step && step.paths.length > 1;
  const successor = branching ? null : (targets[0] ?? null);
  let next = withSteps(n, n.steps.filter((s) => s.id !== stepId));
  const byId = stepIndex(next);
  const rewired = new Map<string, JourneyStep>();
  for (const e of incoming) {
    const from = rewired.get(e.from) ?? byId.get(e.from);
    if (from) rewired.set(e.from, withEdge(from, e.pathIndex, successor));
  }
  next = withSteps(next, next.steps.map((s) => rewired.get(s.id) ?? s));
  if (branching) next = pruneDownstream(next, targets);
  return normalizeJourney(next);
}

/** Sets one link (null opens it). A missing step or a source as target leaves the journey as is. */
export function connect(j: Journey, fromStepId: string, pathIndex: number | null, to: string | null): Journey {
  const n = normalizeJourney(j);
  const byId = stepIndex(n);
  const from = byId.get(fromStepId);
  if (!from || edgeTarget(from, pathIndex) === undefined) return n;
  if (to !== null) {
    const target = byId.get(to);
    if (!target || isSource(target.type)) return n;
  }
  return normalizeJourney(setStep(n, withEdge(from, pathIndex, to)));
}

/**
 * Replaces the step with the same id (fields, links, even its type: that is how the source is
 * switched between audience and events). A changed automatic step becomes a user step.
 */
export function updateStep(j: Journey, step: JourneyStep): Journey {
  const n = normalizeJourney(j);
  const old = stepIndex(n).get(step.id);
  if (!old) return n;
  const { auto: _oldAuto, ...oldRest } = old;
  const { auto: _newAuto, ...newRest } = step;
  if (jsonEqual(oldRest, newRest)) return n;
  const user = { ...step };
  delete user.auto;
  return normalizeJourney(setStep(n, user));
}

/** Adds a path with the step type's defaults, before the last (otherwise/timeout) path; appended for random. */
export function addPath(j: Journey, stepId: string, pathId: string): Journey {
  const n = normalizeJourney(j);
  const step = stepIndex(n).get(stepId);
  if (!step || !('paths' in step) || step.paths.some((p) => p.id === pathId)) return n;
  const at = step.type === 'flowRandom' ? step.paths.length : Math.max(0, step.paths.length - 1);
  const paths = [...step.paths];
  paths.splice(at, 0, createPath(step.type, pathId, false));
  return normalizeJourney(setStep(n, { ...step, paths }));
}

/** Removes a path (not the only one) and what lies below it that nothing else reaches. */
export function removePath(j: Journey, stepId: string, pathIndex: number): Journey {
  const n = normalizeJourney(j);
  const step = stepIndex(n).get(stepId);
  if (!step || !('paths' in step) || step.paths.length <= 1) return n;
  const path = step.paths[pathIndex];
  if (!path) return n;
  const next = setStep(n, { ...step, paths: step.paths.filter((_, i) => i !== pathIndex) });
  return normalizeJourney(path.next === null ? next : pruneDownstream(next, [path.next]));
}

/** Where a lost link was: the link (step, path) whose write to `orphanId` another change replaced. */
export interface LostLink {
  fromStepId: string;
  pathIndex: number | null;
}

/**
 * Puts back a step that a concurrent change cut off (SPEC.md section 4 keeps every step a person
 * added reachable unless someone removed it). Two people insert on the same link at once: one
 * link write wins and the other person's step is left pointing where the link went; a person
 * removes a step (a wait merge, an undo) that someone else had just linked a new step after.
 *
 * The cut-off step's chain continues into the journey at some step B (where its link points). The
 * step is put on a link into B: the winner's side first (walking down from what `lost` now leads
 * to, a chain is put after the winner's step: A → theirs → ours → B), otherwise the only reachable
 * link into B. Nothing changes when the step is gone, already reachable, leads nowhere reachable,
 * or the place is ambiguous (several links into B and no hint).
 */
export function relinkOrphan(j: Journey, orphanId: string, lost: LostLink | null): Journey {
  const n = normalizeJourney(j);
  const chosen = relinkPlace(n, orphanId, lost);
  return chosen ? relinkAt(n, chosen, orphanId) : n;
}

/** Points the link `place` of normalized `n` (found by relinkPlace) at `orphanId`. */
export function relinkAt(n: Journey, place: Edge, orphanId: string): Journey {
  const source = stepIndex(n).get(place.from);
  return source ? normalizeJourney(setStep(n, withEdge(source, place.pathIndex, orphanId))) : n;
}

/**
 * Puts back each step of `ids` that `j` still has but no longer connects, one after the other
 * (one put back can give the next its place), each on the link `hint` names or where its chain
 * rejoins the journey (relinkOrphan). Automatic steps are the rules' own and never put back.
 */
export function reconnect(j: Journey, ids: Iterable<string>, hint: (id: string, connected: ReadonlySet<string>) => LostLink | null = () => null): Journey {
  let n = normalizeJourney(j);
  for (const id of ids) {
    const step = stepIndex(n).get(id);
    if (!step || step.auto === true) continue;
    const connected = connectedSteps(n);
    if (!connected.has(id)) n = relinkOrphan(n, id, hint(id, connected));
  }
  return n;
}

/** The link of normalized `n` that `relinkOrphan` points at `orphanId`, or null. */
export function relinkPlace(n: Journey, orphanId: string, lost: LostLink | null): Edge | null {
  const byId = stepIndex(n);
  const orphan = byId.get(orphanId);
  if (!orphan || isSource(orphan.type) || n.entryId === null) return null;
  const live = reachable(n, [n.entryId]);
  if (live.has(orphanId)) return null;
  const isOpen = (to: string | null | undefined) => {
    if (to === null) return true;
    const step = to === undefined ? undefined : byId.get(to);
    return step?.type === 'end' && step.auto === true;
  };
  const joinAt = whereItJoins(n, orphanId, live, isOpen);
  if (joinAt === null) return null;
  const into = (to: string | null | undefined) => (joinAt === OPEN ? isOpen(to) : to === joinAt);
  const liveEdges = n.steps.filter((s) => live.has(s.id)).flatMap((s) => outEdges(s));
  let chosen: Edge | null = null;
  const from = lost ? byId.get(lost.fromStepId) : undefined;
  if (lost && from && live.has(from.id)) {
    const winner = edgeTarget(from, lost.pathIndex);
    if (winner !== undefined && into(winner)) chosen = { from: from.id, pathIndex: lost.pathIndex, to: winner };
    else if (typeof winner === 'string') {
      // The winner's own chain, down to its link into B: along the way the journey continues
      // first (next, or a branching step's last path), then any link below it (never passing B).
      chosen = continuationInto(byId, winner, into);
      if (!chosen) {
        const below = reachable(n, [winner], joinAt === OPEN ? new Set() : new Set([joinAt]));
        chosen = liveEdges.find((e) => below.has(e.from) && into(e.to)) ?? null;
      }
    }
  }
  if (!chosen) {
    const candidates = liveEdges.filter((e) => into(e.to));
    if (candidates.length === 1) chosen = candidates[0] ?? null;
  }
  return chosen;
}

/** Follows `next` (a branching step's last path) from `start` to the first link that `into` accepts. */
const continuationInto = (byId: ReadonlyMap<string, JourneyStep>, start: string, into: (to: string | null) => boolean): Edge | null =>
  continuationEdges(byId, start).find((e) => into(e.to)) ?? null;

/** The cut-off chain ends in an open end (a person's chain inserted where the journey ended). */
const OPEN = Symbol('open end');

/**
 * Where the cut-off region starting at `start` joins the journey: the first reachable step it leads
 * into (breadth first), or OPEN when it only ends (an open link or an automatic end), or null.
 */
function whereItJoins(j: Journey, start: string, live: ReadonlySet<string>, isOpen: (to: string | null) => boolean): string | typeof OPEN | null {
  const byId = stepIndex(j);
  const seen = new Set<string>([start]);
  const queue = [start];
  let ends = false;
  while (queue.length) {
    const step = byId.get(queue.shift() as string);
    if (!step) continue;
    for (const e of outEdges(step)) {
      // An automatic end that the journey still uses is that very place (ends are per place).
      if (e.to !== null && live.has(e.to)) return e.to;
      if (isOpen(e.to)) {
        ends = true;
        continue;
      }
      const t = e.to as string;
      if (!seen.has(t) && byId.has(t)) {
        seen.add(t);
        queue.push(t);
      }
    }
  }
  return ends ? OPEN : null;
}

/** A link named so that it survives path reordering: a step's `next` (pathId null) or one path's. */
export interface NamedLink {
  fromStepId: string;
  pathId: string | null;
}

function linkIndex(step: JourneyStep, pathId: string | null): number | null | undefined {
  if ('paths' in step) {
    if (pathId === null) return undefined;
    const i = step.paths.findIndex((p) => p.id === pathId);
    return i < 0 ? undefined : i;
  }
  return pathId === null && 'next' in step ? null : undefined;
}

/**
 * Puts back a step that someone else removed while this person had it open (with what they were
 * typing), where it was: on the first of `into` (the links that led into it) that still exists and
 * is reachable, continuing with whatever that link leads to now (what the removal joined it to, or
 * a step someone inserted there since), so nobody's step is cut off by the return. Its other links
 * keep their targets where those still exist (a branching step's removed branches come back open).
 * Further links of `into` that lead to the same place now lead to the step again. Nothing changes
 * when the step exists, is a source, or none of its places is left.
 */
export function putBackStep(j: Journey, step: JourneyStep, into: readonly NamedLink[]): Journey {
  const n = normalizeJourney(j);
  const byId = stepIndex(n);
  if (byId.has(step.id) || isSource(step.type) || n.entryId === null) return n;
  const live = reachable(n, [n.entryId]);
  const links = into.flatMap((l) => {
    const from = byId.get(l.fromStepId);
    const pathIndex = from && live.has(from.id) && from.id !== step.id ? linkIndex(from, l.pathId) : undefined;
    return from && pathIndex !== undefined ? [{ from, pathIndex }] : [];
  });
  const first = links[0];
  if (!first) return n;
  const isAutoEnd = (id: string | null | undefined) => id === null || id === undefined || (byId.get(id)?.type === 'end' && byId.get(id)?.auto === true);
  const now = edgeTarget(first.from, first.pathIndex) ?? null;
  const keep = (to: string | null) => (to !== null && byId.has(to) && !isSource(byId.get(to)?.type ?? 'end') && !isAutoEnd(to) ? to : null);
  let back: JourneyStep = { ...step };
  delete back.auto;
  for (const e of outEdges(back)) back = withEdge(back, e.pathIndex, keep(e.to));
  // It continues with what its place leads to now (unless that is only an automatic end).
  if (!isAutoEnd(now)) back = continueWith(back, now);
  const rewired = new Map<string, JourneyStep>();
  for (const l of links) {
    const from = rewired.get(l.from.id) ?? l.from;
    if (l === first || edgeTarget(from, l.pathIndex) === now) rewired.set(from.id, withEdge(from, l.pathIndex, step.id));
  }
  return normalizeJourney(withSteps(n, [...n.steps.map((s) => rewired.get(s.id) ?? s), back]));
}

/** The links into `stepId` in `j`, named (for putBackStep). */
export function linksInto(j: Journey, stepId: string): NamedLink[] {
  const byId = stepIndex(j);
  return (predecessors(j).get(stepId) ?? []).flatMap((e) => {
    const from = byId.get(e.from);
    if (!from) return [];
    const pathId = e.pathIndex === null || !('paths' in from) ? null : (from.paths[e.pathIndex]?.id ?? null);
    return [{ fromStepId: e.from, pathId }];
  });
}
