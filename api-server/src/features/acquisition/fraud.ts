/**
 * The fraud export's rows (ui:apptracker.exportFraud): the rules of shared `acquisition/fraud.ts`
 * in SQL over a range of days (app time zone) and the visible campaigns. Bursts are counted over
 * the clicks from an hour before the range's start, so a burst that starts just before the range
 * is seen at its edge. At most FRAUD_EXPORT_LIMIT rows, newest first.
 */
import { FRAUD_THRESHOLDS, type FraudReason } from '@gd/shared/acquisition/fraud';
import type { Queryable } from '../../db/pool.ts';

export const FRAUD_EXPORT_LIMIT = 100_000;

export interface FraudRow {
  kind: 'click' | 'install';
  at: Date;
  campaign_id: string;
  campaign_name: string;
  source_name: string;
  click_id: string | null;
  ip: string | null;
  device_id: string | null;
  platform: string | null;
  user_agent: string | null;
  reasons: FraudReason[];
  /** ip_burst / device_burst: the clicks counted in the hour; ctit_short: the seconds from click to install. */
  detail: string | null;
}

export interface FraudScope { appId: string; timezone: string; startDay: string; endDay: string; campaignIds: readonly string[] }

export async function fraudRows(db: Queryable, s: FraudScope): Promise<FraudRow[]> {
  if (s.campaignIds.length === 0) return [];
  const { rows } = await db.query<FraudRow>(
    `WITH bounds AS (
       SELECT ($3::date)::timestamp AT TIME ZONE $2 AS lo, ($4::date + 1)::timestamp AT TIME ZONE $2 AS hi
     ), counted AS (
       SELECT k.*, coalesce(k.idfa, k.idfv, k.gaid, k.oaid) AS device_key,
              CASE WHEN k.bot OR k.ip IS NULL THEN 0 ELSE count(*) FILTER (WHERE NOT k.bot AND k.ip IS NOT NULL)
                OVER (PARTITION BY k.ip ORDER BY k.clicked_at RANGE BETWEEN make_interval(secs => $6) PRECEDING AND CURRENT ROW) END AS per_ip
         FROM acq_clicks k, bounds b
        WHERE k.app_id = $1 AND k.campaign_id = ANY($5::uuid[])
          AND k.clicked_at >= b.lo - make_interval(secs => $6) AND k.clicked_at < b.hi
     ), per_device AS (
       SELECT c.*, CASE WHEN c.bot OR c.device_key IS NULL THEN 0 ELSE count(*) FILTER (WHERE NOT c.bot AND c.device_key IS NOT NULL)
                OVER (PARTITION BY c.device_key ORDER BY c.clicked_at RANGE BETWEEN make_interval(secs => $6) PRECEDING AND CURRENT ROW) END AS per_dev
         FROM counted c
     ), clicks AS (
       SELECT 'click'::text AS kind, d.clicked_at AS at, d.campaign_id, d.id AS click_id, host(d.ip) AS ip, d.device_key, d.platform, d.user_agent,
              array_remove(ARRAY[
                CASE WHEN d.bot THEN 'bot' END,
                CASE WHEN d.per_ip > $7 THEN 'ip_burst' END,
                CASE WHEN d.per_dev > $8 THEN 'device_burst' END], NULL) AS reasons,
              CASE WHEN d.bot THEN d.bot_reason
                   WHEN d.per_ip > $7 OR d.per_dev > $8 THEN greatest(d.per_ip, d.per_dev)::text END AS detail
         FROM per_device d, bounds b
        WHERE d.clicked_at >= b.lo AND (d.bot OR d.per_ip > $7 OR d.per_dev > $8)
     ), installs AS (
       SELECT 'install'::text AS kind, a.event_time AS at, a.campaign_id, a.click_id, host(p.ip) AS ip, NULL::text AS device_key,
              NULL::text AS platform, p.user_agent, ARRAY['ctit_short']::text[] AS reasons,
              round(extract(epoch FROM a.event_time - a.clicked_at)::numeric, 1)::text AS detail
         FROM acq_attributions a CROSS JOIN bounds b
         LEFT JOIN LATERAL (SELECT k.ip, k.user_agent FROM acq_clicks k WHERE k.app_id = $1 AND k.id = a.click_id LIMIT 1) p ON true
        WHERE a.app_id = $1 AND a.campaign_id = ANY($5::uuid[]) AND a.kind IN ('install', 'reinstall')
          AND a.event_time >= b.lo AND a.event_time < b.hi AND a.clicked_at IS NOT NULL
          AND a.event_time - a.clicked_at < make_interval(secs => $9)
     )
     SELECT f.kind, f.at, f.campaign_id, c.name AS campaign_name, s.name AS source_name, f.click_id, f.ip, f.platform,
            f.user_agent, f.reasons, f.detail, f.device_key AS device_id
       FROM (SELECT * FROM clicks UNION ALL SELECT * FROM installs) f
       JOIN acq_campaigns c ON c.app_id = $1 AND c.id = f.campaign_id
       JOIN acq_sources s ON s.app_id = $1 AND s.id = c.source_id
      ORDER BY f.at DESC
      LIMIT ${FRAUD_EXPORT_LIMIT}`,
    [s.appId, s.timezone, s.startDay, s.endDay, s.campaignIds, FRAUD_THRESHOLDS.windowSeconds, FRAUD_THRESHOLDS.clicksPerIp,
      FRAUD_THRESHOLDS.clicksPerDevice, FRAUD_THRESHOLDS.minClickToInstallSeconds],
  );
  return rows;
}
