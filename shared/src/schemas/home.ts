/**
 * The home screen (`/`, issue 11): the current app's key figures over the header's range with the
 * previous period of the same length, and what needs attention.
 *
 * Key figures (days in the app's time zone, like every analytics answer, see ./behaviour.ts):
 * - people: distinct people with at least one event in the range;
 * - sessions: sessions that started in the range (start_session events);
 * - events: every event of the range, built-in ones included (the daily rollup);
 * - revenue: the sum of the events' revenue (the rollup adds amounts of every currency up).
 * `currency` is the one currency every revenue event of the range named, else null (no revenue,
 * no currency sent, or several currencies): the screen then shows a plain number.
 *
 * Needs attention, limited to what the caller may see (`checked` says which areas were looked at):
 * - journey_problems: a live journey whose launched version names what the app no longer has (an
 *   audience, a catalogue event, what a condition names): launch would refuse it today;
 * - journey_unlaunched_edits: a live journey edited since its launch and not launched again;
 * - audience_error: an audience whose last refresh or import failed (not repeated when a failed
 *   import of that audience is listed);
 * - import_failed: an import that failed in the last HOME_LIMITS.importFailureDays days.
 */
import { z } from 'zod';
import { DayRange } from './behaviour.ts';
import { LaunchViolation } from './journeys.ts';

export const HOME_LIMITS = {
  /** Failed imports older than this are not news any more. */
  importFailureDays: 7,
  /** Longest list of attention items answered (most recent first within each kind). */
  maxItems: 50,
} as const;

export const HomeFigureName = z.enum(['people', 'sessions', 'events', 'revenue']);
export type HomeFigureName = z.infer<typeof HomeFigureName>;

/** One figure over the range and over the previous period. */
export const HomeFigure = z.object({ current: z.number(), previous: z.number() });
export type HomeFigure = z.infer<typeof HomeFigure>;

export const HomeFigures = z.object({ people: HomeFigure, sessions: HomeFigure, events: HomeFigure, revenue: HomeFigure });
export type HomeFigures = z.infer<typeof HomeFigures>;

export const HomeSummaryAnswer = {
  range: DayRange,
  previous: DayRange,
  figures: HomeFigures,
  currency: z.string().nullable(),
  /** Whether the app ever received an event: tells "no data yet" (set up the SDK) from a quiet range. */
  hasData: z.boolean(),
};
export type HomeSummary = z.infer<z.ZodObject<typeof HomeSummaryAnswer>>;

const Id = z.string().uuid();

export const AttentionItem = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('journey_problems'), journeyId: Id, name: z.string(), version: z.number().int(),
    /** What the launched version names that the app does not have (journeyViolation codes). */
    problems: z.array(LaunchViolation),
  }),
  z.object({ type: z.literal('journey_unlaunched_edits'), journeyId: Id, name: z.string(), version: z.number().int(), editedAt: z.string() }),
  z.object({ type: z.literal('audience_error'), audienceId: Id, name: z.string(), errorName: z.string().nullable(), errorMessage: z.string().nullable(), at: z.string() }),
  z.object({
    type: z.literal('import_failed'), taskId: Id, name: z.string(), audienceId: Id.nullable(),
    errorName: z.string().nullable(), errorMessage: z.string().nullable(), at: z.string(),
  }),
]);
export type AttentionItem = z.infer<typeof AttentionItem>;
export type AttentionType = AttentionItem['type'];

export const HomeAttentionAnswer = {
  items: z.array(AttentionItem),
  /** The areas looked at (the caller's permissions): an empty list means "all good" only for these. */
  checked: z.object({ journeys: z.boolean(), audiences: z.boolean(), imports: z.boolean() }),
};
export type HomeAttention = z.infer<z.ZodObject<typeof HomeAttentionAnswer>>;
