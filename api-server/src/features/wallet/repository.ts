/**
 * The wallet's SQL (migration 052): designs and passes of an app, the approved coupon messages
 * passes are issued from, and the pass's redemptions in message_redemptions (migration 021).
 * Every query is scoped by the app (or, on the public host, found by the pass's token alone).
 */
import { PassDesign, type PassKind } from '@gd/shared/wallet/model';
import type { PassStatus, WalletCouponMessage, WalletDesign } from '@gd/shared/schemas/wallet';
import type { Queryable } from '../../db/pool.ts';

// ---------------------------------------------------------------------------------------------
// Designs.

interface DesignRow { id: string; name: string; kind: PassKind; design: unknown; passes: number; updated_at: Date }
const designOf = (r: DesignRow): WalletDesign => ({ id: r.id, name: r.name, kind: r.kind, design: PassDesign.parse(r.design), passes: r.passes, updatedAt: r.updated_at.toISOString() });
const DESIGN_COLUMNS = `d.id, d.name, d.kind, d.design, d.updated_at, (SELECT count(*)::int FROM wallet_passes p WHERE p.design_id = d.id) AS passes`;

export async function listDesigns(db: Queryable, appId: string): Promise<WalletDesign[]> {
  const { rows } = await db.query<DesignRow>(`SELECT ${DESIGN_COLUMNS} FROM wallet_designs d WHERE d.app_id = $1 ORDER BY lower(d.name), d.id`, [appId]);
  return rows.map(designOf);
}

export async function findDesign(db: Queryable, appId: string, id: string): Promise<WalletDesign | undefined> {
  const { rows } = await db.query<DesignRow>(`SELECT ${DESIGN_COLUMNS} FROM wallet_designs d WHERE d.app_id = $1 AND d.id = $2`, [appId, id]);
  return rows[0] && designOf(rows[0]);
}

export async function insertDesign(db: Queryable, d: { accountId: string; appId: string; userId: string | null; name: string; kind: PassKind; design: PassDesign }): Promise<WalletDesign> {
  const { rows } = await db.query<DesignRow>(
    `INSERT INTO wallet_designs (account_id, app_id, name, kind, design, created_by) VALUES ($1, $2, $3, $4, $5, $6)
     RETURNING id, name, kind, design, updated_at, 0 AS passes`,
    [d.accountId, d.appId, d.name, d.kind, JSON.stringify(d.design), d.userId]);
  const row = rows[0];
  if (!row) throw new Error('the design was not inserted');
  return designOf(row);
}

export async function updateDesign(db: Queryable, appId: string, id: string, d: { name: string; kind: PassKind; design: PassDesign }): Promise<WalletDesign | undefined> {
  const { rowCount } = await db.query(
    'UPDATE wallet_designs SET name = $3, kind = $4, design = $5, updated_at = clock_timestamp() WHERE app_id = $1 AND id = $2',
    [appId, id, d.name, d.kind, JSON.stringify(d.design)]);
  return rowCount ? findDesign(db, appId, id) : undefined;
}

export async function deleteDesign(db: Queryable, appId: string, id: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM wallet_designs WHERE app_id = $1 AND id = $2', [appId, id]);
  return (rowCount ?? 0) > 0;
}

// ---------------------------------------------------------------------------------------------
// Coupon messages and people.

interface VersionRow { id: string; name: string; definition: { defaultLanguage?: string; variants?: { id?: string; content?: Record<string, { promo_code?: string; max_redeems?: number | null; type?: string }> }[] } }

/** The coupon content of an approved version: its first variant in the default language (or its first language). */
function couponOf(r: VersionRow): (WalletCouponMessage & { variantId: string }) | null {
  const variant = r.definition.variants?.[0];
  const byLanguage = variant?.content ?? {};
  const content = byLanguage[r.definition.defaultLanguage ?? ''] ?? Object.values(byLanguage)[0];
  if (!variant?.id || !content?.promo_code) return null;
  return { id: r.id, name: r.name, promoCode: content.promo_code, maxRedeems: content.max_redeems ? content.max_redeems : null, variantId: variant.id };
}

const APPROVED_COUPONS = `SELECT m.id, m.name, v.definition FROM messages m JOIN message_versions v ON v.message_id = m.id AND v.version = m.approved_version
   WHERE m.app_id = $1 AND m.type = 'coupon' AND m.deleted_at IS NULL`;

export async function couponMessages(db: Queryable, appId: string): Promise<WalletCouponMessage[]> {
  const { rows } = await db.query<VersionRow>(`${APPROVED_COUPONS} ORDER BY lower(m.name), m.id LIMIT 500`, [appId]);
  return rows.map(couponOf).filter((c) => c !== null).map(({ variantId: _v, ...c }) => c);
}

export async function couponMessage(db: Queryable, appId: string, messageId: string): Promise<(WalletCouponMessage & { variantId: string }) | null> {
  const { rows } = await db.query<VersionRow>(`${APPROVED_COUPONS} AND m.id = $2`, [appId, messageId]);
  return rows[0] ? couponOf(rows[0]) : null;
}

