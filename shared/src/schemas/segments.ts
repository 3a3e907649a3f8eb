/**
 * Segments (audience definitions, edited live as Yjs documents `segment:<id>`) and audiences
 * (/behavior/audiences): what lists show and the requests that manage them. The meaning of a
 * segment's conditions: segment/semantics.ts and the API's segment compiler.
 */
import { z } from 'zod';
import { Name } from './common.ts';
import { OwnershipFilter } from '../enums.ts';
import { AUDIENCE_REFRESH_MINUTES, AudienceRule, AudienceSourceType, AudienceStatus } from '../segment/audience.ts';
import { Segment, SegmentFilterKind } from '../segment/model.ts';
import { PersonId } from './people.ts';

const Time = z.string().nullable();

export const SEGMENT_LIMITS = {
  /** People in an estimate's or an audience's sample. */
  sample: 20,
  /** An estimate stops (and answers KO) after this long; the editor asks again on the next edit. */
  estimateTimeoutMs: 8_000,
  /** A refresh stops after this long and records an error (the previous members stay). */
  refreshTimeoutMs: 5 * 60_000,
} as const;

export const SegmentSummary = z.object({
  id: z.string().uuid(),
  appId: z.string().uuid(),
  name: z.string(),
  /** The Yjs document holding the conditions (open it with a document token). */
  docName: z.string(),
  createdBy: z.string().uuid().nullable(),
  createdByName: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SegmentSummary = z.infer<typeof SegmentSummary>;

export const SegmentCreate = z.object({ name: Name });
export const SegmentRename = z.object({ name: Name });

/** A problem that keeps a segment from evaluating: the node, the field and the rule. */
export const SegmentProblem = z.object({
  key: z.string(),
  path: z.string(),
  code: z.string(),
  /** AudienceNotValid or AudienceNotExist (SPEC.md section 8). */
  error: z.string(),
});
export type SegmentProblem = z.infer<typeof SegmentProblem>;

export const SegmentDetail = {
  segment: SegmentSummary,
  /** The conditions as the document holds them now (normalized). */
  definition: Segment,
  /** Empty when the segment evaluates. */
  problems: z.array(SegmentProblem),
};

export const SamplePerson = z.object({
  id: PersonId,
  customerId: z.string().nullable(),
  email: z.string().nullable(),
  /** The name from the person's profile attributes (shared `personName`), null when none is known. */
  name: z.string().nullable(),
  country: z.string().nullable(),
  /** The person's last activity: the latest event time of their devices (null before their first event). */
  lastSeenAt: Time,
});
export type SamplePerson = z.infer<typeof SamplePerson>;

export const EstimateRequest = z.object({ segment: Segment });
export type EstimateRequest = z.infer<typeof EstimateRequest>;
export const EstimateAnswer = {
  count: z.number().int(),
  /** Up to SEGMENT_LIMITS.sample matching people, newest first. */
  sample: z.array(SamplePerson),
};

export const AudienceSummary = z.object({
  id: z.string().uuid(),
  appId: z.string().uuid(),
  name: z.string(),
  status: AudienceStatus,
  sourceType: AudienceSourceType,
  segmentId: z.string().uuid().nullable(),
  segmentName: z.string().nullable(),
  /** The segment as last evaluated (null for imports). */
  definition: Segment.nullable(),
  isTest: z.boolean(),
  /** For a fixed audience saved from an analysis (source type none): which one, from `source_config.from`. */
  origin: z.enum(['funnel', 'cohort']).nullable().optional(),
  /** People as of the last successful refresh (null before the first). */
  personCount: z.number().int().nullable(),
  refreshedAt: Time,
  nextRefreshAt: Time,
  refreshEveryMinutes: z.number().int(),
  /** The last failure (SPEC.md section 8 name and a message); cleared by a successful refresh. */
  errorName: z.string().nullable(),
  errorMessage: z.string().nullable(),
  createdBy: z.string().uuid().nullable(),
  createdByName: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AudienceSummary = z.infer<typeof AudienceSummary>;

/** Where a new audience's people come from: a segment (followed at each refresh), conditions, or audience rules. */
export const AudienceSourceInput = z.discriminatedUnion('from', [
  z.object({ from: z.literal('segment'), segmentId: z.string().uuid() }),
  z.object({ from: z.literal('definition'), segment: Segment }),
  z.object({ from: z.literal('rules'), rules: z.array(AudienceRule).min(1).max(20) }),
]);
export type AudienceSourceInput = z.infer<typeof AudienceSourceInput>;

const RefreshEvery = z.number().int().min(AUDIENCE_REFRESH_MINUTES.min).max(AUDIENCE_REFRESH_MINUTES.max);

export const AudienceCreate = z.object({
  name: Name,
  source: AudienceSourceInput,
  isTest: z.boolean().default(false),
  refreshEveryMinutes: RefreshEvery.default(AUDIENCE_REFRESH_MINUTES.default),
});
export type AudienceCreate = z.infer<typeof AudienceCreate>;

/** Rename, mark as test, change the refresh period; `active: false` makes it inactive, `true` refreshes it again. */
export const AudienceUpdate = z.object({
  name: Name.optional(),
  isTest: z.boolean().optional(),
  refreshEveryMinutes: RefreshEvery.optional(),
  active: z.boolean().optional(),
});
export type AudienceUpdate = z.infer<typeof AudienceUpdate>;

export const AudienceClone = z.object({ name: Name });

export const AudienceListQuery = z.object({
  owner: OwnershipFilter.default('all'),
  /** Only what the user may pick as a journey or message target (test audiences only without ui:audienceSelection.nonTest). */
  selectable: z.enum(['true', 'false']).default('false').transform((v) => v === 'true'),
});
export type AudienceListQuery = z.infer<typeof AudienceListQuery>;

export const AudienceDetail = {
  audience: AudienceSummary,
  /** Up to SEGMENT_LIMITS.sample members, newest people first. */
  sample: z.array(SamplePerson),
};

/**
 * The most frequent stored values of a condition field (segment/valueSuggestions.ts), for the
 * segment editor's suggestions. Counted over at most `scanRows` rows, the newest first (people by
 * creation, devices by last activity; `scanEvents` events of the last `eventDays` days); `sampled`
 * says the app had more, so counts are those of the newest rows.
 */
export const SEGMENT_VALUE_LIMITS = { defaultLimit: 50, maxLimit: 100, maxQueryLength: 100, scanRows: 50_000, scanEvents: 20_000, eventDays: 90 } as const;

export const SegmentValuesQuery = z.object({
  /** The field: a filter kind and its id, as in a condition (`<event>/<property>` for event properties). */
  type: SegmentFilterKind,
  id: z.string().trim().min(1).max(200),
  /** Only values starting with this text (case ignored). */
  q: z.string().trim().max(SEGMENT_VALUE_LIMITS.maxQueryLength).default(''),
  limit: z.string().regex(/^\d{1,3}$/).transform(Number).pipe(z.number().int().min(1).max(SEGMENT_VALUE_LIMITS.maxLimit)).default(SEGMENT_VALUE_LIMITS.defaultLimit),
});
export type SegmentValuesQuery = z.infer<typeof SegmentValuesQuery>;

/** A stored value (its most frequent spelling: values compare ignoring case) and how many people have it. */
export const SegmentValue = z.object({ value: z.string(), count: z.number().int() });
export type SegmentValue = z.infer<typeof SegmentValue>;

export const SegmentValuesAnswer = {
  /** Most frequent first (then by value), at most `limit`. */
  values: z.array(SegmentValue),
  /** More rows than SEGMENT_VALUE_LIMITS.scanRows (scanEvents): the counts are those of the newest rows. */
  sampled: z.boolean(),
};
