/**
 * What a journey editor does about its writes that other people's concurrent changes replaced
 * (overwrites.ts): a lost link to a step is put back (`relinkOrphan`: the step stays reachable,
 * nobody has to notice it was cut off), and a lost value of any other field is shown to the person
 * on that step with their value, so they can restore it with one action.
 */
import * as Y from 'yjs';
import { relinkAt, relinkPlace, type LostLink } from '../journey/edit.ts';
import { connectedSteps, continuationEdges, outEdges, reachable, stepIndex, type Edge } from '../journey/graph.ts';
import type { Journey, JourneyStep } from '../journey/model.ts';
import { normalizeJourney } from '../journey/normalize.ts';
import { applyJourneyToDoc, journeyFromDoc } from './journeyDoc.ts';
import { watchOverwrites, type Overwrite, type WatchOptions } from './overwrites.ts';
import { isSettled } from './settled.ts';

const MAX_CHAIN = 16;

export interface JourneyConflict {
  stepId: string;
  /** The path's id when the field belongs to a path of a branching step. */
  pathId: string | null;
  field: string;
  mine: unknown;
  theirs: unknown;
  byClient: number | null;
  /** The step (or path) was removed by the other change. */
  removed: boolean;
  /**
   * Not a value to restore: the person's step was cut off by the other change (`field` 'next') and
   * has been put back on the journey (after the other person's step when both used one link).
   */
  relinked?: boolean;
  /** Writes the person's value back (false when the step or path is gone). */
  restore: (origin: unknown) => boolean;
}

export interface Relink {
  /**
   * The step our lost link pointed to, then the steps its chain continued with (chainFrom) when
   * the link was written.
   */
  orphanIds: string[];
  lost: LostLink | null;
  /** Where the lost link was, to find its path index again at re-link time. */
  pathId: string | null;
  /**
   * The links into the lost link's step when it was written: where the step went when someone
   * removed it meanwhile (their removal joined those links to what came after it).
   */
  via?: LinkAt[];
  /** How many times it could not be put back yet (its place was cut off too, or ambiguous). */
  waited?: number;
  /** Whose write replaced our link, when known. */
  byClient?: number | null;
}

/**
 * How many times a re-link is tried again before it is given up: a place cut off by the same
 * concurrent changes comes back within a few rounds (another person's re-link); one that is still
 * ambiguous after this many document changes stays where the journey shows it, unconnected.
 */
export const MAX_RELINK_WAITS = 50;

/** A link: a step's `next`, or the `next` of one of its paths. */
export interface LinkAt {
  stepId: string;
  pathId: string | null;
}

/** The step (and path) a map of a journey document belongs to, or null for other maps. */
export function locateJourneyMap(doc: Y.Doc, map: Y.Map<unknown>): { stepId: string; pathId: string | null } | null {
  const item = map._item;
  if (!item) return null;
  const steps = doc.getMap('steps');
  if (item.parent === steps && typeof item.parentSub === 'string') return { stepId: item.parentSub, pathId: null };
  const array = item.parent;
  if (!(array instanceof Y.Array) || array._item?.parentSub !== 'paths') return null;
  const stepMap = array._item.parent;
  if (!(stepMap instanceof Y.Map) || stepMap._item?.parent !== steps || typeof stepMap._item.parentSub !== 'string') return null;
  const pathId = map.get('id');
  return { stepId: stepMap._item.parentSub, pathId: typeof pathId === 'string' ? pathId : null };
}

/**
 * How a journey editor watches its writes: only step and path fields (positions and meta are not
 * conflicts anyone needs to see); a link keeps the chain it led into when it was written, and the
 * links into its own step.
 */
