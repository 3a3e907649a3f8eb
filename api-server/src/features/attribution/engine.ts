/**
 * The attribution engine (issue 16, docs/design/acquisition.md piece C): installs, reinstalls and
 * retargeting opens waiting in `acq_pending` (written by ingestion in the batch's transaction,
 * pending.ts) are attributed to clicks in batches, by set-based SQL (never one query per install).
 * The rules are shared/src/acquisition/attribution.ts (`attribute`, the reference function); this
 * SQL must answer what it answers (`engine.int.test.ts` runs both on generated worlds).
 *
 * One transaction per batch of one app: the pending rows are locked (`FOR UPDATE SKIP LOCKED`, so
 * several workers and the deferred deep link call share the work without waiting on each other),
 * installs and retargeting opens are attributed first, then reinstalls (they read the install
 * attributions just written), each writing `acq_attributions` (idempotent on its unique key), the
 * person's `from_source` / `from_campaign` (installs; reinstalls credited to a campaign) and the
 * install's lifecycle row; then the pending rows go, and the provider postbacks of the new
 * attributions are queued (postbacks/enqueue.ts) before the commit.
 *
 * Windows are counted in seconds (`n × 86,400 s`), never in calendar days, so a daylight saving
 * change in the session's time zone cannot move an edge.
 */
import { ATTRIBUTION_DEFAULTS, ORGANIC_LABEL } from '@gd/shared';
import { tx, type Db, type DbClient } from '../../db/pool.ts';
import { queueAttributionPostbacks } from '../postbacks/enqueue.ts';

/** Pending rows one transaction takes. */
export const ATTRIBUTION_BATCH = 2000;

/** The longest lookback a source may have (migration 040: lookback_days ≤ 90), in seconds. */
const MAX_LOOKBACK = `interval '${90 * 86_400} seconds'`;

/** A device id tier branch: clicks of the app with the same id inside the longest lookback. */
const byId = (col: 'idfa' | 'idfv' | 'gaid' | 'oaid') => `
    SELECT c.id, c.clicked_at, c.campaign_id, c.source_id, c.link_id, c.platform, c.params, 1 AS tier
      FROM acq_clicks c
     WHERE p.${col} IS NOT NULL AND c.app_id = $1 AND c.${col} = p.${col} AND NOT c.bot
       AND c.clicked_at BETWEEN p.event_time - ${MAX_LOOKBACK} AND p.event_time`;

/**
 * Attributes the pending rows `$2` (ids) of app `$1` whose kind is in `$3`, and answers the new
 * attributions' ids. See shared `attribute` for the rules, step by step:
 * `p` the pending rows with the device's ids; `prev` a reinstall's original install; `m` every
 * matching click by tier (1 device id, 2 referrer, 3 fingerprint); `cand` those inside their own
 * source's window, of a source the kind may use (and, for a reinstall, after the original
 * install); `tiered` the best tier's; `eligible` after the unique-click rule; `win` the newest;
 * `assist` the other campaigns' matched clicks; `chosen` the outcome per pending row (a click,
 * the original install kept, or Organic).
 */
