/**
 * SQL of the apptracker: campaigns, sources, channels of an app; the account's providers and their
 * members; the platform's ad provider catalogue. Every query is scoped by app or account as well as
 * by the row id; deleted rows (deleted_at) are never answered.
 */
import type {
  AccountProvider, AccountProviderInput, AdProvider, AdProviderInput, Campaign, CampaignInput, Channel, ChannelInput,
  CampaignListQuery, Source, SourceInput,
} from '@gd/shared/schemas/acquisition';
import { single, type Queryable } from '../../db/pool.ts';
import { categoryFilterSql } from '../categories/repository.ts';

const iso = (d: Date) => d.toISOString();
const num = (v: string | number) => Number(v);

// ---- Provider membership ----

/** The account provider a user is a member of (then they see only its campaigns), or null. */
export async function memberProvider(db: Queryable, accountId: string, userId: string): Promise<{ id: string; name: string } | null> {
  const { rows } = await db.query<{ id: string; name: string }>(
    `SELECT ap.id, ap.name FROM provider_members m JOIN account_providers ap ON ap.id = m.account_provider_id
      WHERE m.user_id = $1 AND ap.account_id = $2 AND ap.deleted_at IS NULL`,
    [userId, accountId],
  );
  return rows[0] ?? null;
}

// ---- Campaigns ----

interface CampaignRow {
  id: string; app_id: string; name: string; source_id: string; source_name: string; source_type: Campaign['sourceType'];
  account_provider_id: string | null; account_provider_name: string | null; channel_id: string | null; channel_name: string | null;
  pricing_model: Campaign['pricingModel']; cost_value: string; currency: string; cost_event: string | null;
  start_day: string | null; end_day: string | null; status: Campaign['status']; destinations: Campaign['destinations'];
  deep_link: string | null; active_links: number; created_by: string | null; created_by_name: string | null; created_at: Date; updated_at: Date;
}
const toCampaign = (r: CampaignRow): Campaign => ({
  id: r.id, appId: r.app_id, name: r.name, sourceId: r.source_id, sourceName: r.source_name, sourceType: r.source_type,
  accountProviderId: r.account_provider_id, accountProviderName: r.account_provider_name,
  channelId: r.channel_id, channelName: r.channel_name, pricingModel: r.pricing_model, costValue: num(r.cost_value),
  currency: r.currency.trim(), costEvent: r.cost_event, startDay: r.start_day, endDay: r.end_day, status: r.status,
  destinations: r.destinations, deepLink: r.deep_link, activeLinks: r.active_links, createdBy: r.created_by,
  createdByName: r.created_by_name, createdAt: iso(r.created_at), updatedAt: iso(r.updated_at),
});

const CAMPAIGN_SELECT = `SELECT c.id, c.app_id, c.name, c.source_id, s.name AS source_name, s.type AS source_type,
    s.account_provider_id, ap.name AS account_provider_name, ch.id AS channel_id, ch.name AS channel_name,
    c.pricing_model, c.cost_value::text, c.currency, c.cost_event, c.start_day::text, c.end_day::text, c.status,
    c.destinations, c.deep_link, c.created_by, u.name AS created_by_name, c.created_at, c.updated_at,
    (SELECT count(*) FROM acq_links l WHERE l.app_id = c.app_id AND l.campaign_id = c.id AND l.active AND l.deleted_at IS NULL)::int AS active_links
  FROM acq_campaigns c
  JOIN acq_sources s ON s.id = c.source_id AND s.app_id = c.app_id
  LEFT JOIN account_providers ap ON ap.id = s.account_provider_id
  LEFT JOIN acq_channels ch ON ch.id = c.channel_id AND ch.app_id = c.app_id AND ch.deleted_at IS NULL
  LEFT JOIN users u ON u.id = c.created_by`;

export interface CampaignScopeFilter {
  scope: CampaignListQuery['scope'];
  ownerId?: string | undefined;
  accountProviderId?: string | undefined;
  /** Only the campaigns with this category (categories/repository.ts). */
  categoryId?: string | undefined;
  /** The app's today (YYYY-MM-DD), for scope `current`. */
  today: string;
}