export function journeyWatch(doc: Y.Doc): WatchOptions {
  // The journey as one transaction left it, read once for all the links it wrote (a repair
  // writes many): their chains and the links into their steps come from it.
  const read = new WeakMap<Y.Transaction, LinkIndex>();
  const indexOf = (tr: Y.Transaction): LinkIndex => {
    let index = read.get(tr);
    if (!index) read.set(tr, (index = linkIndex(journeyFromDoc(doc))));
    return index;
  };
  return {
    track: (map) => locateJourneyMap(doc, map) !== null,
    context: (map, key, value, tr): WriteContext => {
      const at = locateJourneyMap(doc, map);
      if (key !== 'next' || typeof value !== 'string') return { at, chain: [], via: [] };
      const index = indexOf(tr);
      return { at, chain: [value, ...chainIds(index.byId, value)], via: at ? (index.into.get(at.stepId) ?? []) : [] };
    },
    pointsAtLive: (_map, key, value) => (key === 'next' && typeof value === 'string' ? doc.getMap('steps').has(value) : null),
  };
}

interface LinkIndex {
  byId: Map<string, JourneyStep>;
  /** The links into each step. */
  into: Map<string, LinkAt[]>;
}

function linkIndex(j: Journey): LinkIndex {
  const into = new Map<string, LinkAt[]>();
  for (const step of j.steps) {
    for (const e of outEdges(step)) {
      if (e.to === null) continue;
      const pathId = e.pathIndex === null || !('paths' in step) ? null : (step.paths[e.pathIndex]?.id ?? null);
      if (e.pathIndex !== null && pathId === null) continue;
      into.set(e.to, [...(into.get(e.to) ?? []), { stepId: step.id, pathId }]);
    }
  }
  return { byId: stepIndex(j), into };
}

/**
 * The steps the chain from `id` continues with (`next`, or a branching step's last path): if `id`
 * is gone by the time the link is put back (an automatic step that a normalization dropped once
 * it was cut off, a step removed since), the next one of the chain is the one to put back.
 */
const chainIds = (byId: ReadonlyMap<string, JourneyStep>, id: string): string[] =>
  continuationEdges(byId, id, MAX_CHAIN - 1).flatMap((e) => (e.to !== null && byId.has(e.to) ? [e.to] : []));

/**
 * Kept with each write: where it was (a removed map no longer says) and, for a link, its chain and
 * the links into its step.
 */
interface WriteContext {
  at: LinkAt | null;
  chain: string[];
  via: LinkAt[];
}

const contextOf = (o: Overwrite): WriteContext => {
  const c = o.context as Partial<WriteContext> | undefined;
  return { at: c?.at ?? null, chain: Array.isArray(c?.chain) ? c.chain : [], via: Array.isArray(c?.via) ? c.via : [] };
};

/** Splits overwrites into links to put back and fields to show. */
export function classifyJourneyOverwrites(doc: Y.Doc, overwrites: readonly Overwrite[]): { relinks: Relink[]; conflicts: JourneyConflict[] } {
  const relinks: Relink[] = [];
  const conflicts: JourneyConflict[] = [];
  for (const o of overwrites) {
    const written = contextOf(o);
    const at = locateJourneyMap(doc, o.map) ?? written.at;
    if (!at) continue;
    if (o.key === 'next') {
      if (typeof o.mine === 'string') {
        relinks.push({ orphanIds: written.chain.length > 0 ? written.chain : [o.mine], lost: { fromStepId: at.stepId, pathIndex: null }, pathId: at.pathId, via: written.via, byClient: o.byClient });
      }
      continue;
    }
    if (o.key === 'id' || o.key === 'type' || o.key === 'auto' || o.key === 'paths') continue;
    conflicts.push({
      ...at,
      field: o.key,
      mine: o.mine,
      theirs: o.theirs,
      byClient: o.byClient,
      removed: o.removed,
      restore: (origin) => {
        if (o.removed || !locateJourneyMap(doc, o.map)) return false;
        doc.transact(() => o.map.set(o.key, structuredClone(o.mine)), origin);
        return true;
      },
    });
  }
  return { relinks, conflicts };
}

