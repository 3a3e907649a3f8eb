/**
 * The pure step semantics of a journey (docs/design/journey-engine.md section 2): `advance` moves
 * one entry from where it stands as far as it can go at `now`, and says what to do and when to look
 * again. It never reads a clock or a database; the worker and the simulator pass `now` and the facts.
 *
 * Decisions (SPEC.md section 3 gives the step types, not how they behave):
 * - Sources and flowJoin pass at once; the end step closes the entry (its passage is recorded).
 * - flowWait holds until arrival + duration (null: DEFAULT_WAIT_SECONDS).
 * - Leaving a wait (flowWait, flowWaitInteraction) sets `since` to the wait's arrival: flowEvent looks
 *   at what happened from the last wait's start (the entry's start when there was none).
 * - flowWaitInteraction: its non-last paths carry an interaction, its last path is the timeout
 *   (duration from arrival, null: DEFAULT_WAIT_SECONDS). The earliest awaited interaction with the
 *   last message, from its send until min(now, timeout), takes the first path that awaits its kind;
 *   an interaction at the very moment of the timeout still counts. With no message before it only
 *   the timeout can move the person.
 * - flowInteraction is decided at arrival: the first non-last path, in path order, whose interaction
 *   the person did with the last message (from its send until now) wins; else the last path.
 * - flowEvent is decided at arrival: the earliest event of the non-last paths in [since, now] wins
 *   (on a tie the event listed first, and the first path naming it); else the last path.
 * - flowRandom: weights are the paths' amounts (null: DEFAULT_RANDOM_AMOUNT) divided by their sum;
 *   `draw(stepId)` in [0, 1) picks; a zero weight is never picked; all zero: the last path.
 * - flowSplit is decided at arrival: the first non-last path whose segment holds the person now;
 *   else the last path.
 * - Message steps send (an effect) and move on at once; the send is the entry's `lastMessage`. A
 *   step without campaign or message passes without an effect. Whether the send can go (message
 *   deleted, no address, capped) is the worker's business: it never changes the path.
 * - actionPostback calls (an effect) unless its action is `disable`; updateTagCount updates its tag
 *   (an effect) when it has one.
 * - A link to nowhere (a null next, an id the journey lacks, a branching step without paths) ends
 *   the entry (`dangling`), as does a state on a step the journey lacks (a version that removed it).
 * - At most MAX_PASSAGES_PER_ADVANCE passages per call (`loop`): launched journeys have no cycles, so
 *   only a malformed journey reaches it.
 * - Every passage of one call happens at `now`, and the next step's arrival is `now`.
 */
import { DEFAULT_RANDOM_AMOUNT, DEFAULT_WAIT_SECONDS, messageChannel, type InteractionType, type Journey, type JourneyPath, type JourneyStep } from '../model.ts';
import { stepIndex } from '../graph.ts';
import type { Advance, Draw, EntryState, Facts, Passage, PassageReason } from './types.ts';

export const MAX_PASSAGES_PER_ADVANCE = 1000;

const seconds = (s: number) => s * 1000;

/** The state of an entry that begins at `stepId` (the journey's entry, or another step for a simulation) at `at`. */
export const startEntry = (stepId: string, at: number): EntryState => ({ stepId, arrivedAt: at, enteredAt: at, since: at, lastMessage: null });

type Decision =
  | { kind: 'stay'; at: number | null; waitingFor: 'interaction' | 'segment' | null }
  | { kind: 'end' }
  | {
      kind: 'pass';
      pathId: string | null;
      next: string | null;
      reason: PassageReason;
      detail?: string;
      effect?: Advance['effects'][number];
      /** Set when leaving a wait: its arrival. */
      since?: number;
      lastMessage?: EntryState['lastMessage'];
    };

const onPath = (path: JourneyPath | undefined, reason: PassageReason, extra: Partial<Extract<Decision, { kind: 'pass' }>> = {}): Decision =>
  ({ kind: 'pass', pathId: path?.id ?? null, next: path?.next ?? null, reason, ...extra });

