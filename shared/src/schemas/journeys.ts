/** Journeys as lists show them, and the requests that manage them (the content lives in a Yjs document). */
import { z } from 'zod';
import { Name } from './common.ts';
import { CampaignScope, OwnershipFilter } from '../enums.ts';

export const JourneyStatus = z.enum(['draft', 'live', 'stopped']);
export type JourneyStatus = z.infer<typeof JourneyStatus>;

export const JourneySummary = z.object({
  id: z.string().uuid(),
  appId: z.string().uuid(),
  name: z.string(),
  status: JourneyStatus,
  docName: z.string(),
  liveVersion: z.number().int().nullable(),
  launchedAt: z.string().nullable(),
  /** True when the draft has edits that the live version does not contain. */
  draftChanged: z.boolean(),
  /**
   * The live version's Yjs state vector (base64), so that an open editor knows "edited since
   * launch" from its own document as it changes (docs/stateVector.ts). Null when never launched.
   */
  liveStateVector: z.string().nullable().default(null),
  createdBy: z.string().uuid().nullable(),
  createdByName: z.string().nullable(),
  assignedTo: z.string().uuid().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type JourneySummary = z.infer<typeof JourneySummary>;

export const JourneyListQuery = z.object({ owner: OwnershipFilter.default('all'), scope: CampaignScope.default('current') });
export type JourneyListQuery = z.infer<typeof JourneyListQuery>;

export const JourneyCreate = z.object({ name: Name });
export const JourneyRename = z.object({ name: Name });
export const JourneyAssign = z.object({ userId: z.string().uuid().nullable() });

/**
 * A launch: `reviewed` is the fingerprint (journeyFingerprint) of the journey the person reviewed;
 * when given, the server launches only that journey and refuses (409, `changed_since_review`) one
 * that changed after the review. Without it (scripts, the API), the live document as it is.
 */
export const JourneyLaunch = z.object({ reviewed: z.string().regex(/^[0-9a-f]{64}$/, 'a SHA-256 fingerprint in hex').optional() });

/** A launched version as the launch review compares against it. */
export const JourneyVersionDetail = {
  version: z.number().int(),
  /** The journey the version runs (normalized at launch). */
  definition: z.unknown(),
  launchedAt: z.string(),
  launchedByName: z.string().nullable(),
};

/** A problem that refuses a launch: the step and the rule, for the editor to show. */
export const LaunchViolation = z.object({
  stepId: z.string().nullable(),
  path: z.string(),
  code: z.string(),
  params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});
export type LaunchViolation = z.infer<typeof LaunchViolation>;

export const DocTokenAnswer = z.object({ token: z.string(), access: z.enum(['read', 'write']), url: z.string() });