/**
 * Puts back the steps of `relinks` that are still cut off, in one transaction: each is put on a
 * link into the place its chain rejoins (relinkPlace), the result normalized and written. The step
 * to put back is the first of the lost link's chain (as the document holds it now, then as it was
 * when the link was written) that the normalized journey still has; a chain that already rejoins
 * the journey needs nothing. The link is written even when it already holds that value (a link of
 * ours pointing at a step someone removed and we put back): a new write, so that a concurrent
 * change to it is seen as one (watchOverwrites) and handled again.
 *
 * Answers the re-links that have to wait: the step is still cut off and its place cannot be found
 * yet, typically because the place is itself cut off until another person's re-link arrives (their
 * normalization dropped the automatic step ours went through). The caller tries them again on the
 * next change of the document.
 */
export function writeRelinks(doc: Y.Doc, relinks: readonly Relink[], origin?: unknown): Relink[] {
  const raw = journeyFromDoc(doc);
  let j = normalizeJourney(raw);
  const links: Edge[] = [];
  // A step of ours whose lost link lived in a step someone removed goes where our links into that
  // removed step were (a chain inserted after a step that was removed meanwhile).
  const inDoc = stepIndex(raw);
  const intoRemoved = new Map<string, Relink>();
  for (const r of relinks) {
    const target = r.orphanIds[0];
    if (target !== undefined && !inDoc.has(target)) intoRemoved.set(target, r);
  }
  // A step can only go back once the place it goes to is reachable again, and that place may be
  // another step of `relinks` (a step of ours linked after a step of ours that lost its own link):
  // passes go on while one of them puts a step back.
  let pending = [...relinks];
  for (let progress = true; progress && pending.length > 0; ) {
    progress = false;
    const waiting: Relink[] = [];
    for (const original of pending) {
      const r = insteadOfRemoved(original, intoRemoved, inDoc);
      let lost = r.lost;
      if (lost && r.pathId !== null) {
        const step = stepIndex(j).get(lost.fromStepId);
        const index = step && 'paths' in step ? step.paths.findIndex((p) => p.id === r.pathId) : -1;
        lost = index >= 0 ? { fromStepId: lost.fromStepId, pathIndex: index } : null;
      }
      const first = r.orphanIds[0];
      const chain = [...new Set([...(first === undefined ? [] : [first, ...chainIds(inDoc, first)]), ...r.orphanIds])];
      const present = stepIndex(j);
      const live = connectedSteps(j);
      // Automatic steps are the rules' own, never a person's step to put back.
      const orphanId = chain.find((id) => present.has(id) && present.get(id)?.auto !== true);
      if (!orphanId || live.has(orphanId)) continue;
      const place = relinkPlace(j, orphanId, lost);
      if (!place) {
        waiting.push(original);
        continue;
      }
      j = relinkAt(j, place, orphanId);
      links.push(place);
      progress = true;
    }
    pending = waiting;
  }
  if (links.length > 0) {
    doc.transact(() => {
      applyJourneyToDoc(doc, j);
      for (const e of links) touchLink(doc, e.from, e.pathIndex);
    }, origin);
  }
  return pending.filter((r) => (r.waited ?? 0) < MAX_RELINK_WAITS).map((r) => ({ ...r, waited: (r.waited ?? 0) + 1 }));
}

/**
 * Where to put back a step whose lost link lived in a step someone removed: where our own lost
 * link into that step was (`intoRemoved`: a chain inserted after a step that was removed
 * meanwhile), or else where the links into it were when we wrote ours (the removal joined them to
 * what followed); again while that place was removed too.
 */
function insteadOfRemoved(r: Relink, intoRemoved: ReadonlyMap<string, Relink>, inDoc: ReadonlyMap<string, unknown>): Relink {
  let place = r;
  for (let hops = 0; place.lost && !inDoc.has(place.lost.fromStepId) && hops < MAX_CHAIN; hops++) {
    const into = intoRemoved.get(place.lost.fromStepId);
    const via = place.via?.find((l) => inDoc.has(l.stepId));
    if (into && into !== place) place = { ...place, lost: into.lost, pathId: into.pathId, via: into.via ?? [] };
    else if (via) place = { ...place, lost: { fromStepId: via.stepId, pathIndex: null }, pathId: via.pathId, via: [] };
    else break;
  }
  return place === r ? r : { ...r, lost: place.lost, pathId: place.pathId };
}

