/**
 * A message's conversion settings (issue 13): the goal event whose occurrence after the message
 * counts as a conversion, and the window in which it must happen.
 *
 * Decisions, as Braze users expect them ("conversion events" with a "conversion deadline"):
 * - the goal is one event name: the built-in purchase `gd_transaction` by default, or any event
 *   of the app's catalogue (built-in or custom);
 * - the window is whole days, 3 by default, 1 to 30;
 * - a **direct** conversion is the goal made by the person within the window after their first open
 *   or click of the message; an **indirect** one within the window after the message reached them
 *   (sent, or seen for in-app) without such an interaction before it. Each person converts at most
 *   once per message (direct wins). Revenue is the `gd_transaction` revenue in the same windows.
 * Older drafts and versions without the field read the default (`withConversionDefault`).
 */
import { z } from 'zod';

export const CONVERSION_LIMITS = { defaultWindowDays: 3, minWindowDays: 1, maxWindowDays: 30 } as const;
/** The built-in purchase event (behaviour/events.ts `builtInEventName('transaction')`). */
export const DEFAULT_CONVERSION_EVENT = 'gd_transaction';

export const MessageConversion = z.object({
  /** The goal event's name. */
  eventName: z.string().trim().min(1).max(64),
  windowDays: z.number().int().min(CONVERSION_LIMITS.minWindowDays).max(CONVERSION_LIMITS.maxWindowDays),
});
export type MessageConversion = z.infer<typeof MessageConversion>;

export function defaultConversion(): MessageConversion {
  return { eventName: DEFAULT_CONVERSION_EVENT, windowDays: CONVERSION_LIMITS.defaultWindowDays };
}

/** The conversion settings of a stored definition (a version or a send's jsonb): the default when absent or unreadable. */
export function conversionOf(definition: unknown): MessageConversion {
  const raw = definition && typeof definition === 'object' ? (definition as { conversion?: unknown }).conversion : undefined;
  const parsed = MessageConversion.safeParse(raw);
  return parsed.success ? parsed.data : defaultConversion();
}
