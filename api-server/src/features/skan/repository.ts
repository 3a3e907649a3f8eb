/**
 * SQL of SKAdNetwork (migration 045): settings, mappings and the conversion-value schema of an
 * app, the postbacks received, and the grouped rows the figures are decoded from. Every query is
 * scoped by app_id.
 */
import { SkanConversionSchema, type SkanCoarse, type SkanFidelity, type SkanFigureRow, type SkanPostbackFacts, type SkanWindow } from '@gd/shared/acquisition/skan';
import type { SkanMapping, SkanRejectReason } from '@gd/shared/schemas/skan';
import type { DbClient, Queryable } from '../../db/pool.ts';

export interface StoredSettings {
  appStoreId: string | null;
  schema: SkanConversionSchema;
  updatedAt: string | null;
  mappings: (SkanMapping & { campaignName: string | null })[];
}

export async function readSettings(db: Queryable, appId: string): Promise<StoredSettings> {
  const [{ rows: settings }, { rows: mappings }] = await Promise.all([
    db.query<{ app_store_id: string | null; schema: unknown; updated_at: Date }>('SELECT app_store_id::text, schema, updated_at FROM skan_settings WHERE app_id = $1', [appId]),
    db.query<{ ad_network_id: string; source_identifier: string; campaign_id: string; name: string | null }>(
      `SELECT m.ad_network_id, m.source_identifier, m.campaign_id, c.name
         FROM skan_mappings m LEFT JOIN acq_campaigns c ON c.app_id = m.app_id AND c.id = m.campaign_id
        WHERE m.app_id = $1 ORDER BY m.ad_network_id, m.source_identifier`, [appId]),
  ]);
  const row = settings[0];
  const parsed = SkanConversionSchema.safeParse(row?.schema ?? {});
  return {
    appStoreId: row?.app_store_id ?? null,
    schema: parsed.success ? parsed.data : { currency: 'USD', fine: [], coarse: [] },
    updatedAt: row ? row.updated_at.toISOString() : null,
    mappings: mappings.map((m) => ({ adNetworkId: m.ad_network_id, sourceIdentifier: m.source_identifier, campaignId: m.campaign_id, campaignName: m.name })),
  };
}

/** The ids among `ids` that are live campaigns of the app. */
export async function liveCampaigns(db: Queryable, appId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const { rows } = await db.query<{ id: string }>('SELECT id FROM acq_campaigns WHERE app_id = $1 AND id = ANY($2::uuid[]) AND deleted_at IS NULL', [appId, ids]);
  return new Set(rows.map((r) => r.id));
}

/** Sets the App Store id and replaces the mappings (in the caller's transaction). */
export async function saveSettings(client: DbClient, appId: string, userId: string, appStoreId: string | null, mappings: SkanMapping[]): Promise<void> {
  await client.query(
    `INSERT INTO skan_settings (app_id, app_store_id, updated_by) VALUES ($1, $2::bigint, $3)
     ON CONFLICT (app_id) DO UPDATE SET app_store_id = EXCLUDED.app_store_id, updated_by = EXCLUDED.updated_by, updated_at = now()`,
    [appId, appStoreId, userId],
  );
  await client.query('DELETE FROM skan_mappings WHERE app_id = $1', [appId]);
  if (mappings.length) {
    await client.query(
      `INSERT INTO skan_mappings (app_id, ad_network_id, source_identifier, campaign_id)
       SELECT $1, n, s, c FROM unnest($2::text[], $3::text[], $4::uuid[]) AS t(n, s, c)`,
      [appId, mappings.map((m) => m.adNetworkId), mappings.map((m) => m.sourceIdentifier), mappings.map((m) => m.campaignId)],
    );
  }
}

export async function saveSchema(db: Queryable, appId: string, userId: string, schema: SkanConversionSchema): Promise<void> {
  await db.query(
    `INSERT INTO skan_settings (app_id, schema, updated_by) VALUES ($1, $2, $3)
     ON CONFLICT (app_id) DO UPDATE SET schema = EXCLUDED.schema, updated_by = EXCLUDED.updated_by, updated_at = now()`,
    [appId, JSON.stringify(schema), userId],
  );
}

