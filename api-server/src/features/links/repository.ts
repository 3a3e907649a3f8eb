/**
 * SQL of links (acq_links) and their clicks (acq_clicks). Every query is scoped by the app; the
 * host's lookup is by code alone (codes are global) and answers the link's app with it.
 */
import type { AcqDestinations, ClickPlatform, Link, LinkClick, LinkInput, LinkKind, LinkUpdate, TrackingParams } from '@gd/shared';
import { linkUrl } from '@gd/shared/acquisition/links';
import { statement, type Queryable } from '../../db/pool.ts';

interface LinkRow {
  id: string; campaign_id: string; campaign_name: string; kind: LinkKind; name: string; code: string;
  params: TrackingParams; destinations: AcqDestinations; campaign_destinations: AcqDestinations; deep_link: string | null;
  landing_id: string | null; active: boolean; created_by: string | null; clicks: number; unique_clicks: number; bots: number; last_click_at: Date | null;
  created_at: Date; updated_at: Date;
}

export const toLink = (r: LinkRow, baseUrl: string): Link => ({
  id: r.id, campaignId: r.campaign_id, campaignName: r.campaign_name, kind: r.kind, name: r.name, code: r.code,
  url: linkUrl(baseUrl, r.code, r.params), params: r.params, destinations: r.destinations,
  campaignDestinations: r.campaign_destinations ?? {}, deepLink: r.deep_link, landingId: r.landing_id, active: r.active,
  clicks: r.clicks, uniqueClicks: r.unique_clicks, bots: r.bots, lastClickAt: r.last_click_at?.toISOString() ?? null,
  createdAt: r.created_at.toISOString(), updatedAt: r.updated_at.toISOString(),
});

/**
 * A device for unique clicks: its advertising or vendor id, else IP and user agent together.
 * Counted clicks only (bots apart).
 */
const SELECT = `SELECT l.id, l.campaign_id, c.name AS campaign_name, l.kind, l.name, l.code, l.params, l.destinations,
    c.destinations AS campaign_destinations, l.deep_link, l.landing_id, l.active, l.created_by, l.created_at, l.updated_at,
    coalesce(k.clicks, 0)::int AS clicks, coalesce(k.unique_clicks, 0)::int AS unique_clicks, coalesce(k.bots, 0)::int AS bots, k.last_click_at
  FROM acq_links l
  JOIN acq_campaigns c ON c.app_id = l.app_id AND c.id = l.campaign_id AND c.deleted_at IS NULL
  LEFT JOIN acq_sources s ON s.app_id = c.app_id AND s.id = c.source_id
  LEFT JOIN LATERAL (
    SELECT count(*) FILTER (WHERE NOT x.bot) AS clicks,
      count(DISTINCT coalesce(x.idfa, x.gaid, x.idfv, x.oaid, host(x.ip) || ' ' || coalesce(x.user_agent, ''))) FILTER (WHERE NOT x.bot) AS unique_clicks,
      count(*) FILTER (WHERE x.bot) AS bots,
      max(x.clicked_at) FILTER (WHERE NOT x.bot) AS last_click_at
    FROM acq_clicks x WHERE x.app_id = l.app_id AND x.link_id = l.id
  ) k ON true`;

/** Restricts to one account provider's campaigns (a provider user's view), when given. */
export interface LinkScope { appId: string; providerId?: string | null }

function scoped(scope: LinkScope, values: unknown[]): string {
  values.push(scope.appId);
  let where = `l.app_id = $${values.length} AND l.deleted_at IS NULL`;
  if (scope.providerId) {
    values.push(scope.providerId);
    where += ` AND s.account_provider_id = $${values.length}`;
  }
  return where;
}

export async function listLinks(db: Queryable, scope: LinkScope, filter: { kind?: LinkKind | undefined; campaignId?: string | undefined }, baseUrl: string): Promise<Link[]> {
  const values: unknown[] = [];
  let where = scoped(scope, values);
  if (filter.kind) { values.push(filter.kind); where += ` AND l.kind = $${values.length}`; }
  if (filter.campaignId) { values.push(filter.campaignId); where += ` AND l.campaign_id = $${values.length}`; }
  const { rows } = await db.query<LinkRow>(`${SELECT} WHERE ${where} ORDER BY l.created_at DESC, l.id`, values);
  return rows.map((r) => toLink(r, baseUrl));
}

