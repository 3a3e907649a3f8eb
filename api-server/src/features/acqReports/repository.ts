/**
 * SQL of the acquisition figures and reports (issue 16, piece F). Every query is scoped by
 * `app_id` and bounded by the UTC instants of the range's local midnights (app time zone), so
 * Postgres prunes the monthly partitions of clicks and events outside them.
 *
 * Crediting: a person's events, transactions and uninstalls are credited to the campaign of their
 * latest install or reinstall attribution at or before the event (`credit` below: each
 * attribution holds from its time to the person's next one). Organic attributions credit no
 * campaign but still end the previous campaign's credit.
 */
import type { Queryable } from '../../db/pool.ts';
import { dayBucket, hourBucket } from '../analytics/sql.ts';
import type { TimeGroup } from '@gd/shared';

export interface Instants { from: Date; to: Date }

/** The UTC instants of the local midnight starting `startDay` and the one after `endDay`. */
export async function rangeInstants(db: Queryable, timezone: string, startDay: string, endDay: string): Promise<Instants> {
  const { rows } = await db.query<Instants>(
    `SELECT $1::date::timestamp AT TIME ZONE $3 AS "from", ($2::date + 1)::timestamp AT TIME ZONE $3 AS "to"`,
    [startDay, endDay, timezone],
  );
  const row = rows[0];
  if (!row) throw new Error('time zone conversion returned no row');
  return row;
}

export interface CampaignRow {
  id: string; name: string; source_id: string; source_name: string; source_type: string;
  account_provider_id: string | null; pricing_model: 'cpc' | 'cpi' | 'cpl' | 'cpa' | 'fixed'; cost_value: number;
  cost_event: string | null; start_day: string | null; end_day: string | null; created_day: string; currency: string;
}

export interface CampaignFilter { campaignIds?: string[] | undefined; accountProviderId?: string | undefined }

/** The app's live campaigns (not deleted), optionally only some or only one provider's. */
export async function campaignRows(db: Queryable, appId: string, timezone: string, filter: CampaignFilter = {}): Promise<CampaignRow[]> {
  const { rows } = await db.query<CampaignRow>(
    `SELECT c.id, c.name, c.source_id, s.name AS source_name, s.type AS source_type, s.account_provider_id,
            c.pricing_model, c.cost_value::float8 AS cost_value, c.cost_event,
            to_char(c.start_day, 'YYYY-MM-DD') AS start_day, to_char(c.end_day, 'YYYY-MM-DD') AS end_day,
            to_char((c.created_at AT TIME ZONE $2)::date, 'YYYY-MM-DD') AS created_day, rtrim(c.currency) AS currency
       FROM acq_campaigns c JOIN acq_sources s ON s.id = c.source_id AND s.app_id = c.app_id
      WHERE c.app_id = $1 AND c.deleted_at IS NULL
        AND ($3::uuid[] IS NULL OR c.id = ANY($3::uuid[]))
        AND ($4::uuid IS NULL OR s.account_provider_id = $4::uuid)
      ORDER BY lower(c.name), c.id`,
    [appId, timezone, filter.campaignIds ?? null, filter.accountProviderId ?? null],
  );
  return rows;
}

/** Counts of one campaign and one bucket (bucket '' when not split by time). */
export interface CountsRow {
  campaign_id: string; bucket: string;
  clicks: number; unique_clicks: number; installs: number; reinstalls: number; reactivations: number;
  uninstalls: number; uninstallers: number; registers: number; registrants: number; logins: number; relogins: number;
  opens: number; reopens: number; sales: number; buyers: number; buyer_days: number; revenue: number;
  conversions: number; engagement: number;
}

/**
 * The SQL of a bucket label of a timestamp column (local to the app's time zone, `$4`), or the
 * constant '' when the counts are not split by time.
 */