/** The app whose App Store id this is (unique on the platform). */
export async function appOfStoreId(db: Queryable, appStoreId: string): Promise<string | undefined> {
  if (!/^\d{1,18}$/.test(appStoreId)) return undefined;
  const { rows } = await db.query<{ app_id: string }>('SELECT app_id FROM skan_settings WHERE app_store_id = $1::bigint', [appStoreId]);
  return rows[0]?.app_id;
}

export type InsertOutcome = 'inserted' | 'replaced' | 'duplicate';

/**
 * Stores a postback once per (transaction id, window). A row already there stays, unless it was
 * rejected and this one is verified (a forged postback cannot take a transaction id first).
 */
export async function insertPostback(
  db: Queryable, appId: string, f: SkanPostbackFacts, verdict: { verified: boolean; reason: SkanRejectReason | null }, payload: unknown,
): Promise<InsertOutcome> {
  const { rows } = await db.query<{ inserted: boolean }>(
    `INSERT INTO skan_postbacks (app_id, version, ad_network_id, source_identifier, transaction_id, sequence_index, fidelity_type, did_win, redownload,
                                 fine_value, coarse_value, source_app_id, source_domain, verified, reject_reason, payload)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
     ON CONFLICT (app_id, transaction_id, sequence_index) DO UPDATE SET
       received_at = now(), version = EXCLUDED.version, ad_network_id = EXCLUDED.ad_network_id, source_identifier = EXCLUDED.source_identifier,
       fidelity_type = EXCLUDED.fidelity_type, did_win = EXCLUDED.did_win, redownload = EXCLUDED.redownload, fine_value = EXCLUDED.fine_value,
       coarse_value = EXCLUDED.coarse_value, source_app_id = EXCLUDED.source_app_id, source_domain = EXCLUDED.source_domain,
       verified = true, reject_reason = NULL, payload = EXCLUDED.payload
     WHERE NOT skan_postbacks.verified AND EXCLUDED.verified
     RETURNING (xmax = 0) AS inserted`,
    [appId, f.version, f.adNetworkId, f.sourceIdentifier, f.transactionId, f.window, f.fidelity, f.didWin, f.redownload,
      f.fineValue, f.coarseValue, f.sourceAppId, f.sourceDomain, verdict.verified, verdict.reason, JSON.stringify(payload)],
  );
  const row = rows[0];
  return !row ? 'duplicate' : row.inserted ? 'inserted' : 'replaced';
}

const RANGE = `received_at >= ($2::date)::timestamp AT TIME ZONE $3 AND received_at < ($4::date + 1)::timestamp AT TIME ZONE $3`;

export interface PostbackFilter { startDay: string; endDay: string; timezone: string; window?: SkanWindow | undefined; fidelity?: SkanFidelity | undefined; verified?: boolean | undefined; offset: number; limit: number }

export interface PostbackRecord {
  id: string; receivedAt: string; version: string; adNetworkId: string; sourceIdentifier: string; transactionId: string; window: SkanWindow;
  fidelity: SkanFidelity | null; didWin: boolean | null; redownload: boolean; fineValue: number | null; coarseValue: SkanCoarse | null;
  sourceAppId: string | null; sourceDomain: string | null; verified: boolean; rejectReason: SkanRejectReason | null;
}

interface PostbackRow {
  id: string; received_at: Date; version: string; ad_network_id: string; source_identifier: string; transaction_id: string; sequence_index: number;
  fidelity_type: number | null; did_win: boolean | null; redownload: boolean; fine_value: number | null; coarse_value: SkanCoarse | null;
  source_app_id: string | null; source_domain: string | null; verified: boolean; reject_reason: SkanRejectReason | null; total: string;
}

