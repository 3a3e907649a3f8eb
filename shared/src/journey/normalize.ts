/**
 * The journey editing rules of SPEC.md section 4, as one pure repair: `normalizeJourney` applies
 * every invariant until nothing changes. Editing operations (edit.ts) end with it, and the editor
 * runs it after merging concurrent edits, which can break the invariants although each edit alone
 * kept them (ARCHITECTURE.md, sync rules).
 *
 * Invariants after normalization:
 * - the entry is a source step (the first one) or null when there is none;
 * - no link points to a missing step or to a source (both count as open), no wait links to itself;
 * - every open end (a null `next` or path `next`) leads to an automatic end step;
 * - no wait is followed by a wait: two user waits merge into the first with durations summed; an
 *   automatic wait next to another wait is redundant and dissolves (its duration is not added, so a
 *   user who adds a 1 h wait before an event step gets 1 h, not 25 h);
 * - interaction actions fit every message that can precede the interaction step (walking back over
 *   non-message steps): open only after in-app; click, impression, dismissed click only after push
 *   or email; with no preceding message no action fits;
 * - every link into a flowInteraction or flowEvent comes from a wait (flowWait or
 *   flowWaitInteraction, which waits itself), and every link out of an in-app message goes to one:
 *   otherwise an automatic wait of DEFAULT_WAIT_SECONDS is inserted (one per target step, shared
 *   by all the links that need it);
 * - branching steps have at least one path; step ids and path ids (within a step) are unique;
 * - automatic steps that nothing links to are removed.
 *
 * Automatic step ids are derived from their place (`auto-end-<step>[-<path>]`, `auto-wait-<step>`)
 * so two replicas repairing the same merged state write the same steps.
 */
import { outEdges, predecessors, stepIndex, withEdge, type Edge } from './graph.ts';
import {
  DEFAULT_WAIT_SECONDS,
  MAX_DURATION_SECONDS,
  createPath,
  interactionsAfter,
  isSource,
  isWaitLike,
  messageChannel,
  type InteractionType,
  type Journey,
  type JourneyStep,
  type MessageChannel,
} from './model.ts';

type Pass = (j: Journey) => Journey;

function replaceSteps(j: Journey, changed: Map<string, JourneyStep>): Journey {
  if (changed.size === 0) return j;
  return { ...j, steps: j.steps.map((s) => changed.get(s.id) ?? s) };
}

/** Points each edge (identified by source step and path index) at its new target. */
function redirectEach(j: Journey, moves: readonly (readonly [Edge, string | null])[]): Journey {
  const byId = stepIndex(j);
  const changed = new Map<string, JourneyStep>();
  for (const [e, to] of moves) {
    const step = changed.get(e.from) ?? byId.get(e.from);
    if (step) changed.set(e.from, withEdge(step, e.pathIndex, to));
  }
  return replaceSteps(j, changed);
}

const redirect = (j: Journey, edges: readonly Edge[], to: string | null): Journey =>
  redirectEach(j, edges.map((e) => [e, to] as const));

const removeSteps = (j: Journey, ids: ReadonlySet<string>): Journey =>
  ids.size === 0 ? j : { ...j, steps: j.steps.filter((s) => !ids.has(s.id)) };

/** A free id from `base`, or an existing step that `reusable` accepts; skips `claimed` ids. */
function autoId(byId: ReadonlyMap<string, JourneyStep>, base: string, reusable: (s: JourneyStep) => boolean, claimed: ReadonlySet<string>) {
  for (let n = 1; ; n++) {
    const id = n === 1 ? base : `${base}-${n}`;
    if (claimed.has(id)) continue;
    const existing = byId.get(id);
    if (!existing) return { id, reuse: false };
    if (reusable(existing)) return { id, reuse: true };
  }
}

const dedupeIds: Pass = (j) => {
  const seen = new Set<string>();
  let dropped = false;
  const changed = new Map<string, JourneyStep>();
  const steps = j.steps.filter((s) => {
    if (seen.has(s.id)) return !(dropped = true);
    seen.add(s.id);
    if ('paths' in s) {
      // Two paths share an id only when two replicas made the same change concurrently (path ids
      // are fresh per edit, or derived by the rules). Keep the first and drop the others: every
      // replica drops the same Yjs item, so their repairs converge. (Renaming the duplicate made
      // each replica insert its own renamed copy, and the repairs never converged.)
      const ids = new Set<string>();
      const paths = s.paths.filter((p) => !ids.has(p.id) && ids.add(p.id) !== undefined);
      if (paths.length !== s.paths.length) changed.set(s.id, { ...s, paths });
    }
    return true;
  });
  return replaceSteps(dropped ? { ...j, steps } : j, changed);
};