export async function listCampaigns(db: Queryable, appId: string, f: CampaignScopeFilter): Promise<Campaign[]> {
  const { rows } = await db.query<CampaignRow>(
    `${CAMPAIGN_SELECT}
      WHERE c.app_id = $1 AND c.deleted_at IS NULL
        AND ($2::boolean IS FALSE OR (c.status <> 'archived' AND (c.end_day IS NULL OR c.end_day >= $3::date)))
        AND ($4::uuid IS NULL OR c.created_by = $4)
        AND ($5::uuid IS NULL OR s.account_provider_id = $5)
        AND ${categoryFilterSql([['campaign', 'c.id']], 6)}
      ORDER BY lower(c.name)`,
    [appId, f.scope === 'current', f.today, f.ownerId ?? null, f.accountProviderId ?? null, f.categoryId ?? null],
  );
  return rows.map(toCampaign);
}

export async function findCampaign(db: Queryable, appId: string, id: string, accountProviderId?: string): Promise<Campaign | undefined> {
  const { rows } = await db.query<CampaignRow>(
    `${CAMPAIGN_SELECT} WHERE c.app_id = $1 AND c.id = $2 AND c.deleted_at IS NULL AND ($3::uuid IS NULL OR s.account_provider_id = $3)`,
    [appId, id, accountProviderId ?? null],
  );
  return rows[0] && toCampaign(rows[0]);
}

/** Whether the source and channel (when given) are live rows of the app. */
export async function campaignRefsExist(db: Queryable, appId: string, sourceId: string, channelId: string | null): Promise<{ source: boolean; channel: boolean }> {
  const { rows } = await db.query<{ source: boolean; channel: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM acq_sources WHERE app_id = $1 AND id = $2 AND deleted_at IS NULL) AS source,
            ($3::uuid IS NULL OR EXISTS (SELECT 1 FROM acq_channels WHERE app_id = $1 AND id = $3 AND deleted_at IS NULL)) AS channel`,
    [appId, sourceId, channelId],
  );
  return rows[0] ?? { source: false, channel: false };
}

const campaignValues = (c: CampaignInput) => [
  c.name, c.sourceId, c.channelId, c.pricingModel, c.costValue, c.currency, c.costEvent,
  c.startDay, c.endDay, c.status, JSON.stringify(c.destinations), c.deepLink,
];

export async function insertCampaign(db: Queryable, appId: string, userId: string, c: CampaignInput): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO acq_campaigns (app_id, name, source_id, channel_id, pricing_model, cost_value, currency, cost_event, start_day, end_day, status, destinations, deep_link, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::jsonb, $13, $14) RETURNING id`,
    [appId, ...campaignValues(c), userId],
  );
  return single(rows).id;
}

export async function updateCampaign(db: Queryable, appId: string, id: string, c: CampaignInput): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE acq_campaigns SET name = $3, source_id = $4, channel_id = $5, pricing_model = $6, cost_value = $7, currency = $8,
        cost_event = $9, start_day = $10, end_day = $11, status = $12, destinations = $13::jsonb, deep_link = $14, updated_at = now()
      WHERE app_id = $1 AND id = $2 AND deleted_at IS NULL`,
    [appId, id, ...campaignValues(c)],
  );
  return (rowCount ?? 0) > 0;
}

export async function cloneCampaign(db: Queryable, appId: string, id: string, name: string, userId: string): Promise<string | undefined> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO acq_campaigns (app_id, name, source_id, channel_id, pricing_model, cost_value, currency, cost_event, start_day, end_day, status, destinations, deep_link, created_by)
     SELECT app_id, $3, source_id, channel_id, pricing_model, cost_value, currency, cost_event, start_day, end_day,
            CASE WHEN status = 'archived' THEN 'paused' ELSE status END, destinations, deep_link, $4
       FROM acq_campaigns WHERE app_id = $1 AND id = $2 AND deleted_at IS NULL
     RETURNING id`,
    [appId, id, name, userId],
  );
  return rows[0]?.id;
}

