/**
 * SQL of the skudo marketplace (migration 053). Every query is scoped by the account as well as
 * by the row id; rows are mapped to the shared records here. The deletion guards lock what they
 * count (the row, and the offers whose URLs count) so a URL activated or created meanwhile waits
 * for the decision instead of slipping past it.
 */
import {
  trackingLive, type SkudoCampaignStatus, type SkudoOfferStatus, type SkudoPartnerStatus, type SkudoPayoutModel, type SkudoCodeChannel,
} from '@gd/shared/skudo/model';
import type {
  SkudoCampaign, SkudoCampaignInput, SkudoOffer, SkudoOfferInput, SkudoPartner, SkudoPartnerMe, SkudoPartnerOffer, SkudoProvider,
  SkudoProviderInput, SkudoTrackingUrl,
} from '@gd/shared/schemas/skudo';
import { single, type Queryable } from '../../db/pool.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : null);
/** Today as YYYY-MM-DD in UTC (campaign days are compared in UTC). */
export const utcDay = (now = new Date()) => now.toISOString().slice(0, 10);

// ---------------------------------------------------------------------------------------------
// Providers

interface ProviderRow { id: string; name: string; website: string | null; contact_email: string | null; offers: number; active_urls: number; created_at: Date }
const PROVIDER_SELECT = `SELECT p.id, p.name, p.website, p.contact_email, p.created_at,
  (SELECT count(*) FROM skudo_offers o WHERE o.provider_id = p.id)::int AS offers,
  (SELECT count(*) FROM skudo_tracking_urls u JOIN skudo_offers o ON o.id = u.offer_id WHERE o.provider_id = p.id AND u.active)::int AS active_urls
  FROM skudo_providers p`;
const toProvider = (r: ProviderRow): SkudoProvider => ({
  id: r.id, name: r.name, website: r.website, contactEmail: r.contact_email, offers: r.offers, activeUrls: r.active_urls, createdAt: r.created_at.toISOString(),
});

export async function listProviders(db: Queryable, accountId: string): Promise<SkudoProvider[]> {
  const { rows } = await db.query<ProviderRow>(`${PROVIDER_SELECT} WHERE p.account_id = $1 ORDER BY lower(p.name), p.id`, [accountId]);
  return rows.map(toProvider);
}

export async function findProvider(db: Queryable, accountId: string, id: string): Promise<SkudoProvider | undefined> {
  const { rows } = await db.query<ProviderRow>(`${PROVIDER_SELECT} WHERE p.account_id = $1 AND p.id = $2`, [accountId, id]);
  return rows[0] && toProvider(rows[0]);
}

export async function insertProvider(db: Queryable, accountId: string, userId: string, p: SkudoProviderInput): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    'INSERT INTO skudo_providers (account_id, name, website, contact_email, created_by) VALUES ($1, $2, $3, $4, $5) RETURNING id',
    [accountId, p.name, p.website, p.contactEmail, userId]);
  return single(rows).id;
}

export async function updateProvider(db: Queryable, accountId: string, id: string, p: SkudoProviderInput): Promise<boolean> {
  const { rowCount } = await db.query(
    'UPDATE skudo_providers SET name = $3, website = $4, contact_email = $5, updated_at = now() WHERE account_id = $1 AND id = $2',
    [accountId, id, p.name, p.website, p.contactEmail]);
  return (rowCount ?? 0) > 0;
}

/** Locks the provider and its offers; answers the active URLs of those offers, or undefined when there is no such provider. */
export async function lockProvider(db: Queryable, accountId: string, id: string): Promise<{ activeUrls: number } | undefined> {
  const { rowCount } = await db.query('SELECT 1 FROM skudo_providers WHERE account_id = $1 AND id = $2 FOR UPDATE', [accountId, id]);
  if (!rowCount) return undefined;
  await db.query('SELECT 1 FROM skudo_offers WHERE account_id = $1 AND provider_id = $2 FOR UPDATE', [accountId, id]);
  const { rows } = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM skudo_tracking_urls u JOIN skudo_offers o ON o.id = u.offer_id WHERE o.account_id = $1 AND o.provider_id = $2 AND u.active',
    [accountId, id]);
  return { activeUrls: rows[0]?.n ?? 0 };
}

