/**
 * All SQL of provider postbacks and trackers (migration 044): the facts a postback's macros are
 * filled from, queuing, the trigger inbox of consumer `postbacks`, leasing and recording calls, the
 * trackers and the calls of a campaign. Every read and write is scoped by app (or account).
 */
import type { Queryable } from '../../db/pool.ts';
import { appCategoryNamesSql } from '../categories/repository.ts';
import type { PostbackFacts } from './values.ts';

/** The facts of an attribution: campaign, provider, person, device and click. */
export interface FactsRow {
  attribution_id: string;
  app_id: string;
  kind: 'install' | 'reinstall' | 'retargeting_open';
  event_time: Date;
  person_id: string;
  campaign_id: string;
  source_id: string | null;
  click_id: string | null;
  deep_link: string | null;
  provider_id: string;
  install_url: string | null;
  event_url: string | null;
  method: 'GET' | 'POST';
  app_name: string;
  /** The app's category names, comma separated (the `app_cats` macro). */
  app_cats: string;
  customer_id: string | null;
  person_ip: string | null;
  person_country: string | null;
  device_key: string | null;
  idfa: string | null;
  idfv: string | null;
  gaid: string | null;
  oaid: string | null;
  model: string | null;
  click_ip: string | null;
  click_country: string | null;
  click_device: string | null;
  click_params: Record<string, unknown> | null;
}

/**
 * The columns of FactsRow, for a query where `a` is an attribution with a campaign. The provider is
 * the campaign's source's (active, not deleted); its URLs fall back to its catalogue entry's.
 */
const FACTS_COLUMNS = `
  a.id::text AS attribution_id, a.app_id, a.kind, a.event_time, a.person_id::text, a.campaign_id, a.source_id, a.click_id,
  coalesce(a.deep_link, c.deep_link) AS deep_link, p.id AS provider_id,
  coalesce(nullif(p.install_postback_url, ''), nullif(ad.install_postback_url, '')) AS install_url,
  coalesce(nullif(p.event_postback_url, ''), nullif(ad.event_postback_url, '')) AS event_url,
  p.postback_method AS method, ap.name AS app_name, ${appCategoryNamesSql('a.app_id')} AS app_cats, pe.customer_id, host(pe.ip) AS person_ip, pe.country AS person_country,
  d.device_key, d.idfa, d.idfv, d.gaid, d.oaid, d.model,
  host(k.ip) AS click_ip, k.country AS click_country, k.device AS click_device, k.params AS click_params`;
const FACTS_JOINS = `
  JOIN acq_campaigns c ON c.app_id = a.app_id AND c.id = a.campaign_id
  JOIN acq_sources s ON s.app_id = c.app_id AND s.id = c.source_id
  JOIN account_providers p ON p.id = s.account_provider_id AND p.deleted_at IS NULL AND p.active
  LEFT JOIN ad_providers ad ON ad.id = p.ad_provider_id AND ad.deleted_at IS NULL
  JOIN apps ap ON ap.id = a.app_id
  LEFT JOIN people pe ON pe.app_id = a.app_id AND pe.id = a.person_id
  LEFT JOIN devices d ON d.app_id = a.app_id AND d.id = a.device_id
  LEFT JOIN acq_clicks k ON k.app_id = a.app_id AND k.id = a.click_id AND k.clicked_at = a.clicked_at`;

export function factsOf(r: FactsRow, event?: { at: Date; properties: Record<string, unknown>; revenue: number | null }): PostbackFacts {
  return {
    appName: r.app_name, appCategories: r.app_cats, personId: r.person_id, customerId: r.customer_id, personIp: r.person_ip, personCountry: r.person_country,
    deviceKey: r.device_key, idfa: r.idfa, idfv: r.idfv, gaid: r.gaid, oaid: r.oaid, model: r.model,
    clickId: r.click_id, clickIp: r.click_ip, clickCountry: r.click_country, clickDevice: r.click_device, clickParams: r.click_params,
    campaignId: r.campaign_id, sourceId: r.source_id, providerId: r.provider_id, deepLink: r.deep_link,
    at: event?.at ?? r.event_time, event: event ? { properties: event.properties, revenue: event.revenue } : undefined,
  };
}

