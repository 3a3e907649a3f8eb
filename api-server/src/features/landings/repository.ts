/**
 * SQL of landing pages (landings) and their visits (landing_visits), migration 050. Every query of
 * the screens is scoped by the app; the public host's lookups are by address (slug and domain)
 * and answer the landing's app with it.
 */
import type { Landing, LandingInput, LandingSummary, LandingVisitDay } from '@gd/shared';
import { landingUrl, type LandingBlock, type LandingColours, type LandingStatus } from '@gd/shared/landings/model';
import { statement, type Queryable } from '../../db/pool.ts';

/** The unique index of a landing's address (domain, slug). */
export const ADDRESS_INDEX = 'landings_address';

interface SummaryRow {
  id: string; name: string; slug: string; domain: string | null; campaign_id: string | null; campaign_name: string | null;
  link_id: string | null; link_name: string | null; status: LandingStatus; visits: number; visits_week: number; links: number;
  published_at: Date | null; created_at: Date; updated_at: Date;
}
interface LandingRow extends SummaryRow { colours: LandingColours; blocks: LandingBlock[] }

const toSummary = (r: SummaryRow, hostBase: string): LandingSummary => ({
  id: r.id, name: r.name, slug: r.slug, domain: r.domain, campaignId: r.campaign_id, campaignName: r.campaign_name,
  linkId: r.link_id, linkName: r.link_name, status: r.status, url: landingUrl(hostBase, r.slug, r.domain),
  visits: r.visits, visitsWeek: r.visits_week, links: r.links,
  publishedAt: r.published_at?.toISOString() ?? null, createdAt: r.created_at.toISOString(), updatedAt: r.updated_at.toISOString(),
});

/** Campaign and link names only while they are live (a deleted one shows as none). */
const SELECT = (withContent: boolean) => `SELECT p.id, p.name, p.slug, p.domain, p.status, p.published_at, p.created_at, p.updated_at,
    ${withContent ? 'p.colours, p.blocks,' : ''}
    CASE WHEN c.id IS NULL THEN NULL ELSE p.campaign_id END AS campaign_id, c.name AS campaign_name,
    CASE WHEN k.id IS NULL THEN NULL ELSE p.link_id END AS link_id, k.name AS link_name,
    coalesce(v.visits, 0)::int AS visits, coalesce(v.visits_week, 0)::int AS visits_week,
    (SELECT count(*) FROM acq_links x WHERE x.app_id = p.app_id AND x.landing_id = p.id AND x.deleted_at IS NULL)::int AS links
  FROM landings p
  LEFT JOIN acq_campaigns c ON c.app_id = p.app_id AND c.id = p.campaign_id AND c.deleted_at IS NULL
  LEFT JOIN acq_links k ON k.app_id = p.app_id AND k.id = p.link_id AND k.deleted_at IS NULL
  LEFT JOIN LATERAL (
    SELECT sum(visits) AS visits, sum(visits) FILTER (WHERE day > (now() AT TIME ZONE 'UTC')::date - 7) AS visits_week
    FROM landing_visits WHERE landing_id = p.id
  ) v ON true`;

export async function listLandings(db: Queryable, appId: string, filter: { campaignId?: string | undefined }, hostBase: string): Promise<LandingSummary[]> {
  const values: unknown[] = [appId];
  let where = 'p.app_id = $1';
  if (filter.campaignId) { values.push(filter.campaignId); where += ' AND p.campaign_id = $2'; }
  const { rows } = await db.query<SummaryRow>(`${SELECT(false)} WHERE ${where} ORDER BY p.created_at DESC, p.id`, values);
  return rows.map((r) => toSummary(r, hostBase));
}

export async function findLanding(db: Queryable, appId: string, id: string, hostBase: string): Promise<Landing | undefined> {
  const row = (await db.query<LandingRow>(`${SELECT(true)} WHERE p.app_id = $1 AND p.id = $2`, [appId, id])).rows[0];
  return row && { ...toSummary(row, hostBase), colours: row.colours, blocks: row.blocks };
}

/** A live acquisition campaign of the app. */
export async function campaignOfApp(db: Queryable, appId: string, campaignId: string): Promise<boolean> {
  const { rowCount } = await db.query('SELECT 1 FROM acq_campaigns WHERE app_id = $1 AND id = $2 AND deleted_at IS NULL', [appId, campaignId]);
  return (rowCount ?? 0) > 0;
}

/** A live link of the app, with its campaign. */
export async function linkOfApp(db: Queryable, appId: string, linkId: string): Promise<{ campaignId: string } | undefined> {
  const row = (await db.query<{ campaign_id: string }>('SELECT campaign_id FROM acq_links WHERE app_id = $1 AND id = $2 AND deleted_at IS NULL', [appId, linkId])).rows[0];
  return row && { campaignId: row.campaign_id };
}

/**
 * Whether another account's landing uses the domain. Takes a transaction-scoped advisory lock on
 * the domain first, so two accounts claiming a new domain at once cannot both get it.
 */