export async function deleteProvider(db: Queryable, accountId: string, id: string): Promise<void> {
  await db.query('DELETE FROM skudo_providers WHERE account_id = $1 AND id = $2', [accountId, id]);
}

// ---------------------------------------------------------------------------------------------
// Campaigns

interface CampaignRow {
  id: string; name: string; description: string; starts_on: string; ends_on: string | null; status: SkudoCampaignStatus;
  offers: number; active_offers: number; clicks: string; created_at: Date;
}
const CAMPAIGN_SELECT = `SELECT c.id, c.name, c.description, c.starts_on::text AS starts_on, c.ends_on::text AS ends_on, c.status, c.created_at,
  (SELECT count(*) FROM skudo_offers o WHERE o.campaign_id = c.id)::int AS offers,
  (SELECT count(*) FROM skudo_offers o WHERE o.campaign_id = c.id AND o.status = 'active')::int AS active_offers,
  (SELECT coalesce(sum(u.clicks), 0) FROM skudo_tracking_urls u JOIN skudo_offers o ON o.id = u.offer_id WHERE o.campaign_id = c.id)::text AS clicks
  FROM skudo_campaigns c`;
const toCampaign = (r: CampaignRow): SkudoCampaign => ({
  id: r.id, name: r.name, description: r.description, startsOn: r.starts_on, endsOn: r.ends_on, status: r.status,
  offers: r.offers, activeOffers: r.active_offers, clicks: Number(r.clicks), createdAt: r.created_at.toISOString(),
});

export async function listCampaigns(db: Queryable, accountId: string): Promise<SkudoCampaign[]> {
  const { rows } = await db.query<CampaignRow>(`${CAMPAIGN_SELECT} WHERE c.account_id = $1 ORDER BY c.starts_on DESC, lower(c.name), c.id`, [accountId]);
  return rows.map(toCampaign);
}

export async function findCampaign(db: Queryable, accountId: string, id: string): Promise<SkudoCampaign | undefined> {
  const { rows } = await db.query<CampaignRow>(`${CAMPAIGN_SELECT} WHERE c.account_id = $1 AND c.id = $2`, [accountId, id]);
  return rows[0] && toCampaign(rows[0]);
}

export async function insertCampaign(db: Queryable, accountId: string, userId: string, c: SkudoCampaignInput): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    'INSERT INTO skudo_campaigns (account_id, name, description, starts_on, ends_on, status, created_by) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id',
    [accountId, c.name, c.description, c.startsOn, c.endsOn, c.status, userId]);
  return single(rows).id;
}

export async function updateCampaign(db: Queryable, accountId: string, id: string, c: SkudoCampaignInput): Promise<boolean> {
  const { rowCount } = await db.query(
    'UPDATE skudo_campaigns SET name = $3, description = $4, starts_on = $5, ends_on = $6, status = $7, updated_at = now() WHERE account_id = $1 AND id = $2',
    [accountId, id, c.name, c.description, c.startsOn, c.endsOn, c.status]);
  return (rowCount ?? 0) > 0;
}

/** Locks the campaign; answers its active offers, or undefined when there is no such campaign. */
export async function lockCampaign(db: Queryable, accountId: string, id: string): Promise<{ activeOffers: number } | undefined> {
  const { rowCount } = await db.query('SELECT 1 FROM skudo_campaigns WHERE account_id = $1 AND id = $2 FOR UPDATE', [accountId, id]);
  if (!rowCount) return undefined;
  const { rows } = await db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM skudo_offers WHERE account_id = $1 AND campaign_id = $2 AND status = 'active'", [accountId, id]);
  return { activeOffers: rows[0]?.n ?? 0 };
}

export async function deleteCampaign(db: Queryable, accountId: string, id: string): Promise<void> {
  await db.query('DELETE FROM skudo_campaigns WHERE account_id = $1 AND id = $2', [accountId, id]);
}