/** Deletes a campaign and stops its links (inactive) in the caller's transaction. */
export async function deleteCampaign(db: Queryable, appId: string, id: string): Promise<boolean> {
  const { rowCount } = await db.query('UPDATE acq_campaigns SET deleted_at = now(), updated_at = now() WHERE app_id = $1 AND id = $2 AND deleted_at IS NULL', [appId, id]);
  if (!rowCount) return false;
  await db.query('UPDATE acq_links SET active = false, updated_at = now() WHERE app_id = $1 AND campaign_id = $2 AND active', [appId, id]);
  return true;
}

// ---- Sources ----

interface SourceRow {
  id: string; name: string; type: Source['type']; account_provider_id: string | null; account_provider_name: string | null;
  attribution: Source['attribution']; lookback_days: number; reattribution_days: number; fingerprint: boolean; campaigns: number; created_at: Date;
}
const toSource = (r: SourceRow): Source => ({
  id: r.id, name: r.name, type: r.type, accountProviderId: r.account_provider_id, accountProviderName: r.account_provider_name,
  attribution: r.attribution, lookbackDays: r.lookback_days, reattributionDays: r.reattribution_days, fingerprint: r.fingerprint,
  campaigns: r.campaigns, createdAt: iso(r.created_at),
});
const SOURCE_SELECT = `SELECT s.id, s.name, s.type, s.account_provider_id, ap.name AS account_provider_name, s.attribution,
    s.lookback_days, s.reattribution_days, s.fingerprint, s.created_at,
    (SELECT count(*) FROM acq_campaigns c WHERE c.app_id = s.app_id AND c.source_id = s.id AND c.deleted_at IS NULL)::int AS campaigns
  FROM acq_sources s LEFT JOIN account_providers ap ON ap.id = s.account_provider_id`;

export async function listSources(db: Queryable, appId: string, accountProviderId?: string): Promise<Source[]> {
  const { rows } = await db.query<SourceRow>(
    `${SOURCE_SELECT} WHERE s.app_id = $1 AND s.deleted_at IS NULL AND ($2::uuid IS NULL OR s.account_provider_id = $2) ORDER BY lower(s.name)`,
    [appId, accountProviderId ?? null],
  );
  return rows.map(toSource);
}

export async function findSource(db: Queryable, appId: string, id: string): Promise<Source | undefined> {
  const { rows } = await db.query<SourceRow>(`${SOURCE_SELECT} WHERE s.app_id = $1 AND s.id = $2 AND s.deleted_at IS NULL`, [appId, id]);
  return rows[0] && toSource(rows[0]);
}

/** Whether an account provider is a live one of the account. */
export async function accountProviderExists(db: Queryable, accountId: string, id: string): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM account_providers WHERE account_id = $1 AND id = $2 AND deleted_at IS NULL', [accountId, id]);
  return rows.length > 0;
}

const sourceValues = (s: SourceInput) => [s.name, s.type, s.accountProviderId, s.attribution, s.lookbackDays, s.reattributionDays, s.fingerprint];

export async function insertSource(db: Queryable, appId: string, userId: string, s: SourceInput): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO acq_sources (app_id, name, type, account_provider_id, attribution, lookback_days, reattribution_days, fingerprint, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
    [appId, ...sourceValues(s), userId],
  );
  return single(rows).id;
}

