/**
 * What the journey engine (issue 14, api-server/src/features/journeyRun) answers: step counts of a
 * launched version (the canvas polls them), a person's journeys with every step they passed (the
 * person profile), and a search for a person inside one journey (where they are and why).
 *
 * Decisions:
 * - Counts are per launched version (`version` in the query; the live version, else the last one
 *   launched, when absent). `users` is how many entries are at the step now, `cumulativeUsers` how
 *   many ever passed or reached it, `conversions` how many entries were credited to it by the
 *   conversion goal (the last message step before the goal event; the journey's total is `totals`).
 * - A passage is one step left by one entry (trace row). `reason` is the engine's reason code (the
 *   pure `advance`'s PassageReason, or the engine's own: `exit_event`, `exit_segment`, `stopped`,
 *   `goal`); `detail` names what decided it (the event id, the interaction kind, the segment path)
 *   and `effect` what the step did (a send queued or skipped and why, a postback's result, a tag).
 * - Person ids are strings (bigint), as everywhere in the people API.
 */
import { z } from 'zod';

export const JourneyEntryStatus = z.enum(['active', 'waiting', 'ended', 'exited']);
export type JourneyEntryStatus = z.infer<typeof JourneyEntryStatus>;

export const JourneyStepCount = z.object({
  currentStepId: z.string(),
  /** Entries at this step now (active or waiting there). */
  users: z.number().int(),
  /** Entries that ever reached this step (the ones there now included). */
  cumulativeUsers: z.number().int(),
  /** Conversions credited to this step (the last message step before the goal event). */
  conversions: z.number().int(),
});
export type JourneyStepCount = z.infer<typeof JourneyStepCount>;

export const JourneyStepCountsQuery = z.object({ version: z.coerce.number().int().positive().optional() });
export type JourneyStepCountsQuery = z.infer<typeof JourneyStepCountsQuery>;

export const JourneyRunTotals = z.object({
  /** Entries ever begun in this version. */
  entered: z.number().int(),
  /** Entries still inside (active or waiting). */
  inside: z.number().int(),
  ended: z.number().int(),
  exited: z.number().int(),
  converted: z.number().int(),
});
export type JourneyRunTotals = z.infer<typeof JourneyRunTotals>;

export const JourneyStepCountsAnswer = {
  /** The version counted; null when the journey was never launched (then no counts). */
  version: z.number().int().nullable(),
  counts: z.array(JourneyStepCount),
  totals: JourneyRunTotals,
  /** When the counts were read (ISO), for the canvas's "updated" note. */
  at: z.string(),
};

/** What a step did for the entry: a send, a postback or a tag change, and its result. */
export const JourneyPassageEffect = z.object({
  kind: z.enum(['send', 'postback', 'tag']),
  /** send: queued | duplicate | skipped; postback: pending | ok | failed; tag: applied | skipped. */
  status: z.string(),
  /** Why a send was skipped or a postback failed (`message_gone`, `integration_not_configured`, `http_503`, ...). */
  reason: z.string().nullable(),
});
export type JourneyPassageEffect = z.infer<typeof JourneyPassageEffect>;

export const JourneyPassage = z.object({
  stepId: z.string(),
  /** The step's type in the version the entry runs (null when the step is not in it any more). */
  stepType: z.string().nullable(),
  /** The path taken out of a branching step. */
  pathId: z.string().nullable(),
  at: z.string(),
  reason: z.string(),
  /** What decided the path: an event id, an interaction kind, `segment`, `timeout`, ... */
  detail: z.string().nullable(),
  effect: JourneyPassageEffect.nullable(),
});
export type JourneyPassage = z.infer<typeof JourneyPassage>;

export const JourneyEntryTrace = z.object({
  entryId: z.string(),
  journeyId: z.string().uuid(),
  journeyName: z.string(),
  version: z.number().int(),
  personId: z.string(),
  /** The entry key's value (settings.entryKey), or null. */
  entryKey: z.string().nullable(),
  status: JourneyEntryStatus,
  /** Where the entry is now (its last step once ended or exited). */
  stepId: z.string(),
  enteredAt: z.string(),
  /** The next time the engine looks at the entry (a wait's end), or null. */
  wakeAt: z.string().nullable(),
  /** What a waiting entry waits for besides the time. */
  waitingFor: z.enum(['interaction', 'segment']).nullable(),
  endedAt: z.string().nullable(),
  /** ended: `end`; exited: `exit_event`, `exit_segment`, `stopped`, `journey_gone`. */
  endReason: z.string().nullable(),
  convertedAt: z.string().nullable(),
  conversionStepId: z.string().nullable(),
  /** Every step left, oldest first (at most 500 per entry). */
  passages: z.array(JourneyPassage),
});
export type JourneyEntryTrace = z.infer<typeof JourneyEntryTrace>;

export const PersonJourneysAnswer = { entries: z.array(JourneyEntryTrace) };

export const JourneyPersonSearchQuery = z.object({
  /** Customer id, e-mail or person id (exact); empty finds nobody. */
  q: z.string().trim().max(320).default(''),
});
export type JourneyPersonSearchQuery = z.infer<typeof JourneyPersonSearchQuery>;

export const JourneyPersonMatch = z.object({
  personId: z.string(),
  customerId: z.string().nullable(),
  email: z.string().nullable(),
  /** The person's entries into this journey (every version), newest first. */
  entries: z.array(JourneyEntryTrace),
});
export type JourneyPersonMatch = z.infer<typeof JourneyPersonMatch>;

export const JourneyPersonSearchAnswer = { people: z.array(JourneyPersonMatch) };
