/**
 * Funnels (/behavior/funnels): the query, the answer, the drill-down into people and saving them
 * as an audience. The semantics are in shared/src/analytics/funnel.ts.
 *
 * Decisions:
 * - The window is a value and a unit (minute, hour, day), from 1 minute to 90 days.
 * - `exclusions[].afterStep` is 1..n-1: the exclusion applies between step afterStep and the next.
 *   At most MAX_EXCLUSIONS.
 * - Breakdown values are ranked by the people who entered (step 1); the top
 *   ANALYTICS_LIMITS.breakdownTop (behaviour.ts) are kept, the rest added up under OTHER_SENTINEL.
 * - Conversion over time groups each person by the bucket (the range's time group, in the app's
 *   time zone) of the step 1 of the attempt that counted for them, so the buckets add up to the
 *   totals: `entered` and `converted` (reached the last step).
 * - Time to convert covers people who reached the last step: average, lower median, and a
 *   histogram over readable bins up to the window (funnel.ts `histogramEdges`).
 * - Drill-down at step k: `converted` = reached step k or further; `dropped` = reached step k-1
 *   but not step k (so k >= 2).
 */
import { z } from 'zod';
import { Name } from './common.ts';
import { DayRange, ResolvedRange } from './behaviour.ts';
import { PersonBreakdown, StepEvent, analyticsRangeFields, checkRange } from './analyticsQuery.ts';
import { AudienceSummary } from './segments.ts';

export const FUNNEL_LIMITS = { minSteps: 2, maxSteps: 20, maxExclusions: 10, peopleLimit: 100 } as const;
const UNIT_SECONDS = { minute: 60, hour: 3600, day: 86_400 } as const;
const MAX_WINDOW = 90 * 86_400;

export const FunnelOrder = z.enum(['sequential', 'strict', 'any']);
export type FunnelOrder = z.infer<typeof FunnelOrder>;
export const WindowUnit = z.enum(['minute', 'hour', 'day']);
export type WindowUnit = z.infer<typeof WindowUnit>;

export const FunnelWindow = z
  .object({ value: z.number().int().min(1), unit: WindowUnit })
  .refine((w) => w.value * UNIT_SECONDS[w.unit] <= MAX_WINDOW, { message: 'A window may be at most 90 days', path: ['value'] });
export type FunnelWindow = z.infer<typeof FunnelWindow>;
export const windowSeconds = (w: FunnelWindow): number => w.value * UNIT_SECONDS[w.unit];

export const FunnelAttribution = z.union([z.enum(['first', 'last']), z.object({ step: z.number().int().min(1) })]);
export type FunnelAttribution = z.infer<typeof FunnelAttribution>;

export const FunnelExclusion = z.object({ event: StepEvent, afterStep: z.number().int().min(1) });
export type FunnelExclusion = z.infer<typeof FunnelExclusion>;

const funnelFields = {
  steps: z.array(StepEvent).min(FUNNEL_LIMITS.minSteps).max(FUNNEL_LIMITS.maxSteps),
  window: FunnelWindow.default({ value: 7, unit: 'day' }),
  order: FunnelOrder.default('sequential'),
  exclusions: z.array(FunnelExclusion).max(FUNNEL_LIMITS.maxExclusions).default([]),
  breakdown: PersonBreakdown.optional(),
  attribution: FunnelAttribution.default('first'),
  compare: z.boolean().default(false),
};

function checkFunnel(value: { steps: unknown[]; exclusions: { afterStep: number }[]; attribution: FunnelAttribution }, ctx: z.RefinementCtx): void {
  const n = value.steps.length;
  value.exclusions.forEach((x, i) => {
    if (x.afterStep > n - 1) ctx.addIssue({ code: 'custom', path: ['exclusions', i, 'afterStep'], message: `An exclusion goes between two steps: afterStep is 1..${n - 1}` });
  });
  if (typeof value.attribution === 'object' && value.attribution.step > n) ctx.addIssue({ code: 'custom', path: ['attribution', 'step'], message: `Choose a step of the funnel (1..${n})` });
}

export const FunnelQuery = z.object({ ...analyticsRangeFields, ...funnelFields }).superRefine((value, ctx) => {
  checkRange(value, ctx);
  checkFunnel(value, ctx);
});
export type FunnelQuery = z.infer<typeof FunnelQuery>;
/**
 * The query string of the GET form: `q` is the FunnelQuery as JSON (steps with filters do not fit
 * flat parameters), so the answer is cached and linked like every other range query.
 */