export async function findLink(db: Queryable, scope: LinkScope, id: string, baseUrl: string): Promise<(Link & { createdBy: string | null }) | undefined> {
  const values: unknown[] = [];
  const where = scoped(scope, values);
  values.push(id);
  const row = (await db.query<LinkRow>(`${SELECT} WHERE ${where} AND l.id = $${values.length}`, values)).rows[0];
  return row && { ...toLink(row, baseUrl), createdBy: row.created_by };
}

/** A live campaign of the app (in the scope): its destinations, or undefined. */
export async function findCampaign(db: Queryable, scope: LinkScope, campaignId: string): Promise<{ destinations: AcqDestinations; deepLink: string | null } | undefined> {
  const values: unknown[] = [scope.appId, campaignId];
  let sql = `SELECT c.destinations, c.deep_link FROM acq_campaigns c JOIN acq_sources s ON s.app_id = c.app_id AND s.id = c.source_id
    WHERE c.app_id = $1 AND c.id = $2 AND c.deleted_at IS NULL`;
  if (scope.providerId) { values.push(scope.providerId); sql += ' AND s.account_provider_id = $3'; }
  const row = (await db.query<{ destinations: AcqDestinations; deep_link: string | null }>(sql, values)).rows[0];
  return row && { destinations: row.destinations ?? {}, deepLink: row.deep_link };
}

export async function insertLink(db: Queryable, appId: string, userId: string, input: LinkInput & { code: string }): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO acq_links (app_id, campaign_id, kind, name, code, params, destinations, deep_link, active, created_by, landing_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id`,
    [appId, input.campaignId, input.kind, input.name, input.code, JSON.stringify(input.params), JSON.stringify(input.destinations), input.deepLink ?? null, input.active, userId, input.landingId ?? null],
  );
  const id = rows[0]?.id;
  if (!id) throw new Error('inserted link has no id');
  return id;
}

export async function updateLink(db: Queryable, appId: string, id: string, input: LinkUpdate): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE acq_links SET campaign_id = $3, name = $4, params = $5, destinations = $6, deep_link = $7, active = $8, landing_id = $9, updated_at = now()
      WHERE app_id = $1 AND id = $2 AND deleted_at IS NULL`,
    [appId, id, input.campaignId, input.name, JSON.stringify(input.params), JSON.stringify(input.destinations), input.deepLink ?? null, input.active, input.landingId ?? null],
  );
  return (rowCount ?? 0) > 0;
}

/** Soft delete (clicks keep pointing at the row); the code stays taken so an old link never changes owner. */
export async function deleteLink(db: Queryable, appId: string, id: string): Promise<boolean> {
  const { rowCount } = await db.query('UPDATE acq_links SET deleted_at = now(), active = false, updated_at = now() WHERE app_id = $1 AND id = $2 AND deleted_at IS NULL', [appId, id]);
  return (rowCount ?? 0) > 0;
}

interface ClickListRow {
  id: string; clicked_at: Date; ip: string | null; platform: ClickPlatform; os: string | null; os_version: string | null;
  device: string | null; browser: string | null; idfa: string | null; idfv: string | null; gaid: string | null; oaid: string | null;
  params: Record<string, string>; referrer: string | null; bot: boolean; bot_reason: string | null;
}

