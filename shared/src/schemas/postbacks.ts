/**
 * Provider postbacks and in-app event trackers (issue 16, piece D; /acquisition/trackers and the
 * calls shown on a campaign). Tables: migrations/044_acquisition_postbacks.sql; the macros:
 * shared/src/acquisition/macros.ts; the sending: api-server/src/features/postbacks.
 *
 * Decisions:
 * - A tracker maps an app event (built-in or custom name) to one account provider's event postback:
 *   its own URL template, else the provider's event postback URL (one of the two is required when
 *   saving). `providerEvent` is the event name the provider expects, sent as parameter `event`;
 *   `macros` are sent as parameters `<macro>=<value>` besides those the URL already carries (query
 *   for GET, form body for POST, the provider's method).
 * - `campaignId` narrows a tracker to people attributed to that campaign (one of the provider's);
 *   null: any campaign of the provider.
 * - A provider member (provider_members) sees only their provider's trackers and campaigns.
 */
import { z } from 'zod';
import { POSTBACK_MACROS } from '../acquisition/model.ts';
import { Name } from './common.ts';
import { PostbackUrlTemplate } from './acquisition.ts';

const emptyAsNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);

export const PostbackMacroName = z.enum(POSTBACK_MACROS);

export const TrackerInput = z.object({
  name: Name,
  event: z.string().trim().min(1, 'Required').max(120),
  accountProviderId: z.string().uuid(),
  campaignId: z.preprocess(emptyAsNull, z.string().uuid().nullable()).default(null),
  postbackUrl: z.preprocess(emptyAsNull, PostbackUrlTemplate.nullable()).default(null),
  providerEvent: z.preprocess(emptyAsNull, z.string().trim().max(120).nullable()).default(null),
  macros: z.array(PostbackMacroName).max(POSTBACK_MACROS.length).default([]).transform((m) => [...new Set(m)]),
  active: z.boolean().default(true),
});
export type TrackerInput = z.infer<typeof TrackerInput>;

export const Tracker = z.object({
  id: z.string(),
  name: z.string(),
  event: z.string(),
  accountProviderId: z.string(),
  providerName: z.string(),
  campaignId: z.string().nullable(),
  campaignName: z.string().nullable(),
  /** The tracker's own template (null: the provider's event URL, `effectiveUrl`). */
  postbackUrl: z.string().nullable(),
  /** The template calls go to: the tracker's, else the provider's event URL (null: none, nothing is sent). */
  effectiveUrl: z.string().nullable(),
  providerEvent: z.string().nullable(),
  macros: z.array(z.string()),
  active: z.boolean(),
  /** Its postbacks by status. */
  sent: z.number().int(),
  failed: z.number().int(),
  pending: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Tracker = z.infer<typeof Tracker>;

/** A provider a tracker may post to. */
export const TrackerProvider = z.object({ id: z.string(), name: z.string(), eventPostbackUrl: z.string().nullable() });
export type TrackerProvider = z.infer<typeof TrackerProvider>;

export const PostbackStatus = z.enum(['pending', 'ok', 'failed']);
export type PostbackStatus = z.infer<typeof PostbackStatus>;
export const PostbackKind = z.enum(['install', 'reinstall', 'retargeting_open', 'event']);
export type PostbackKind = z.infer<typeof PostbackKind>;

/** One postback of a campaign: what was called, how it went. */
export const AcqPostback = z.object({
  id: z.string(),
  kind: PostbackKind,
  trackerId: z.string().nullable(),
  trackerName: z.string().nullable(),
  eventName: z.string().nullable(),
  method: z.enum(['GET', 'POST']),
  url: z.string(),
  body: z.string().nullable(),
  status: PostbackStatus,
  attempts: z.number().int(),
  /** The receiver's HTTP status of the last attempt. */
  responseStatus: z.number().int().nullable(),
  /** Why the last attempt failed (refused_address, http_500, timeout, ...). */
  error: z.string().nullable(),
  createdAt: z.string(),
  lastAttemptAt: z.string().nullable(),
  doneAt: z.string().nullable(),
  /** A pending postback's next attempt. */
  nextAt: z.string().nullable(),
});
export type AcqPostback = z.infer<typeof AcqPostback>;

export const CampaignPostbacksQuery = z.object({
  status: PostbackStatus.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
export type CampaignPostbacksQuery = z.infer<typeof CampaignPostbacksQuery>;

export const PostbackTotals = z.object({ pending: z.number().int(), ok: z.number().int(), failed: z.number().int() });
export type PostbackTotals = z.infer<typeof PostbackTotals>;
