/**
 * The people of a performance-report import, as (n, person_id) pairs for the member swap (n is the
 * person: there is no file row):
 * - impacts: people with an impression of the filtered messages in the date range;
 * - conversions: people who made a conversion (the built-in purchase event, or a custom event with
 *   a conversion type in the event catalogue) in the range, after their first interaction of any
 *   kind (impression, click, open) with the filtered messages in the range.
 * The range's days are calendar days in the app's time zone, both included. Empty filter lists
 * mean "any" (every channel, campaign, message and journey).
 */
import { builtInEventName, type DateRange, type KpiType, type PerformanceFilters } from '@gd/shared';

/**
 * The people of the report with the moment that made them count (`at`): their first impression
 * (impacts) or their first conversion after their first interaction (conversions). The import takes
 * the people; the performance report (messageAnalytics/repository.ts `performanceCounts`) counts them by the date group
 * of `at`, so both read the same figures. SQL with $1 the app; its own parameters come after
 * `offset` (the caller's last parameter number). Columns: person_id, at, start_at, end_at.
 */
export function performanceMomentsSql(p: { kpiType: KpiType; filters: PerformanceFilters; dateRange: Pick<DateRange, 'startDay' | 'endDay'> }, offset: number): { sql: string; params: unknown[] } {
  const $ = (i: number) => `$${offset + i}`;
  const bounds = `(SELECT (${$(1)}::date)::timestamp AT TIME ZONE a.timezone AS start_at, (${$(2)}::date + 1)::timestamp AT TIME ZONE a.timezone AS end_at
    FROM apps a WHERE a.id = $1) b`;
  const interactions = `FROM message_interactions i, ${bounds}
    WHERE i.app_id = $1 AND i.event_time >= b.start_at AND i.event_time < b.end_at
      AND (cardinality(${$(3)}::text[]) = 0 OR i.channel = ANY(${$(3)})) AND (cardinality(${$(4)}::text[]) = 0 OR i.campaign_id = ANY(${$(4)}))
      AND (cardinality(${$(5)}::text[]) = 0 OR i.message_id = ANY(${$(5)})) AND (cardinality(${$(6)}::text[]) = 0 OR i.journey_id = ANY(${$(6)}))`;
  const params: unknown[] = [p.dateRange.startDay, p.dateRange.endDay, p.filters.channels, p.filters.campaignIds, p.filters.messageIds, p.filters.journeyIds];
  if (p.kpiType === 'conversions') params.push(builtInEventName('transaction'));
  const sql = p.kpiType === 'impacts'
    ? `SELECT i.person_id, min(i.event_time) AS at, min(b.start_at) AS start_at, min(b.end_at) AS end_at ${interactions} AND i.kind = 'impression' GROUP BY i.person_id`
    : `SELECT t.person_id, c.at, t.start_at, t.end_at
         FROM (SELECT i.person_id, min(i.event_time) AS first_at, min(b.start_at) AS start_at, min(b.end_at) AS end_at ${interactions} GROUP BY i.person_id) t
        CROSS JOIN LATERAL (SELECT min(e.event_time) AS at FROM events e WHERE e.app_id = $1 AND e.person_id = t.person_id AND e.event_time >= t.first_at AND e.event_time < t.end_at
          AND (e.name = ${$(7)} OR e.name IN (SELECT d.name FROM event_definitions d WHERE d.app_id = $1 AND d.conversion_type IS NOT NULL))) c
        WHERE c.at IS NOT NULL`;
  return { sql, params };
}

/** SQL with $1 the app; its own parameters come after `offset` (the caller's last parameter number). */
export function performanceSql(p: { kpiType: KpiType; filters: PerformanceFilters; dateRange: DateRange }, offset: number): { sql: string; params: unknown[] } {
  const moments = performanceMomentsSql(p, offset);
  return { sql: `SELECT m.person_id AS n, m.person_id FROM (${moments.sql}) m`, params: moments.params };
}
