/**
 * SQL of the executive view (/main/executive): each figure of every app of an account, over a range
 * and its previous period, in one statement per figure (never one per app). Days are each app's
 * own time zone: the `bounds` CTE turns the range's days into each app's instants (for the
 * time-series tables), while the daily structures are already kept in the app's days.
 *
 * Decisions (what each figure counts):
 * - installs: `lifecycle_events` of kind install (reinstalls are not new installs);
 * - active people: distinct people with any event, from `event_person_months` (name '' = any
 *   event; bit d-1 = day d of the month), exact, an index range per app and month;
 * - sessions: `sessions` started in the range;
 * - revenue and conversions: the `event_daily` rollup; conversions are purchases (the built-in
 *   transaction event, what a person's own conversion count counts) and the custom events the app's
 *   event catalogue marks with a conversion type (/manage/events);
 * - messages sent: outbox rows the provider accepted (`status = 'sent'`, tests left out), every
 *   channel and origin (campaigns, journeys, rules), by when they were sent;
 * - the revenue's currency: the one currency every revenue event of the range named, else null.
 */
import { PURCHASE_EVENT, type DayRange } from '@gd/shared';
import type { Queryable } from '../../db/pool.ts';

export interface ExecutiveAppRow { id: string; name: string; timezone: string; restricted: string[] }

export async function accountApps(db: Queryable, accountId: string): Promise<ExecutiveAppRow[]> {
  return (await db.query<ExecutiveAppRow>('SELECT id, name, timezone, restricted FROM apps WHERE account_id = $1 ORDER BY lower(name), id', [accountId])).rows;
}

/** Per app: the figure over the range and over the previous period. */
export interface PairRow { app_id: string; current: number; previous: number }

/**
 * $1 apps, $2 account, $3 previous start, $4 range start, $5 range end (days). `bounds` gives
 * p_from (previous start), c_from (range start) and c_to (the midnight after the range) per app.
 */
const BOUNDS = `bounds AS (
  SELECT id AS app_id, $3::date::timestamp AT TIME ZONE timezone AS p_from, $4::date::timestamp AT TIME ZONE timezone AS c_from,
         ($5::date + 1)::timestamp AT TIME ZONE timezone AS c_to
    FROM apps WHERE account_id = $2 AND id = ANY($1::uuid[])
)`;

