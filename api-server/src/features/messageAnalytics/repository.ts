/** SQL of message analytics besides the metrics themselves (metrics.ts): ranges, the report's messages, the performance report. */
import type { MessageReportRow, PerformanceGroup, PerformanceReportQuery } from '@gd/shared';
import type { Queryable } from '../../db/pool.ts';
import { dayBucket } from '../analytics/sql.ts';
import { performanceMomentsSql } from '../imports/performance.ts';
import type { InstantRange } from './metrics.ts';

/** The instants of calendar days `startDay`..`endDay` (both included) in the app's time zone. */
export async function instantsOf(db: Queryable, appId: string, startDay: string, endDay: string): Promise<InstantRange> {
  const { rows } = await db.query<{ from: Date; to: Date }>(
    `SELECT ($2::date)::timestamp AT TIME ZONE a.timezone AS "from", ($3::date + 1)::timestamp AT TIME ZONE a.timezone AS "to" FROM apps a WHERE a.id = $1`,
    [appId, startDay, endDay]);
  const row = rows[0];
  if (!row) throw new Error(`app ${appId} not found`);
  return row;
}

export type ReportMessage = Omit<MessageReportRow, 'current' | 'previous'>;

/**
 * The app's messages that sent (not a test) or were interacted with in [from, to): the messages of
 * the report. The visibility of each message is the report's key (the route), not the message keys.
 */
export async function messagesActiveIn(db: Queryable, appId: string, range: InstantRange): Promise<ReportMessage[]> {
  const { rows } = await db.query<{ id: string; name: string; campaign_name: string; type: ReportMessage['type']; status: ReportMessage['status'] }>(
    `WITH active AS (
       SELECT DISTINCT o.message_id FROM message_outbox o
        WHERE o.app_id = $1 AND o.status = 'sent' AND NOT o.test AND o.sent_at >= $2 AND o.sent_at < $3
       UNION
       SELECT DISTINCT i.message_id::uuid FROM message_interactions i
        WHERE i.app_id = $1 AND i.event_time >= $2 AND i.event_time < $3
          AND i.message_id ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$')
     SELECT m.id, m.name, c.name AS campaign_name, m.type, m.status
       FROM active a JOIN messages m ON m.id = a.message_id AND m.app_id = $1 AND m.deleted_at IS NULL
       JOIN campaigns c ON c.id = m.campaign_id
      ORDER BY m.name, m.id LIMIT 500`,
    [appId, range.from, range.to]);
  return rows.map((r) => ({ messageId: r.id, name: r.name, campaignName: r.campaign_name, type: r.type, status: r.status }));
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