/** Attributions of the app among `ids` that credit a campaign whose provider is active. */
export async function attributionFacts(db: Queryable, appId: string, ids: readonly string[]): Promise<FactsRow[]> {
  const { rows } = await db.query<FactsRow>(
    `SELECT ${FACTS_COLUMNS} FROM acq_attributions a ${FACTS_JOINS}
      WHERE a.app_id = $1 AND a.id = ANY($2::bigint[]) AND a.campaign_id IS NOT NULL ORDER BY a.id`, [appId, ids]);
  return rows;
}

export interface NewPostback {
  appId: string; campaignId: string; providerId: string; kind: 'install' | 'reinstall' | 'retargeting_open' | 'event'; dedupKey: string;
  attributionId: string; trackerId: string | null; eventName: string | null; method: 'GET' | 'POST'; url: string; body: string | null;
}

/** Queues postbacks; a key already queued is left as it is. Answers how many were new. */
export async function insertPostbacks(db: Queryable, rows: readonly NewPostback[]): Promise<number> {
  if (rows.length === 0) return 0;
  const col = <K extends keyof NewPostback>(k: K) => rows.map((r) => r[k]);
  const { rowCount } = await db.query(
    `INSERT INTO acq_postbacks (app_id, campaign_id, account_provider_id, kind, dedup_key, attribution_id, tracker_id, event_name, method, url, body)
     SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::bigint[], $7::uuid[], $8::text[], $9::text[], $10::text[], $11::text[])
     ON CONFLICT (app_id, dedup_key) DO NOTHING`,
    [col('appId'), col('campaignId'), col('providerId'), col('kind'), col('dedupKey'), col('attributionId'), col('trackerId'), col('eventName'), col('method'), col('url'), col('body')]);
  return rowCount ?? 0;
}

// ---------------------------------------------------------------------------------------------
// Events: the trigger inbox of consumer `postbacks`.

export interface InboxRow { id: string; app_id: string; person_id: string; name: string; at: Date; properties: Record<string, unknown>; client_id: string }

/**
 * Leases inbox rows (FOR UPDATE SKIP LOCKED, in the caller's transaction). A person with an install
 * still waiting for attribution (acq_pending) is left for a later pass, so the event credits the
 * install's campaign once it is known; after `waitSeconds` the row is taken anyway.
 */
export async function leaseInbox(db: Queryable, limit: number, waitSeconds: number): Promise<InboxRow[]> {
  const { rows } = await db.query<InboxRow>(
    `SELECT t.id::text, t.app_id, t.person_id::text, t.name, t.at, t.properties, t.client_id FROM trigger_inbox t
      WHERE t.consumer = 'postbacks'
        AND (t.received_at < now() - make_interval(secs => $2)
             OR NOT EXISTS (SELECT 1 FROM acq_pending q WHERE q.app_id = t.app_id AND q.person_id = t.person_id))
      ORDER BY t.id LIMIT $1 FOR UPDATE SKIP LOCKED`, [limit, waitSeconds]);
  return rows;
}

export async function deleteInbox(db: Queryable, ids: readonly string[]): Promise<void> {
  if (ids.length) await db.query('DELETE FROM trigger_inbox WHERE id = ANY($1::bigint[])', [ids]);
}

export interface EventMatchRow extends FactsRow {
  inbox_id: string;
  tracker_id: string;
  tracker_url: string | null;
  provider_event: string | null;
  macros: string[];
  revenue: number | null;
}

/**
 * For each inbox row: the person's latest attribution at or before the event, when it credits a
 * campaign, joined to every active tracker of the event for that campaign's provider (and that
 * campaign, when the tracker names one), with the event's revenue.
 */
