/**
 * The what-if of a message draft (issue 12): who the draft's target holds, who of them each
 * channel can reach, and when they receive it across time zones. Asked again by the editor as the
 * draft's target, type or schedule changes; nothing is stored.
 *
 * Decisions (ours; SPEC.md names the channels and schedule bases only):
 * - Reachable by push: a device of the person has a push token and push enabled (the segment
 *   engine's `push_active`). By e-mail: the person has an e-mail address. In-app: the person had
 *   an SDK session in the last WHAT_IF_RECENT_SESSION_DAYS days (`people.last_session_at`).
 * - Channel of a type: push and e-mail are their own; in-app types and native ads are shown by the
 *   SDK (in-app). An A/B test's count is of the people every variant's channel reaches (whichever
 *   variant a person draws, they receive it).
 * - A person's time zone: the SDK profile attribute `timezone` (an IANA name); people without one
 *   (or with a name that is not a zone) are counted in the app's time zone (`unknownTimeZone`).
 * - When: `now` is one instant (the answer's); `at` and `recurring` (its first send) read their
 *   wall-clock time in each person's time zone for the `deviceLocal` basis, and once, in the app's
 *   time zone, for `userTimezone`.
 */
import { z } from 'zod';
import { MAX_AB_VARIANTS, MessageSchedule, MessageTarget } from '../message/draft.ts';
import { CommunicationType } from '../message/model.ts';

export const WHAT_IF_RECENT_SESSION_DAYS = 30;
/** Time zones listed one by one; the rest are summed in `otherTimeZones`. */
export const WHAT_IF_TIME_ZONES = 24;

export const WhatIfChannel = z.enum(['push', 'email', 'inApp']);
export type WhatIfChannel = z.infer<typeof WhatIfChannel>;

export const MessageWhatIfRequest = z.object({
  target: MessageTarget,
  /** The draft's type. */
  type: CommunicationType,
  /** For an A/B test (`test_ab`): the types of its variants (ignored otherwise). */
  variantTypes: z.array(CommunicationType).max(MAX_AB_VARIANTS).optional(),
  schedule: MessageSchedule,
});
export type MessageWhatIfRequest = z.infer<typeof MessageWhatIfRequest>;

export const WhatIfTimeZone = z.object({
  /** IANA name. */
  timeZone: z.string(),
  people: z.number().int(),
  /** The instant the scheduled local time arrives in this zone (ISO 8601, UTC). */
  sendsAt: z.string(),
});
export type WhatIfTimeZone = z.infer<typeof WhatIfTimeZone>;

export const MessageWhatIfAnswer = {
  /** People the target holds now. */
  total: z.number().int(),
  reachable: z.object({ push: z.number().int(), email: z.number().int(), inApp: z.number().int() }),
  /** The channels the draft's type sends on (one, or an A/B test's), and the people all of them reach. */
  channels: z.array(WhatIfChannel),
  channel: z.number().int(),
  /** The most populated time zones (at most WHAT_IF_TIME_ZONES), most people first. */
  timeZones: z.array(WhatIfTimeZone),
  /** The other zones, summed, with the earliest and latest instant they receive it (null when none). */
  otherTimeZones: z.object({ zones: z.number().int(), people: z.number().int(), firstSendsAt: z.string().nullable(), lastSendsAt: z.string().nullable() }),
  /** People without a time zone of their own, counted in the app's. */
  unknownTimeZone: z.number().int(),
  /** The app's time zone (the `userTimezone` basis, and people without their own). */
  appTimeZone: z.string(),
  /** The instant the answer is for (what `now` means). */
  computedAt: z.string(),
  computedInMs: z.number(),
};

/** The channel a communication type is delivered on (null: an A/B test, whose variants decide). */
export function channelOf(type: CommunicationType): WhatIfChannel | null {
  switch (type) {
    case 'push':
      return 'push';
    case 'email':
      return 'email';
    case 'test_ab':
      return null;
    default:
      // In-app types and native ads are shown by the SDK inside the app.
      return 'inApp';
  }
}

/** The channels a draft sends on: its type's, or for an A/B test its variants' (push when none are given). */
export function channelsOf(type: CommunicationType, variantTypes: readonly CommunicationType[] = []): WhatIfChannel[] {
  const own = channelOf(type);
  if (own) return [own];
  const found = new Set(variantTypes.map(channelOf).filter((c): c is WhatIfChannel => c !== null));
  return found.size ? WhatIfChannel.options.filter((c) => found.has(c)) : ['push'];
}