const ensurePaths: Pass = (j) => {
  const changed = new Map<string, JourneyStep>();
  for (const s of j.steps) {
    if ('paths' in s && s.paths.length === 0) changed.set(s.id, { ...s, paths: [createPath(s.type, 'p1', true)] });
  }
  return replaceSteps(j, changed);
};

const clearBadEdges: Pass = (j) => {
  const byId = stepIndex(j);
  const bad = j.steps.flatMap((s) =>
    outEdges(s).filter((e) => {
      if (e.to === null) return false;
      const target = byId.get(e.to);
      return !target || isSource(target.type) || (s.type === 'flowWait' && e.to === s.id);
    }),
  );
  return bad.length ? redirect(j, bad, null) : j;
};

const fixEntry: Pass = (j) => {
  const entry = j.entryId === null ? undefined : stepIndex(j).get(j.entryId);
  if (entry && isSource(entry.type)) return j;
  const id = j.steps.find((s) => isSource(s.type))?.id ?? null;
  return id === j.entryId ? j : { ...j, entryId: id };
};

const sumDurations = (a: number | null, b: number | null) =>
  a === null ? b : b === null ? a : Math.min(a + b, MAX_DURATION_SECONDS);

/** One merge per call; the fixed-point loop repeats it. */
/** Whether `id` is on a loop made of waits only that does not pass through `except`. */
function onWaitLoopWithout(byId: Index, id: string, except: string): boolean {
  let at = byId.get(id);
  for (let hops = 0; at && at.type === 'flowWait' && hops <= byId.size; hops++) {
    const next = at.next;
    if (next === null || next === except) return false;
    if (next === id) return true;
    at = byId.get(next);
  }
  return false;
}

const mergeWaits: Pass = (j) => {
  const byId = stepIndex(j);
  for (const a of j.steps) {
    if (a.type !== 'flowWait' || a.next === null) continue;
    const b = byId.get(a.next);
    if (!b || b.type !== 'flowWait' || b.id === a.id) continue;
    // A loop of waits through `a` is broken by the merge (b's link back to a is cut). A loop of
    // waits that `a` only enters (w1 → w2 ↔ w3) is broken from inside instead: merging into it from
    // outside would copy it around the loop forever, and the rules would never settle.
    if (onWaitLoopWithout(byId, b.id, a.id)) continue;
    if (a.auto && !b.auto) {
      // The automatic wait is redundant next to the user's: its predecessors go straight to b.
      const into = predecessors(j).get(a.id) ?? [];
      return removeSteps(redirect(j, into, b.id), new Set([a.id]));
    }
    const duration = b.auto ? a.duration : sumDurations(a.duration, b.duration);
    const merged = { ...a, duration, next: b.next === a.id ? null : b.next };
    const next = replaceSteps(j, new Map([[a.id, merged]]));
    const stillUsed = (predecessors(next).get(b.id) ?? []).length > 0;
    return stillUsed ? next : removeSteps(next, new Set([b.id]));
  }
  return j;
};

type Preds = ReadonlyMap<string, readonly Edge[]>;
type Index = ReadonlyMap<string, JourneyStep>;

/** Message channels that can precede `id`, walking back over non-message steps. */
export function precedingChannels(j: Journey, id: string): Set<MessageChannel> {
  return channelsBefore(stepIndex(j), predecessors(j), id);
}

function channelsBefore(byId: Index, preds: Preds, id: string): Set<MessageChannel> {
  const found = new Set<MessageChannel>();
  const seen = new Set<string>();
  const queue = (preds.get(id) ?? []).map((e) => e.from);
  while (queue.length) {
    const from = queue.pop() as string;
    if (seen.has(from)) continue;
    seen.add(from);
    const step = byId.get(from);
    if (!step) continue;
    const channel = messageChannel(step.type);
    if (channel) found.add(channel);
    else if (!isSource(step.type)) queue.push(...(preds.get(from) ?? []).map((e) => e.from));
  }
  return found;
}

/** The interaction actions that fit every message that can precede step `id`. */
export function allowedInteractions(j: Journey, id: string): InteractionType[] {
  return interactionsFitting(channelsBefore(stepIndex(j), predecessors(j), id));
}

function interactionsFitting(found: ReadonlySet<MessageChannel>): InteractionType[] {
  const channels = [...found];
  if (channels.length === 0) return [];
  return interactionsAfter(channels[0] as MessageChannel).filter((a) =>
    channels.every((c) => interactionsAfter(c).includes(a)),
  );
}