const ATTRIBUTE = `
WITH p AS (
  SELECT pe.id AS pid, pe.kind, pe.event_time, pe.person_id, pe.device_id, pe.ip, pe.user_agent, pe.referrer_click_id,
         d.idfa, d.idfv, d.gaid, d.oaid
    FROM unnest($2::bigint[]) AS u(id)
    JOIN acq_pending pe ON pe.app_id = $1 AND pe.id = u.id
    LEFT JOIN devices d ON d.app_id = pe.app_id AND d.id = pe.device_id
   WHERE pe.kind = ANY($3::text[])
), prev AS (
  SELECT p.pid, o.event_time AS install_time, o.campaign_id, o.source_id, o.click_id, o.clicked_at, o.match, o.mode
    FROM p JOIN LATERAL (
      SELECT a.event_time, a.campaign_id, a.source_id, a.click_id, a.clicked_at, a.match, a.mode
        FROM acq_attributions a
       WHERE a.app_id = $1 AND a.device_id = p.device_id AND a.kind = 'install' AND a.event_time < p.event_time
       ORDER BY a.event_time DESC LIMIT 1
    ) o ON true
   WHERE p.kind = 'reinstall'
), m AS (
  SELECT p.pid, c.* FROM p CROSS JOIN LATERAL (
    ${byId('idfa')}
    UNION ALL ${byId('idfv')}
    UNION ALL ${byId('gaid')}
    UNION ALL ${byId('oaid')}
    UNION ALL
    SELECT c.id, c.clicked_at, c.campaign_id, c.source_id, c.link_id, c.platform, c.params, 2
      FROM acq_clicks c
     WHERE p.referrer_click_id IS NOT NULL AND c.app_id = $1 AND c.id = p.referrer_click_id AND NOT c.bot
       AND c.clicked_at BETWEEN p.event_time - ${MAX_LOOKBACK} AND p.event_time
    UNION ALL
    SELECT c.id, c.clicked_at, c.campaign_id, c.source_id, c.link_id, c.platform, c.params, 3
      FROM acq_clicks c
     WHERE p.ip IS NOT NULL AND p.user_agent IS NOT NULL AND c.app_id = $1 AND c.ip = p.ip AND NOT c.bot
       AND c.clicked_at BETWEEN p.event_time - interval '24 hours' AND p.event_time AND c.user_agent = p.user_agent
  ) c
), cand AS (
  SELECT DISTINCT m.pid, m.tier, m.id AS click_id, m.clicked_at, m.campaign_id, m.source_id, m.link_id, m.platform, m.params, s.attribution AS mode
    FROM m JOIN p USING (pid)
    JOIN acq_sources s ON s.id = m.source_id AND s.app_id = $1
    LEFT JOIN prev ON prev.pid = m.pid
   WHERE m.clicked_at >= p.event_time - s.lookback_days * interval '86400 seconds'
     AND (m.tier <> 3 OR s.fingerprint)
     AND CASE p.kind WHEN 'install' THEN s.type <> 'retargeting' WHEN 'retargeting_open' THEN s.type = 'retargeting' ELSE true END
     AND (prev.install_time IS NULL OR m.clicked_at > prev.install_time)
), tiered AS (
  SELECT t.*, row_number() OVER (PARTITION BY t.pid, t.campaign_id ORDER BY t.clicked_at, t.click_id) AS nth
    FROM (SELECT c.*, min(c.tier) OVER (PARTITION BY c.pid) AS best FROM cand c) t
   WHERE t.tier = t.best
), eligible AS (
  SELECT * FROM tiered WHERE mode = 'last_click' OR nth = 1
), win AS (
  SELECT DISTINCT ON (pid) * FROM eligible ORDER BY pid, clicked_at DESC, click_id DESC
), assist AS (
  SELECT w.pid, array_agg(x.click_id ORDER BY x.clicked_at, x.click_id) AS assisted
    FROM win w JOIN (SELECT DISTINCT pid, click_id, clicked_at, campaign_id FROM cand) x ON x.pid = w.pid AND x.campaign_id <> w.campaign_id
   GROUP BY w.pid
), chosen AS (
  SELECT p.pid, p.kind, p.event_time, p.person_id, p.device_id,
         CASE WHEN w.pid IS NOT NULL THEN 'click'
              WHEN pv.campaign_id IS NOT NULL AND p.event_time - pv.install_time <= coalesce(ps.reattribution_days, $4::int) * interval '86400 seconds' THEN 'keep'
              ELSE 'organic' END AS how,
         w.click_id, w.clicked_at, w.campaign_id, w.source_id, w.link_id, w.platform, w.params, w.mode, w.tier, a.assisted,
         pv.campaign_id AS kept_campaign, pv.source_id AS kept_source, pv.click_id AS kept_click, pv.clicked_at AS kept_clicked_at,
         pv.match AS kept_match, pv.mode AS kept_mode
    FROM p LEFT JOIN win w ON w.pid = p.pid LEFT JOIN assist a ON a.pid = p.pid
    LEFT JOIN prev pv ON pv.pid = p.pid LEFT JOIN acq_sources ps ON ps.id = pv.source_id
), ins AS (
  INSERT INTO acq_attributions AS aa (app_id, kind, event_time, person_id, device_id, campaign_id, source_id, click_id, clicked_at,
                                      match, mode, assisted, deep_link, deep_link_params)
  SELECT $1, c.kind, c.event_time, c.person_id, c.device_id,
         CASE c.how WHEN 'click' THEN c.campaign_id WHEN 'keep' THEN c.kept_campaign END,
         CASE c.how WHEN 'click' THEN c.source_id WHEN 'keep' THEN c.kept_source END,
         CASE c.how WHEN 'click' THEN c.click_id WHEN 'keep' THEN c.kept_click END,
         CASE c.how WHEN 'click' THEN c.clicked_at WHEN 'keep' THEN c.kept_clicked_at END,
         CASE c.how WHEN 'click' THEN (ARRAY['device_id', 'referrer', 'fingerprint'])[c.tier] WHEN 'keep' THEN c.kept_match ELSE 'organic' END,
         CASE c.how WHEN 'click' THEN c.mode WHEN 'keep' THEN c.kept_mode ELSE 'last_click' END,
         CASE WHEN c.how = 'click' THEN coalesce(c.assisted, '{}') ELSE '{}' END,
         dl.deep_link,
         CASE WHEN dl.deep_link IS NOT NULL THEN coalesce(l.params, '{}') || coalesce(c.params, '{}')
              || jsonb_build_object('gd_click', c.click_id::text, 'gd_campaign', cp.name) END
    FROM chosen c
    LEFT JOIN acq_links l ON c.how = 'click' AND l.id = c.link_id AND l.app_id = $1
    LEFT JOIN acq_campaigns cp ON c.how = 'click' AND cp.id = c.campaign_id AND cp.app_id = $1
    LEFT JOIN LATERAL (
      SELECT nullif(coalesce(nullif(l.deep_link, ''), nullif(l.destinations #>> ARRAY[c.platform, 'deepLink'], ''), nullif(cp.deep_link, '')), '') AS deep_link
       WHERE c.how = 'click' AND c.kind <> 'retargeting_open'
    ) dl ON true
   ORDER BY c.pid
  ON CONFLICT (app_id, device_id, kind, event_time) DO NOTHING
  RETURNING aa.id, aa.kind, aa.event_time, aa.person_id, aa.device_id, aa.campaign_id, aa.source_id
), named AS (
  SELECT i.*, s.name AS source_name, cp.name AS campaign_name
    FROM ins i LEFT JOIN acq_sources s ON s.id = i.source_id LEFT JOIN acq_campaigns cp ON cp.id = i.campaign_id
), pu AS (
  UPDATE people pe SET from_source = coalesce(x.source_name, pe.from_source, '${ORGANIC_LABEL}'),
                       from_campaign = coalesce(x.campaign_name, pe.from_campaign, '${ORGANIC_LABEL}'), updated_at = now()
    FROM (SELECT DISTINCT ON (person_id) * FROM named
           WHERE kind = 'install' OR (kind = 'reinstall' AND campaign_id IS NOT NULL)
           ORDER BY person_id, event_time DESC) x
   WHERE pe.app_id = $1 AND pe.id = x.person_id
), lu AS (
  UPDATE lifecycle_events le SET source = coalesce(x.source_name, le.source, '${ORGANIC_LABEL}'),
                                 campaign = coalesce(x.campaign_name, le.campaign, '${ORGANIC_LABEL}')
    FROM named x
   WHERE x.kind IN ('install', 'reinstall') AND le.app_id = $1 AND le.kind = x.kind AND le.device_id = x.device_id AND le.event_time = x.event_time
)
SELECT id::text FROM ins`;