/** Whether the account has this campaign; with `share`, locked against its deletion until the transaction ends. */
export async function campaignExists(db: Queryable, accountId: string, id: string, share = false): Promise<boolean> {
  const { rowCount } = await db.query(`SELECT 1 FROM skudo_campaigns WHERE account_id = $1 AND id = $2${share ? ' FOR SHARE' : ''}`, [accountId, id]);
  return (rowCount ?? 0) > 0;
}

export async function providerExists(db: Queryable, accountId: string, id: string): Promise<boolean> {
  const { rowCount } = await db.query('SELECT 1 FROM skudo_providers WHERE account_id = $1 AND id = $2 FOR SHARE', [accountId, id]);
  return (rowCount ?? 0) > 0;
}

// ---------------------------------------------------------------------------------------------
// Offers and tracking URLs

interface OfferRow {
  id: string; provider_id: string; provider_name: string; campaign_id: string | null; campaign_name: string | null;
  campaign_status: SkudoCampaignStatus | null; starts_on: string | null; ends_on: string | null;
  title: string; description: string; image_url: string | null; payout_model: SkudoPayoutModel; payout_amount: string; currency: string;
  destination_url: string; status: SkudoOfferStatus; created_at: Date; updated_at: Date;
}
const OFFER_SELECT = `SELECT o.id, o.provider_id, p.name AS provider_name, o.campaign_id, c.name AS campaign_name, c.status AS campaign_status,
  c.starts_on::text AS starts_on, c.ends_on::text AS ends_on, o.title, o.description, o.image_url, o.payout_model, o.payout_amount::text AS payout_amount,
  o.currency, o.destination_url, o.status, o.created_at, o.updated_at
  FROM skudo_offers o JOIN skudo_providers p ON p.id = o.provider_id LEFT JOIN skudo_campaigns c ON c.id = o.campaign_id`;

interface UrlRow {
  id: string; offer_id: string; partner_id: string | null; partner_name: string | null; partner_status: SkudoPartnerStatus | null;
  label: string; code: string; active: boolean; clicks: string; last_click_at: Date | null; created_at: Date;
}
const URL_SELECT = `SELECT u.id, u.offer_id, u.partner_id, pa.name AS partner_name, pa.status AS partner_status, u.label, u.code, u.active,
  u.clicks::text AS clicks, u.last_click_at, u.created_at
  FROM skudo_tracking_urls u LEFT JOIN skudo_partners pa ON pa.id = u.partner_id`;

const campaignOf = (o: OfferRow) => (o.campaign_status && o.starts_on ? { status: o.campaign_status, startsOn: o.starts_on, endsOn: o.ends_on } : null);
const urlLive = (o: OfferRow, u: UrlRow, today: string) =>
  trackingLive({ urlActive: u.active, offerStatus: o.status, partnerStatus: u.partner_status, campaign: campaignOf(o), today });

const toUrl = (base: string, o: OfferRow, u: UrlRow, today: string): SkudoTrackingUrl => ({
  id: u.id, offerId: u.offer_id, partnerId: u.partner_id, partnerName: u.partner_name, label: u.label, code: u.code, url: `${base}/${u.code}`,
  active: u.active, live: urlLive(o, u, today), clicks: Number(u.clicks), lastClickAt: iso(u.last_click_at), createdAt: u.created_at.toISOString(),
});

function toOffer(base: string, o: OfferRow, urls: UrlRow[], today: string): SkudoOffer {
  const mine = urls.filter((u) => u.offer_id === o.id).map((u) => toUrl(base, o, u, today));
  return {
    id: o.id, providerId: o.provider_id, providerName: o.provider_name, campaignId: o.campaign_id, campaignName: o.campaign_name,
    title: o.title, description: o.description, imageUrl: o.image_url, payoutModel: o.payout_model, payoutAmount: Number(o.payout_amount),
    currency: o.currency, destinationUrl: o.destination_url, status: o.status, urls: mine, clicks: mine.reduce((n, u) => n + u.clicks, 0),
    createdAt: o.created_at.toISOString(), updatedAt: o.updated_at.toISOString(),
  };
}