/** Writes a link's current value again (a new Yjs item with the same value). */
function touchLink(doc: Y.Doc, stepId: string, pathIndex: number | null) {
  const step: unknown = doc.getMap<unknown>('steps').get(stepId);
  if (!(step instanceof Y.Map)) return;
  const paths: unknown = (step as Y.Map<unknown>).get('paths');
  const map: unknown = pathIndex !== null && paths instanceof Y.Array ? (paths as Y.Array<unknown>).get(pathIndex) : pathIndex === null ? step : null;
  if (map instanceof Y.Map && map.has('next')) (map as Y.Map<unknown>).set('next', (map as Y.Map<unknown>).get('next'));
}

export interface ConflictWatchOptions {
  /** Whether this replica may write now (a viewer never re-links). */
  canWrite: () => boolean;
  /**
   * Lost values of other fields, to show to the person; and the person's steps that a re-link put
   * back on the journey (`relinked`), so they know why their step moved.
   */
  onConflicts: (found: JourneyConflict[]) => void;
  /** The transaction origin of re-links (the editor's repair origin: not undoable). */
  origin?: unknown;
}

/**
 * What a journey editor runs on its document: its overwritten writes are classified as they are
 * found; lost links are put back on a settled document only (nothing received waits for an update
 * it depends on, `isSettled`), right after the change that showed them, and those that have to wait
 * are tried again on each later change. Only the replica whose write lost re-links, so it happens
 * once. Returns a function that stops watching.
 */
export function watchJourneyConflicts(doc: Y.Doc, opts: ConflictWatchOptions): () => void {
  let pending: Relink[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;
  const relinkWhenSettled = () => {
    timer = null;
    if (pending.length === 0 || !opts.canWrite() || !isSettled(doc)) return; // again on the next update
    const todo = pending;
    pending = [];
    const before = connectedSteps(normalizeJourney(journeyFromDoc(doc)));
    pending.push(...writeRelinks(doc, todo, opts.origin));
    const back = relinkedSteps(doc, before, todo);
    if (back.length > 0) opts.onConflicts(back);
  };
  const schedule = () => {
    if (pending.length > 0 && timer === null) timer = setTimeout(relinkWhenSettled, 0);
  };
  const stop = watchOverwrites(
    doc,
    (overwrites) => {
      const classified = classifyJourneyOverwrites(doc, overwrites);
      pending.push(...classified.relinks);
      schedule();
      if (classified.conflicts.length > 0) opts.onConflicts(classified.conflicts);
    },
    journeyWatch(doc),
  );
  doc.on('update', schedule);
  return () => {
    stop();
    doc.off('update', schedule);
    if (timer) clearTimeout(timer);
  };
}

/**
 * The person's steps that `relinks` put back (connected now, not in `before`), each told with who
 * cut it off: the writer of the link that replaced ours, when known.
 */
function relinkedSteps(doc: Y.Doc, before: ReadonlySet<string>, relinks: readonly Relink[]): JourneyConflict[] {
  const j = normalizeJourney(journeyFromDoc(doc));
  const live = connectedSteps(j);
  const byId = stepIndex(j);
  const steps = [...live].filter((id) => !before.has(id) && byId.get(id)?.auto !== true);
  // The first step of each chain put back (the rest came back with it).
  const below = new Map(steps.map((id) => [id, reachable(j, [id])]));
  const heads = steps.filter((id) => !steps.some((other) => other !== id && below.get(other)?.has(id)));
  const back = heads.length > 0 ? heads : steps.slice(0, 1);
  return back.map((stepId) => {
    const r = relinks.find((x) => x.orphanIds.includes(stepId)) ?? relinks[0];
    return { stepId, pathId: null, field: 'next', mine: null, theirs: null, byClient: r?.byClient ?? null, removed: false, relinked: true, restore: () => false };
  });
}
