/**
 * The A/B analysis (/communication/report/ab-analysis), sending an A/B test's winner to the people
 * its test held back, and the performance histograms (/communication/performance-histograms).
 *
 * Definitions (api-server features/abAnalysis):
 * - An A/B analysis reads the **test run** (the live run of the message's approved version): sends
 *   are its outbox rows the provider accepted, one per person; opens, clicks and conversions are
 *   the people of those sends with an open or click naming their variant since the run started,
 *   and with the run's own conversion goal (its `definition`, not the message's current version)
 *   within the run's window after their send or one of those opens and clicks. Every rate has the
 *   same population (the run's people), so the winner run and later occurrences never move it.
 * - Each rate has its 95% Wilson interval. The winner is declared only on the test's primary
 *   metric (message/abTest.ts `primaryMetric`, approved with the version), following
 *   message/abStats.ts `declareWinner`; the metric a reader picks (`metric`, default the primary)
 *   only chooses which comparisons are shown: each variant against the control (the first
 *   variant) and the best on that metric (two-sided two-proportion z-test), informational.
 * - Histograms count the live sends (not tests) of the range, each once: time to open and to click
 *   is from the send to the person's first open or click of that message; hours are 0..23 on the
 *   person's clock (the time zone their outbox row was resolved with).
 */
import { z } from 'zod';
import { DateString } from '../formats.ts';
import { ProportionTest, RateInterval, WinnerReason } from '../message/abStats.ts';
import { CommunicationStatus } from '../message/lifecycle.ts';
import { CommunicationType } from '../message/model.ts';
import { AbMetric } from '../message/abTest.ts';
import { checkRange } from './behaviour.ts';

const Count = z.number().int().min(0);
const Id = z.string().trim().min(1).max(64);

export { AbMetric };
export const AB_METRICS = AbMetric.options;

export const AbAnalysisQuery = z.object({
  /** The A/B message analysed; none: the one played last. */
  messageId: Id.optional(),
  /** The metric the comparisons are shown on (informational); none: the test's primary metric. */
  metric: AbMetric.optional(),
});
export type AbAnalysisQuery = z.infer<typeof AbAnalysisQuery>;


export const AbVariantResult = z.object({
  id: z.string(),
  name: z.string(),
  /** The variant's content type (push, e-mail, an in-app type). */
  type: CommunicationType.nullable(),
  /** Sends of the test run, and its people who opened and clicked. */
  sends: Count,
  opens: Count,
  clicks: Count,
  /** Its people with a conversion (the run's goal, within the run's window after their send, open or click). */
  conversions: Count,
  rates: z.object({ open: RateInterval, click: RateInterval, conversion: RateInterval }),
  /** On the shown metric (informational): against the control (null for the control itself) and against the best (null for the best). */
  vsControl: ProportionTest.nullable(),
  vsBest: ProportionTest.nullable(),
});
export type AbVariantResult = z.infer<typeof AbVariantResult>;

/** Why the winner cannot be sent to the rest now (null: it can, given the play key). */
export const SendWinnerBlock = z.enum(['noHoldOut', 'testRunning', 'noWinner', 'alreadySent', 'notFinished']);
export type SendWinnerBlock = z.infer<typeof SendWinnerBlock>;

export const WinnerRun = z.object({
  sendId: z.string().uuid(),
  variantId: z.string(),
  state: z.enum(['resolving', 'sending', 'finished']),
  recipients: Count,
  sent: Count,
  createdAt: z.string(),
});
export type WinnerRun = z.infer<typeof WinnerRun>;

export const AbAnalysis = z.object({
  message: z.object({ id: z.string().uuid(), name: z.string(), status: CommunicationStatus, version: z.number().int(), ownerId: z.string().nullable() }),
  /** The metric the comparisons (vsControl, vsBest) are shown on. */
  metric: AbMetric,
  /** The metric the winner is declared on: the test run's own settings (message/abTest.ts), never the reader's choice. */
  primaryMetric: AbMetric,
  /** The test portion of the analysed version (100: no hold-out). */
  testPercent: z.number().int(),
  /** When the test run started and finished (null: still sending). */
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  variants: z.array(AbVariantResult),
  decision: z.object({ winnerId: z.string().nullable(), bestId: z.string().nullable(), reason: WinnerReason, threshold: z.number() }),
  /** People the test held back (counted as the test run resolved its target), waiting for the winner. */
  heldBack: Count,
  winnerRun: WinnerRun.nullable(),
  /** Why "send the winner to the rest" is not possible now, before permissions (null: it is). */
  sendBlock: SendWinnerBlock.nullable(),
});
export type AbAnalysis = z.infer<typeof AbAnalysis>;

export const AbTestListItem = z.object({
  id: z.string().uuid(),
  name: z.string(),
  status: CommunicationStatus,
  testPercent: z.number().int(),
  startedAt: z.string(),
});
export type AbTestListItem = z.infer<typeof AbTestListItem>;

export const AbAnalysisAnswer = {
  /** The app's A/B tests that were played, newest first. */
  tests: z.array(AbTestListItem),
  /** The analysis of the chosen (or latest) test; null when the app has none. */
  analysis: AbAnalysis.nullable(),
};

export const SendWinnerRequest = z.object({
  /** The winner the person saw: refused (409) when the analysis (on the test's primary metric) no longer declares it. */
  variantId: Id,
});
export type SendWinnerRequest = z.infer<typeof SendWinnerRequest>;

export const SendWinnerAnswer = {
  run: WinnerRun,
  /** False when the winner had already been sent (this call changed nothing). */
  created: z.boolean(),
};

/** Histogram buckets of the time from a send to the first open or click: upper bounds in seconds (the last is open-ended). */
export const DELAY_BUCKETS = [
  { key: 'm5', upTo: 300 },
  { key: 'm15', upTo: 900 },
  { key: 'm30', upTo: 1800 },
  { key: 'h1', upTo: 3600 },
  { key: 'h2', upTo: 7200 },
  { key: 'h4', upTo: 14_400 },
  { key: 'h8', upTo: 28_800 },
  { key: 'h24', upTo: 86_400 },
  { key: 'd2', upTo: 172_800 },
  { key: 'd7', upTo: 604_800 },
  { key: 'more', upTo: null },
] as const satisfies readonly { key: string; upTo: number | null }[];
export type DelayBucketKey = (typeof DELAY_BUCKETS)[number]['key'];
export const DelayBucketKey = z.enum(DELAY_BUCKETS.map((b) => b.key) as [DelayBucketKey, ...DelayBucketKey[]]);

export const HistogramQuery = z.object({
  startDay: DateString,
  endDay: DateString,
  messageId: Id.optional(),
}).superRefine(checkRange);
export type HistogramQuery = z.infer<typeof HistogramQuery>;

export const DelayBucket = z.object({ key: DelayBucketKey, count: Count });

export const HistogramAnswer = {
  /** Live sends in the range (by the day they were sent, in the app's time zone), and their people who opened and clicked. */
  totals: z.object({ sends: Count, opens: Count, clicks: Count }),
  timeToOpen: z.array(DelayBucket),
  timeToClick: z.array(DelayBucket),
  /** 24 rows, hours 0..23 on each person's clock: sends made then, and first opens made then. */
  byHour: z.array(z.object({ hour: z.number().int().min(0).max(23), sends: Count, opens: Count })),
  /** Messages with live sends (the filter's choices), newest first. */
  messages: z.array(z.object({ id: z.string().uuid(), name: z.string(), type: CommunicationType })),
};
