/**
 * Journey settings (issue 14, docs/design/journey-engine.md section 1): re-entry, the entry key,
 * exit criteria and the conversion goal. They live beside the steps (`Journey.settings`, the Yjs
 * map `settings` of the journey document) and are optional: a journey without them, every document
 * and version made before they existed, runs with DEFAULT_JOURNEY_SETTINGS.
 *
 * This module imports nothing from model.ts (model.ts imports it for the Journey schema).
 */
import { z } from 'zod';
import { Segment } from '../segment/model.ts';
import type { Journey } from './model.ts';

const DAY_SECONDS = 86_400;
/** The same bound as model.ts's MAX_DURATION_SECONDS (ten years), written out to avoid a cycle. */
const MAX_SETTING_SECONDS = 10 * 366 * DAY_SECONDS;
const Seconds = z.number().int().min(0).max(MAX_SETTING_SECONDS);

export const DEFAULT_REENTRY_PERIOD_SECONDS = 7 * DAY_SECONDS;
export const DEFAULT_GOAL_WINDOW_SECONDS = 7 * DAY_SECONDS;

/** never: one entry per person ever; afterPeriod: again once periodSeconds passed since the last entry began; always: any time. */
export const ReentryMode = z.enum(['never', 'afterPeriod', 'always']);
export type ReentryMode = z.infer<typeof ReentryMode>;

export const JourneySettings = z.object({
  reentry: z.object({ mode: ReentryMode, periodSeconds: Seconds }),
  /** sourceEvents: an event property whose value tells concurrent entries of one person apart; null: one open entry per person. */
  entryKey: z.string().min(1).max(200).nullable(),
  /** Exit criteria: any of these events, or no longer matching the segment, takes the person out; queued sends are cancelled. */
  exit: z.object({ eventIds: z.array(z.string().max(200)).max(200), segment: Segment.nullable() }),
  /** Conversion goal: the event within windowSeconds of entry, credited to the journey and its last message step. */
  goal: z.object({ eventId: z.string().max(200).nullable(), windowSeconds: Seconds }),
});
export type JourneySettings = z.infer<typeof JourneySettings>;

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** What a journey without settings runs with (frozen: copy before changing). */
export const DEFAULT_JOURNEY_SETTINGS: JourneySettings = deepFreeze({
  reentry: { mode: 'never', periodSeconds: DEFAULT_REENTRY_PERIOD_SECONDS },
  entryKey: null,
  exit: { eventIds: [], segment: null },
  goal: { eventId: null, windowSeconds: DEFAULT_GOAL_WINDOW_SECONDS },
});

/** The settings `journey` runs with: its own, or the defaults when it has none. */
export const settingsOf = (journey: Pick<Journey, 'settings'>): JourneySettings => journey.settings ?? DEFAULT_JOURNEY_SETTINGS;
