/**
 * People (/behavior/people): search, profile and event timeline of one user of an app.
 *
 * People ids are Postgres bigints; they travel as decimal strings so no JavaScript number ever
 * rounds them. Times are ISO 8601 strings in UTC; the screen shows them in the app's time zone.
 */
import { z } from 'zod';
import { InteractionChannel } from '../behaviour/events.ts';
import { TagKind, TagValueType } from './tags.ts';

/** A people id as it travels: the decimal digits of a positive bigint. */
export const PersonId = z.string().regex(/^[1-9][0-9]{0,18}$/, 'A person id is a positive whole number');
export type PersonId = z.infer<typeof PersonId>;

export const PEOPLE_LIMITS = {
  /** Results of one search (and of the "recent people" list). */
  searchResults: 50,
  /** Longest search text. */
  maxQueryLength: 200,
  /** Events per timeline page. */
  timelinePage: 50,
  /** Characters of a push token shown; the rest is masked. */
  pushTokenVisible: 6,
} as const;

export const PeopleSearchQuery = z.object({
  /** Customer id, e-mail or a device id; empty lists the people seen most recently. */
  q: z.string().trim().max(PEOPLE_LIMITS.maxQueryLength).default(''),
});
export type PeopleSearchQuery = z.infer<typeof PeopleSearchQuery>;

/**
 * What a search result matched: an exact customer id, e-mail, person id or device id (the SDK's
 * install id `deviceKey`, an advertising/vendor id or a push token), a prefix of a customer id or
 * e-mail, or nothing (`recent`, the list shown for an empty search).
 */
export const PeopleMatch = z.enum([
  'customerId', 'email', 'personId', 'deviceKey', 'idfa', 'idfv', 'gaid', 'oaid', 'pushToken',
  'customerIdPrefix', 'emailPrefix', 'recent',
]);
export type PeopleMatch = z.infer<typeof PeopleMatch>;

const Time = z.string().nullable();

