/**
 * Events of SPEC.md section 3: the built-in events (product prefix + name), the screen event,
 * conversion types of custom events, and the naming rules the ingestion API enforces.
 */
import { z } from 'zod';

/** The product prefix of built-in event names. Custom events may not use it. */
export const EVENT_PREFIX = 'gd_';

export const BUILT_IN_EVENT_KEYS = [
  'install', 'register', 'login', 'login2', 'start_session', 'end_session', 'transaction',
  'uninstall', 'reinstall', 'reopen', 'retargeting_open', 'auto_event',
] as const;
export type BuiltInEventKey = (typeof BUILT_IN_EVENT_KEYS)[number];

export const builtInEventName = (key: BuiltInEventKey): string => `${EVENT_PREFIX}${key}`;
export const BUILT_IN_EVENTS: readonly string[] = BUILT_IN_EVENT_KEYS.map(builtInEventName);
const builtIns = new Set(BUILT_IN_EVENTS);

/** The screen-tracking event; its `screen` property names the screen. */
export const SCREEN_EVENT = 'e_screen_name';

export const isBuiltInEvent = (name: string): boolean => builtIns.has(name);
export const builtInEventKey = (name: string): BuiltInEventKey | null =>
  builtIns.has(name) ? (name.slice(EVENT_PREFIX.length) as BuiltInEventKey) : null;

/** Letters, digits, underscore, dot, colon and hyphen; starts with a letter; up to 64 characters. */
export const EVENT_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_.:-]{0,63}$/;

export type EventNameProblem = 'pattern' | 'reserved';
/** Why a name cannot be sent as an event, or null when it can. */
export function eventNameProblem(name: string): EventNameProblem | null {
  if (!EVENT_NAME_PATTERN.test(name)) return 'pattern';
  if (name.startsWith(EVENT_PREFIX) && !builtIns.has(name)) return 'reserved';
  return null;
}

/** Conversion types of custom events (SPEC.md: "register, login, paid, subscribe, addToCart, search, share, custom and others"). */
export const ConversionType = z.enum([
  'register', 'login', 'paid', 'subscribe', 'addToCart', 'addToWishlist', 'checkout', 'search', 'share',
  'contentView', 'tutorialComplete', 'levelAchieved', 'rate', 'lead', 'invite', 'custom',
]);
export type ConversionType = z.infer<typeof ConversionType>;

/** Message interaction kinds and channels reported by the SDK. */
export const InteractionKind = z.enum(['impression', 'click', 'open', 'dismissed_click']);
export type InteractionKind = z.infer<typeof InteractionKind>;
/** Channels of a message interaction (the SDK's spelling: inapp, not the journey model's inApp). */
export const InteractionChannel = z.enum(['push', 'inapp', 'email', 'native']);
export type InteractionChannel = z.infer<typeof InteractionChannel>;

/** Placeholder and sentinels for missing or grouped values (SPEC.md section 3). */
export const EMPTY_LABEL = '(empty)';
export const EMPTY_SENTINEL = '__empty__';
export const OTHER_SENTINEL = '__other__';
export const ORGANIC_SOURCE = 'Organic';