const byNext = (step: { next: string | null }, reason: PassageReason, extra: Partial<Extract<Decision, { kind: 'pass' }>> = {}): Decision =>
  ({ kind: 'pass', pathId: null, next: step.next, reason, ...extra });

/** The non-last paths (the choices) and the last one (otherwise, timeout). */
function split(paths: readonly JourneyPath[]): { choices: JourneyPath[]; last: JourneyPath | undefined } {
  return { choices: paths.slice(0, -1), last: paths.at(-1) };
}

const filled = (s: string | null | undefined): s is string => typeof s === 'string' && s.trim() !== '';

function waitInteraction(step: Extract<JourneyStep, { type: 'flowWaitInteraction' }>, state: EntryState, now: number, facts: Facts): Decision {
  const { choices, last } = split(step.paths);
  const deadline = state.arrivedAt + seconds(last?.duration ?? DEFAULT_WAIT_SECONDS);
  const awaited = choices.filter((p): p is JourneyPath & { action: InteractionType } => !!p.action);
  const message = state.lastMessage;
  const listening = message !== null && awaited.length > 0;
  if (listening) {
    const kinds = [...new Set(awaited.map((p) => p.action))];
    const hit = facts.interaction(message.stepId, kinds, message.at, Math.min(now, deadline));
    const path = hit ? awaited.find((p) => p.action === hit.kind) : undefined;
    if (hit && path) return onPath(path, 'interaction', { detail: hit.kind, since: state.arrivedAt });
  }
  if (now >= deadline) return onPath(last, 'timeout', { since: state.arrivedAt });
  return { kind: 'stay', at: deadline, waitingFor: listening ? 'interaction' : null };
}

function interaction(step: Extract<JourneyStep, { type: 'flowInteraction' }>, state: EntryState, now: number, facts: Facts): Decision {
  const { choices, last } = split(step.paths);
  const message = state.lastMessage;
  if (message) {
    for (const p of choices) {
      if (!p.action) continue;
      const hit = facts.interaction(message.stepId, [p.action], message.at, now);
      if (hit) return onPath(p, 'interaction', { detail: hit.kind });
    }
  }
  return onPath(last, 'otherwise');
}

function event(step: Extract<JourneyStep, { type: 'flowEvent' }>, state: EntryState, now: number, facts: Facts): Decision {
  const { choices, last } = split(step.paths);
  const eventIds = [...new Set(choices.flatMap((p) => (filled(p.eventId) ? [p.eventId] : [])))];
  const hit = eventIds.length > 0 ? facts.event(eventIds, state.since, now) : null;
  const path = hit ? choices.find((p) => p.eventId === hit.eventId) : undefined;
  return hit && path ? onPath(path, 'event', { detail: hit.eventId }) : onPath(last, 'otherwise');
}

function random(step: Extract<JourneyStep, { type: 'flowRandom' }>, draw: Draw): Decision {
  const weights = step.paths.map((p) => Math.max(0, p.amount ?? DEFAULT_RANDOM_AMOUNT));
  const total = weights.reduce((a, b) => a + b, 0);
  if (!(total > 0)) return onPath(step.paths.at(-1), 'random');
  const target = draw(step.id) * total;
  let cumulative = 0;
  let picked: JourneyPath | undefined;
  for (const [i, p] of step.paths.entries()) {
    const w = weights[i] ?? 0;
    if (w <= 0) continue;
    picked = p; // the last positive weight, should rounding leave the draw above the sum
    cumulative += w;
    if (target < cumulative) break;
  }
  return onPath(picked, 'random');
}

function segmentSplit(step: Extract<JourneyStep, { type: 'flowSplit' }>, facts: Facts): Decision {
  const { choices, last } = split(step.paths);
  const path = choices.find((p) => facts.inSegment(step.id, p.id));
  return path ? onPath(path, 'segment') : onPath(last, 'otherwise');
}