export async function eventMatches(db: Queryable, inboxIds: readonly string[]): Promise<EventMatchRow[]> {
  const { rows } = await db.query<EventMatchRow>(
    `SELECT t.id::text AS inbox_id, tr.id AS tracker_id, nullif(tr.postback_url, '') AS tracker_url, tr.provider_event, tr.macros,
            (SELECT e.revenue::float8 FROM events e WHERE e.app_id = t.app_id AND e.person_id = t.person_id AND e.event_time = t.at
                AND e.name = t.name AND e.client_id = t.client_id LIMIT 1) AS revenue,
            ${FACTS_COLUMNS}
       FROM trigger_inbox t
       JOIN LATERAL (SELECT * FROM acq_attributions x WHERE x.app_id = t.app_id AND x.person_id = t.person_id AND x.event_time <= t.at
                      ORDER BY x.event_time DESC, x.id DESC LIMIT 1) a ON a.campaign_id IS NOT NULL
       ${FACTS_JOINS}
       JOIN acq_trackers tr ON tr.app_id = t.app_id AND tr.event = t.name AND tr.active AND tr.deleted_at IS NULL
                           AND tr.account_provider_id = p.id AND (tr.campaign_id IS NULL OR tr.campaign_id = a.campaign_id)
      WHERE t.id = ANY($1::bigint[])
      ORDER BY t.id, tr.id`, [inboxIds]);
  return rows;
}

/** The event names the app's active trackers listen for become consumer `postbacks`' interests (caller's transaction). */
export async function refreshInterests(db: Queryable, appId: string): Promise<void> {
  await db.query(
    `DELETE FROM trigger_interests WHERE app_id = $1 AND consumer = 'postbacks'
        AND name NOT IN (SELECT event FROM acq_trackers WHERE app_id = $1 AND active AND deleted_at IS NULL)`, [appId]);
  await db.query(
    `INSERT INTO trigger_interests (app_id, consumer, name)
     SELECT DISTINCT $1::uuid, 'postbacks', event FROM acq_trackers WHERE app_id = $1 AND active AND deleted_at IS NULL
     ON CONFLICT DO NOTHING`, [appId]);
}

// ---------------------------------------------------------------------------------------------
// Sending.

export interface DueRow { id: string; app_id: string; method: 'GET' | 'POST'; url: string; body: string | null; attempts: number }

/** Leases due pending postbacks (attempts counted at the lease). */
export async function leaseDue(db: Queryable, workerId: string, now: Date, limit: number, leaseSeconds: number, appIds: readonly string[] | null): Promise<DueRow[]> {
  const { rows } = await db.query<DueRow>(
    `UPDATE acq_postbacks SET locked_by = $1, locked_until = now() + make_interval(secs => $4), attempts = attempts + 1, last_attempt_at = $2
      WHERE id IN (SELECT id FROM acq_postbacks WHERE status = 'pending' AND next_at <= $2 AND (locked_until IS NULL OR locked_until < now())
                     AND ($5::uuid[] IS NULL OR app_id = ANY($5)) ORDER BY next_at LIMIT $3 FOR UPDATE SKIP LOCKED)
      RETURNING id::text, app_id, method, url, body, attempts`,
    [workerId, now, limit, leaseSeconds, appIds]);
  return rows;
}

/** Records an attempt's outcome, if the lease is still ours. */
export async function recordAttempt(db: Queryable, id: string, workerId: string, r: { status: 'pending' | 'ok' | 'failed'; code: number | null; error: string | null; doneAt: Date | null; nextAt: Date | null }): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE acq_postbacks SET status = $3, response_status = $4, error = $5, done_at = $6, next_at = coalesce($7, next_at), locked_by = NULL, locked_until = NULL
      WHERE id = $1 AND locked_by = $2`,
    [id, workerId, r.status, r.code, r.error, r.doneAt, r.nextAt]);
  return rowCount === 1;
}

// ---------------------------------------------------------------------------------------------
// Screens.

/** The account provider a user is a member of (they see only its campaigns), or null. */
export async function memberProvider(db: Queryable, userId: string, accountId: string): Promise<string | null> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT p.id FROM provider_members m JOIN account_providers p ON p.id = m.account_provider_id
      WHERE m.user_id = $1 AND p.account_id = $2 AND p.deleted_at IS NULL`, [userId, accountId]);
  return rows[0]?.id ?? null;
}

