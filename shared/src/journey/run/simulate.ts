/**
 * The simulator: one person through a journey against a simulated clock, with `advance` (the same
 * semantics the engine runs) and facts taken from a described behaviour. Nothing is sent: the
 * timeline only says what would be.
 *
 * Decisions:
 * - The clock starts at `startAt` on the journey's entry (or `startStepId`) and jumps from wake to
 *   wake until the entry ends or the next wake lies beyond the horizon (`truncated`).
 * - Events happen at `startAt + atSeconds`. Interactions happen `afterSeconds` after each send of a
 *   message step (every message step, or only `stepId` when given). Facts.interaction is always
 *   asked from the message's send (advance passes `lastMessage.at`), so that is where they are placed.
 * - While a flowWaitInteraction listens, the person wakes at the first awaited interaction after the
 *   clock, if it comes before the timeout (as the engine's trigger inbox would wake them).
 * - Splits read `segments['<stepId>:<pathId>']` (absent: not in the segment).
 * - flowRandom draws with entryDraw(personId, entryId, stepId) unless a draw is given.
 * - Journey settings: an exit event (settings.exit.eventIds) after the start takes the person out
 *   at its time (`ended: 'exit'`; one at the moment of a wake comes first); the goal event within the window after the start is reported as
 *   `converted`. The exit segment is not simulated (it needs the person's data over time).
 */
import { z } from 'zod';
import { InteractionType, StepId, type Journey, type MessageChannel, type StepType } from '../model.ts';
import { settingsOf } from '../settings.ts';
import { advance, startEntry } from './advance.ts';
import { entryDraw } from './draw.ts';
import { EndReason, type Draw, type EntryState, type Facts, type PassageReason } from './types.ts';

export const DEFAULT_SIMULATION_HORIZON_SECONDS = 90 * 86_400;
export const MAX_SIMULATION_HORIZON_SECONDS = 366 * 86_400;

/** Seconds from the start, or after a send: within the longest horizon a simulation runs. */
const Offset = z.number().int().min(0).max(MAX_SIMULATION_HORIZON_SECONDS);

/** What the simulated person does. */
export const SimulatedBehaviour = z.object({
  /** Events the person does, in seconds after the start. */
  events: z.array(z.object({ eventId: z.string().min(1).max(200), atSeconds: Offset })).max(500).default([]),
  /** Interactions with messages, in seconds after each send (of `stepId` only, when given). */
  interactions: z.array(z.object({ kind: InteractionType, afterSeconds: Offset, stepId: StepId.optional() })).max(500).default([]),
  /** flowSplit membership per `stepId:pathId` (absent: not in the segment). */
  segments: z.record(z.string().max(401), z.boolean()).default({}),
});
export type SimulatedBehaviour = z.infer<typeof SimulatedBehaviour>;

export interface SimulationOptions {
  /** Epoch milliseconds; the clock's start and the entry's. */
  startAt: number;
  /** Default DEFAULT_SIMULATION_HORIZON_SECONDS, at most MAX_SIMULATION_HORIZON_SECONDS. */
  horizonSeconds?: number;
  /** Start here instead of the journey's entry. */
  startStepId?: string;
  /** For flowRandom's draw (entryDraw); defaults 'simulated-person' and 'simulation'. */
  personId?: string;
  entryId?: string;
  /** Replaces entryDraw (tests). */
  draw?: Draw;
}

export interface SimulationEntry {
  /** Epoch milliseconds. */
  at: number;
  /** Seconds since the start. */
  offsetSeconds: number;
  stepId: string;
  stepType: StepType;
  pathId: string | null;
  reason: PassageReason;
  detail?: string;
  /** What a message step would send. */
  message?: { channel: MessageChannel; campaignId: string; messageId: string };
}

/** How a simulation stopped: the entry's end reasons, an exit event, or no entry step to start from. */
export const SimulationEnd = z.enum([...EndReason.options, 'exit', 'no_entry']);
export type SimulationEnd = z.infer<typeof SimulationEnd>;

export interface SimulationResult {
  timeline: SimulationEntry[];
  /** Null when the person was still in the journey at the horizon. */
  ended: SimulationEnd | null;
  /** When it ended (epoch milliseconds); null when truncated. */
  endedAt: number | null;
  /** The horizon came before the end: the person was still at `state.stepId`. */
  truncated: boolean;
  state: EntryState | null;
  /** Where the simulated clock stops (epoch milliseconds). */
  horizonAt: number;
  /** The goal event within the goal window after the start (epoch milliseconds), when the journey has a goal. */
  converted: { eventId: string; at: number } | null;
}