function bucketOf(group: TimeGroup | null, column: string): string {
  if (group === null) return `''`;
  const local = `(${column} AT TIME ZONE $4)`;
  if (group === 'hour') return hourBucket(local);
  return dayBucket(group, `${local}::date`, '$6');
}

/** Whether a bucket expression names the range's start day (week and month buckets are clipped to it). */
const usesStart = (group: TimeGroup | null): boolean => group === 'week' || group === 'month';

/**
 * Counts per campaign (and per bucket of `group` when given) over [from, to). `campaignIds` are
 * the campaigns to count (from campaignRows: already scoped to the app).
 */
export async function campaignCounts(
  db: Queryable, appId: string, timezone: string, at: Instants, startDay: string, campaignIds: string[], group: TimeGroup | null,
): Promise<CountsRow[]> {
  if (campaignIds.length === 0) return [];
  const sql = `
WITH camps AS (
  SELECT id, cost_event FROM acq_campaigns WHERE app_id = $1 AND id = ANY($5::uuid[])
), credit AS (
  SELECT person_id, campaign_id, event_time AS from_t,
         lead(event_time) OVER (PARTITION BY person_id ORDER BY event_time, id) AS to_t
    FROM acq_attributions WHERE app_id = $1 AND kind IN ('install', 'reinstall') AND event_time < $3
), credited AS (
  SELECT * FROM credit WHERE campaign_id = ANY($5::uuid[]) AND (to_t IS NULL OR to_t > $2)
), clk AS (
  SELECT campaign_id, ${bucketOf(group, 'clicked_at')} AS bucket, count(*) AS clicks,
         count(DISTINCT coalesce(idfa, idfv, gaid, oaid, host(ip) || '|' || coalesce(user_agent, ''))) AS unique_clicks
    FROM acq_clicks WHERE app_id = $1 AND clicked_at >= $2 AND clicked_at < $3 AND NOT bot AND campaign_id = ANY($5::uuid[])
   GROUP BY 1, 2
), att AS (
  SELECT campaign_id, ${bucketOf(group, 'event_time')} AS bucket,
         count(*) FILTER (WHERE kind = 'install') AS installs,
         count(*) FILTER (WHERE kind = 'reinstall') AS reinstalls,
         count(*) FILTER (WHERE kind = 'retargeting_open') AS reactivations
    FROM acq_attributions WHERE app_id = $1 AND event_time >= $2 AND event_time < $3 AND campaign_id = ANY($5::uuid[])
   GROUP BY 1, 2
), uni AS (
  SELECT cr.campaign_id, ${bucketOf(group, 'l.event_time')} AS bucket, count(*) AS uninstalls, count(DISTINCT l.person_id) AS uninstallers
    FROM credited cr
    JOIN lifecycle_events l ON l.app_id = $1 AND l.kind = 'uninstall' AND l.person_id = cr.person_id
     AND l.event_time >= $2 AND l.event_time < $3 AND l.event_time >= cr.from_t AND (cr.to_t IS NULL OR l.event_time < cr.to_t)
   GROUP BY 1, 2
), ev AS (
  SELECT cr.campaign_id, ${bucketOf(group, 'e.event_time')} AS bucket,
         count(*) FILTER (WHERE e.name = 'gd_register') AS registers,
         count(DISTINCT e.person_id) FILTER (WHERE e.name = 'gd_register') AS registrants,
         count(*) FILTER (WHERE e.name = 'gd_login') AS logins,
         count(*) FILTER (WHERE e.name = 'gd_login2') AS relogins,
         count(*) FILTER (WHERE e.name = 'gd_start_session') AS opens,
         count(*) FILTER (WHERE e.name = 'gd_reopen') AS reopens,
         count(*) FILTER (WHERE e.name = 'gd_transaction') AS sales,
         count(DISTINCT e.person_id) FILTER (WHERE e.name = 'gd_transaction') AS buyers,
         count(DISTINCT (e.person_id, (e.event_time AT TIME ZONE $4)::date)) FILTER (WHERE e.name = 'gd_transaction') AS buyer_days,
         coalesce(sum(e.revenue), 0) AS revenue,
         count(*) FILTER (WHERE e.name = coalesce(c.cost_event, 'gd_transaction')) AS conversions,
         count(*) AS engagement
    FROM credited cr
    JOIN camps c ON c.id = cr.campaign_id
    JOIN events e ON e.app_id = $1 AND e.person_id = cr.person_id
     AND e.event_time >= $2 AND e.event_time < $3 AND e.event_time >= cr.from_t AND (cr.to_t IS NULL OR e.event_time < cr.to_t)
   GROUP BY 1, 2
), keys AS (
  SELECT campaign_id, bucket FROM clk UNION SELECT campaign_id, bucket FROM att
  UNION SELECT campaign_id, bucket FROM uni UNION SELECT campaign_id, bucket FROM ev
)
SELECT k.campaign_id, k.bucket,
       coalesce(clk.clicks, 0)::float8 AS clicks, coalesce(clk.unique_clicks, 0)::float8 AS unique_clicks,
       coalesce(att.installs, 0)::float8 AS installs, coalesce(att.reinstalls, 0)::float8 AS reinstalls,
       coalesce(att.reactivations, 0)::float8 AS reactivations,
       coalesce(uni.uninstalls, 0)::float8 AS uninstalls, coalesce(uni.uninstallers, 0)::float8 AS uninstallers,
       coalesce(ev.registers, 0)::float8 AS registers, coalesce(ev.registrants, 0)::float8 AS registrants,
       coalesce(ev.logins, 0)::float8 AS logins, coalesce(ev.relogins, 0)::float8 AS relogins,
       coalesce(ev.opens, 0)::float8 AS opens, coalesce(ev.reopens, 0)::float8 AS reopens,
       coalesce(ev.sales, 0)::float8 AS sales, coalesce(ev.buyers, 0)::float8 AS buyers,
       coalesce(ev.buyer_days, 0)::float8 AS buyer_days, coalesce(ev.revenue, 0)::float8 AS revenue,
       coalesce(ev.conversions, 0)::float8 AS conversions, coalesce(ev.engagement, 0)::float8 AS engagement
  FROM keys k
  LEFT JOIN clk ON clk.campaign_id = k.campaign_id AND clk.bucket = k.bucket
  LEFT JOIN att ON att.campaign_id = k.campaign_id AND att.bucket = k.bucket
  LEFT JOIN uni ON uni.campaign_id = k.campaign_id AND uni.bucket = k.bucket
  LEFT JOIN ev ON ev.campaign_id = k.campaign_id AND ev.bucket = k.bucket`;
  const params: unknown[] = [appId, at.from, at.to, timezone, campaignIds];
  if (usesStart(group)) params.push(startDay);
  const { rows } = await db.query<CountsRow>(sql, params);
  return rows;
}