export async function updateSource(db: Queryable, appId: string, id: string, s: SourceInput): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE acq_sources SET name = $3, type = $4, account_provider_id = $5, attribution = $6, lookback_days = $7, reattribution_days = $8, fingerprint = $9
      WHERE app_id = $1 AND id = $2 AND deleted_at IS NULL`,
    [appId, id, ...sourceValues(s)],
  );
  return (rowCount ?? 0) > 0;
}

/** Deletes a source without live campaigns: 'in_use' when it has some, false when there is none. */
export async function deleteSource(db: Queryable, appId: string, id: string): Promise<boolean | 'in_use'> {
  const { rowCount } = await db.query(
    `UPDATE acq_sources s SET deleted_at = now() WHERE s.app_id = $1 AND s.id = $2 AND s.deleted_at IS NULL
        AND NOT EXISTS (SELECT 1 FROM acq_campaigns c WHERE c.app_id = s.app_id AND c.source_id = s.id AND c.deleted_at IS NULL)`,
    [appId, id],
  );
  if (rowCount) return true;
  return (await findSource(db, appId, id)) ? 'in_use' : false;
}

// ---- Channels ----

interface ChannelRow { id: string; name: string; campaigns: number; created_at: Date }
const toChannel = (r: ChannelRow): Channel => ({ id: r.id, name: r.name, campaigns: r.campaigns, createdAt: iso(r.created_at) });
const CHANNEL_SELECT = `SELECT ch.id, ch.name, ch.created_at,
    (SELECT count(*) FROM acq_campaigns c WHERE c.app_id = ch.app_id AND c.channel_id = ch.id AND c.deleted_at IS NULL)::int AS campaigns
  FROM acq_channels ch`;

export async function listChannels(db: Queryable, appId: string): Promise<Channel[]> {
  const { rows } = await db.query<ChannelRow>(`${CHANNEL_SELECT} WHERE ch.app_id = $1 AND ch.deleted_at IS NULL ORDER BY lower(ch.name)`, [appId]);
  return rows.map(toChannel);
}

export async function findChannel(db: Queryable, appId: string, id: string): Promise<Channel | undefined> {
  const { rows } = await db.query<ChannelRow>(`${CHANNEL_SELECT} WHERE ch.app_id = $1 AND ch.id = $2 AND ch.deleted_at IS NULL`, [appId, id]);
  return rows[0] && toChannel(rows[0]);
}

export async function insertChannel(db: Queryable, appId: string, c: ChannelInput): Promise<string> {
  const { rows } = await db.query<{ id: string }>('INSERT INTO acq_channels (app_id, name) VALUES ($1, $2) RETURNING id', [appId, c.name]);
  return single(rows).id;
}

export async function updateChannel(db: Queryable, appId: string, id: string, c: ChannelInput): Promise<boolean> {
  const { rowCount } = await db.query('UPDATE acq_channels SET name = $3 WHERE app_id = $1 AND id = $2 AND deleted_at IS NULL', [appId, id, c.name]);
  return (rowCount ?? 0) > 0;
}

/** Deletes a channel; its campaigns stay, without a channel (in the caller's transaction). */
export async function deleteChannel(db: Queryable, appId: string, id: string): Promise<boolean> {
  const { rowCount } = await db.query('UPDATE acq_channels SET deleted_at = now() WHERE app_id = $1 AND id = $2 AND deleted_at IS NULL', [appId, id]);
  if (!rowCount) return false;
  await db.query('UPDATE acq_campaigns SET channel_id = NULL, updated_at = now() WHERE app_id = $1 AND channel_id = $2', [appId, id]);
  return true;
}

// ---- Account providers ----

interface AccountProviderRow {
  id: string; ad_provider_id: string | null; ad_provider_name: string | null; name: string; kind: AccountProvider['kind'];
  install_postback_url: string | null; event_postback_url: string | null; postback_method: AccountProvider['postbackMethod'];
  active: boolean; members: AccountProvider['members'] | null; campaigns: number; active_links: number; created_at: Date;
}
const toAccountProvider = (r: AccountProviderRow): AccountProvider => ({
  id: r.id, adProviderId: r.ad_provider_id, adProviderName: r.ad_provider_name, name: r.name, kind: r.kind,
  installPostbackUrl: r.install_postback_url, eventPostbackUrl: r.event_postback_url, postbackMethod: r.postback_method,
  active: r.active, members: r.members ?? [], campaigns: r.campaigns, activeLinks: r.active_links, createdAt: iso(r.created_at),
});
/** Active links of the live campaigns of the sources tied to provider `ap`. */
const PROVIDER_LINKS = `(SELECT count(*) FROM acq_sources s JOIN acq_campaigns c ON c.app_id = s.app_id AND c.source_id = s.id AND c.deleted_at IS NULL
       JOIN acq_links l ON l.app_id = c.app_id AND l.campaign_id = c.id AND l.active AND l.deleted_at IS NULL
      WHERE s.account_provider_id = ap.id AND s.deleted_at IS NULL)::int`;
/** Live campaigns and active links of the sources tied to provider `ap`. */
const PROVIDER_USE = `
    (SELECT count(*) FROM acq_sources s JOIN acq_campaigns c ON c.app_id = s.app_id AND c.source_id = s.id AND c.deleted_at IS NULL
      WHERE s.account_provider_id = ap.id AND s.deleted_at IS NULL)::int AS campaigns,
    ${PROVIDER_LINKS} AS active_links`;
const ACCOUNT_PROVIDER_SELECT = `SELECT ap.id, ap.ad_provider_id, adp.name AS ad_provider_name, ap.name, ap.kind, ap.install_postback_url,
    ap.event_postback_url, ap.postback_method, ap.active, ap.created_at,
    (SELECT json_agg(json_build_object('userId', u.id, 'name', u.name, 'email', u.email) ORDER BY lower(u.name))
       FROM provider_members m JOIN users u ON u.id = m.user_id WHERE m.account_provider_id = ap.id) AS members,
    ${PROVIDER_USE}
  FROM account_providers ap LEFT JOIN ad_providers adp ON adp.id = ap.ad_provider_id`;

export async function listAccountProviders(db: Queryable, accountId: string, onlyId?: string): Promise<AccountProvider[]> {
  const { rows } = await db.query<AccountProviderRow>(
    `${ACCOUNT_PROVIDER_SELECT} WHERE ap.account_id = $1 AND ap.deleted_at IS NULL AND ($2::uuid IS NULL OR ap.id = $2) ORDER BY lower(ap.name)`,
    [accountId, onlyId ?? null],
  );
  return rows.map(toAccountProvider);
}

export async function findAccountProvider(db: Queryable, accountId: string, id: string): Promise<AccountProvider | undefined> {
  return (await listAccountProviders(db, accountId, id))[0];
}

/** Which of these user ids are users of the account. */
export async function accountUserIds(db: Queryable, accountId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const { rows } = await db.query<{ id: string }>('SELECT id FROM users WHERE account_id = $1 AND id = ANY($2::uuid[])', [accountId, ids]);
  return new Set(rows.map((r) => r.id));
}

/** Whether a catalogue entry is live. */
export async function adProviderExists(db: Queryable, id: string): Promise<boolean> {
  return (await db.query('SELECT 1 FROM ad_providers WHERE id = $1 AND deleted_at IS NULL', [id])).rows.length > 0;
}

const providerValues = (p: AccountProviderInput) => [p.adProviderId, p.name, p.kind, p.installPostbackUrl, p.eventPostbackUrl, p.postbackMethod, p.active];

/** Sets the provider's members to exactly `memberIds` (a user moves from any other provider of theirs). */
export async function setMembers(db: Queryable, providerId: string, memberIds: readonly string[]): Promise<void> {
  await db.query('DELETE FROM provider_members WHERE account_provider_id = $1 AND NOT (user_id = ANY($2::uuid[]))', [providerId, memberIds]);
  if (memberIds.length === 0) return;
  await db.query('DELETE FROM provider_members WHERE user_id = ANY($2::uuid[]) AND account_provider_id <> $1', [providerId, memberIds]);
  await db.query(
    'INSERT INTO provider_members (account_provider_id, user_id) SELECT $1, u FROM unnest($2::uuid[]) AS u ON CONFLICT DO NOTHING',
    [providerId, memberIds],
  );
}

export async function insertAccountProvider(db: Queryable, accountId: string, userId: string, p: AccountProviderInput): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO account_providers (account_id, ad_provider_id, name, kind, install_postback_url, event_postback_url, postback_method, active, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
    [accountId, ...providerValues(p), userId],
  );
  return single(rows).id;
}

export async function updateAccountProvider(db: Queryable, accountId: string, id: string, p: AccountProviderInput): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE account_providers SET ad_provider_id = $3, name = $4, kind = $5, install_postback_url = $6, event_postback_url = $7,
        postback_method = $8, active = $9 WHERE account_id = $1 AND id = $2 AND deleted_at IS NULL`,
    [accountId, id, ...providerValues(p)],
  );
  return (rowCount ?? 0) > 0;
}

