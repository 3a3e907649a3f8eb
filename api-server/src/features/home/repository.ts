/**
 * SQL of the home screen: the app's key figures over a range and its previous period, and the
 * rows "needs attention" looks at (live journeys with their launched version, audiences in error,
 * failed imports).
 *
 * Figures, in one statement (one round trip, consistent reads):
 * - events and revenue from the `event_daily` rollup, per event name by a skip scan of its primary
 *   key (app_id, name, day, ...) so each name is an index range scan over both periods;
 * - people (distinct) from `events` and sessions from `sessions`, each bounded by the UTC instants
 *   of the periods' local midnights so Postgres prunes the monthly partitions outside them;
 * - the revenue's currencies from the events of the names that had revenue in the range (the
 *   (app_id, name, event_time) index), at most two distinct values: one is all the answer needs.
 */
import type { DayRange } from '@gd/shared';
import type { Queryable } from '../../db/pool.ts';

export interface FiguresRow {
  events: number; previous_events: number; revenue: number; previous_revenue: number;
  people: number; previous_people: number; sessions: number; previous_sessions: number;
  /** Up to two distinct currencies of the range's revenue events (null for events without one). */
  currencies: (string | null)[];
  has_data: boolean;
}

interface Instants { previous_from: Date; current_from: Date; current_to: Date }

/** The local midnights that start the previous period and the range, and the one after the range. */
async function instants(db: Queryable, timezone: string, range: DayRange, previous: DayRange): Promise<Instants> {
  const { rows } = await db.query<Instants>(
    `SELECT $1::date::timestamp AT TIME ZONE $4 AS previous_from, $2::date::timestamp AT TIME ZONE $4 AS current_from,
            ($3::date + 1)::timestamp AT TIME ZONE $4 AS current_to`,
    [previous.startDay, range.startDay, range.endDay, timezone],
  );
  const row = rows[0];
  if (!row) throw new Error('time zone conversion returned no row');
  return row;
}

const FIGURES_SQL = `
WITH RECURSIVE n AS (
  (SELECT name FROM event_daily WHERE app_id = $1 ORDER BY name LIMIT 1)
  UNION ALL
  SELECT (SELECT e.name FROM event_daily e WHERE e.app_id = $1 AND e.name > n.name ORDER BY e.name LIMIT 1)
    FROM n WHERE n.name IS NOT NULL
), totals AS (
  SELECT n.name, t.events, t.revenue, t.previous_events, t.previous_revenue FROM n CROSS JOIN LATERAL (
    SELECT sum(events) FILTER (WHERE day >= $3::date) AS events, sum(revenue) FILTER (WHERE day >= $3::date) AS revenue,
           sum(events) FILTER (WHERE day < $3::date) AS previous_events, sum(revenue) FILTER (WHERE day < $3::date) AS previous_revenue
      FROM event_daily e WHERE e.app_id = $1 AND e.name = n.name AND e.day BETWEEN $2::date AND $4::date
  ) t WHERE n.name IS NOT NULL
)
SELECT coalesce((SELECT sum(events) FROM totals), 0)::float8 AS events,
       coalesce((SELECT sum(previous_events) FROM totals), 0)::float8 AS previous_events,
       coalesce((SELECT sum(revenue) FROM totals), 0)::float8 AS revenue,
       coalesce((SELECT sum(previous_revenue) FROM totals), 0)::float8 AS previous_revenue,
       EXISTS (SELECT 1 FROM totals) AS has_data,
       (SELECT count(DISTINCT person_id) FROM events WHERE app_id = $1 AND event_time >= $6 AND event_time < $7)::float8 AS people,
       (SELECT count(DISTINCT person_id) FROM events WHERE app_id = $1 AND event_time >= $5 AND event_time < $6)::float8 AS previous_people,
       (SELECT count(*) FROM sessions WHERE app_id = $1 AND started_at >= $6 AND started_at < $7)::float8 AS sessions,
       (SELECT count(*) FROM sessions WHERE app_id = $1 AND started_at >= $5 AND started_at < $6)::float8 AS previous_sessions,
       ARRAY(
         SELECT DISTINCT rtrim(currency) FROM events
          WHERE app_id = $1 AND name IN (SELECT name FROM totals WHERE revenue <> 0)
            AND event_time >= $6 AND event_time < $7 AND revenue <> 0
          LIMIT 2
       ) AS currencies`;

/** The key figures of an app over `range` and `previous` (days in the app's time zone). */
export async function homeFigures(db: Queryable, appId: string, timezone: string, range: DayRange, previous: DayRange): Promise<FiguresRow> {
  const at = await instants(db, timezone, range, previous);
  const { rows } = await db.query<FiguresRow>(FIGURES_SQL, [
    appId, previous.startDay, range.startDay, range.endDay, at.previous_from, at.current_from, at.current_to,
  ]);
  const row = rows[0];
  if (!row) throw new Error('the figures query returned no row');
  return row;
}

export interface LiveJourneyRow {
  id: string; name: string; live_version: number; created_by: string | null;
  definition: unknown;
  /** Stored document state, and the live version's state vector: "edited since launch". */
  doc_state: Buffer | null; live_state_vector: Buffer;
  /** When the stored document last changed (the edit's time, within the sync server's debounce). */
  doc_updated_at: Date | null;
  launched_at: Date;
}

/** Live journeys of an app (only `ownerId`'s when given), latest launched first. */
export async function liveJourneys(db: Queryable, appId: string, ownerId: string | null, limit: number): Promise<LiveJourneyRow[]> {
  const { rows } = await db.query<LiveJourneyRow>(
    `SELECT j.id, j.name, j.live_version, j.created_by, v.definition, d.state AS doc_state, v.state_vector AS live_state_vector,
            d.updated_at AS doc_updated_at, v.launched_at
       FROM journeys j
       JOIN journey_versions v ON v.journey_id = j.id AND v.version = j.live_version
       LEFT JOIN documents d ON d.name = j.doc_name
      WHERE j.app_id = $1 AND j.deleted_at IS NULL AND j.status = 'live' AND ($2::uuid IS NULL OR j.created_by = $2)
      ORDER BY v.launched_at DESC, j.id LIMIT $3`,
    [appId, ownerId, limit],
  );
  return rows;
}

export interface FailedAudienceRow { id: string; name: string; error_name: string | null; error_message: string | null; updated_at: Date }

export async function audiencesInError(db: Queryable, appId: string, limit: number): Promise<FailedAudienceRow[]> {
  const { rows } = await db.query<FailedAudienceRow>(
    `SELECT id, name, error_name, error_message, updated_at FROM audiences
      WHERE app_id = $1 AND deleted_at IS NULL AND status = 'error' ORDER BY updated_at DESC, id LIMIT $2`,
    [appId, limit],
  );
  return rows;
}

export interface FailedImportRow { id: string; name: string; audience_id: string | null; error_name: string | null; error_message: string | null; at: Date }

/** Imports that failed within the last `days` days, latest first. */
export async function failedImports(db: Queryable, appId: string, days: number, limit: number): Promise<FailedImportRow[]> {
  const { rows } = await db.query<FailedImportRow>(
    `SELECT id, name, audience_id, error_name, error_message, coalesce(finished_at, updated_at) AS at FROM import_tasks
      WHERE app_id = $1 AND status = 'error' AND coalesce(finished_at, updated_at) > now() - make_interval(days => $2)
      ORDER BY at DESC, id LIMIT $3`,
    [appId, days, limit],
  );
  return rows;
}