/** Every user field of SPEC.md section 3, plus birthday, revenue and free attributes. */
export const PersonProfile = z.object({
  id: PersonId,
  customerId: z.string().nullable(),
  email: z.string().nullable(),
  deviceId: z.string().nullable(),
  os: z.string().nullable(),
  osVersion: z.string().nullable(),
  ip: z.string().nullable(),
  carrier: z.string().nullable(),
  appVersion: z.string().nullable(),
  sdkVersion: z.string().nullable(),
  installAt: Time,
  uninstallAt: Time,
  registeredAt: Time,
  firstLoginAt: Time,
  lastLoginAt: Time,
  lastSessionAt: Time,
  firstPurchaseAt: Time,
  lastPurchaseAt: Time,
  conversions: z.number().int(),
  revenue: z.number(),
  /** The one currency (ISO 4217) every transaction (gd_transaction, what `revenue` adds up) of the person named, else null (none, or several). */
  revenueCurrency: z.string().nullable(),
  /** Coordinates. */
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  country: z.string().nullable(),
  state: z.string().nullable(),
  city: z.string().nullable(),
  inactive: z.boolean(),
  referrerId: z.string().nullable(),
  fromCampaign: z.string().nullable(),
  fromSource: z.string().nullable(),
  /** YYYY-MM-DD. */
  birthday: z.string().nullable(),
  attributes: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PersonProfile = z.infer<typeof PersonProfile>;

/** One search result: who it is, where, and when last seen. */
export const PersonSummary = PersonProfile.pick({ id: true, customerId: true, email: true, deviceId: true, os: true, country: true, city: true }).extend({
  /** The name from the person's profile attributes (shared `personName`), null when none is known. */
  name: z.string().nullable(),
  /**
   * The person's last activity: the latest event time their devices' SDK stamped (never when the
   * data arrived, migration 012); null before their first event.
   */
  lastSeenAt: z.string().nullable(),
  match: PeopleMatch,
});
export type PersonSummary = z.infer<typeof PersonSummary>;

export const PersonTag = z.object({
  id: z.string(),
  name: z.string(),
  kind: TagKind,
  valueType: TagValueType,
  /** Text, number, or a YYYY-MM-DD date, by `valueType`. */
  value: z.union([z.string(), z.number()]).nullable(),
  updatedAt: z.string(),
});
export type PersonTag = z.infer<typeof PersonTag>;

export const PersonDevice = z.object({
  id: z.string(),
  /** The SDK's install id (device id type "auto"). */
  deviceKey: z.string(),
  idfa: z.string().nullable(),
  idfv: z.string().nullable(),
  gaid: z.string().nullable(),
  oaid: z.string().nullable(),
  /** Masked: only the last PEOPLE_LIMITS.pushTokenVisible characters are shown. */
  pushToken: z.string().nullable(),
  pushEnabled: z.boolean().nullable(),
  os: z.string().nullable(),
  osVersion: z.string().nullable(),
  appVersion: z.string().nullable(),
  sdkVersion: z.string().nullable(),
  model: z.string().nullable(),
  firstSeenAt: z.string(),
  lastSeenAt: z.string(),
});
export type PersonDevice = z.infer<typeof PersonDevice>;

/** Interactions with one message, grouped by channel, campaign and message. */
export const PersonMessage = z.object({
  channel: InteractionChannel,
  campaignId: z.string().nullable(),
  messageId: z.string().nullable(),
  impressions: z.number().int(),
  clicks: z.number().int(),
  opens: z.number().int(),
  dismissed: z.number().int(),
  lastAt: z.string(),
});
export type PersonMessage = z.infer<typeof PersonMessage>;

export const PersonEventName = z.object({ name: z.string(), events: z.number().int() });
export type PersonEventName = z.infer<typeof PersonEventName>;

export const PersonSummaryCounts = z.object({
  events: z.number().int(),
  sessions: z.number().int(),
  firstSeenAt: Time,
  lastSeenAt: Time,
});
export type PersonSummaryCounts = z.infer<typeof PersonSummaryCounts>;

export const PersonDetail = {
  /** The id asked for; differs from `person.id` when it was merged into another person. */
  requestedId: PersonId,
  /** True when `requestedId` was an anonymous person merged into `person`. */
  merged: z.boolean(),
  person: PersonProfile,
  tags: z.array(PersonTag),
  devices: z.array(PersonDevice),
  messages: z.array(PersonMessage),
  /** The person's event names with their counts (for the timeline's filter), most frequent first. */
  eventNames: z.array(PersonEventName),
  summary: PersonSummaryCounts,
};

/** Opaque keyset cursor of the timeline (event time and client id of the last event shown). */
export const TimelineCursor = z.string().regex(/^[A-Za-z0-9_-]{1,200}$/, 'Not a timeline cursor');

export const PersonTimelineQuery = z.object({
  cursor: TimelineCursor.optional(),
  /** Only events with this name. */
  name: z.string().trim().min(1).max(64).optional(),
});
export type PersonTimelineQuery = z.infer<typeof PersonTimelineQuery>;

export const TimelineEvent = z.object({
  /** The client-generated event id. */
  id: z.string(),
  name: z.string(),
  time: z.string(),
  receivedAt: z.string(),
  properties: z.record(z.string(), z.unknown()),
  revenue: z.number().nullable(),
  currency: z.string().nullable(),
  source: z.string().nullable(),
  campaign: z.string().nullable(),
  sessionId: z.string().nullable(),
  /** The device's id (PersonDevice.id). */
  deviceId: z.string(),
  os: z.string().nullable(),
  appVersion: z.string().nullable(),
  country: z.string().nullable(),
});
export type TimelineEvent = z.infer<typeof TimelineEvent>;

export const PersonTimelineAnswer = {
  /** The person the events belong to (the merge target when a merged id was asked). */
  personId: PersonId,
  /** Newest first. */
  events: z.array(TimelineEvent),
  /** Pass as `cursor` for the next page; null when this page is the last. */
  nextCursor: z.string().nullable(),
};

/** Builds and reads timeline cursors: base64url of "<ISO time with microseconds>|<client id>". */
export function encodeTimelineCursor(time: string, clientId: string): string {
  const text = `${time}|${clientId}`;
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function decodeTimelineCursor(cursor: string): { time: string; clientId: string } | null {
  try {
    const binary = atob(cursor.replace(/-/g, '+').replace(/_/g, '/'));
    const text = new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
    const bar = text.indexOf('|');
    if (bar < 0) return null;
    const time = text.slice(0, bar);
    const clientId = text.slice(bar + 1);
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/.test(time) || clientId.length === 0) return null;
    return { time, clientId };
  } catch {
    return null;
  }
}

/** A push token with all but its last characters masked. */
export function maskPushToken(token: string | null): string | null {
  if (token === null) return null;
  const visible = PEOPLE_LIMITS.pushTokenVisible;
  return token.length <= visible ? token : `${'•'.repeat(Math.min(10, token.length - visible))}${token.slice(-visible)}`;
}