/**
 * Deletes an account provider: false when there is none, 'active_urls' when its campaigns have
 * active links (20003). Its sources stay, without a provider; its members are released.
 */
export async function deleteAccountProvider(db: Queryable, accountId: string, id: string): Promise<boolean | 'active_urls'> {
  const found = (await db.query<{ active_links: number }>(
    `SELECT ${PROVIDER_LINKS} AS active_links FROM account_providers ap WHERE ap.account_id = $1 AND ap.id = $2 AND ap.deleted_at IS NULL FOR UPDATE`,
    [accountId, id],
  )).rows[0];
  if (!found) return false;
  if (found.active_links > 0) return 'active_urls';
  await db.query('UPDATE account_providers SET deleted_at = now(), active = false WHERE account_id = $1 AND id = $2', [accountId, id]);
  await db.query('UPDATE acq_sources SET account_provider_id = NULL WHERE account_provider_id = $1', [id]);
  await db.query('DELETE FROM provider_members WHERE account_provider_id = $1', [id]);
  return true;
}

// ---- The ad provider catalogue ----

interface AdProviderRow {
  id: string; kind: AdProvider['kind']; name: string; website: string | null; install_postback_url: string | null;
  event_postback_url: string | null; accounts: number; created_at: Date;
}
const toAdProvider = (r: AdProviderRow): AdProvider => ({
  id: r.id, kind: r.kind, name: r.name, website: r.website, installPostbackUrl: r.install_postback_url,
  eventPostbackUrl: r.event_postback_url, accounts: r.accounts, createdAt: iso(r.created_at),
});
const AD_PROVIDER_SELECT = `SELECT p.id, p.kind, p.name, p.website, p.install_postback_url, p.event_postback_url, p.created_at,
    (SELECT count(*) FROM account_providers ap WHERE ap.ad_provider_id = p.id AND ap.deleted_at IS NULL)::int AS accounts
  FROM ad_providers p`;

