/**
 * fast-check arbitraries for journeys and edit sequences (tests only; not exported from the
 * package index). Random journeys are deliberately broken: dangling and null links, links into
 * sources, missing entries, branching steps without paths, stray automatic flags.
 */
import { normalizeJourney } from './normalize.ts';
import fc from 'fast-check';
import { addPath, addStepAfter, connect, removePath, removeStep, updateStep } from './edit.ts';
import {
  InteractionType,
  STEP_TYPES,
  createPath,
  createStep,
  isSource,
  type Journey,
  type JourneyStep,
  type StepType,
} from './model.ts';

const stepSpec = fc.record({
  type: fc.constantFrom(...STEP_TYPES),
  /** -2: null, -1: a missing id, k: step k (mod count). */
  targets: fc.array(fc.integer({ min: -2, max: 12 }), { maxLength: 4 }),
  actions: fc.array(fc.option(fc.constantFrom(...InteractionType.options), { nil: null }), { maxLength: 4 }),
  duration: fc.option(fc.constantFrom(0, 60, 3600, 86_400), { nil: null }),
  auto: fc.boolean(),
});

export const arbJourney: fc.Arbitrary<Journey> = fc
  .record({ specs: fc.array(stepSpec, { minLength: 1, maxLength: 10 }), entry: fc.integer({ min: -2, max: 10 }) })
  .map(({ specs, entry }) => {
    const n = specs.length;
    const resolve = (t: number) => (t === -2 ? null : t === -1 ? 'missing' : `s${t % n}`);
    const steps = specs.map((spec, i): JourneyStep => {
      const id = `s${i}`;
      const base = createStep(spec.type, id);
      const auto = spec.auto ? { auto: true } : {};
      if ('paths' in base) {
        const paths = spec.targets.map((t, k) => {
          const path = { ...createPath(base.type, `p${k}`, k === spec.targets.length - 1), next: resolve(t) };
          const action = spec.actions[k];
          return action !== undefined && 'action' in path ? { ...path, action } : path;
        });
        return { ...base, ...auto, paths };
      }
      if (base.type === 'flowWait') return { ...base, ...auto, duration: spec.duration, next: resolve(spec.targets[0] ?? -2) };
      if ('next' in base) return { ...base, ...auto, next: resolve(spec.targets[0] ?? -2) };
      return { ...base, ...auto };
    });
    return { entryId: entry === -2 ? null : entry === -1 ? 'missing' : `s${entry % n}`, steps };
  });

export type EditOp =
  | { kind: 'add'; from: number; path: number; type: StepType }
  | { kind: 'remove'; step: number }
  | { kind: 'connect'; from: number; path: number; to: number | null }
  | { kind: 'update'; step: number; variant: number }
  | { kind: 'addPath'; step: number }
  | { kind: 'removePath'; step: number; path: number };

const idx = fc.nat({ max: 50 });
const NON_SOURCE = STEP_TYPES.filter((t) => !isSource(t));
/** Biased towards the types the rules care about (waits, interactions, events, in-app). */
const addType = fc.oneof(
  fc.constantFrom(...NON_SOURCE),
  fc.constantFrom<StepType>('flowWait', 'flowInteraction', 'flowWaitInteraction', 'flowEvent', 'actionMessageInApp', 'actionMessagePush'),
);

export const arbEditOp: fc.Arbitrary<EditOp> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('add' as const), from: idx, path: idx, type: addType }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('remove' as const), step: idx }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('connect' as const), from: idx, path: idx, to: fc.option(idx, { nil: null }) }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('update' as const), step: idx, variant: fc.nat({ max: 99 }) }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('addPath' as const), step: idx }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('removePath' as const), step: idx, path: idx }), weight: 1 },
);

const pick = <T>(items: readonly T[], i: number): T | undefined => (items.length ? items[i % items.length] : undefined);
const linkIndex = (s: JourneyStep, i: number) => ('paths' in s ? i % Math.max(1, s.paths.length) : null);

