/**
 * Behaviour analytics (/behavior/events, /behavior/explore) and the custom event catalogue
 * (/manage/events): query and answer schemas.
 *
 * Ranges follow dateRange.ts: `startDay`..`endDay` (both included) are days in the app's time zone
 * (`apps.timezone`). When a query gives neither, the API uses the default range (the last 7 days
 * including today in that time zone). Ranges longer than ANALYTICS_LIMITS.maxRangeDays are refused.
 *
 * Buckets (SPEC.md section 9): `hour` groups by the hour of the day in the app's time zone, 24
 * buckets labelled HH:00 (a range of several days adds the same hour of each day up: an hour-of-day
 * profile); `day`, `week` (ISO weeks, from Monday) and `month` are labelled with the YYYY-MM-DD day
 * their bucket starts on, clipped to the range (a week that began before `startDay` is labelled
 * `startDay`), so every bucket covers only days of the range.
 *
 * The previous period is the range of the same length that ends the day before `startDay`. Its
 * values are aligned with the current buckets by shifting its days forward by the range length.
 *
 * Missing values of a breakdown dimension are EMPTY_SENTINEL (shown as "(empty)"); values past
 * the top ANALYTICS_LIMITS.breakdownTop are added up under OTHER_SENTINEL.
 */
import { z } from 'zod';
import { TimeGroup } from '../enums.ts';
import { DateString } from '../formats.ts';
import { BUILT_IN_EVENT_KEYS, ConversionType } from '../behaviour/events.ts';

export const ANALYTICS_LIMITS = {
  /** Longest range a query may ask for, in days (both ends included). */
  maxRangeDays: 366,
  /** Breakdown values shown one by one; the rest are added up under OTHER_SENTINEL. */
  breakdownTop: 10,
  /** Event properties are computed over at most this many of the latest rows of the range. */
  propertySample: 100_000,
  /** Properties listed for one event, and values listed per property. */
  topProperties: 20,
  topValues: 10,
  /** Longest custom event label. */
  maxLabelLength: 100,
  /** Properties of one custom event marked as breakdowns (each costs a rollup row per day and value). */
  maxBreakdownProperties: 5,
} as const;

/** Whole days from `startDay` to `endDay`, both included. */
export function rangeLength(startDay: string, endDay: string): number {
  return Math.round((Date.parse(`${endDay}T00:00:00Z`) - Date.parse(`${startDay}T00:00:00Z`)) / 86_400_000) + 1;
}