export async function domainTakenElsewhere(db: Queryable, accountId: string, domain: string): Promise<boolean> {
  await db.query("SELECT pg_advisory_xact_lock(hashtext('landing-domain:' || $1))", [domain]);
  const { rowCount } = await db.query('SELECT 1 FROM landings WHERE domain = $1 AND account_id <> $2 LIMIT 1', [domain, accountId]);
  return (rowCount ?? 0) > 0;
}

export async function insertLanding(db: Queryable, app: { id: string; accountId: string }, userId: string, input: LandingInput): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO landings (app_id, account_id, name, slug, domain, campaign_id, link_id, colours, blocks, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
    [app.id, app.accountId, input.name, input.slug, input.domain ?? null, input.campaignId ?? null, input.linkId ?? null,
      JSON.stringify(input.colours), JSON.stringify(input.blocks), userId],
  );
  const id = rows[0]?.id;
  if (!id) throw new Error('inserted landing has no id');
  return id;
}

export async function updateLanding(db: Queryable, appId: string, id: string, input: LandingInput): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE landings SET name = $3, slug = $4, domain = $5, campaign_id = $6, link_id = $7, colours = $8, blocks = $9, updated_at = now()
      WHERE app_id = $1 AND id = $2`,
    [appId, id, input.name, input.slug, input.domain ?? null, input.campaignId ?? null, input.linkId ?? null,
      JSON.stringify(input.colours), JSON.stringify(input.blocks)],
  );
  return (rowCount ?? 0) > 0;
}

/** Publishes (keeping the first publication's time when already published) or unpublishes. */
export async function setStatus(db: Queryable, appId: string, id: string, status: LandingStatus): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE landings SET status = $3, updated_at = now(),
        published_at = CASE WHEN $3 = 'published' THEN coalesce(CASE WHEN status = 'published' THEN published_at END, now()) ELSE NULL END
      WHERE app_id = $1 AND id = $2`,
    [appId, id, status],
  );
  return (rowCount ?? 0) > 0;
}

/** Deletes the landing and its visits; links using it lose it (ON DELETE SET NULL). */
export async function deleteLanding(db: Queryable, appId: string, id: string): Promise<{ slug: string; domain: string | null } | undefined> {
  const row = (await db.query<{ slug: string; domain: string | null }>('DELETE FROM landings WHERE app_id = $1 AND id = $2 RETURNING slug, domain', [appId, id])).rows[0];
  return row;
}

/** Every UTC day of the last `days` days (today included), with its visits (0 when none). */
export async function visitsByDay(db: Queryable, appId: string, id: string, days: number): Promise<LandingVisitDay[]> {
  const { rows } = await db.query<{ day: string; visits: number; from_links: number }>(
    `SELECT to_char(d.day, 'YYYY-MM-DD') AS day, coalesce(v.visits, 0)::int AS visits, coalesce(v.from_links, 0)::int AS from_links
       FROM generate_series((now() AT TIME ZONE 'UTC')::date - ($3::int - 1), (now() AT TIME ZONE 'UTC')::date, interval '1 day') AS d(day)
       LEFT JOIN landing_visits v ON v.landing_id = $2 AND v.app_id = $1 AND v.day = d.day::date
      ORDER BY d.day`,
    [appId, id, days],
  );
  return rows.map((r) => ({ day: r.day, visits: r.visits, fromLinks: r.from_links }));
}

// ---------------------------------------------------------------------------------------------
// The public host.

/** What the host needs of a published landing. */
export interface HostLanding {
  id: string; appId: string; name: string; colours: LandingColours; blocks: LandingBlock[]; updatedAt: number;
}

/** The published landing at an address: a slug on the link host (domain null) or on a custom domain. */
export async function hostLanding(db: Queryable, slug: string, domain: string | null): Promise<HostLanding | undefined> {
  const { rows } = await db.query<{ id: string; app_id: string; name: string; colours: LandingColours; blocks: LandingBlock[]; updated_at: Date }>(statement('landing_host',
    `SELECT id, app_id, name, colours, blocks, updated_at FROM landings
      WHERE coalesce(domain, '') = $1 AND lower(slug) = lower($2) AND status = 'published'`,
    [domain ?? '', slug]));
  const r = rows[0];
  return r && { id: r.id, appId: r.app_id, name: r.name, colours: r.colours, blocks: r.blocks, updatedAt: r.updated_at.getTime() };
}

/** The custom domains with at least one published landing. */
export async function publishedDomains(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ domain: string }>("SELECT DISTINCT domain FROM landings WHERE domain IS NOT NULL AND status = 'published'");
  return rows.map((r) => r.domain);
}

/** One person's visit, counted in its UTC day. */
export async function countVisit(db: Queryable, landing: { id: string; appId: string }, at: Date, fromLink: boolean): Promise<void> {
  await db.query(statement('landing_visit',
    `INSERT INTO landing_visits AS v (landing_id, app_id, day, visits, from_links) VALUES ($1, $2, ($3::timestamptz AT TIME ZONE 'UTC')::date, 1, $4)
     ON CONFLICT (landing_id, day) DO UPDATE SET visits = v.visits + 1, from_links = v.from_links + excluded.from_links`,
    [landing.id, landing.appId, at.toISOString(), fromLink ? 1 : 0]));
}
