/**
 * The performance histograms (shared schemas/abAnalysis.ts): the live sends of a range (by the
 * instant they were sent, the range's days read in the app's time zone), each person and message
 * once; the delay to their first open and first click (bucketed by DELAY_BUCKETS in SQL with
 * width_bucket), and sends and first opens by hour on the person's clock (the zone of their outbox
 * row). One statement; interactions are read once per sent person (one lateral pass for both
 * firsts) through interactions_person.
 */
import { DELAY_BUCKETS, type DelayBucketKey } from '@gd/shared/schemas/abAnalysis';
import type { CommunicationType } from '@gd/shared';
import type { Queryable } from '../../db/pool.ts';

/** Bounds of width_bucket: bucket 0 is below the first, i is [bounds[i-1], bounds[i]), the last is from the last bound on. */
const BOUNDS = DELAY_BUCKETS.flatMap((b) => (b.upTo === null ? [] : [b.upTo]));

export interface Histograms {
  totals: { sends: number; opens: number; clicks: number };
  timeToOpen: { key: DelayBucketKey; count: number }[];
  timeToClick: { key: DelayBucketKey; count: number }[];
  byHour: { hour: number; sends: number; opens: number }[];
}

export async function histograms(db: Queryable, p: { appId: string; timeZone: string; startDay: string; endDay: string; messageId: string | null }): Promise<Histograms> {
  const { rows } = await db.query<{ kind: 'open' | 'click' | 'sendHour' | 'openHour'; k: number; n: number }>(
    `WITH sent AS (
       SELECT o.message_id, o.person_id, min(o.time_zone) AS zone, min(o.sent_at) AS sent_at
         FROM message_outbox o
        WHERE o.app_id = $1 AND NOT o.test AND o.status = 'sent' AND ($5::uuid IS NULL OR o.message_id = $5::uuid)
          AND o.sent_at >= ($3::date)::timestamp AT TIME ZONE $2 AND o.sent_at < ($4::date + 1)::timestamp AT TIME ZONE $2
        GROUP BY o.message_id, o.person_id
     ), firsts AS (
       SELECT s.zone, s.sent_at, f.opened_at, f.clicked_at
         FROM sent s
         LEFT JOIN LATERAL (
           SELECT min(i.event_time) FILTER (WHERE i.kind = 'open') AS opened_at, min(i.event_time) FILTER (WHERE i.kind = 'click') AS clicked_at
             FROM message_interactions i
            WHERE i.app_id = $1 AND i.person_id = s.person_id AND i.message_id = s.message_id::text
              AND i.kind IN ('open', 'click') AND i.event_time >= s.sent_at - interval '5 minutes') f ON true
     )
     SELECT 'open' AS kind, width_bucket(extract(epoch FROM opened_at - sent_at)::float8, $6::float8[]) AS k, count(*)::int AS n FROM firsts WHERE opened_at IS NOT NULL GROUP BY 2
     UNION ALL
     SELECT 'click', width_bucket(extract(epoch FROM clicked_at - sent_at)::float8, $6::float8[]), count(*)::int FROM firsts WHERE clicked_at IS NOT NULL GROUP BY 2
     UNION ALL
     SELECT 'sendHour', extract(hour FROM sent_at AT TIME ZONE zone)::int, count(*)::int FROM firsts GROUP BY 2
     UNION ALL
     SELECT 'openHour', extract(hour FROM opened_at AT TIME ZONE zone)::int, count(*)::int FROM firsts WHERE opened_at IS NOT NULL GROUP BY 2`,
    [p.appId, p.timeZone, p.startDay, p.endDay, p.messageId, BOUNDS]);
  const of = (kind: string, k: number) => rows.find((r) => r.kind === kind && r.k === k)?.n ?? 0;
  const sum = (kind: string) => rows.filter((r) => r.kind === kind).reduce((total, r) => total + r.n, 0);
  return {
    totals: { sends: sum('sendHour'), opens: sum('open'), clicks: sum('click') },
    timeToOpen: DELAY_BUCKETS.map((b, i) => ({ key: b.key, count: of('open', i) })),
    timeToClick: DELAY_BUCKETS.map((b, i) => ({ key: b.key, count: of('click', i) })),
    byHour: Array.from({ length: 24 }, (_, hour) => ({ hour, sends: of('sendHour', hour), opens: of('openHour', hour) })),
  };
}

/** Messages of the app with live sends (the filter's choices), newest first. */
export async function messagesWithSends(db: Queryable, appId: string): Promise<{ id: string; name: string; type: CommunicationType }[]> {
  const { rows } = await db.query<{ id: string; name: string; type: CommunicationType }>(
    `SELECT id, name, type FROM (
       SELECT DISTINCT ON (m.id) m.id, m.name, m.type, s.created_at FROM message_sends s JOIN messages m ON m.id = s.message_id
        WHERE s.app_id = $1 AND s.kind <> 'test' AND m.deleted_at IS NULL ORDER BY m.id, s.created_at DESC) t
      ORDER BY t.created_at DESC LIMIT 200`,
    [appId]);
  return rows;
}