/** A user edit of a step's fields (or its type), picked by `variant`. */
function mutate(step: JourneyStep, variant: number): JourneyStep {
  const actions = InteractionType.options;
  if (variant % 7 === 0) {
    // Type change, keeping the id and the first onward link.
    const types = isSource(step.type) ? (['sourceAudience', 'sourceEvents'] as const) : NON_SOURCE;
    const fresh = createStep(pick(types, variant) ?? step.type, step.id);
    const first = 'paths' in step ? (step.paths[0]?.next ?? null) : 'next' in step ? step.next : null;
    if ('paths' in fresh) return { ...fresh, paths: fresh.paths.map((p, i) => (i === 0 ? { ...p, next: first } : p)) };
    return 'next' in fresh ? { ...fresh, next: first } : fresh;
  }
  if (step.type === 'flowWait') return { ...step, duration: pick([0, 60, 3600, 86_400], variant) ?? 60 };
  if ('paths' in step) {
    const k = variant % Math.max(1, step.paths.length);
    return { ...step, paths: step.paths.map((p, i) => (i === k ? { ...p, action: pick(actions, variant) ?? null } : p)) };
  }
  return { ...step, name: `edited ${variant}` };
}

/** Applies one random edit; new step and path ids come from `fresh`. */
/**
 * Applies a random edit as the editor would: every rule function normalizes, and an edit that does
 * not apply (no such path, no such step) still leaves the normalized view the editor works on.
 */
export function applyEditOp(j: Journey, op: EditOp, fresh: () => string): Journey {
  return normalizeJourney(applyRaw(j, op, fresh));
}

function applyRaw(j: Journey, op: EditOp, fresh: () => string): Journey {
  const step = (i: number) => pick(j.steps, i);
  switch (op.kind) {
    case 'add': {
      const from = step(op.from);
      return from ? addStepAfter(j, from.id, linkIndex(from, op.path), op.type, fresh()) : j;
    }
    case 'remove': {
      const s = step(op.step);
      return s ? removeStep(j, s.id) : j;
    }
    case 'connect': {
      const from = step(op.from);
      const to = op.to === null ? null : (step(op.to)?.id ?? null);
      return from ? connect(j, from.id, linkIndex(from, op.path), to) : j;
    }
    case 'update': {
      const s = step(op.step);
      return s ? updateStep(j, mutate(s, op.variant)) : j;
    }
    case 'addPath': {
      const s = step(op.step);
      return s ? addPath(j, s.id, fresh()) : j;
    }
    case 'removePath': {
      const s = step(op.step);
      return s && 'paths' in s ? removePath(j, s.id, op.path % Math.max(1, s.paths.length)) : j;
    }
  }
}

/**
 * Edits that never cut a step off on purpose: inserting a step that is not an end (an end cuts
 * what followed), and removing a step that does not branch (its predecessors link to its
 * successor). Under these, every step someone added and nobody removed must stay reachable,
 * whatever the concurrency.
 */
export type InsertOrRemove = { kind: 'add'; from: number; path: number; type: StepType } | { kind: 'remove'; step: number };
export const arbInsertOrRemove: fc.Arbitrary<InsertOrRemove> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('add' as const), from: idx, path: idx, type: fc.constantFrom(...NON_SOURCE.filter((t) => t !== 'end')) }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('remove' as const), step: idx }), weight: 1 },
);

/** Applies one such edit (a remove of a branching step or of the entry does nothing). */
export function applyInsertOrRemove(j: Journey, op: InsertOrRemove, newId: string): Journey {
  const n = normalizeJourney(j);
  if (op.kind === 'add') {
    const from = pick(n.steps, op.from);
    return from ? addStepAfter(n, from.id, linkIndex(from, op.path), op.type, newId) : n;
  }
  const s = pick(n.steps.filter((x) => !('paths' in x) || x.paths.length <= 1), op.step);
  return s ? removeStep(n, s.id) : n;
}