/** Organic installs, reinstalls and reactivations (no campaign) over [from, to). */
export async function organicCounts(db: Queryable, appId: string, at: Instants): Promise<{ installs: number; reinstalls: number; reactivations: number }> {
  const { rows } = await db.query<{ installs: number; reinstalls: number; reactivations: number }>(
    `SELECT count(*) FILTER (WHERE kind = 'install')::float8 AS installs,
            count(*) FILTER (WHERE kind = 'reinstall')::float8 AS reinstalls,
            count(*) FILTER (WHERE kind = 'retargeting_open')::float8 AS reactivations
       FROM acq_attributions WHERE app_id = $1 AND event_time >= $2 AND event_time < $3 AND campaign_id IS NULL`,
    [appId, at.from, at.to],
  );
  return rows[0] ?? { installs: 0, reinstalls: 0, reactivations: 0 };
}

/** Instants of a report: the previous period's start, the range's start, and the range's end. */
export interface ReportInstants { previousFrom: Date; from: Date; to: Date }

export type AttributionReportKind = 'installs' | 'uninstalls' | 'retargeting' | 'assisted';

/**
 * The rows a report counts over [previousFrom, to): t (time), kind, person, campaign, source,
 * match, assists (assisting clicks) and `primary` (whether the row counts for the report's first
 * total, its chart and its groups).
 */