/** The person (the one an anonymous id was merged into), or undefined when the app has none of that id. */
export async function personOf(db: Queryable, appId: string, personId: string): Promise<{ id: string; customerId: string | null } | undefined> {
  const { rows } = await db.query<{ id: string; customer_id: string | null }>(
    `SELECT p.id::text, p.customer_id FROM people p
      WHERE p.app_id = $1 AND p.id = (SELECT coalesce(q.merged_into, q.id) FROM people q WHERE q.app_id = $1 AND q.id = $2::bigint)`,
    [appId, personId]);
  return rows[0] && { id: rows[0].id, customerId: rows[0].customer_id };
}

// ---------------------------------------------------------------------------------------------
// Passes.

export interface PassRow {
  id: string; account_id: string; app_id: string; design_id: string; design_name: string; kind: PassKind; design: unknown; status: PassStatus;
  person_id: string; customer_id: string | null; token: string; barcode: string; message_id: string | null; message_name: string | null;
  variant_id: string | null; promo_code: string | null; max_redeems: number | null; card_number: string | null; member_name: string | null;
  secret: Buffer | null; redeems: number; created_at: Date; updated_at: Date;
}

const PASS_SELECT = `SELECT p.id, p.account_id, p.app_id, p.design_id, d.name AS design_name, p.kind, d.design, p.status, p.person_id::text, pe.customer_id,
       p.token, p.barcode, p.message_id, m.name AS message_name, p.variant_id, p.promo_code, p.max_redeems, p.card_number, p.member_name, p.secret,
       (SELECT count(*)::int FROM message_redemptions r WHERE r.message_id = p.message_id AND r.person_id = p.person_id) AS redeems,
       p.created_at, p.updated_at
  FROM wallet_passes p JOIN wallet_designs d ON d.id = p.design_id
  LEFT JOIN people pe ON pe.app_id = p.app_id AND pe.id = p.person_id
  LEFT JOIN messages m ON m.id = p.message_id`;

export async function listPasses(db: Queryable, appId: string, designId: string | undefined): Promise<PassRow[]> {
  const { rows } = await db.query<PassRow>(
    `${PASS_SELECT} WHERE p.app_id = $1 AND ($2::uuid IS NULL OR p.design_id = $2) ORDER BY p.created_at DESC, p.id LIMIT 500`, [appId, designId ?? null]);
  return rows;
}

export async function findPass(db: Queryable, appId: string, id: string): Promise<PassRow | undefined> {
  return (await db.query<PassRow>(`${PASS_SELECT} WHERE p.app_id = $1 AND p.id = $2`, [appId, id])).rows[0];
}

export async function passByToken(db: Queryable, token: string): Promise<PassRow | undefined> {
  return (await db.query<PassRow>(`${PASS_SELECT} WHERE p.token = $1`, [token])).rows[0];
}

/** The active pass with this barcode, locked until the transaction ends (one redemption at a time per pass). */
export async function lockPassByBarcode(db: Queryable, appId: string, barcode: string): Promise<{ id: string } | undefined> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM wallet_passes WHERE app_id = $1 AND barcode = $2 ORDER BY (status = 'active') DESC, created_at DESC LIMIT 1 FOR UPDATE`, [appId, barcode]);
  return rows[0];
}

export interface NewPass {
  id: string; accountId: string; appId: string; designId: string; kind: PassKind; personId: string; token: string; barcode: string; userId: string | null;
  messageId?: string; variantId?: string; promoCode?: string; maxRedeems?: number | null; cardNumber?: string; memberName?: string; secret?: Buffer;
}

export async function insertPass(db: Queryable, p: NewPass): Promise<void> {
  await db.query(
    `INSERT INTO wallet_passes (id, account_id, app_id, design_id, kind, person_id, token, barcode, message_id, variant_id, promo_code, max_redeems, card_number, member_name, secret, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
    [p.id, p.accountId, p.appId, p.designId, p.kind, p.personId, p.token, p.barcode, p.messageId ?? null, p.variantId ?? null, p.promoCode ?? null,
      p.maxRedeems ?? null, p.cardNumber ?? null, p.memberName || null, p.secret ?? null, p.userId]);
}

export async function voidPass(db: Queryable, appId: string, id: string): Promise<boolean> {
  const { rowCount } = await db.query(`UPDATE wallet_passes SET status = 'voided', updated_at = clock_timestamp() WHERE app_id = $1 AND id = $2`, [appId, id]);
  return (rowCount ?? 0) > 0;
}

/** A redemption of the pass's coupon, through the record SDK redemptions use (redeems metric, coupon rules). */
export async function insertRedemption(db: Queryable, r: { appId: string; messageId: string; variantId: string | null; personId: string; promoCode: string; clientId: string; at: Date }): Promise<void> {
  await db.query(
    `INSERT INTO message_redemptions (app_id, message_id, variant_id, person_id, promo_code, client_id, at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [r.appId, r.messageId, r.variantId, r.personId, r.promoCode, r.clientId, r.at]);
}

export async function redeemCount(db: Queryable, messageId: string, personId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM message_redemptions WHERE message_id = $1 AND person_id = $2', [messageId, personId]);
  return rows[0]?.n ?? 0;
}