/** Query-string booleans: `true`/`1` and `false`/`0` (a real boolean is accepted too). */
export const QueryFlag = z.union([z.boolean(), z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1')]);

/** An event name as it was sent (the ingestion rules apply to custom names; built-in ones are gd_...). */
export const EventNameParam = z.string().trim().min(1).max(64);

const rangeFields = {
  startDay: DateString.optional(),
  endDay: DateString.optional(),
  timeGroup: TimeGroup.default('day'),
};

/** Both days or neither; start not after end; at most maxRangeDays days. */
export function checkRange(value: { startDay?: string | undefined; endDay?: string | undefined }, ctx: z.RefinementCtx): void {
  const { startDay, endDay } = value;
  if ((startDay === undefined) !== (endDay === undefined)) {
    ctx.addIssue({ code: 'custom', path: [startDay === undefined ? 'startDay' : 'endDay'], message: 'Give both startDay and endDay, or neither for the last 7 days' });
    return;
  }
  if (startDay === undefined || endDay === undefined) return;
  if (startDay > endDay) ctx.addIssue({ code: 'custom', path: ['endDay'], message: 'startDay must not be after endDay' });
  else if (rangeLength(startDay, endDay) > ANALYTICS_LIMITS.maxRangeDays) {
    ctx.addIssue({ code: 'custom', path: ['endDay'], message: `A range may cover at most ${ANALYTICS_LIMITS.maxRangeDays} days` });
  }
}

export const AnalyticsRangeQuery = z.object(rangeFields).superRefine(checkRange);
export type AnalyticsRangeQuery = z.infer<typeof AnalyticsRangeQuery>;

/**
 * The events list. `people=false` leaves distinct people out (null): they need a scan of the
 * range's events, while the other figures come from the rollup at once, so a screen can show the
 * list first and the people when they arrive.
 */
export const EventListQuery = z.object({ ...rangeFields, people: QueryFlag.default(true) }).superRefine(checkRange);
export type EventListQuery = z.infer<typeof EventListQuery>;

/** A resolved range as the answers echo it. */
export const ResolvedRange = z.object({ startDay: z.string(), endDay: z.string(), timeGroup: TimeGroup });
export type ResolvedRange = z.infer<typeof ResolvedRange>;
export const DayRange = z.object({ startDay: z.string(), endDay: z.string() });
export type DayRange = z.infer<typeof DayRange>;

// ---- /behavior/events ----

export const EventSummary = z.object({
  name: z.string(),
  builtIn: z.boolean(),
  /** The custom label from the catalogue (built-in events are labelled by the i18n catalogues). */
  label: z.string().nullable(),
  hidden: z.boolean(),
  events: z.number(),
  /** Distinct people who sent it in the range (null when the query asked for people=false). */
  people: z.number().nullable(),
  revenue: z.number(),
  /**
   * The one currency (ISO 4217) every revenue event of the range named, else null: no revenue, no
   * currency sent, or several (the sum then mixes them; shown as a plain number).
   */
  currency: z.string().nullable(),
  /** Events in the previous period of the same length. */
  previousEvents: z.number(),
});
export type EventSummary = z.infer<typeof EventSummary>;

export const EventListAnswer = {
  range: ResolvedRange,
  previous: DayRange,
  events: z.array(EventSummary),
};

export const EventTrendQuery = z.object({ ...rangeFields, name: EventNameParam }).superRefine(checkRange);
export type EventTrendQuery = z.infer<typeof EventTrendQuery>;

export const EventTrendAnswer = {
  range: ResolvedRange,
  buckets: z.array(z.string()),
  events: z.array(z.number()),
  people: z.array(z.number()),
};

export const EventPropertiesQuery = EventTrendQuery;
export type EventPropertiesQuery = EventTrendQuery;

export const PropertyValueCount = z.object({
  /** The value as text (EMPTY_SENTINEL for null or ""; arrays and objects as JSON). */
  value: z.string(),
  count: z.number(),
});
export const EventProperty = z.object({
  name: z.string(),
  /** Sampled events that carry the property. */
  count: z.number(),
  /** Distinct values among the sampled events. */
  distinct: z.number(),
  values: z.array(PropertyValueCount),
});
export type EventProperty = z.infer<typeof EventProperty>;

export const EventPropertiesAnswer = {
  range: ResolvedRange,
  /** Events the figures were computed over (the latest ones of the range, at most sampleLimit). */
  sampled: z.number(),
  sampleLimit: z.number(),
  properties: z.array(EventProperty),
};

// ---- /behavior/explore ----

export const ExploreMetric = z.enum(['events', 'people', 'revenue', 'eventsPerPerson']);
export type ExploreMetric = z.infer<typeof ExploreMetric>;
/** Row dimensions kept by the rollup, plus a property of the event. */
export const ExploreBreakdown = z.enum(['source', 'country', 'os', 'appVersion', 'property']);
export type ExploreBreakdown = z.infer<typeof ExploreBreakdown>;

export const ExploreQuery = z
  .object({
    ...rangeFields,
    event: EventNameParam,
    metric: ExploreMetric.default('events'),
    breakdown: ExploreBreakdown.optional(),
    /** The property name when `breakdown` is `property`. */
    property: z.string().trim().min(1).max(64).optional(),
    compare: QueryFlag.default(false),
  })
  .superRefine((value, ctx) => {
    checkRange(value, ctx);
    if (value.breakdown === 'property' && !value.property) ctx.addIssue({ code: 'custom', path: ['property'], message: 'Name the property to break down by' });
    if (value.breakdown !== 'property' && value.property !== undefined) ctx.addIssue({ code: 'custom', path: ['property'], message: 'A property is given only with breakdown=property' });
  });
export type ExploreQuery = z.infer<typeof ExploreQuery>;

export const ExploreSeries = z.object({
  /** The breakdown value (EMPTY_SENTINEL, OTHER_SENTINEL), or null without a breakdown. */
  key: z.string().nullable(),
  /** One value per bucket. */
  values: z.array(z.number()),
  /** Over the whole range (distinct people over the range for `people`, not a sum of buckets). */
  total: z.number(),
  /** With `compare`: the previous period, aligned with the buckets. */
  previous: z.array(z.number()).optional(),
  previousTotal: z.number().optional(),
});
export type ExploreSeries = z.infer<typeof ExploreSeries>;

export const ExploreAnswer = {
  /** The query answered (echoed, so a screen showing an older answer labels it right). */
  event: z.string(),
  metric: ExploreMetric,
  breakdown: ExploreBreakdown.nullable(),
  property: z.string().nullable(),
  range: ResolvedRange,
  previous: DayRange.nullable(),
  /** Bucket labels: HH:00 for `hour`, else the YYYY-MM-DD day each bucket starts on. */
  buckets: z.array(z.string()),
  series: z.array(ExploreSeries),
  /**
   * Where the figures came from: the daily rollup, the property breakdown rollup of a property marked
   * as a breakdown in the catalogue, distinct people per day and the person month bitmaps
   * (`peopleRollup`, exact), or the events table (unmarked properties, hours of the day, people
   * by a breakdown).
   */
  source: z.enum(['rollup', 'propertyRollup', 'peopleRollup', 'events']),
  /**
   * For metric=revenue: the one currency (ISO 4217) every revenue event of the event over the
   * range (and the previous period when comparing) named, else null (none, or several: the sums
   * then mix them). Null for the other metrics.
   */
  currency: z.string().nullable(),
};

// ---- /manage/events ----

/**
 * Where a breakdown mark's backfill (api-server analytics/breakdowns.ts) stands: `counting` while it
 * waits for its first run, runs, or waits to run again after a failed attempt; `ready` once the
 * past events are counted (explore reads the rollup); `failed` when every attempt failed, so it
 * never runs again by itself (a retry starts it over). Until `ready`, explore reads the events
 * table for the property: its figures are right whatever the state, only slower.
 */
export const BreakdownState = z.enum(['counting', 'ready', 'failed']);
export type BreakdownState = z.infer<typeof BreakdownState>;

export const BreakdownMark = z.object({
  property: z.string(),
  /** `state === 'ready'` (the field older clients read). */
  ready: z.boolean(),
  state: BreakdownState,
  /** Runs of the backfill started so far, and how many it may take before it fails for good. */
  attempts: z.number().int(),
  maxAttempts: z.number().int(),
  /** The last failed run's error as the server logged it (English); null when none failed or a run was cut off without one. */
  error: z.string().nullable(),
});
export type BreakdownMark = z.infer<typeof BreakdownMark>;

export const EventDefinition = z.object({
  name: z.string(),
  label: z.string().nullable(),
  conversionType: ConversionType.nullable(),
  hidden: z.boolean(),
  /** When the first event of this name arrived (null when only the rollup knows it). */
  firstSeenAt: z.string().nullable(),
  /**
   * Properties marked as breakdowns: explore answers a breakdown by them from a rollup kept by
   * ingestion once `ready` (their past events counted by the backfill job); until then, and for a
   * mark whose backfill failed, from the events table.
   */
  breakdowns: z.array(BreakdownMark),
});
export type EventDefinition = z.infer<typeof EventDefinition>;

export const BuiltInEventDefinition = z.object({
  name: z.string(),
  key: z.enum(BUILT_IN_EVENT_KEYS),
  /** In the request's language (Accept-Language: Spanish for es, else English). */
  label: z.string(),
});
export type BuiltInEventDefinition = z.infer<typeof BuiltInEventDefinition>;

export const EventCatalogueAnswer = {
  custom: z.array(EventDefinition),
  builtIn: z.array(BuiltInEventDefinition),
};

/** A change of a custom event: only the fields given change; null clears label or conversion type. */
export const EventDefinitionUpdate = z
  .object({
    label: z.string().trim().max(ANALYTICS_LIMITS.maxLabelLength).transform((v) => (v === '' ? null : v)).nullable().optional(),
    conversionType: ConversionType.nullable().optional(),
    hidden: z.boolean().optional(),
  })
  .refine((v) => v.label !== undefined || v.conversionType !== undefined || v.hidden !== undefined, { message: 'Nothing to change: give label, conversionType or hidden' });
export type EventDefinitionUpdate = z.infer<typeof EventDefinitionUpdate>;

/** The properties of a custom event marked as breakdowns (the whole set: absent ones are unmarked). */
export const EventBreakdownsUpdate = z
  .object({
    properties: z.array(z.string().trim().min(1).max(64)).max(ANALYTICS_LIMITS.maxBreakdownProperties),
  })
  .superRefine((v, ctx) => {
    if (new Set(v.properties).size !== v.properties.length) ctx.addIssue({ code: 'custom', path: ['properties'], message: 'A property is marked once' });
  });
export type EventBreakdownsUpdate = z.infer<typeof EventBreakdownsUpdate>;

/** Run the backfill of a mark whose every attempt failed once more (a mark in another state is left as it is). */
export const EventBreakdownRetry = z.object({ property: z.string().trim().min(1).max(64) });
export type EventBreakdownRetry = z.infer<typeof EventBreakdownRetry>;