export async function listAdProviders(db: Queryable): Promise<AdProvider[]> {
  const { rows } = await db.query<AdProviderRow>(`${AD_PROVIDER_SELECT} WHERE p.deleted_at IS NULL ORDER BY p.kind, lower(p.name)`);
  return rows.map(toAdProvider);
}

export async function findAdProvider(db: Queryable, id: string): Promise<AdProvider | undefined> {
  const { rows } = await db.query<AdProviderRow>(`${AD_PROVIDER_SELECT} WHERE p.id = $1 AND p.deleted_at IS NULL`, [id]);
  return rows[0] && toAdProvider(rows[0]);
}

const adProviderValues = (p: AdProviderInput) => [p.kind, p.name, p.website, p.installPostbackUrl, p.eventPostbackUrl];

export async function insertAdProvider(db: Queryable, p: AdProviderInput): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    'INSERT INTO ad_providers (kind, name, website, install_postback_url, event_postback_url) VALUES ($1, $2, $3, $4, $5) RETURNING id',
    adProviderValues(p),
  );
  return single(rows).id;
}

export async function updateAdProvider(db: Queryable, id: string, p: AdProviderInput): Promise<boolean> {
  const { rowCount } = await db.query(
    'UPDATE ad_providers SET kind = $2, name = $3, website = $4, install_postback_url = $5, event_postback_url = $6 WHERE id = $1 AND deleted_at IS NULL',
    [id, ...adProviderValues(p)],
  );
  return (rowCount ?? 0) > 0;
}

/**
 * Deletes a catalogue entry: false when there is none, 'active_urls' when an account provider
 * connected from it has campaigns with active links (20003). Account providers keep their settings.
 */
export async function deleteAdProvider(db: Queryable, id: string): Promise<boolean | 'active_urls'> {
  const { rows } = await db.query<{ active: boolean }>(
    `SELECT EXISTS (
        SELECT 1 FROM account_providers ap
          JOIN acq_sources s ON s.account_provider_id = ap.id AND s.deleted_at IS NULL
          JOIN acq_campaigns c ON c.app_id = s.app_id AND c.source_id = s.id AND c.deleted_at IS NULL
          JOIN acq_links l ON l.app_id = c.app_id AND l.campaign_id = c.id AND l.active AND l.deleted_at IS NULL
         WHERE ap.ad_provider_id = p.id AND ap.deleted_at IS NULL) AS active
       FROM ad_providers p WHERE p.id = $1 AND p.deleted_at IS NULL FOR UPDATE`,
    [id],
  );
  if (!rows[0]) return false;
  if (rows[0].active) return 'active_urls';
  await db.query('UPDATE ad_providers SET deleted_at = now() WHERE id = $1', [id]);
  return true;
}
