/**
 * Cohorts (/behavior/cohort): retention query, answer and "save a cell as an audience".
 *
 * The range (`startDay`..`endDay`, days in the app's time zone, both included, neither = the last
 * 7 days) chooses the cohorts: every bucket of `period` (day, ISO week from Monday, month) that
 * overlaps the range is a cohort, whole (a range starting on a Wednesday still gives that week's
 * cohort all its days, as Mixpanel and Amplitude do: a cohort is a calendar period). `timeGroup`
 * of the common range fields is not used; `period` is the grouping.
 *
 * `periods` is the number of periods after period 0 shown (period 0 is the start bucket itself,
 * 100% by definition); when absent it is DEFAULT_COHORT_PERIODS[period]. The rules are in
 * shared/src/analytics/retention.ts.
 */
import { z } from 'zod';
import { Name } from './common.ts';
import { DateString } from '../formats.ts';
import { PersonBreakdown, StepEvent, analyticsRangeFields, checkRange } from './analyticsQuery.ts';

export const COHORT_PERIODS = ['day', 'week', 'month'] as const;
export const CohortPeriod = z.enum(COHORT_PERIODS);
export type CohortPeriod = z.infer<typeof CohortPeriod>;

export const CohortMode = z.enum(['first', 'recurring']);
export type CohortMode = z.infer<typeof CohortMode>;

export const ReturnOn = z.enum(['on', 'onOrAfter']);
export type ReturnOn = z.infer<typeof ReturnOn>;

export const MAX_COHORT_PERIODS = 36;
export const DEFAULT_COHORT_PERIODS: Record<CohortPeriod, number> = { day: 14, week: 12, month: 12 };

export const CohortQuery = z
  .object({
    ...analyticsRangeFields,
    start: StepEvent,
    /** null = any event counts as a return. */
    return: StepEvent.nullable().default(null),
    mode: CohortMode.default('first'),
    period: CohortPeriod.default('week'),
    periods: z.number().int().min(1).max(MAX_COHORT_PERIODS).optional(),
    returnOn: ReturnOn.default('on'),
    breakdown: PersonBreakdown.optional(),
  })
  .superRefine(checkRange);
export type CohortQuery = z.infer<typeof CohortQuery>;
export type CohortQueryInput = z.input<typeof CohortQuery>;

export const CohortRow = z.object({
  /** First day (YYYY-MM-DD) of the cohort's bucket. */
  cohort: z.string(),
  size: z.number(),
  /** People retained per period 0..periods (period 0 = size); null for a period that has not begun. */
  counts: z.array(z.number().nullable()),
  /** Whether each period has fully elapsed today in the app's time zone. */
  complete: z.array(z.boolean()),
});
export type CohortRow = z.infer<typeof CohortRow>;

export const CurvePoint = z.object({
  period: z.number(),
  /** Retained people summed over the cohorts whose period is complete. */
  people: z.number(),
  /** Sizes of those cohorts. */
  cohortPeople: z.number(),
  /** people / cohortPeople, or null when no cohort has completed the period. */
  rate: z.number().nullable(),
});
export type CurvePoint = z.infer<typeof CurvePoint>;

export const CohortSegment = z.object({
  /** The breakdown value (EMPTY_SENTINEL, OTHER_SENTINEL). */
  key: z.string(),
  size: z.number(),
  rows: z.array(CohortRow),
  curve: z.array(CurvePoint),
});
export type CohortSegment = z.infer<typeof CohortSegment>;

export const CohortAnswerShape = z.object({
  /** The cohorts' buckets as resolved (whole buckets overlapping the query's range). */
  range: z.object({ startDay: z.string(), endDay: z.string() }),
  period: CohortPeriod,
  periods: z.number(),
  mode: CohortMode,
  returnOn: ReturnOn,
  /** Today in the app's time zone, the day completeness was judged on. */
  today: z.string(),
  rows: z.array(CohortRow),
  size: z.number(),
  curve: z.array(CurvePoint),
  /** With a breakdown: one segment per value (top values, then OTHER_SENTINEL), largest first. */
  segments: z.array(CohortSegment).nullable(),
  /** Where the people came from: the per-person month bitmaps or the events table (filters, property breakdown). */
  source: z.enum(['bitmaps', 'events']),
});
export type CohortAnswer = z.infer<typeof CohortAnswerShape>;
export const CohortAnswer = CohortAnswerShape.shape;

export const CohortAudienceInput = z.object({
  name: Name,
  query: CohortQuery,
  /** The cohort's bucket start (a row's `cohort`). */
  cohort: DateString,
  /** 0 = the cohort itself; n = the people retained in period n. */
  period: z.number().int().min(0).max(MAX_COHORT_PERIODS),
});
export type CohortAudienceInput = z.infer<typeof CohortAudienceInput>;
