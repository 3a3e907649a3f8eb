/**
 * The people of a performance-report import, staged in one statement:
 * - impacts: people with an impression of the filtered messages in the date range;
 * - conversions: people who made a conversion (the built-in purchase event, or a custom event with
 *   a conversion type in the event catalogue) in the range, after their first interaction of any
 *   kind (impression, click, open) with the filtered messages in the range.
 * The range's days are calendar days in the app's time zone, both included. Empty filter lists
 * mean "any" (every channel, campaign, message and journey).
 */
import { builtInEventName, type DateRange, type KpiType, type PerformanceFilters } from '@gd/shared';
import type { Queryable } from '../../db/pool.ts';

export async function stagePerformance(db: Queryable, taskId: string, appId: string, p: { kpiType: KpiType; filters: PerformanceFilters; dateRange: DateRange }): Promise<number> {
  const interactions = `FROM message_interactions i, bounds b
    WHERE i.app_id = $2 AND i.event_time >= b.start_at AND i.event_time < b.end_at
      AND (cardinality($5::text[]) = 0 OR i.channel = ANY($5)) AND (cardinality($6::text[]) = 0 OR i.campaign_id = ANY($6))
      AND (cardinality($7::text[]) = 0 OR i.message_id = ANY($7)) AND (cardinality($8::text[]) = 0 OR i.journey_id = ANY($8))`;
  const bounds = `bounds AS (SELECT ($3::date)::timestamp AT TIME ZONE z.tz AS start_at, ($4::date + 1)::timestamp AT TIME ZONE z.tz AS end_at
    FROM (SELECT timezone AS tz FROM apps WHERE id = $2) z)`;
  const people = p.kpiType === 'impacts'
    ? `SELECT DISTINCT i.person_id ${interactions} AND i.kind = 'impression'`
    : `SELECT t.person_id FROM (SELECT i.person_id, min(i.event_time) AS first_at ${interactions} GROUP BY i.person_id) t, bounds b
        WHERE EXISTS (SELECT 1 FROM events e WHERE e.app_id = $2 AND e.person_id = t.person_id AND e.event_time >= t.first_at AND e.event_time < b.end_at
          AND (e.name = $9 OR e.name IN (SELECT d.name FROM event_definitions d WHERE d.app_id = $2 AND d.conversion_type IS NOT NULL)))`;
  const { rowCount } = await db.query(
    `WITH ${bounds} INSERT INTO import_staging (task_id, person_id) SELECT $1, x.person_id FROM (${people}) x`,
    [taskId, appId, p.dateRange.startDay, p.dateRange.endDay, p.filters.channels, p.filters.campaignIds, p.filters.messageIds, p.filters.journeyIds,
      ...(p.kpiType === 'conversions' ? [builtInEventName('transaction')] : [])],
  );
  return rowCount ?? 0;
}