export async function latestClicks(db: Queryable, appId: string, linkId: string, limit: number): Promise<LinkClick[]> {
  const { rows } = await db.query<ClickListRow>(
    `SELECT id, clicked_at, host(ip) AS ip, platform, os, os_version, device, browser, idfa, idfv, gaid, oaid, params, referrer, bot, bot_reason
       FROM acq_clicks WHERE app_id = $1 AND link_id = $2 ORDER BY clicked_at DESC, id LIMIT $3`,
    [appId, linkId, limit],
  );
  return rows.map((r) => {
    const deviceIds: LinkClick['deviceIds'] = {};
    for (const name of ['idfa', 'idfv', 'gaid', 'oaid'] as const) {
      const value = r[name];
      if (value) deviceIds[name] = value;
    }
    return {
      id: r.id, clickedAt: r.clicked_at.toISOString(), ip: r.ip, platform: r.platform, os: r.os, osVersion: r.os_version,
      device: r.device, browser: r.browser, deviceIds, params: r.params, referrer: r.referrer, bot: r.bot, botReason: r.bot_reason,
    };
  });
}

/** What the link host needs of a live link. */
export interface HostLink {
  id: string; appId: string; campaignId: string; sourceId: string; kind: LinkKind; params: TrackingParams;
  destinations: AcqDestinations; campaignDestinations: AcqDestinations; deepLink: string | null;
  /** The link's landing page while it is published (issue 17): its web fallback on every platform. */
  landing: { slug: string; domain: string | null } | null;
}

/**
 * The live link of a code: the link active and not deleted, its campaign not deleted nor
 * archived. A paused campaign's links still redirect (people who click them get somewhere) and
 * their clicks are recorded.
 */
export async function hostLink(db: Queryable, code: string): Promise<HostLink | undefined> {
  const { rows } = await db.query<{
    id: string; app_id: string; campaign_id: string; source_id: string; kind: LinkKind; params: TrackingParams;
    destinations: AcqDestinations; campaign_destinations: AcqDestinations; deep_link: string | null;
    landing_slug: string | null; landing_domain: string | null;
  }>(statement('acq_host_link',
    `SELECT l.id, l.app_id, l.campaign_id, c.source_id, l.kind, l.params, l.destinations, c.destinations AS campaign_destinations,
        coalesce(l.deep_link, c.deep_link) AS deep_link, p.slug AS landing_slug, p.domain AS landing_domain
       FROM acq_links l JOIN acq_campaigns c ON c.app_id = l.app_id AND c.id = l.campaign_id
       LEFT JOIN landings p ON p.app_id = l.app_id AND p.id = l.landing_id AND p.status = 'published'
      WHERE l.code = $1 AND l.active AND l.deleted_at IS NULL AND c.deleted_at IS NULL AND c.status <> 'archived'`,
    [code]));
  const r = rows[0];
  return r && {
    id: r.id, appId: r.app_id, campaignId: r.campaign_id, sourceId: r.source_id, kind: r.kind, params: r.params ?? {},
    destinations: r.destinations ?? {}, campaignDestinations: r.campaign_destinations ?? {}, deepLink: r.deep_link,
    landing: r.landing_slug ? { slug: r.landing_slug, domain: r.landing_domain } : null,
  };
}

/** Whether a landing page (issue 17) is the app's: a link may use it as its web fallback. */
export async function landingOfApp(db: Queryable, appId: string, landingId: string): Promise<boolean> {
  const { rowCount } = await db.query('SELECT 1 FROM landings WHERE app_id = $1 AND id = $2', [appId, landingId]);
  return (rowCount ?? 0) > 0;
}

/** The account provider a user is a member of, in the account, if any (provider_members). */
export async function memberProvider(db: Queryable, accountId: string, userId: string): Promise<string | null> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT p.id FROM provider_members m JOIN account_providers p ON p.id = m.account_provider_id
      WHERE m.user_id = $1 AND p.account_id = $2 AND p.deleted_at IS NULL`,
    [userId, accountId],
  );
  return rows[0]?.id ?? null;
}

/** One impression of a link's ad (its pixel loaded), counted in the link's current UTC hour. */
export async function countImpression(db: Queryable, link: { appId: string; id: string; campaignId: string }, at: Date): Promise<void> {
  await db.query(
    `INSERT INTO acq_impressions AS i (app_id, link_id, hour, campaign_id, count) VALUES ($1, $2, date_trunc('hour', $3::timestamptz), $4, 1)
     ON CONFLICT (app_id, link_id, hour) DO UPDATE SET count = i.count + 1`,
    [link.appId, link.id, at, link.campaignId],
  );
}