export async function listPostbacks(db: Queryable, appId: string, f: PostbackFilter): Promise<{ rows: PostbackRecord[]; total: number }> {
  const { rows } = await db.query<PostbackRow>(
    `SELECT id::text, received_at, version, ad_network_id, source_identifier, transaction_id, sequence_index, fidelity_type, did_win, redownload,
            fine_value, coarse_value, source_app_id, source_domain, verified, reject_reason, count(*) OVER () AS total
       FROM skan_postbacks
      WHERE app_id = $1 AND ${RANGE}
        AND ($5::smallint IS NULL OR sequence_index = $5) AND ($6::smallint IS NULL OR fidelity_type = $6) AND ($7::boolean IS NULL OR verified = $7)
      ORDER BY received_at DESC, id DESC
      OFFSET $8 LIMIT $9`,
    [appId, f.startDay, f.timezone, f.endDay, f.window ?? null, f.fidelity ?? null, f.verified ?? null, f.offset, f.limit],
  );
  let total = Number(rows[0]?.total ?? 0);
  if (rows.length === 0 && f.offset > 0) {
    const { rows: counted } = await db.query<{ n: string }>(
      `SELECT count(*) AS n FROM skan_postbacks WHERE app_id = $1 AND ${RANGE}
          AND ($5::smallint IS NULL OR sequence_index = $5) AND ($6::smallint IS NULL OR fidelity_type = $6) AND ($7::boolean IS NULL OR verified = $7)`,
      [appId, f.startDay, f.timezone, f.endDay, f.window ?? null, f.fidelity ?? null, f.verified ?? null],
    );
    total = Number(counted[0]?.n ?? 0);
  }
  return {
    total,
    rows: rows.map((r) => ({
      id: r.id, receivedAt: r.received_at.toISOString(), version: r.version, adNetworkId: r.ad_network_id, sourceIdentifier: r.source_identifier,
      transactionId: r.transaction_id, window: r.sequence_index as SkanWindow, fidelity: r.fidelity_type as SkanFidelity | null, didWin: r.did_win,
      redownload: r.redownload, fineValue: r.fine_value, coarseValue: r.coarse_value, sourceAppId: r.source_app_id, sourceDomain: r.source_domain,
      verified: r.verified, rejectReason: r.reject_reason,
    })),
  };
}

/**
 * The counted postbacks of the range (verified, and winning: did_win true, or absent before 3.0)
 * grouped by what decoding needs, and how many were rejected.
 */
export async function figureRows(db: Queryable, appId: string, range: { startDay: string; endDay: string; timezone: string }): Promise<{ rows: SkanFigureRow[]; rejected: number }> {
  const { rows } = await db.query<{ ad_network_id: string | null; source_identifier: string | null; sequence_index: number | null; fine_value: number | null; coarse_value: SkanCoarse | null; redownload: boolean | null; n: string; rejected: boolean }>(
    `SELECT ad_network_id, source_identifier, sequence_index, fine_value, coarse_value, redownload, count(*) AS n, false AS rejected
       FROM skan_postbacks
      WHERE app_id = $1 AND ${RANGE} AND verified AND did_win IS NOT FALSE
      GROUP BY 1, 2, 3, 4, 5, 6
     UNION ALL
     SELECT NULL, NULL, NULL, NULL, NULL, NULL, count(*), true FROM skan_postbacks WHERE app_id = $1 AND ${RANGE} AND NOT verified`,
    [appId, range.startDay, range.timezone, range.endDay],
  );
  let rejected = 0;
  const out: SkanFigureRow[] = [];
  for (const r of rows) {
    if (r.rejected) rejected = Number(r.n);
    else out.push({
      adNetworkId: r.ad_network_id ?? '', sourceIdentifier: r.source_identifier ?? '', window: (r.sequence_index ?? 0) as SkanWindow,
      fineValue: r.fine_value, coarseValue: r.coarse_value, redownload: r.redownload ?? false, count: Number(r.n),
    });
  }
  return { rows: out, rejected };
}

/** Names of the app's campaigns among `ids` (deleted ones too: old postbacks keep their name). */
export async function campaignNames(db: Queryable, appId: string, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.query<{ id: string; name: string }>('SELECT id, name FROM acq_campaigns WHERE app_id = $1 AND id = ANY($2::uuid[])', [appId, ids]);
  return new Map(rows.map((r) => [r.id, r.name]));
}