/**
 * The batch's pending rows, locked. The loop skips rows another transaction holds; a device's own
 * call (the deferred deep link) waits for them instead: when the loop is attributing that very
 * install, the call then reads the attribution it committed rather than missing it.
 */
const CLAIM = `SELECT id, kind FROM acq_pending WHERE app_id = $1 ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED`;
const CLAIM_DEVICE = `SELECT id, kind FROM acq_pending WHERE app_id = $1 AND device_id = $3 ORDER BY id LIMIT $2 FOR UPDATE`;

/** The re-attribution window of a reinstall whose original source is gone. */
const DEFAULT_REATTRIBUTION_DAYS = ATTRIBUTION_DEFAULTS.reattributionDays;

/** Attributes one locked batch in the caller's transaction; answers the pending rows taken and the new attribution ids. */
async function attributeBatch(client: DbClient, appId: string, deviceId: string | null, limit: number): Promise<{ taken: number; ids: string[] }> {
  const { rows } = await client.query<{ id: string; kind: string }>(deviceId === null ? CLAIM : CLAIM_DEVICE, deviceId === null ? [appId, limit] : [appId, limit, deviceId]);
  if (rows.length === 0) return { taken: 0, ids: [] };
  const pending = rows.map((r) => r.id);
  const phase = async (kinds: string[]) => (rows.some((r) => kinds.includes(r.kind))
    ? (await client.query<{ id: string }>(ATTRIBUTE, [appId, pending, kinds, DEFAULT_REATTRIBUTION_DAYS])).rows : []);
  // Installs and retargeting opens first; reinstalls read the install attributions just written.
  const first = await phase(['install', 'retargeting_open']);
  const second = await phase(['reinstall']);
  await client.query('DELETE FROM acq_pending pe USING unnest($2::bigint[]) AS u(id) WHERE pe.app_id = $1 AND pe.id = u.id', [appId, pending]);
  const ids = [...first, ...second].map((r) => r.id);
  await queueAttributionPostbacks(client, appId, ids);
  return { taken: pending.length, ids };
}

