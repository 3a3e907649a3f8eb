/**
 * The simulation of a journey (issue 14): one person through the draft or the launched version
 * against a simulated clock, with a described behaviour (journey/run/simulate.ts). Nothing is sent
 * or stored.
 *
 * Decisions:
 * - `personId` (a person of the app) decides each split path's segment as the segment engine sees
 *   that person now; that overrides `behaviour.segments` for those paths. A path whose segment does
 *   not compile (it names a deleted audience or tag) counts as not holding the person and is listed
 *   in `segmentProblems`. The person id also seeds flowRandom's draw (the engine's draws also
 *   depend on the entry id, unknown beforehand: the simulated branch is one sample).
 * - `startAt` defaults to now; the horizon to DEFAULT_SIMULATION_HORIZON_SECONDS (90 days).
 */
import { z } from 'zod';
import { StepId, StepType } from '../journey/model.ts';
import { MAX_SIMULATION_HORIZON_SECONDS, SimulatedBehaviour, SimulationEnd } from '../journey/run/simulate.ts';
import { PassageReason } from '../journey/run/types.ts';
import { MessageChannel } from '../journey/model.ts';
import { PersonId } from './people.ts';

export const JourneySimulationSource = z.enum(['draft', 'launched']);
export type JourneySimulationSource = z.infer<typeof JourneySimulationSource>;

export const JourneySimulationRequest = z.object({
  /** The live document as editors see it, or the live version (what the engine runs). */
  source: JourneySimulationSource,
  personId: PersonId.optional(),
  behaviour: SimulatedBehaviour.default({ events: [], interactions: [], segments: {} }),
  startAt: z.iso.datetime({ offset: true }).optional(),
  horizonSeconds: z.number().int().min(1).max(MAX_SIMULATION_HORIZON_SECONDS).optional(),
  /** Start at this step instead of the entry. */
  startStepId: StepId.optional(),
});
export type JourneySimulationRequest = z.infer<typeof JourneySimulationRequest>;

export const JourneySimulationEntry = z.object({
  at: z.string(),
  offsetSeconds: z.number(),
  stepId: z.string(),
  stepType: StepType,
  pathId: z.string().nullable(),
  reason: PassageReason,
  /** The interaction kind or event id that decided the branch. */
  detail: z.string().optional(),
  /** What a message step would send. */
  message: z.object({ channel: MessageChannel, campaignId: z.string(), messageId: z.string() }).optional(),
});
export type JourneySimulationEntry = z.infer<typeof JourneySimulationEntry>;

export const JourneySimulationAnswer = {
  source: JourneySimulationSource,
  /** The version simulated (launched), null for the draft. */
  version: z.number().int().nullable(),
  startAt: z.string(),
  horizonAt: z.string(),
  timeline: z.array(JourneySimulationEntry),
  /** Null when the person was still in the journey at the horizon (`truncated`). */
  ended: SimulationEnd.nullable(),
  endedAt: z.string().nullable(),
  truncated: z.boolean(),
  /** Where the person was when the simulation stopped. */
  stepId: z.string().nullable(),
  converted: z.object({ eventId: z.string(), at: z.string() }).nullable(),
  /** The split memberships used, per `stepId:pathId` (the person's, when a person was given). */
  segments: z.record(z.string(), z.boolean()),
  segmentProblems: z.array(z.string()),
};