const FIGURE_SQL = {
  installs: `WITH ${BOUNDS}
    SELECT b.app_id, count(*) FILTER (WHERE l.event_time >= b.c_from)::float8 AS current, count(*) FILTER (WHERE l.event_time < b.c_from)::float8 AS previous
      FROM bounds b JOIN lifecycle_events l ON l.app_id = b.app_id AND l.kind = 'install' AND l.event_time >= b.p_from AND l.event_time < b.c_to
     GROUP BY b.app_id`,
  sessions: `WITH ${BOUNDS}
    SELECT b.app_id, count(*) FILTER (WHERE s.started_at >= b.c_from)::float8 AS current, count(*) FILTER (WHERE s.started_at < b.c_from)::float8 AS previous
      FROM bounds b JOIN sessions s ON s.app_id = b.app_id AND s.started_at >= b.p_from AND s.started_at < b.c_to
     GROUP BY b.app_id`,
  messagesSent: `WITH ${BOUNDS}
    SELECT b.app_id, count(*) FILTER (WHERE o.sent_at >= b.c_from)::float8 AS current, count(*) FILTER (WHERE o.sent_at < b.c_from)::float8 AS previous
      FROM bounds b JOIN message_outbox o ON o.app_id = b.app_id AND o.status = 'sent' AND NOT o.test AND o.sent_at >= b.p_from AND o.sent_at < b.c_to
     GROUP BY b.app_id`,
  revenue: `SELECT e.app_id, coalesce(sum(e.revenue) FILTER (WHERE e.day >= $4::date), 0)::float8 AS current,
                   coalesce(sum(e.revenue) FILTER (WHERE e.day < $4::date), 0)::float8 AS previous
      FROM event_daily e JOIN apps a ON a.id = e.app_id AND a.account_id = $2
     WHERE e.app_id = ANY($1::uuid[]) AND e.day BETWEEN $3::date AND $5::date AND e.revenue <> 0
     GROUP BY e.app_id`,
  conversions: `SELECT e.app_id, coalesce(sum(e.events) FILTER (WHERE e.day >= $4::date), 0)::float8 AS current,
                       coalesce(sum(e.events) FILTER (WHERE e.day < $4::date), 0)::float8 AS previous
      FROM event_daily e JOIN apps a ON a.id = e.app_id AND a.account_id = $2
     WHERE e.app_id = ANY($1::uuid[]) AND e.day BETWEEN $3::date AND $5::date
       AND (e.name = '${PURCHASE_EVENT}' OR EXISTS (SELECT 1 FROM event_definitions d WHERE d.app_id = e.app_id AND d.name = e.name AND d.conversion_type IS NOT NULL))
     GROUP BY e.app_id`,
  // The months the two periods touch, with each period's mask of days in that month.
  activePeople: `WITH months AS (
      SELECT m::date AS month, (m + interval '1 month' - interval '1 day')::date AS last FROM generate_series(date_trunc('month', $3::date), $5::date, interval '1 month') m
    ), masks AS (
      SELECT month,
             CASE WHEN $4::date > last OR $5::date < month THEN 0::bigint
                  ELSE (1::bigint << extract(day FROM least($5::date, last))::int) - (1::bigint << (extract(day FROM greatest($4::date, month))::int - 1)) END AS cur,
             CASE WHEN $3::date > last OR ($4::date - 1) < month THEN 0::bigint
                  ELSE (1::bigint << extract(day FROM least($4::date - 1, last))::int) - (1::bigint << (extract(day FROM greatest($3::date, month))::int - 1)) END AS prev
        FROM months
    )
    SELECT e.app_id, count(DISTINCT e.person_id) FILTER (WHERE e.days::bigint & k.cur <> 0)::float8 AS current,
           count(DISTINCT e.person_id) FILTER (WHERE e.days::bigint & k.prev <> 0)::float8 AS previous
      FROM masks k JOIN event_person_months e ON e.month = k.month AND e.name = ''
      JOIN apps a ON a.id = e.app_id AND a.account_id = $2
     WHERE e.app_id = ANY($1::uuid[])
     GROUP BY e.app_id`,
} as const;
export type PairFigure = keyof typeof FIGURE_SQL;
export const PAIR_FIGURES = Object.keys(FIGURE_SQL) as PairFigure[];

export async function figure(db: Queryable, which: PairFigure, accountId: string, appIds: readonly string[], range: DayRange, previous: DayRange): Promise<PairRow[]> {
  return (await db.query<PairRow>(FIGURE_SQL[which], [appIds, accountId, previous.startDay, range.startDay, range.endDay])).rows;
}

/** Per app: up to two distinct currencies of its revenue events in the range (names from the rollup). */
export async function currencies(db: Queryable, accountId: string, appIds: readonly string[], range: DayRange): Promise<{ app_id: string; currencies: (string | null)[] }[]> {
  return (await db.query<{ app_id: string; currencies: (string | null)[] }>(
    `WITH ${BOUNDS}, named AS (
       SELECT DISTINCT e.app_id, e.name FROM event_daily e
        WHERE e.app_id = ANY($1::uuid[]) AND e.day BETWEEN $4::date AND $5::date AND e.revenue <> 0
     )
     SELECT b.app_id, ARRAY(
       SELECT DISTINCT rtrim(ev.currency) FROM named n JOIN events ev ON ev.app_id = n.app_id AND ev.name = n.name
        WHERE n.app_id = b.app_id AND ev.event_time >= b.c_from AND ev.event_time < b.c_to AND ev.revenue <> 0
        LIMIT 2) AS currencies
       FROM bounds b`,
    [appIds, accountId, range.startDay, range.startDay, range.endDay],
  )).rows;
}
