/** SQL of message analytics besides the metrics themselves (metrics.ts): the report's messages, the performance report. */
import type { MessageReportRow, PerformanceGroup, PerformanceReportQuery } from '@gd/shared';
import type { Queryable } from '../../db/pool.ts';
import { dayBucket } from '../analytics/sql.ts';
import { performanceMomentsSql } from '../imports/performance.ts';
import type { InstantRange } from './metrics.ts';

export type ReportMessage = Omit<MessageReportRow, 'current' | 'previous'>;

/** The report's messages: each with whether it was active in the current and in the previous period. */
export interface ActiveMessage extends ReportMessage { current: boolean; previous: boolean }

/**
 * The app's messages that sent (not a test) or were interacted with in the previous period
 * [previous.from, current.from) or the current one [current.from, current.to) (contiguous), by
 * name: one pass over both. Sent rows are read through message_outbox_app_sent, interactions
 * through migration 030's interactions_app_time (index only). The visibility of each message is
 * the report's key (the route), not the message keys.
 */
export async function messagesActiveIn(db: Queryable, appId: string, current: InstantRange, previous: InstantRange): Promise<ActiveMessage[]> {
  const { rows } = await db.query<{ id: string; name: string; campaign_name: string; type: ReportMessage['type']; status: ReportMessage['status']; current: boolean; previous: boolean }>(
    `WITH active AS (
       SELECT o.message_id, o.sent_at >= $3 AS current FROM message_outbox o
        WHERE o.app_id = $1 AND o.status = 'sent' AND NOT o.test AND o.sent_at >= $2 AND o.sent_at < $4
       UNION
       SELECT i.message_id::uuid, i.event_time >= $3 FROM message_interactions i
        WHERE i.app_id = $1 AND i.event_time >= $2 AND i.event_time < $4
          AND i.message_id ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'),
     flags AS (SELECT a.message_id, bool_or(a.current) AS current, bool_or(NOT a.current) AS previous FROM active a GROUP BY a.message_id)
     SELECT m.id, m.name, c.name AS campaign_name, m.type, m.status, f.current, f.previous
       FROM flags f JOIN messages m ON m.id = f.message_id AND m.app_id = $1 AND m.deleted_at IS NULL
       JOIN campaigns c ON c.id = m.campaign_id
      ORDER BY m.name, m.id`,
    [appId, previous.from, current.from, current.to]);
  return rows.map((r) => ({ messageId: r.id, name: r.name, campaignName: r.campaign_name, type: r.type, status: r.status, current: r.current, previous: r.previous }));
}

/** People of the performance report per date group (labels as analytics/sql.ts `dayBucket`), and in all. */
export async function performanceCounts(db: Queryable, appId: string, q: PerformanceReportQuery): Promise<{ total: number; groups: Map<string, number> }> {
  const moments = performanceMomentsSql({ kpiType: q.kpiType, dateRange: q, filters: { channels: q.channels, messageIds: q.messageIds, campaignIds: q.campaignIds, journeyIds: q.journeyIds } }, 1);
  const group: PerformanceGroup = q.timeGroup;
  const local = `(m.at AT TIME ZONE a.timezone)::date`;
  // The range start clips week and month labels; a day's label needs none (and Postgres refuses an unused parameter).
  const start = group === 'day' ? [] : [q.startDay];
  const { rows } = await db.query<{ day: string | null; people: string }>(
    `SELECT g.day, count(*) AS people
       FROM (SELECT ${dayBucket(group, local, `$${moments.params.length + 2}`)} AS day FROM (${moments.sql}) m, apps a WHERE a.id = $1) g
      GROUP BY ROLLUP (g.day)`,
    [appId, ...moments.params, ...start]);
  let total = 0;
  const groups = new Map<string, number>();
  for (const r of rows) {
    if (r.day === null) total = Number(r.people);
    else groups.set(r.day, Number(r.people));
  }
  return { total, groups };
}
