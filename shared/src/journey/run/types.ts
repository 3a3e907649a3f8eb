/**
 * The contract between the pure step semantics (advance.ts) and whoever runs them: the engine's
 * worker and the simulator (docs/design/journey-engine.md section 2). Times are epoch milliseconds.
 */
import { z } from 'zod';
import type { InteractionType, MessageChannel } from '../model.ts';

/** Where one entry of one person stands. */
export interface EntryState {
  /** Where the person is. */
  stepId: string;
  /** When they arrived there. */
  arrivedAt: number;
  /** When the entry began. */
  enteredAt: number;
  /** Start of the window flowEvent looks at: the last wait's start (else the entry's start). */
  since: number;
  /** The last message sent in this entry, for flowInteraction and flowWaitInteraction. */
  lastMessage: { stepId: string; channel: MessageChannel; at: number } | null;
}

/**
 * What the person did, asked synchronously: the worker preloads the facts of a batch, the simulator
 * derives them from a described behaviour. Windows are closed: `since <= at <= until`.
 */
export interface Facts {
  /**
   * The earliest interaction of one of `kinds` with the message that step `messageStepId` sent in
   * this entry, in the window; null when none. advance always asks from the send (`since` is
   * `lastMessage.at`). On a tie, the kind listed first.
   */
  interaction(messageStepId: string, kinds: readonly InteractionType[], since: number, until: number): { kind: InteractionType; at: number } | null;
  /** The earliest event of one of `eventIds` in the window; null when none. On a tie, the event listed first. */
  event(eventIds: readonly string[], since: number, until: number): { eventId: string; at: number } | null;
  /** flowSplit: whether the person is in the path's segment, evaluated now. */
  inSegment(stepId: string, pathId: string): boolean;
}

/** What the caller performs, in order, in the same transaction as the new state. Effects never change the path. */
export type Effect =
  | { kind: 'send'; stepId: string; channel: MessageChannel; campaignId: string; messageId: string }
  | { kind: 'postback'; stepId: string }
  | { kind: 'tag'; stepId: string; tagId: string; amount: number };

/**
 * Why a step was left the way it was:
 * - entered: a source step, the entry began; passed: flowJoin; wait_elapsed: flowWait's duration passed;
 * - interaction: flowInteraction or flowWaitInteraction, the interaction (detail) with the last message;
 * - timeout: flowWaitInteraction, no awaited interaction before its last path's duration passed;
 * - event: flowEvent, the event (detail) happened since the last wait began;
 * - otherwise: flowInteraction, flowEvent, flowSplit matched nothing, the last path;
 * - random: flowRandom's draw picked the path; segment: flowSplit, the person is in the path's segment;
 * - sent / message_missing: a message step with a send effect / without campaign or message (nothing sent);
 * - postback / postback_disabled: actionPostback called / its action is `disable` (nothing called);
 * - tag / tag_missing: updateTagCount updated its tag / has none (nothing updated);
 * - end: the end step was reached (its passage closes the entry).
 */
export const PassageReason = z.enum([
  'entered', 'passed', 'wait_elapsed', 'interaction', 'timeout', 'event', 'otherwise', 'random', 'segment',
  'sent', 'message_missing', 'postback', 'postback_disabled', 'tag', 'tag_missing', 'end',
]);
export type PassageReason = z.infer<typeof PassageReason>;

/** Why an entry ended: its end step; a link to nowhere (a null next or a step id the journey lacks); the passage guard. */
export const EndReason = z.enum(['end', 'dangling', 'loop']);
export type EndReason = z.infer<typeof EndReason>;

/** One step left (or, for `end`, reached) in one advance call: a trace row. */
export interface Passage {
  stepId: string;
  /** The branch taken, for branching steps; null for single-next steps and the end. */
  pathId: string | null;
  at: number;
  reason: PassageReason;
  /** Which interaction kind or event id decided the branch. */
  detail?: string;
}

export type AdvanceNext =
  /** Stays where `state` says until `at` (null: no time; only a fact can move it), or until the awaited fact arrives. */
  | { kind: 'wake'; at: number | null; waitingFor: 'interaction' | 'segment' | null }
  | { kind: 'end'; reason: EndReason };

export interface Advance {
  state: EntryState;
  /** Every step left in this call, in order (trace rows, cumulative counts). */
  passed: Passage[];
  /** In order; performed by the caller in the same transaction as the new state. */
  effects: Effect[];
  next: AdvanceNext;
}

/** Picks a branch of flowRandom: a number in [0, 1), the same for the same entry and step. */
export type Draw = (stepId: string) => number;
