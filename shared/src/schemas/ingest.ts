/**
 * The ingestion API (SDK → API), authenticated by the app key in the `X-App-Key` header.
 *
 * A batch carries one device's context and up to INGEST_LIMITS.maxEvents events and interactions,
 * each with a client-generated `id`: a resent id is reported as a duplicate and stored once. Each
 * event is validated on its own; an invalid one is refused with a reason while the valid ones of
 * the batch are stored. Events keep their own time when late; a time more than
 * `futureToleranceMs` ahead of the server clock is clamped to the receive time and reported; a time
 * more than `pastToleranceMs` before the app was created is refused (no SDK of the app can have
 * seen it; each month of time would also need its own table partitions).
 *
 * Every text (ids, names, property keys and values, device fields, profile fields, tag names and
 * values) must be storable: no NUL character and no unpaired UTF-16 surrogate. Postgres refuses
 * both, and a batch failing in the database is retried by the SDK forever; here such an event is
 * refused on its own with a reason, and a device context or profile with one refuses the call (4xx).
 */
import { z } from 'zod';
import { DateString, isStorableText } from '../formats.ts';
import { InteractionChannel, InteractionKind } from '../behaviour/events.ts';

export const APP_KEY_HEADER = 'x-app-key';

export const INGEST_LIMITS = {
  /** Events (and, separately, interactions) per batch. */
  maxEvents: 500,
  /** JSON body size of one request. */
  maxBodyBytes: 1024 * 1024,
  /** Serialised size and key count of one event's properties. */
  maxPropertiesBytes: 8 * 1024,
  maxPropertyKeys: 64,
  /** Event times further ahead of the server clock are clamped to the receive time. */
  futureToleranceMs: 60 * 60 * 1000,
  /** Event times earlier than the app's creation minus this are refused (two years: late SDK queues, history sent at integration). */
  pastToleranceMs: 730 * 24 * 60 * 60 * 1000,
  /** Client event ids: 1 to 64 characters. */
  maxIdLength: 64,
} as const;

const STORABLE = { message: 'contains a NUL character or an unpaired surrogate' };
const text = () => z.string().refine(isStorableText, STORABLE);
const shortText = (max: number) => text().trim().min(1).max(max);
const EventId = text().min(1).max(INGEST_LIMITS.maxIdLength);
const Key = text().min(1).max(64);
/** ISO 8601 with an offset, or epoch milliseconds. */
export const EventTime = z.union([z.iso.datetime({ offset: true }), z.number().int().min(0).max(8.64e15)]);

export const DeviceContext = z.object({
  /** The SDK's install id (device id type "auto"): stable for the life of the install. */
  id: text().min(8).max(128),
  idfa: shortText(64).optional(),
  idfv: shortText(64).optional(),
  gaid: shortText(64).optional(),
  oaid: shortText(128).optional(),
  pushToken: shortText(4096).optional(),
  pushEnabled: z.boolean().optional(),
  os: shortText(32).optional(),
  osVersion: shortText(32).optional(),
  appVersion: shortText(32).optional(),
  sdkVersion: shortText(32).optional(),
  model: shortText(64).optional(),
  carrier: shortText(64).optional(),
  /** ISO 3166-1 alpha-2. */
  country: z.string().regex(/^[A-Z]{2}$/).optional(),
  state: shortText(64).optional(),
  city: shortText(64).optional(),
  latitude: z.number().min(-90).max(90).optional(),
  longitude: z.number().min(-180).max(180).optional(),
});
export type DeviceContext = z.infer<typeof DeviceContext>;

const PropertyValue = z.union([text().max(1024), z.number().finite(), z.boolean(), z.null(), z.array(z.union([text().max(256), z.number().finite()])).max(50)]);