function reportBase(kind: AttributionReportKind): string {
  switch (kind) {
    case 'installs':
    case 'retargeting':
    case 'assisted': {
      const kinds = kind === 'retargeting' ? `('retargeting_open')` : `('install', 'reinstall')`;
      const primary = kind === 'installs' ? `a.kind = 'install'` : 'true';
      return `SELECT a.event_time AS t, a.kind, a.person_id, a.campaign_id, a.source_id, a.match, cardinality(a.assisted) AS assists,
                     a.assisted, ${primary} AS "primary"
                FROM acq_attributions a
               WHERE a.app_id = $1 AND a.event_time >= $2 AND a.event_time < $4 AND a.kind IN ${kinds}
                 ${kind === 'assisted' ? 'AND cardinality(a.assisted) > 0' : ''}`;
    }
    case 'uninstalls':
      return `SELECT l.event_time AS t, 'uninstall'::text AS kind, l.person_id, x.campaign_id, x.source_id, x.match, 0 AS assists,
                     '{}'::uuid[] AS assisted, true AS "primary"
                FROM lifecycle_events l
                LEFT JOIN LATERAL (
                  SELECT a.campaign_id, a.source_id, a.match FROM acq_attributions a
                   WHERE a.app_id = $1 AND a.person_id = l.person_id AND a.kind IN ('install', 'reinstall') AND a.event_time <= l.event_time
                   ORDER BY a.event_time DESC, a.id DESC LIMIT 1
                ) x ON true
               WHERE l.app_id = $1 AND l.kind = 'uninstall' AND l.event_time >= $2 AND l.event_time < $4`;
    default: {
      const never: never = kind;
      throw new Error(`unknown report ${String(never)}`);
    }
  }
}

export interface KindTotalsRow { kind: string; current: number; previous: number; assists_current: number; assists_previous: number }
export interface BucketRow { bucket: string; value: number }
export interface GroupRow { id: string | null; name: string | null; source_name: string | null; current: number; previous: number }
export interface LatestRow {
  t: Date; kind: string; person_id: string; name_attributes: Record<string, unknown> | null; customer_id: string | null; email: string | null;
  campaign_id: string | null; campaign_name: string | null; source_name: string | null; match: 'device_id' | 'referrer' | 'fingerprint' | 'organic' | null; assists: number;
}

export interface AttributionReportRows { totals: KindTotalsRow[]; series: BucketRow[]; bySource: GroupRow[]; byCampaign: GroupRow[]; latest: LatestRow[] }

/**
 * The rows of an attribution report: totals per kind (current and previous period), the primary
 * rows per bucket of the range, per source and per campaign (for the assisted report: the
 * assisting clicks' sources and campaigns), and the latest rows with the person's name fields.
 */