const clearInvalidActions: Pass = (j) => {
  const changed = new Map<string, JourneyStep>();
  const byId = stepIndex(j);
  const preds = predecessors(j);
  for (const s of j.steps) {
    if (s.type !== 'flowInteraction' && s.type !== 'flowWaitInteraction') continue;
    if (!s.paths.some((p) => p.action !== null && p.action !== undefined)) continue;
    const allowed = interactionsFitting(channelsBefore(byId, preds, s.id));
    const bad = (a: InteractionType | null | undefined) => a !== null && a !== undefined && !allowed.includes(a);
    if (s.paths.some((p) => bad(p.action))) {
      changed.set(s.id, { ...s, paths: s.paths.map((p) => (bad(p.action) ? { ...p, action: null } : p)) });
    }
  }
  return replaceSteps(j, changed);
};

/** The incoming links of `target` that need a wait in between. */
function linksNeedingWait(byId: Index, target: JourneyStep, incoming: readonly Edge[]): Edge[] {
  if (isWaitLike(target.type)) return [];
  const needsWait = target.type === 'flowInteraction' || target.type === 'flowEvent';
  return incoming.filter((e) => {
    const from = byId.get(e.from);
    if (!from) return false;
    return (needsWait && !isWaitLike(from.type)) || from.type === 'actionMessageInApp';
  });
}

/** One automatic wait per step that needs one, shared by all its links that need it. */
const insertAutoWaits: Pass = (j) => {
  const byId = stepIndex(j);
  const preds = predecessors(j);
  const free = (s: JourneyStep) => s.type === 'flowWait' && !!s.auto && (preds.get(s.id) ?? []).length === 0;
  const claimed = new Set<string>();
  const reused = new Map<string, JourneyStep>();
  const added: JourneyStep[] = [];
  const moves: [Edge, string][] = [];
  for (const target of j.steps) {
    const links = linksNeedingWait(byId, target, preds.get(target.id) ?? []);
    if (links.length === 0) continue;
    const { id, reuse } = autoId(byId, `auto-wait-${target.id}`, free, claimed);
    claimed.add(id);
    const wait: JourneyStep = { id, type: 'flowWait', auto: true, next: target.id, duration: DEFAULT_WAIT_SECONDS };
    if (reuse) reused.set(id, wait);
    else added.push(wait);
    for (const e of links) moves.push([e, id]);
  }
  if (moves.length === 0) return j;
  const withWaits = replaceSteps(j, reused);
  return redirectEach({ ...withWaits, steps: [...withWaits.steps, ...added] }, moves);
};

const closeOpenEnds: Pass = (j) => {
  const byId = stepIndex(j);
  const preds = predecessors(j);
  const free = (s: JourneyStep) => s.type === 'end' && (preds.get(s.id) ?? []).length === 0;
  const claimed = new Set<string>();
  const added: JourneyStep[] = [];
  const changed = new Map<string, JourneyStep>();
  for (const s of j.steps) {
    let step = s;
    for (const e of outEdges(s)) {
      if (e.to !== null) continue;
      const pathId = e.pathIndex === null || !('paths' in s) ? null : s.paths[e.pathIndex]?.id;
      const base = pathId ? `auto-end-${s.id}-${pathId}` : `auto-end-${s.id}`;
      const { id, reuse } = autoId(byId, base, free, claimed);
      claimed.add(id);
      if (!reuse) added.push({ id, type: 'end', auto: true });
      step = withEdge(step, e.pathIndex, id);
    }
    if (step !== s) changed.set(s.id, step);
  }
  const next = replaceSteps(j, changed);
  return added.length ? { ...next, steps: [...next.steps, ...added] } : next;
};

const removeOrphanAutoSteps: Pass = (j) => {
  const preds = predecessors(j);
  const orphans = new Set(
    j.steps.filter((s) => s.auto && s.id !== j.entryId && (preds.get(s.id) ?? []).length === 0).map((s) => s.id),
  );
  return removeSteps(j, orphans);
};

const PASSES: readonly Pass[] = [
  dedupeIds,
  ensurePaths,
  clearBadEdges,
  fixEntry,
  mergeWaits,
  clearInvalidActions,
  insertAutoWaits,
  closeOpenEnds,
  removeOrphanAutoSteps,
];

/**
 * Applies every invariant until a fixed point. Returns `j` itself when it is already normal.
 * Deterministic: the same input gives the same output on every replica.
 */
export function normalizeJourney(j: Journey): Journey {
  let current = j;
  const limit = 20 + 10 * (j.steps.length + j.steps.reduce((n, s) => n + ('paths' in s ? s.paths.length : 0), 0));
  for (let i = 0; i < limit; i++) {
    const next = PASSES.reduce((acc, pass) => pass(acc), current);
    if (next === current) return current;
    current = next;
  }
  throw new Error('normalizeJourney did not reach a fixed point');
}
