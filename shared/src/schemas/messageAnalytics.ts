/**
 * Message analytics (issue 13): the metrics of a message and its variants (the message screen, the
 * A/B analysis), the messages report (/communication/report) and the performance report
 * (/communication/performance-report). Definitions (api-server features/messageAnalytics/metrics.ts
 * computes them in SQL; test sends never count):
 * - sents: outbox rows the provider accepted; delivered: for push and e-mail the sends the provider
 *   accepted, for in-app and native the people who saw it (an impression);
 * - fails: failed and retired rows, by reason (as the delivery panel words them);
 * - impressions, opens, clicks: people (each person once per metric: a mail client fetching the
 *   pixel twice is one open); ctr = clicks / delivered (null while nothing was delivered);
 * - redeems: coupon redemptions;
 * - conversions direct / indirect and revenue direct / indirect: message/conversion.ts.
 * Each person's figures count under the variant they were sent (else the one their interaction
 * named); interactions naming no variant count under the message only.
 */
import { z } from 'zod';
import { DateString } from '../formats.ts';
import { MessageConversion } from '../message/conversion.ts';
import { CommunicationStatus } from '../message/lifecycle.ts';
import { CommunicationType } from '../message/model.ts';
import { checkRange } from './behaviour.ts';
import { KpiType, PerformanceFilters } from './imports.ts';

const Count = z.number().int().min(0);

/** The figures of a message (or variant, or a set of messages) without the fail reasons. */
export const MessageKpis = z.object({
  sents: Count,
  delivered: Count,
  fails: Count,
  impressions: Count,
  opens: Count,
  clicks: Count,
  /** clicks / delivered, 0..1 (null when nothing was delivered). */
  ctr: z.number().nullable(),
  redeems: Count,
  conversionsDirect: Count,
  conversionsIndirect: Count,
  revenueDirect: z.number(),
  revenueIndirect: z.number(),
});
export type MessageKpis = z.infer<typeof MessageKpis>;
export const MESSAGE_KPI_KEYS = Object.keys(MessageKpis.shape) as (keyof MessageKpis)[];

export const FailReason = z.object({ status: z.enum(['failed', 'retired']), reason: z.string(), count: Count });
export type FailReason = z.infer<typeof FailReason>;

export const Metrics = MessageKpis.extend({ failReasons: z.array(FailReason) });
export type Metrics = z.infer<typeof Metrics>;

export const MessageMetrics = z.object({
  /** The conversion goal and window the figures were counted with (the latest approved version's). */
  conversion: MessageConversion,
  total: Metrics,
  /** Variant id → its figures (variants that sent or were named by an interaction). */
  variants: z.record(z.string(), Metrics),
  /** When the figures were read (they move while the message sends). */
  at: z.string(),
});
export type MessageMetrics = z.infer<typeof MessageMetrics>;

export function emptyKpis(): MessageKpis {
  return { sents: 0, delivered: 0, fails: 0, impressions: 0, opens: 0, clicks: 0, ctr: null, redeems: 0, conversionsDirect: 0, conversionsIndirect: 0, revenueDirect: 0, revenueIndirect: 0 };
}

/** A list in a query string (`key[]=a&key[]=b`, or one `key=a`) read with the list's own schema (its items, bounds and default). */
const QueryList = <T extends z.ZodType>(list: T) =>
  z.preprocess((v): unknown => (v === undefined ? undefined : Array.isArray(v) ? (v as unknown[]) : [v]), list);

const rangeQuery = { startDay: DateString, endDay: DateString };

/** /communication/report: the messages that sent or were interacted with in the range (at most ANALYTICS_LIMITS.maxRangeDays days). */
export const MessageReportQuery = z.object(rangeQuery).superRefine(checkRange);
export type MessageReportQuery = z.infer<typeof MessageReportQuery>;

export const MessageReportRow = z.object({
  messageId: z.string().uuid(),
  name: z.string(),
  campaignName: z.string(),
  type: CommunicationType,
  status: CommunicationStatus,
  current: MessageKpis,
  /** The same figures over the previous period of the same length. */
  previous: MessageKpis,
});
export type MessageReportRow = z.infer<typeof MessageReportRow>;

/** Most messages the report lists (by name); the totals cover every message of the period anyway. */
export const MESSAGE_REPORT_LIMIT = 500;

export const MessageReport = z.object({
  /** The period compared with: the same number of days ending the day before startDay. */
  previous: z.object({ startDay: DateString, endDay: DateString }),
  /**
   * Each period's totals over the messages active in that period (all of them, listed or not).
   * Sends, deliveries, fails, impressions, opens, clicks and redeems add up per message; a
   * conversion is a person's goal event and revenue a purchase event, each counted once however
   * many messages it falls within the window of (direct when it is direct for one of them).
   */
  total: z.object({ current: MessageKpis, previous: MessageKpis }),
  messages: z.array(MessageReportRow),
  /** More messages were active than MESSAGE_REPORT_LIMIT: `messages` lists the first by name only. */
  truncated: z.boolean(),
});
export type MessageReport = z.infer<typeof MessageReport>;

/** Date groups of the performance report. */
export const PerformanceGroup = z.enum(['day', 'week', 'month']);
export type PerformanceGroup = z.infer<typeof PerformanceGroup>;

/**
 * /communication/performance-report: the people of a performance-report import (imports/performance.ts,
 * the same SQL) counted by the date group of the moment that made them count: their first impression
 * (impacts) or their first conversion after their first interaction (conversions). Each person is in
 * one group, so the groups add up to the import's people.
 */
const filters = PerformanceFilters.shape;
export const PerformanceReportQuery = z.object({
  ...rangeQuery,
  timeGroup: z.preprocess((v) => (v === 'hour' ? 'day' : v), PerformanceGroup).default('day'),
  kpiType: KpiType.default('impacts'),
  // The import's filters (schemas/imports.ts), each read from a query-string list.
  channels: QueryList(filters.channels),
  messageIds: QueryList(filters.messageIds),
  campaignIds: QueryList(filters.campaignIds),
  journeyIds: QueryList(filters.journeyIds),
}).superRefine(checkRange);
export type PerformanceReportQuery = z.infer<typeof PerformanceReportQuery>;

export const PerformanceReportExportQuery = PerformanceReportQuery.and(z.object({ format: z.enum(['csv', 'zip']).default('csv') }));

export const PerformanceReport = z.object({
  kpiType: KpiType,
  timeGroup: PerformanceGroup,
  /** People counted over the whole range (the import's figure). */
  total: Count,
  /** One row per date group of the range (labelled with the day it starts on, clipped to the range), zeros included. */
  rows: z.array(z.object({ day: DateString, value: Count })),
});
export type PerformanceReport = z.infer<typeof PerformanceReport>;