export interface AttributeOptions {
  /** Only this app's pending rows (default: every app's, one app at a time). */
  appId?: string;
  /** Only this device's (its `devices.id`; with `appId`): the deferred deep link call. */
  deviceId?: string;
  /** Pending rows per transaction (default ATTRIBUTION_BATCH). */
  limit?: number;
  /** Stop after this many batches (default: until nothing is left). */
  maxBatches?: number;
}

export interface AttributeResult { pending: number; attributions: string[]; batches: number }

/**
 * Attributes what is pending (see the module's comment), batch after batch, until nothing is
 * left that this process can lock. Answers how many pending rows were consumed and the ids of
 * the attributions written.
 */
export async function attributePending(db: Db, opts: AttributeOptions = {}): Promise<AttributeResult> {
  const limit = opts.limit ?? ATTRIBUTION_BATCH;
  const out: AttributeResult = { pending: 0, attributions: [], batches: 0 };
  const skipped = new Set<string>();
  while (opts.maxBatches === undefined || out.batches < opts.maxBatches) {
    const appId = opts.appId ?? await nextApp(db, skipped);
    if (!appId) break;
    const { taken, ids } = await tx(db, (client) => attributeBatch(client, appId, opts.deviceId ?? null, limit));
    if (taken === 0) {
      if (opts.appId) break;
      // Everything of that app is locked by another worker: try the others.
      skipped.add(appId);
      continue;
    }
    out.batches += 1;
    out.pending += taken;
    out.attributions.push(...ids);
    if (taken < limit && opts.appId) break;
  }
  return out;
}

/** An app with pending rows this process has not found all locked. */
async function nextApp(db: Db, skipped: ReadonlySet<string>): Promise<string | null> {
  const { rows } = await db.query<{ app_id: string }>(
    'SELECT app_id FROM acq_pending WHERE NOT (app_id = ANY($1::uuid[])) ORDER BY app_id, id LIMIT 1', [[...skipped]],
  );
  return rows[0]?.app_id ?? null;
}