/** The account's offers (or one), each with its tracking URLs; `base` is the tracking host's address (…/s). */
export async function listOffers(db: Queryable, accountId: string, base: string, only?: string): Promise<SkudoOffer[]> {
  const filter = only ? ' AND o.id = $2' : '';
  const args = only ? [accountId, only] : [accountId];
  const { rows: offers } = await db.query<OfferRow>(`${OFFER_SELECT} WHERE o.account_id = $1${filter} ORDER BY o.created_at DESC, o.id`, args);
  if (offers.length === 0) return [];
  const { rows: urls } = await db.query<UrlRow>(
    `${URL_SELECT} WHERE u.account_id = $1${only ? ' AND u.offer_id = $2' : ''} ORDER BY u.created_at, u.id`, args);
  const today = utcDay();
  return offers.map((o) => toOffer(base, o, urls, today));
}

export async function findOffer(db: Queryable, accountId: string, base: string, id: string): Promise<SkudoOffer | undefined> {
  return (await listOffers(db, accountId, base, id))[0];
}

export async function insertOffer(db: Queryable, accountId: string, userId: string, o: SkudoOfferInput): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO skudo_offers (account_id, provider_id, campaign_id, title, description, image_url, payout_model, payout_amount, currency, destination_url, status, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id`,
    [accountId, o.providerId, o.campaignId, o.title, o.description, o.imageUrl, o.payoutModel, o.payoutAmount, o.currency, o.destinationUrl, o.status, userId]);
  return single(rows).id;
}

export async function updateOffer(db: Queryable, accountId: string, id: string, o: SkudoOfferInput): Promise<void> {
  await db.query(
    `UPDATE skudo_offers SET provider_id = $3, campaign_id = $4, title = $5, description = $6, image_url = $7, payout_model = $8, payout_amount = $9,
            currency = $10, destination_url = $11, status = $12, updated_at = now()
      WHERE account_id = $1 AND id = $2`,
    [accountId, id, o.providerId, o.campaignId, o.title, o.description, o.imageUrl, o.payoutModel, o.payoutAmount, o.currency, o.destinationUrl, o.status]);
}

/**
 * Locks the offer (FOR UPDATE to delete it, FOR SHARE to add or activate one of its URLs) and
 * answers its active URLs, or undefined when the account has no such offer.
 */
export async function lockOffer(db: Queryable, accountId: string, id: string, mode: 'UPDATE' | 'SHARE'): Promise<{ activeUrls: number } | undefined> {
  const { rowCount } = await db.query(`SELECT 1 FROM skudo_offers WHERE account_id = $1 AND id = $2 FOR ${mode}`, [accountId, id]);
  if (!rowCount) return undefined;
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM skudo_tracking_urls WHERE account_id = $1 AND offer_id = $2 AND active', [accountId, id]);
  return { activeUrls: rows[0]?.n ?? 0 };
}

export async function deleteOffer(db: Queryable, accountId: string, id: string): Promise<void> {
  await db.query('DELETE FROM skudo_offers WHERE account_id = $1 AND id = $2', [accountId, id]);
}

export async function insertTrackingUrl(db: Queryable, input: { accountId: string; offerId: string; partnerId: string | null; label: string; code: string; userId: string }): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    'INSERT INTO skudo_tracking_urls (account_id, offer_id, partner_id, label, code, created_by) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id',
    [input.accountId, input.offerId, input.partnerId, input.label, input.code, input.userId]);
  return single(rows).id;
}

/** The offer a tracking URL of the account belongs to (undefined: no such URL). */
export async function urlOffer(db: Queryable, accountId: string, id: string): Promise<string | undefined> {
  const { rows } = await db.query<{ offer_id: string }>('SELECT offer_id FROM skudo_tracking_urls WHERE account_id = $1 AND id = $2', [accountId, id]);
  return rows[0]?.offer_id;
}

export async function updateTrackingUrl(db: Queryable, accountId: string, id: string, label: string, active: boolean): Promise<void> {
  await db.query('UPDATE skudo_tracking_urls SET label = $3, active = $4, updated_at = now() WHERE account_id = $1 AND id = $2', [accountId, id, label, active]);
}

export async function deleteTrackingUrl(db: Queryable, accountId: string, id: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM skudo_tracking_urls WHERE account_id = $1 AND id = $2', [accountId, id]);
  return (rowCount ?? 0) > 0;
}

// ---------------------------------------------------------------------------------------------
// Partners

interface PartnerRow {
  id: string; name: string; email: string; status: SkudoPartnerStatus; last_sign_in_at: Date | null; urls: number; active_urls: number; clicks: string; created_at: Date;
}
const PARTNER_SELECT = `SELECT p.id, p.name, p.email, p.status, p.last_sign_in_at, p.created_at,
  (SELECT count(*) FROM skudo_tracking_urls u WHERE u.partner_id = p.id)::int AS urls,
  (SELECT count(*) FROM skudo_tracking_urls u WHERE u.partner_id = p.id AND u.active)::int AS active_urls,
  (SELECT coalesce(sum(u.clicks), 0) FROM skudo_tracking_urls u WHERE u.partner_id = p.id)::text AS clicks
  FROM skudo_partners p`;
const toPartner = (r: PartnerRow): SkudoPartner => ({
  id: r.id, name: r.name, email: r.email, status: r.status, lastSignInAt: iso(r.last_sign_in_at), urls: r.urls, activeUrls: r.active_urls,
  clicks: Number(r.clicks), createdAt: r.created_at.toISOString(),
});

export async function listPartners(db: Queryable, accountId: string): Promise<SkudoPartner[]> {
  const { rows } = await db.query<PartnerRow>(`${PARTNER_SELECT} WHERE p.account_id = $1 ORDER BY lower(p.name), p.id`, [accountId]);
  return rows.map(toPartner);
}

export async function findPartner(db: Queryable, accountId: string, id: string): Promise<SkudoPartner | undefined> {
  const { rows } = await db.query<PartnerRow>(`${PARTNER_SELECT} WHERE p.account_id = $1 AND p.id = $2`, [accountId, id]);
  return rows[0] && toPartner(rows[0]);
}

export async function insertPartner(db: Queryable, accountId: string, userId: string, p: { name: string; email: string }): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    'INSERT INTO skudo_partners (account_id, name, email, created_by) VALUES ($1, $2, $3, $4) RETURNING id', [accountId, p.name, p.email, userId]);
  return single(rows).id;
}

/** Changes a partner; answers its previous status (undefined: no such partner). */
export async function updatePartner(db: Queryable, accountId: string, id: string, p: { name: string; email: string; status: SkudoPartnerStatus }): Promise<SkudoPartnerStatus | undefined> {
  const { rows } = await db.query<{ status: SkudoPartnerStatus }>(
    `UPDATE skudo_partners n SET name = $3, email = $4, status = $5, updated_at = now()
       FROM (SELECT id, status FROM skudo_partners WHERE account_id = $1 AND id = $2 FOR UPDATE) o
      WHERE n.id = o.id RETURNING o.status`,
    [accountId, id, p.name, p.email, p.status]);
  return rows[0]?.status;
}

/** Ends every session of a partner and voids their unused codes. */
export async function endPartnerAccess(db: Queryable, accountId: string, partnerId: string): Promise<void> {
  await db.query('UPDATE skudo_partner_sessions SET revoked_at = now() WHERE account_id = $1 AND partner_id = $2 AND revoked_at IS NULL', [accountId, partnerId]);
  await db.query('UPDATE skudo_auth_codes SET used_at = now() WHERE account_id = $1 AND partner_id = $2 AND used_at IS NULL', [accountId, partnerId]);
}

/** Deletes a partner: their URLs are deactivated and kept under the partner's name (sessions and codes go with the row). */
export async function deletePartner(db: Queryable, accountId: string, id: string): Promise<boolean> {
  const { rows } = await db.query<{ name: string }>('SELECT name FROM skudo_partners WHERE account_id = $1 AND id = $2 FOR UPDATE', [accountId, id]);
  const partner = rows[0];
  if (!partner) return false;
  await db.query(
    `UPDATE skudo_tracking_urls SET active = false, label = CASE WHEN label = '' THEN $3 ELSE label END, updated_at = now()
      WHERE account_id = $1 AND partner_id = $2`, [accountId, id, partner.name]);
  await db.query('DELETE FROM skudo_partners WHERE account_id = $1 AND id = $2', [accountId, id]);
  return true;
}

/** The partner of the account, for a code or an invitation (undefined: none). */
export async function partnerContact(db: Queryable, accountId: string, id: string): Promise<{ name: string; email: string; status: SkudoPartnerStatus; accountName: string } | undefined> {
  const { rows } = await db.query<{ name: string; email: string; status: SkudoPartnerStatus; account_name: string }>(
    'SELECT p.name, p.email, p.status, a.name AS account_name FROM skudo_partners p JOIN accounts a ON a.id = p.account_id WHERE p.account_id = $1 AND p.id = $2 FOR UPDATE OF p',
    [accountId, id]);
  const r = rows[0];
  return r && { name: r.name, email: r.email, status: r.status, accountName: r.account_name };
}

// ---------------------------------------------------------------------------------------------
// Codes and partner sessions

/** Stores a new code for a partner, voiding their earlier unused ones. */
export async function insertCode(db: Queryable, input: { accountId: string; partnerId: string; codeHash: Buffer; channel: SkudoCodeChannel; ttlSeconds: number; userId: string }): Promise<Date> {
  await db.query('UPDATE skudo_auth_codes SET used_at = now() WHERE account_id = $1 AND partner_id = $2 AND used_at IS NULL', [input.accountId, input.partnerId]);
  const { rows } = await db.query<{ expires_at: Date }>(
    `INSERT INTO skudo_auth_codes (account_id, partner_id, code_hash, channel, created_by, expires_at)
     VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6)) RETURNING expires_at`,
    [input.accountId, input.partnerId, input.codeHash, input.channel, input.userId, input.ttlSeconds]);
  return single(rows).expires_at;
}

export interface CodeRow { id: string; account_id: string; partner_id: string; used_at: Date | null; expires_at: Date; partner_status: SkudoPartnerStatus }
/** The code with this hash, locked (undefined: none). */
export async function lockCode(db: Queryable, codeHash: Buffer): Promise<CodeRow | undefined> {
  const { rows } = await db.query<CodeRow>(
    `SELECT c.id, c.account_id, c.partner_id, c.used_at, c.expires_at, p.status AS partner_status
       FROM skudo_auth_codes c JOIN skudo_partners p ON p.id = c.partner_id WHERE c.code_hash = $1 FOR UPDATE OF c`, [codeHash]);
  return rows[0];
}

export async function useCode(db: Queryable, id: string): Promise<void> {
  await db.query('UPDATE skudo_auth_codes SET used_at = now() WHERE id = $1', [id]);
}

export async function insertSession(db: Queryable, input: { accountId: string; partnerId: string; tokenHash: Buffer; ttlSeconds: number }): Promise<void> {
  await db.query(
    `INSERT INTO skudo_partner_sessions (account_id, partner_id, token_hash, expires_at) VALUES ($1, $2, $3, now() + make_interval(secs => $4))`,
    [input.accountId, input.partnerId, input.tokenHash, input.ttlSeconds]);
  await db.query('UPDATE skudo_partners SET last_sign_in_at = now() WHERE account_id = $1 AND id = $2', [input.accountId, input.partnerId]);
}

export async function revokeSession(db: Queryable, tokenHash: Buffer): Promise<void> {
  await db.query('UPDATE skudo_partner_sessions SET revoked_at = now() WHERE token_hash = $1 AND revoked_at IS NULL', [tokenHash]);
}

export interface PartnerSession { accountId: string; partnerId: string; me: SkudoPartnerMe }
/** The partner of a live session (not revoked, not expired, partner active), or undefined. */
export async function sessionPartner(db: Queryable, tokenHash: Buffer): Promise<PartnerSession | undefined> {
  const { rows } = await db.query<{ account_id: string; partner_id: string; name: string; email: string; account_name: string }>(
    `SELECT s.account_id, s.partner_id, p.name, p.email, a.name AS account_name
       FROM skudo_partner_sessions s
       JOIN skudo_partners p ON p.id = s.partner_id AND p.account_id = s.account_id AND p.status = 'active'
       JOIN accounts a ON a.id = s.account_id
      WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND s.expires_at > now()`, [tokenHash]);
  const r = rows[0];
  return r && { accountId: r.account_id, partnerId: r.partner_id, me: { name: r.name, email: r.email, accountName: r.account_name } };
}

/** The partner's own tracking URLs and the offers they lead to (drafts left out). */
export async function partnerOffers(db: Queryable, session: PartnerSession, base: string): Promise<SkudoPartnerOffer[]> {
  const { rows: offers } = await db.query<OfferRow>(
    `${OFFER_SELECT} WHERE o.account_id = $1 AND o.status <> 'draft'
       AND EXISTS (SELECT 1 FROM skudo_tracking_urls u WHERE u.offer_id = o.id AND u.partner_id = $2)
     ORDER BY o.created_at DESC, o.id`, [session.accountId, session.partnerId]);
  if (offers.length === 0) return [];
  const { rows: urls } = await db.query<UrlRow>(`${URL_SELECT} WHERE u.account_id = $1 AND u.partner_id = $2 ORDER BY u.created_at, u.id`, [session.accountId, session.partnerId]);
  const today = utcDay();
  return offers.map((o) => ({
    id: o.id, title: o.title, description: o.description, imageUrl: o.image_url, providerName: o.provider_name, campaignName: o.campaign_name,
    payoutModel: o.payout_model, payoutAmount: Number(o.payout_amount), currency: o.currency, destinationUrl: o.destination_url, status: o.status,
    urls: urls.filter((u) => u.offer_id === o.id).map((u) => ({
      id: u.id, label: u.label, url: `${base}/${u.code}`, active: u.active, live: urlLive(o, u, today), clicks: Number(u.clicks), lastClickAt: iso(u.last_click_at),
    })),
  }));
}

// ---------------------------------------------------------------------------------------------
// The tracking host

export interface HostUrl {
  id: string; accountId: string; destination: string; live: boolean;
}
/** The tracking URL of a code, with whether it redirects today (undefined: no such code). */
export async function hostUrl(db: Queryable, code: string, today: string): Promise<HostUrl | undefined> {
  const { rows } = await db.query<{
    id: string; account_id: string; active: boolean; partner_status: SkudoPartnerStatus | null; offer_status: SkudoOfferStatus; destination_url: string;
    campaign_status: SkudoCampaignStatus | null; starts_on: string | null; ends_on: string | null;
  }>(
    `SELECT u.id, u.account_id, u.active, pa.status AS partner_status, o.status AS offer_status, o.destination_url,
            c.status AS campaign_status, c.starts_on::text AS starts_on, c.ends_on::text AS ends_on
       FROM skudo_tracking_urls u JOIN skudo_offers o ON o.id = u.offer_id
       LEFT JOIN skudo_campaigns c ON c.id = o.campaign_id LEFT JOIN skudo_partners pa ON pa.id = u.partner_id
      WHERE u.code = $1`, [code]);
  const r = rows[0];
  if (!r) return undefined;
  const campaign = r.campaign_status && r.starts_on ? { status: r.campaign_status, startsOn: r.starts_on, endsOn: r.ends_on } : null;
  return {
    id: r.id, accountId: r.account_id, destination: r.destination_url,
    live: trackingLive({ urlActive: r.active, offerStatus: r.offer_status, partnerStatus: r.partner_status, campaign, today }),
  };
}

/** Stores a click and, unless a bot's, counts it on its URL: one statement. */
export async function recordClick(db: Queryable, click: { id: string; accountId: string; urlId: string; at: Date; ip: string | null; userAgent: string | null; referrer: string | null; bot: boolean }): Promise<void> {
  await db.query(
    `WITH c AS (INSERT INTO skudo_clicks (id, account_id, url_id, clicked_at, ip, user_agent, referrer, bot) VALUES ($1, $2, $3, $4, $5, $6, $7, $8))
     UPDATE skudo_tracking_urls SET clicks = clicks + 1, last_click_at = greatest(last_click_at, $4) WHERE id = $3 AND NOT $8`,
    [click.id, click.accountId, click.urlId, click.at, click.ip, click.userAgent, click.referrer, click.bot]);
}