export const IngestEvent = z.object({
  id: EventId,
  name: text().min(1).max(64),
  time: EventTime,
  properties: z.record(Key, PropertyValue).optional(),
  revenue: z.number().finite().min(-1e12).max(1e12).optional(),
  currency: z.string().regex(/^[A-Z]{3}$/).optional(),
  source: shortText(128).optional(),
  campaign: shortText(128).optional(),
  sessionId: shortText(64).optional(),
});
export type IngestEvent = z.infer<typeof IngestEvent>;

export const IngestInteraction = z.object({
  id: EventId,
  time: EventTime,
  channel: InteractionChannel,
  kind: InteractionKind,
  campaignId: shortText(64).optional(),
  messageId: shortText(64).optional(),
  journeyId: shortText(64).optional(),
  /** The variant of the message shown (A/B tests); the SDK echoes what it was given. */
  variantId: shortText(64).optional(),
  /** The journey step that sent the message. */
  stepId: shortText(64).optional(),
});
export type IngestInteraction = z.infer<typeof IngestInteraction>;

export const IngestBatch = z.object({
  device: DeviceContext,
  /** Validated one by one (see IngestEvent), so one bad event does not refuse the batch. */
  events: z.array(z.unknown()).max(INGEST_LIMITS.maxEvents).default([]),
  interactions: z.array(z.unknown()).max(INGEST_LIMITS.maxEvents).default([]),
});
export type IngestBatchInput = z.input<typeof IngestBatch>;

export const RejectedItem = z.object({
  index: z.number().int(),
  id: z.string().nullable(),
  /** Catalogue code: 10001 (mandatory/invalid field) or 10015 (event collision). */
  code: z.number().int(),
  reason: z.string(),
});
export type RejectedItem = z.infer<typeof RejectedItem>;

export const IngestBatchAnswer = {
  accepted: z.array(z.string()),
  duplicates: z.array(z.string()),
  rejected: z.array(RejectedItem),
  clamped: z.array(z.object({ id: z.string(), time: z.string() })),
  interactions: z.object({ accepted: z.array(z.string()), duplicates: z.array(z.string()), rejected: z.array(RejectedItem) }),
};

/** Profile fields an app may set (user fields of SPEC.md section 3 that the app knows). */
export const ProfileFields = z.object({
  email: z.email().max(254).nullable().optional(),
  /** 1900-01-01 to 2100-12-31. */
  birthday: DateString.refine((d) => d >= '1900-01-01' && d <= '2100-12-31', { message: 'Expected a date from 1900 to 2100' }).nullable().optional(),
  country: z.string().regex(/^[A-Z]{2}$/).nullable().optional(),
  state: shortText(64).nullable().optional(),
  city: shortText(64).nullable().optional(),
  latitude: z.number().min(-90).max(90).nullable().optional(),
  longitude: z.number().min(-180).max(180).nullable().optional(),
  referrerId: shortText(128).nullable().optional(),
  inactive: z.boolean().optional(),
  /** Free attributes, merged into the profile's; null removes a key. */
  attributes: z.record(Key, PropertyValue).optional(),
});
export type ProfileFields = z.infer<typeof ProfileFields>;

export const IdentifyRequest = z.object({
  device: DeviceContext,
  customerId: text().trim().min(1).max(128),
  profile: ProfileFields.optional(),
});
export type IdentifyRequest = z.infer<typeof IdentifyRequest>;

/** Tag values by tag name: text, number, a YYYY-MM-DD date, or null to remove. */
export const TagValues = z.record(text().trim().min(1).max(64), z.union([text().max(1024), z.number().finite(), z.null()]));

export const ProfileRequest = z.object({
  device: DeviceContext,
  profile: ProfileFields.optional(),
  tags: TagValues.optional(),
});
export type ProfileRequest = z.infer<typeof ProfileRequest>;

export const ProfileAnswer = {
  personId: z.string(),
  tags: z.object({ applied: z.array(z.string()), rejected: z.array(z.object({ name: z.string(), reason: z.string() })) }),
};