/** What `step` does with the person at `now`. */
function decide(step: JourneyStep, state: EntryState, now: number, facts: Facts, draw: Draw): Decision {
  switch (step.type) {
    case 'sourceAudience':
    case 'sourceEvents':
      return byNext(step, 'entered');
    case 'flowJoin':
      return byNext(step, 'passed');
    case 'flowWait': {
      const due = state.arrivedAt + seconds(step.duration ?? DEFAULT_WAIT_SECONDS);
      return now >= due ? byNext(step, 'wait_elapsed', { since: state.arrivedAt }) : { kind: 'stay', at: due, waitingFor: null };
    }
    case 'flowWaitInteraction':
      return waitInteraction(step, state, now, facts);
    case 'flowInteraction':
      return interaction(step, state, now, facts);
    case 'flowEvent':
      return event(step, state, now, facts);
    case 'flowRandom':
      return random(step, draw);
    case 'flowSplit':
      return segmentSplit(step, facts);
    case 'actionMessagePush':
    case 'actionMessageInApp':
    case 'actionMessageEmail': {
      const channel = messageChannel(step.type);
      if (!channel || !filled(step.campaignId) || !filled(step.messageId)) return byNext(step, 'message_missing');
      return byNext(step, 'sent', {
        effect: { kind: 'send', stepId: step.id, channel, campaignId: step.campaignId, messageId: step.messageId },
        lastMessage: { stepId: step.id, channel, at: now },
      });
    }
    case 'actionPostback':
      return step.action === 'disable' ? byNext(step, 'postback_disabled') : byNext(step, 'postback', { effect: { kind: 'postback', stepId: step.id } });
    case 'updateTagCount':
      return filled(step.tagId)
        ? byNext(step, 'tag', { effect: { kind: 'tag', stepId: step.id, tagId: step.tagId, amount: step.amount } })
        : byNext(step, 'tag_missing');
    case 'end':
      return { kind: 'end' };
    default: {
      const never: never = step;
      throw new Error(`unknown step ${JSON.stringify(never)}`);
    }
  }
}

/**
 * Moves the entry in `state` as far as it goes at `now`. Pure: the same arguments give the same
 * answer, so a worker may retry a transition.
 */
export function advance(journey: Journey, state: EntryState, now: number, facts: Facts, draw: Draw): Advance {
  const byId = stepIndex(journey);
  const passed: Passage[] = [];
  const effects: Advance['effects'] = [];
  let current = state;
  for (;;) {
    const step = byId.get(current.stepId);
    if (!step) return { state: current, passed, effects, next: { kind: 'end', reason: 'dangling' } };
    if (passed.length >= MAX_PASSAGES_PER_ADVANCE) return { state: current, passed, effects, next: { kind: 'end', reason: 'loop' } };
    const d = decide(step, current, now, facts, draw);
    if (d.kind === 'stay') return { state: current, passed, effects, next: { kind: 'wake', at: d.at, waitingFor: d.waitingFor } };
    if (d.kind === 'end') {
      passed.push({ stepId: step.id, pathId: null, at: now, reason: 'end' });
      return { state: current, passed, effects, next: { kind: 'end', reason: 'end' } };
    }
    passed.push(d.detail === undefined ? { stepId: step.id, pathId: d.pathId, at: now, reason: d.reason } : { stepId: step.id, pathId: d.pathId, at: now, reason: d.reason, detail: d.detail });
    if (d.effect) effects.push(d.effect);
    const left: EntryState = { ...current, since: d.since ?? current.since, lastMessage: d.lastMessage ?? current.lastMessage };
    if (d.next === null || !byId.has(d.next)) return { state: left, passed, effects, next: { kind: 'end', reason: 'dangling' } };
    current = { ...left, stepId: d.next, arrivedAt: now };
  }
}