/** A live campaign of the app (and of `providerId`'s sources when given). */
export async function campaignVisible(db: Queryable, appId: string, campaignId: string, providerId: string | null): Promise<boolean> {
  const { rows } = await db.query(
    `SELECT 1 FROM acq_campaigns c JOIN acq_sources s ON s.app_id = c.app_id AND s.id = c.source_id
      WHERE c.app_id = $1 AND c.id = $2 AND c.deleted_at IS NULL AND ($3::uuid IS NULL OR s.account_provider_id = $3)`, [appId, campaignId, providerId]);
  return rows.length > 0;
}

export interface PostbackRow {
  id: string; kind: string; tracker_id: string | null; tracker_name: string | null; event_name: string | null; method: string; url: string; body: string | null;
  status: 'pending' | 'ok' | 'failed'; attempts: number; response_status: number | null; error: string | null;
  created_at: Date; last_attempt_at: Date | null; done_at: Date | null; next_at: Date;
}

export async function campaignPostbacks(db: Queryable, appId: string, campaignId: string, status: string | null, limit: number): Promise<{ rows: PostbackRow[]; totals: Record<string, number> }> {
  const { rows } = await db.query<PostbackRow>(
    `SELECT b.id::text, b.kind, b.tracker_id, t.name AS tracker_name, b.event_name, b.method, b.url, b.body, b.status, b.attempts,
            b.response_status, b.error, b.created_at, b.last_attempt_at, b.done_at, b.next_at
       FROM acq_postbacks b LEFT JOIN acq_trackers t ON t.app_id = b.app_id AND t.id = b.tracker_id
      WHERE b.app_id = $1 AND b.campaign_id = $2 AND ($3::text IS NULL OR b.status = $3)
      ORDER BY b.created_at DESC, b.id DESC LIMIT $4`, [appId, campaignId, status, limit]);
  const totals = await db.query<{ status: string; n: number }>(
    `SELECT status, count(*)::int AS n FROM acq_postbacks WHERE app_id = $1 AND campaign_id = $2 GROUP BY status`, [appId, campaignId]);
  return { rows, totals: Object.fromEntries(totals.rows.map((r) => [r.status, r.n])) };
}

// ---------------------------------------------------------------------------------------------
// Trackers.

export interface TrackerRow {
  id: string; name: string; event: string; account_provider_id: string; provider_name: string; provider_event_url: string | null;
  campaign_id: string | null; campaign_name: string | null; postback_url: string | null; provider_event: string | null; macros: string[];
  active: boolean; sent: number; failed: number; pending: number; created_at: Date; updated_at: Date;
}

const TRACKER_SELECT = `
  SELECT t.id, t.name, t.event, t.account_provider_id, p.name AS provider_name,
         coalesce(nullif(p.event_postback_url, ''), nullif(ad.event_postback_url, '')) AS provider_event_url,
         t.campaign_id, c.name AS campaign_name, t.postback_url, t.provider_event, t.macros, t.active,
         coalesce(n.sent, 0) AS sent, coalesce(n.failed, 0) AS failed, coalesce(n.pending, 0) AS pending, t.created_at, t.updated_at
    FROM acq_trackers t
    JOIN account_providers p ON p.id = t.account_provider_id
    LEFT JOIN ad_providers ad ON ad.id = p.ad_provider_id AND ad.deleted_at IS NULL
    LEFT JOIN acq_campaigns c ON c.app_id = t.app_id AND c.id = t.campaign_id
    LEFT JOIN LATERAL (SELECT count(*) FILTER (WHERE b.status = 'ok')::int AS sent, count(*) FILTER (WHERE b.status = 'failed')::int AS failed,
                              count(*) FILTER (WHERE b.status = 'pending')::int AS pending
                         FROM acq_postbacks b WHERE b.app_id = t.app_id AND b.tracker_id = t.id) n ON true`;