/** Facts of a described behaviour, relative to `startAt`. */
export function behaviourFacts(behaviour: SimulatedBehaviour, startAt: number): Facts {
  const events = behaviour.events.map((e) => ({ eventId: e.eventId, at: startAt + e.atSeconds * 1000 }));
  return {
    event(eventIds, since, until) {
      let best: { eventId: string; at: number; rank: number } | null = null;
      for (const e of events) {
        const rank = eventIds.indexOf(e.eventId);
        if (rank < 0 || e.at < since || e.at > until) continue;
        if (!best || e.at < best.at || (e.at === best.at && rank < best.rank)) best = { ...e, rank };
      }
      return best && { eventId: best.eventId, at: best.at };
    },
    interaction(messageStepId, kinds, since, until) {
      let best: { kind: InteractionType; at: number; rank: number } | null = null;
      for (const i of behaviour.interactions) {
        const rank = kinds.indexOf(i.kind);
        const at = since + i.afterSeconds * 1000;
        if (rank < 0 || (i.stepId !== undefined && i.stepId !== messageStepId) || at < since || at > until) continue;
        if (!best || at < best.at || (at === best.at && rank < best.rank)) best = { kind: i.kind, at, rank };
      }
      return best && { kind: best.kind, at: best.at };
    },
    inSegment: (stepId, pathId) => behaviour.segments[`${stepId}:${pathId}`] === true,
  };
}

/**
 * When a listening flowWaitInteraction hears the first awaited interaction, at most `until`. It lies
 * after the clock: advance asked the same facts up to the clock and the person did not move.
 */
function nextInteraction(journey: Journey, state: EntryState, facts: Facts, until: number): number | null {
  const step = journey.steps.find((s) => s.id === state.stepId);
  const message = state.lastMessage;
  if (!step || step.type !== 'flowWaitInteraction' || !message) return null;
  const kinds = [...new Set(step.paths.slice(0, -1).flatMap((p) => (p.action ? [p.action] : [])))];
  return kinds.length === 0 ? null : (facts.interaction(message.stepId, kinds, message.at, until)?.at ?? null);
}

/** Runs one person through `journey`; see the module doc. */
export function simulate(journey: Journey, behaviour: SimulatedBehaviour, opts: SimulationOptions): SimulationResult {
  const { startAt } = opts;
  const horizon = startAt + Math.min(opts.horizonSeconds ?? DEFAULT_SIMULATION_HORIZON_SECONDS, MAX_SIMULATION_HORIZON_SECONDS) * 1000;
  const facts = behaviourFacts(behaviour, startAt);
  const personId = opts.personId ?? 'simulated-person';
  const entryId = opts.entryId ?? 'simulation';
  const draw: Draw = opts.draw ?? ((stepId) => entryDraw(personId, entryId, stepId));
  const settings = settingsOf(journey);
  const types = new Map(journey.steps.map((s) => [s.id, s.type]));

  const goalId = settings.goal.eventId;
  const goalHit = goalId ? facts.event([goalId], startAt, startAt + settings.goal.windowSeconds * 1000) : null;
  const converted = goalHit && goalHit.at <= horizon ? goalHit : null;
  const exitHit = settings.exit.eventIds.length > 0 ? facts.event(settings.exit.eventIds, startAt + 1, horizon) : null;
  const exitAt = exitHit?.at ?? Infinity;

  const first = opts.startStepId ?? journey.entryId;
  if (first === null) return { timeline: [], ended: 'no_entry', endedAt: startAt, truncated: false, state: null, horizonAt: horizon, converted };

  const timeline: SimulationEntry[] = [];
  let state = startEntry(first, startAt);
  let clock = startAt;
  for (;;) {
    const step = advance(journey, state, clock, facts, draw);
    for (const p of step.passed) {
      const send = step.effects.find((e) => e.kind === 'send' && e.stepId === p.stepId);
      const stepType = types.get(p.stepId) as StepType;
      timeline.push({
        at: p.at, offsetSeconds: (p.at - startAt) / 1000, stepId: p.stepId, stepType, pathId: p.pathId, reason: p.reason,
        ...(p.detail === undefined ? {} : { detail: p.detail }),
        ...(send?.kind === 'send' ? { message: { channel: send.channel, campaignId: send.campaignId, messageId: send.messageId } } : {}),
      });
    }
    state = step.state;
    if (step.next.kind === 'end') return { timeline, ended: step.next.reason, endedAt: clock, truncated: false, state, horizonAt: horizon, converted };
    const listening = step.next.waitingFor === 'interaction';
    const timed = step.next.at ?? Infinity;
    const heard = listening ? nextInteraction(journey, state, facts, Math.min(timed, horizon)) : null;
    const wake = Math.min(timed, heard ?? Infinity);
    if (exitAt <= wake && exitAt <= horizon) return { timeline, ended: 'exit', endedAt: exitAt, truncated: false, state, horizonAt: horizon, converted };
    if (wake > horizon) return { timeline, ended: null, endedAt: null, truncated: true, state, horizonAt: horizon, converted };
    clock = wake;
  }
}