export async function attributionReport(
  db: Queryable, appId: string, timezone: string, kind: AttributionReportKind, at: ReportInstants, startDay: string, group: TimeGroup,
  limits: { latest: number; campaigns: number }, nameAttributesSql: (alias: string) => string,
): Promise<AttributionReportRows> {
  const base = reportBase(kind);
  const common = [appId, at.previousFrom, at.from, at.to];
  const bucket = group === 'hour' ? hourBucket('(b.t AT TIME ZONE $5)') : dayBucket(group, '(b.t AT TIME ZONE $5)::date', '$6');
  const groupsFrom = kind === 'assisted'
    ? `(SELECT b.t, c.campaign_id, c.source_id FROM base b CROSS JOIN LATERAL unnest(b.assisted) AS u(click_id)
          JOIN acq_clicks c ON c.app_id = $1 AND c.id = u.click_id) g`
    : `(SELECT b.t, b.campaign_id, b.source_id FROM base b WHERE b."primary") g`;
  const [totals, series, bySource, byCampaign, latest] = await Promise.all([
    db.query<KindTotalsRow>(
      `WITH base AS (${base})
       SELECT kind, count(*) FILTER (WHERE t >= $3)::float8 AS current, count(*) FILTER (WHERE t < $3)::float8 AS previous,
              coalesce(sum(assists) FILTER (WHERE t >= $3), 0)::float8 AS assists_current,
              coalesce(sum(assists) FILTER (WHERE t < $3), 0)::float8 AS assists_previous
         FROM base GROUP BY kind`, common),
    db.query<BucketRow>(
      `WITH base AS (${base})
       SELECT ${bucket} AS bucket, count(*)::float8 AS value FROM base b WHERE b.t >= $3 AND b."primary" GROUP BY 1`,
      usesStart(group) ? [...common, timezone, startDay] : [...common, timezone]),
    db.query<GroupRow>(
      `WITH base AS (${base})
       SELECT g.source_id AS id, s.name, NULL::text AS source_name,
              count(*) FILTER (WHERE g.t >= $3)::float8 AS current, count(*) FILTER (WHERE g.t < $3)::float8 AS previous
         FROM ${groupsFrom} LEFT JOIN acq_sources s ON s.app_id = $1 AND s.id = g.source_id
        GROUP BY g.source_id, s.name ORDER BY current DESC, previous DESC, s.name NULLS FIRST`, common),
    db.query<GroupRow>(
      `WITH base AS (${base})
       SELECT g.campaign_id AS id, c.name, s.name AS source_name,
              count(*) FILTER (WHERE g.t >= $3)::float8 AS current, count(*) FILTER (WHERE g.t < $3)::float8 AS previous
         FROM ${groupsFrom} LEFT JOIN acq_campaigns c ON c.app_id = $1 AND c.id = g.campaign_id
         LEFT JOIN acq_sources s ON s.app_id = $1 AND s.id = g.source_id
        GROUP BY g.campaign_id, c.name, s.name ORDER BY current DESC, previous DESC, c.name NULLS FIRST LIMIT $5`, [...common, limits.campaigns]),
    db.query<LatestRow>(
      `WITH base AS (${base})
       SELECT b.t, b.kind, b.person_id::text, ${nameAttributesSql('p')} AS name_attributes, p.customer_id, p.email,
              b.campaign_id, c.name AS campaign_name, s.name AS source_name, b.match, b.assists
         FROM base b
         LEFT JOIN people p ON p.app_id = $1 AND p.id = b.person_id
         LEFT JOIN acq_campaigns c ON c.app_id = $1 AND c.id = b.campaign_id
         LEFT JOIN acq_sources s ON s.app_id = $1 AND s.id = b.source_id
        WHERE b.t >= $3 ORDER BY b.t DESC, b.person_id DESC LIMIT $5`, [...common, limits.latest]),
  ]);
  return { totals: totals.rows, series: series.rows, bySource: bySource.rows, byCampaign: byCampaign.rows, latest: latest.rows };
}

/** Impressions (the links' pixels, migration 046) per campaign over [at.from, at.to). */
export async function campaignImpressions(db: Queryable, appId: string, at: Instants, campaignIds: string[]): Promise<Map<string, number>> {
  const { rows } = await db.query<{ campaign_id: string; impressions: string }>(
    `SELECT campaign_id, sum(count) AS impressions FROM acq_impressions
     WHERE app_id = $1 AND campaign_id = ANY($2::uuid[]) AND hour >= $3 AND hour < $4 GROUP BY campaign_id`,
    [appId, campaignIds, at.from, at.to],
  );
  return new Map(rows.map((r) => [r.campaign_id, Number(r.impressions)]));
}