export async function listTrackers(db: Queryable, appId: string, providerId: string | null): Promise<TrackerRow[]> {
  const { rows } = await db.query<TrackerRow>(
    `${TRACKER_SELECT} WHERE t.app_id = $1 AND t.deleted_at IS NULL AND ($2::uuid IS NULL OR t.account_provider_id = $2) ORDER BY lower(t.name)`, [appId, providerId]);
  return rows;
}

export async function getTracker(db: Queryable, appId: string, id: string): Promise<TrackerRow | undefined> {
  const { rows } = await db.query<TrackerRow>(`${TRACKER_SELECT} WHERE t.app_id = $1 AND t.id = $2 AND t.deleted_at IS NULL`, [appId, id]);
  return rows[0];
}

export interface ProviderChoice { id: string; name: string; event_url: string | null }

/** The account's active providers (a provider member: only theirs). */
export async function providerChoices(db: Queryable, accountId: string, providerId: string | null): Promise<ProviderChoice[]> {
  const { rows } = await db.query<ProviderChoice>(
    `SELECT p.id, p.name, coalesce(nullif(p.event_postback_url, ''), nullif(ad.event_postback_url, '')) AS event_url
       FROM account_providers p LEFT JOIN ad_providers ad ON ad.id = p.ad_provider_id AND ad.deleted_at IS NULL
      WHERE p.account_id = $1 AND p.deleted_at IS NULL AND p.active AND ($2::uuid IS NULL OR p.id = $2) ORDER BY lower(p.name)`, [accountId, providerId]);
  return rows;
}

/** Whether the provider is the account's (live) and the campaign, when given, the app's (live) and of that provider's sources. */
export async function checkReferences(db: Queryable, accountId: string, appId: string, providerId: string, campaignId: string | null): Promise<'provider' | 'campaign' | null> {
  const { rows } = await db.query<{ provider: boolean; campaign: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM account_providers WHERE id = $2 AND account_id = $1 AND deleted_at IS NULL) AS provider,
            $4::uuid IS NULL OR EXISTS (SELECT 1 FROM acq_campaigns c JOIN acq_sources s ON s.app_id = c.app_id AND s.id = c.source_id
                                         WHERE c.app_id = $3 AND c.id = $4 AND c.deleted_at IS NULL AND s.account_provider_id = $2) AS campaign`,
    [accountId, providerId, appId, campaignId]);
  const r = rows[0];
  return !r?.provider ? 'provider' : !r.campaign ? 'campaign' : null;
}

export interface TrackerValues { name: string; event: string; accountProviderId: string; campaignId: string | null; postbackUrl: string | null; providerEvent: string | null; macros: string[]; active: boolean }

export async function insertTracker(db: Queryable, appId: string, userId: string, v: TrackerValues): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO acq_trackers (app_id, name, event, account_provider_id, campaign_id, postback_url, provider_event, macros, active, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
    [appId, v.name, v.event, v.accountProviderId, v.campaignId, v.postbackUrl, v.providerEvent, v.macros, v.active, userId]);
  return (rows[0] as { id: string }).id;
}

export async function updateTracker(db: Queryable, appId: string, id: string, v: TrackerValues): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE acq_trackers SET name = $3, event = $4, account_provider_id = $5, campaign_id = $6, postback_url = $7, provider_event = $8, macros = $9,
            active = $10, updated_at = now()
      WHERE app_id = $1 AND id = $2 AND deleted_at IS NULL`,
    [appId, id, v.name, v.event, v.accountProviderId, v.campaignId, v.postbackUrl, v.providerEvent, v.macros, v.active]);
  return rowCount === 1;
}

export async function deleteTracker(db: Queryable, appId: string, id: string): Promise<boolean> {
  const { rowCount } = await db.query(`UPDATE acq_trackers SET deleted_at = now(), active = false WHERE app_id = $1 AND id = $2 AND deleted_at IS NULL`, [appId, id]);
  return rowCount === 1;
}
