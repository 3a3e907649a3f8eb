/** Audience shares (shared/src/audienceShare/model.ts: what a share is and the decisions taken). */
import { z } from 'zod';
import { IntegrationService, IntegrationStatus } from '../integrations/model.ts';
import { ShareEntry, ShareStatus } from '../audienceShare/model.ts';

/**
 * The platform audience a share fills, when the user names an existing one: a Meta custom audience
 * id (digits), a Google Ads user list resource name (`customers/<id>/userLists/<id>`) or a Trade
 * Desk segment name (letters, digits and `_ - . :`). Checked against the service by the API.
 */
export const PlatformAudienceId = z.string().trim().min(1, 'Required').max(200).regex(/^[\w./:-]+$/, 'Not a platform audience id');

export const AudienceShare = z.object({
  id: z.string().uuid(),
  audienceId: z.string().uuid(),
  integrationId: z.string().uuid(),
  integrationName: z.string(),
  /** The integration's own state (an integration in error or disconnected stops the share's runs). */
  integrationStatus: IntegrationStatus,
  service: IntegrationService,
  entry: ShareEntry,
  /** The platform's audience (null until the first run creates it). */
  platformAudienceId: z.string().nullable(),
  platformAudienceName: z.string(),
  status: ShareStatus,
  /** The last failure: catalogue code and reason (null once a run succeeds). */
  errorCode: z.number().int().nullable(),
  errorMessage: z.string().nullable(),
  /** People on the platform audience through this share. */
  uploadedCount: z.number().int(),
  /** Members with no identifier the platform matches on (not sent). */
  skippedCount: z.number().int(),
  /** What the last successful run added and removed. */
  lastAdded: z.number().int().nullable(),
  lastRemoved: z.number().int().nullable(),
  lastSyncedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type AudienceShare = z.infer<typeof AudienceShare>;

export const AudienceShareCreate = z.object({
  integrationId: z.string().uuid(),
  /** An existing platform audience to fill; absent: one is created at the first run. */
  platformAudienceId: PlatformAudienceId.optional(),
});
export type AudienceShareCreate = z.infer<typeof AudienceShareCreate>;

/** `keepOnPlatform=true`: stop sharing without removing anybody from the platform audience. */
export const AudienceShareDeleteQuery = z.object({
  keepOnPlatform: z.enum(['true', 'false']).optional(),
});
export type AudienceShareDeleteQuery = z.infer<typeof AudienceShareDeleteQuery>;

/** An integration an audience can be shared through (the share dialog's choices). */
export const ShareTarget = z.object({
  id: z.string().uuid(),
  name: z.string(),
  service: IntegrationService,
  entry: ShareEntry,
  status: IntegrationStatus,
  /** Whether this product uploads to the service (TikTok: not yet). */
  supported: z.boolean(),
});
export type ShareTarget = z.infer<typeof ShareTarget>;