export const FunnelQueryParam = z.object({
  q: z.string().max(50_000).transform((text, ctx): unknown => {
    try {
      return JSON.parse(text);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'q must be a funnel query as JSON' });
      return z.NEVER;
    }
  }).pipe(FunnelQuery),
});
/** What a query may leave out (defaults apply), e.g. the URL's or a dashboard widget's. */
export type FunnelQueryInput = z.input<typeof FunnelQuery>;

export const FunnelSeries = z.object({
  /** The breakdown value (EMPTY_SENTINEL, OTHER_SENTINEL), null for everybody. */
  key: z.string().nullable(),
  /** People who reached each step (at least), step 1 first. */
  counts: z.array(z.number()),
  /** counts[k] / counts[0] and counts[k] / counts[k-1] (0 when the denominator is 0). */
  conversion: z.array(z.number()),
  stepConversion: z.array(z.number()),
  /** Over the people who reached the last step (null when none did). */
  avgSeconds: z.number().nullable(),
  medianSeconds: z.number().nullable(),
});
export type FunnelSeries = z.infer<typeof FunnelSeries>;

export const FunnelAnswer = {
  range: ResolvedRange,
  windowSeconds: z.number(),
  steps: z.array(z.string()),
  total: FunnelSeries,
  /** One series per breakdown value, largest first, OTHER_SENTINEL last; empty without a breakdown. */
  breakdown: z.array(FunnelSeries),
  /** People who reached the last step by time to convert; `upTo` is the bin's upper edge in seconds. */
  histogram: z.array(z.object({ upTo: z.number(), people: z.number() })),
  /** By the bucket of each person's step 1 (HH:00 for hours, else the day the bucket starts on). */
  overTime: z.object({ buckets: z.array(z.string()), entered: z.array(z.number()), converted: z.array(z.number()) }),
  /** With `compare`: the same funnel over the previous period of the same length. */
  previous: z.object({ range: DayRange, total: FunnelSeries }).nullable(),
};
export type FunnelAnswer = { [K in keyof typeof FunnelAnswer]: z.infer<(typeof FunnelAnswer)[K]> };

export const FunnelOutcome = z.enum(['converted', 'dropped']);
export type FunnelOutcome = z.infer<typeof FunnelOutcome>;

const selection = {
  query: FunnelQuery,
  step: z.number().int().min(1),
  outcome: FunnelOutcome,
  /** Only the people of one breakdown value (EMPTY_SENTINEL / OTHER_SENTINEL included). */
  breakdownValue: z.string().max(500).optional(),
};
function checkSelection(value: { query: { steps: unknown[] }; step: number; outcome: FunnelOutcome }, ctx: z.RefinementCtx): void {
  const n = value.query.steps.length;
  if (value.step > n) ctx.addIssue({ code: 'custom', path: ['step'], message: `Choose a step of the funnel (1..${n})` });
  else if (value.outcome === 'dropped' && value.step < 2) ctx.addIssue({ code: 'custom', path: ['step'], message: 'Nobody drops at step 1: choose step 2 or later' });
}

export const FunnelPeopleRequest = z.object(selection).superRefine(checkSelection);
export type FunnelPeopleRequest = z.infer<typeof FunnelPeopleRequest>;
export const FunnelPerson = z.object({
  id: z.string(),
  customerId: z.string().nullable(),
  email: z.string().nullable(),
  country: z.string().nullable(),
  os: z.string().nullable(),
  /** When the person's counted attempt started (step 1), ISO. */
  startedAt: z.string(),
  reached: z.number(),
});
export type FunnelPerson = z.infer<typeof FunnelPerson>;
export const FunnelPeopleAnswer = {
  /** Everybody selected; `people` lists the first FUNNEL_LIMITS.peopleLimit by start time. */
  total: z.number(),
  people: z.array(FunnelPerson),
};

export const FunnelAudienceRequest = z.object({ name: Name, ...selection }).superRefine(checkSelection);
export type FunnelAudienceRequest = z.infer<typeof FunnelAudienceRequest>;
export const FunnelAudienceAnswer = { audience: AudienceSummary };
