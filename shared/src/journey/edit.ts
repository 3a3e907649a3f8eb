/**
 * Editing operations on a journey (SPEC.md section 4). Each takes any journey, normalizes it,
 * applies the edit and returns the normalized result; an edit that does not apply (unknown step,
 * missing link, taken id, a link into a source) returns the normalized input unchanged.
 */
import { edgeTarget, edgeTargets, predecessors, reachable, stepIndex, withEdge } from './graph.ts';
import { jsonEqual } from './json.ts';
import { createPath, createStep, isSource, type Journey, type JourneyStep, type StepType } from './model.ts';
import { normalizeJourney } from './normalize.ts';

/** True when a step of `type` can be inserted on the link (`fromStepId`, `pathIndex`). */
export function canAddAfter(j: Journey, fromStepId: string, pathIndex: number | null, type: StepType): boolean {
  const from = stepIndex(j).get(fromStepId);
  return !!from && edgeTarget(from, pathIndex) !== undefined && !isSource(type);
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
