/**
 * SQL of audience shares (migration 049): the shares, what each uploaded per person, the claim of
 * due runs, and the audience state while a run goes. Every query names the app (or a share found
 * through it) as well as the id.
 */
import {
  SHARE_ERROR_NAME, SHARE_LEASE_MINUTES, type AudienceShare, type IntegrationService, type IntegrationStatus, type ShareEntry, type ShareStatus,
  type ShareTarget, type UploadRow,
} from '@gd/shared';
import type { Queryable } from '../../db/pool.ts';

export interface ShareRow {
  id: string; account_id: string; app_id: string; audience_id: string; integration_id: string; service: IntegrationService; entry: ShareEntry;
  platform_audience_id: string | null; platform_audience_name: string; status: ShareStatus; error_code: number | null; error_message: string | null;
  uploaded_count: number; skipped_count: number; last_added: number | null; last_removed: number | null; last_synced_at: Date | null;
  synced_refresh_at: Date | null; due_at: Date | null; sync_started_at: Date | null; created_at: Date;
  integration_name: string; integration_status: IntegrationStatus;
}

const COLUMNS = `s.id, s.account_id, s.app_id, s.audience_id, s.integration_id, s.service, s.entry, s.platform_audience_id, s.platform_audience_name,
  s.status, s.error_code, s.error_message, s.uploaded_count, s.skipped_count, s.last_added, s.last_removed, s.last_synced_at,
  s.synced_refresh_at, s.due_at, s.sync_started_at, s.created_at, i.name AS integration_name, i.status AS integration_status`;
const FROM = 'audience_shares s JOIN integrations i ON i.id = s.integration_id AND i.app_id = s.app_id';
/** A run's lease has lapsed (its process died). */
const STALE = `s.sync_started_at < now() - interval '${SHARE_LEASE_MINUTES} minutes'`;

export const toShare = (r: ShareRow): AudienceShare => ({
  id: r.id, audienceId: r.audience_id, integrationId: r.integration_id, integrationName: r.integration_name, integrationStatus: r.integration_status,
  service: r.service, entry: r.entry, platformAudienceId: r.platform_audience_id, platformAudienceName: r.platform_audience_name,
  status: r.status, errorCode: r.error_code, errorMessage: r.error_message, uploadedCount: r.uploaded_count, skippedCount: r.skipped_count,
  lastAdded: r.last_added, lastRemoved: r.last_removed, lastSyncedAt: r.last_synced_at?.toISOString() ?? null, createdAt: r.created_at.toISOString(),
});

export async function listShares(db: Queryable, appId: string, audienceId: string): Promise<ShareRow[]> {
  return (await db.query<ShareRow>(`SELECT ${COLUMNS} FROM ${FROM} WHERE s.app_id = $1 AND s.audience_id = $2 ORDER BY s.created_at, s.id`, [appId, audienceId])).rows;
}

export async function findShare(db: Queryable, appId: string, audienceId: string, id: string): Promise<ShareRow | undefined> {
  return (await db.query<ShareRow>(`SELECT ${COLUMNS} FROM ${FROM} WHERE s.id = $1 AND s.app_id = $2 AND s.audience_id = $3`, [id, appId, audienceId])).rows[0];
}

export async function findShareById(db: Queryable, id: string): Promise<ShareRow | undefined> {
  return (await db.query<ShareRow>(`SELECT ${COLUMNS} FROM ${FROM} WHERE s.id = $1`, [id])).rows[0];
}

export interface IntegrationBrief { id: string; name: string; service: string; status: IntegrationStatus }

/** An integration of the app (name, service and state only: never its secrets). */
export async function findIntegrationBrief(db: Queryable, appId: string, id: string): Promise<IntegrationBrief | undefined> {
  return (await db.query<IntegrationBrief>('SELECT id, name, service, status FROM integrations WHERE id = $1 AND app_id = $2', [id, appId])).rows[0];
}

/** The app's integrations of the given services, by name. */
export async function integrationsOf(db: Queryable, appId: string, services: readonly string[]): Promise<IntegrationBrief[]> {
  return (await db.query<IntegrationBrief>(
    'SELECT id, name, service, status FROM integrations WHERE app_id = $1 AND service = ANY($2) ORDER BY lower(name), id', [appId, services],
  )).rows;
}

export const toTarget = (r: IntegrationBrief, entry: ShareEntry, supported: boolean): ShareTarget => ({
  id: r.id, name: r.name, service: r.service as IntegrationService, entry, status: r.status, supported,
});

export interface NewShare {
  id: string; accountId: string; appId: string; audienceId: string; integrationId: string; service: string; entry: ShareEntry;
  platformAudienceId: string | null; platformAudienceName: string; createdBy: string;
}

export async function insertShare(db: Queryable, s: NewShare): Promise<void> {
  await db.query(
    `INSERT INTO audience_shares (id, account_id, app_id, audience_id, integration_id, service, entry, platform_audience_id, platform_audience_name, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [s.id, s.accountId, s.appId, s.audienceId, s.integrationId, s.service, s.entry, s.platformAudienceId, s.platformAudienceName, s.createdBy],
  );
}

/** "Sync now": due at once, unless a run holds it (false). */
export async function markDue(db: Queryable, appId: string, id: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE audience_shares s SET due_at = now(), status = 'sync', updated_at = now()
      WHERE s.id = $1 AND s.app_id = $2 AND (s.sync_started_at IS NULL OR ${STALE})`,
    [id, appId],
  );
  return rowCount === 1;
}

export interface ClaimedShare extends ShareRow { audience_name: string; refreshed_at: Date | null }

/**
 * The next due share, claimed for a run (SKIP LOCKED: several workers share the work): due when
 * asked for (new share, "sync now"), when its audience was refreshed after the last run started,
 * or when a run's lease lapsed. Only audiences counted and not being counted or inactive.
 */
export async function claimDueShare(db: Queryable): Promise<ClaimedShare | undefined> {
  const { rows } = await db.query<{ id: string; refreshed_at: Date | null; audience_name: string }>(
    `WITH due AS (
       SELECT s.id, a.refreshed_at, a.name AS audience_name
         FROM audience_shares s JOIN audiences a ON a.id = s.audience_id AND a.app_id = s.app_id
        WHERE a.deleted_at IS NULL AND a.refreshed_at IS NOT NULL AND a.status NOT IN ('new', 'in_progress', 'inactive')
          AND (${STALE} OR (s.sync_started_at IS NULL AND (s.due_at <= now()
               OR (s.status <> 'inactive' AND a.refreshed_at > coalesce(s.synced_refresh_at, '-infinity'::timestamptz)))))
        ORDER BY coalesce(s.due_at, a.refreshed_at) LIMIT 1
          FOR UPDATE OF s SKIP LOCKED)
     UPDATE audience_shares s SET status = 'sync', sync_started_at = now(), due_at = NULL, synced_refresh_at = due.refreshed_at, updated_at = now()
       FROM due WHERE s.id = due.id
     RETURNING s.id, due.refreshed_at, due.audience_name`,
  );
  const claimed = rows[0];
  if (!claimed) return undefined;
  const row = await findShareById(db, claimed.id);
  return row ? { ...row, audience_name: claimed.audience_name, refreshed_at: claimed.refreshed_at } : undefined;
}

/** Holds the share for a deletion (false: a run holds it). */
export async function leaseForDeletion(db: Queryable, appId: string, id: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE audience_shares s SET sync_started_at = now() WHERE s.id = $1 AND s.app_id = $2 AND (s.sync_started_at IS NULL OR ${STALE})`, [id, appId],
  );
  return rowCount === 1;
}

export async function releaseLease(db: Queryable, id: string): Promise<void> {
  await db.query('UPDATE audience_shares SET sync_started_at = NULL WHERE id = $1', [id]);
}

export async function deleteShare(db: Queryable, appId: string, id: string): Promise<void> {
  await db.query('DELETE FROM audience_shares WHERE id = $1 AND app_id = $2', [id, appId]);
}

export async function setPlatformAudience(db: Queryable, id: string, platformAudienceId: string): Promise<void> {
  await db.query('UPDATE audience_shares SET platform_audience_id = $2, updated_at = now() WHERE id = $1', [id, platformAudienceId]);
}

// ---------------------------------------------------------------------------------------------
// The audience's state while its shares run.

/** A run starts: the audience shows `sync` (when it was ready, or in error from a share). */
export async function audienceSyncing(db: Queryable, appId: string, audienceId: string): Promise<void> {
  await db.query(
    `UPDATE audiences SET status = 'sync', updated_at = now()
      WHERE id = $1 AND app_id = $2 AND (status = 'ready' OR (status = 'error' AND error_name = $3))`,
    [audienceId, appId, SHARE_ERROR_NAME],
  );
}

/** A run ended well: back to ready (its share error cleared), unless another share of it is still running. */
export async function audienceSynced(db: Queryable, appId: string, audienceId: string): Promise<void> {
  await db.query(
    `UPDATE audiences a SET status = 'ready', error_name = NULL, error_message = NULL, updated_at = now()
      WHERE a.id = $1 AND a.app_id = $2 AND a.status = 'sync'
        AND NOT EXISTS (SELECT 1 FROM audience_shares o WHERE o.audience_id = a.id AND o.sync_started_at IS NOT NULL)`,
    [audienceId, appId],
  );
}

/** A run failed: the audience is `error` with the reason (it keeps its members). */
export async function audienceShareFailed(db: Queryable, appId: string, audienceId: string, message: string): Promise<void> {
  await db.query(
    `UPDATE audiences SET status = 'error', error_name = $3, error_message = left($4, 1000), updated_at = now()
      WHERE id = $1 AND app_id = $2 AND status IN ('sync', 'ready')`,
    [audienceId, appId, SHARE_ERROR_NAME, message],
  );
}

// ---------------------------------------------------------------------------------------------
// A run's outcome.

export async function recordSynced(db: Queryable, id: string, r: { added: number; removed: number }): Promise<void> {
  await db.query(
    `UPDATE audience_shares s SET status = 'ready', error_code = NULL, error_message = NULL, sync_started_at = NULL, last_synced_at = now(),
       last_added = $2, last_removed = $3,
       uploaded_count = (SELECT count(*) FROM audience_share_members m WHERE m.share_id = s.id),
       skipped_count = greatest(0, (SELECT count(*) FROM audience_members am WHERE am.app_id = s.app_id AND am.audience_id = s.audience_id)
         - (SELECT count(*) FROM audience_share_members m WHERE m.share_id = s.id
             AND EXISTS (SELECT 1 FROM audience_members am WHERE am.app_id = s.app_id AND am.audience_id = s.audience_id AND am.person_id = m.person_id))),
       updated_at = now()
     WHERE s.id = $1`,
    [id, r.added, r.removed],
  );
}

/** A failed run: the code and reason; what it uploaded so far stays recorded. Retried after the next refresh or "sync now". */
export async function recordFailed(db: Queryable, id: string, code: number, message: string): Promise<void> {
  await db.query(
    `UPDATE audience_shares s SET status = 'error', error_code = $2, error_message = left($3, 1000), sync_started_at = NULL,
       uploaded_count = (SELECT count(*) FROM audience_share_members m WHERE m.share_id = s.id), updated_at = now()
     WHERE s.id = $1`,
    [id, code, message],
  );
}

/** The integration was disconnected on purpose: the share waits (inactive) until it is connected again and synced. */
export async function recordInactive(db: Queryable, id: string, message: string): Promise<void> {
  await db.query(
    `UPDATE audience_shares SET status = 'inactive', error_code = NULL, error_message = left($2, 1000), sync_started_at = NULL, updated_at = now() WHERE id = $1`,
    [id, message],
  );
}

// ---------------------------------------------------------------------------------------------
// What a share uploaded, and what changed since.

export interface SentMember { person_id: string; rows: UploadRow[] }
export interface MemberIdentifiers { person_id: string; customer_id: string | null; email: string | null; phone: string | null; ad_ids: string[] | null }

/** People uploaded who are no longer members (up to `limit`). */
export async function removedMembers(db: Queryable, share: Pick<ShareRow, 'id' | 'app_id' | 'audience_id'>, limit: number): Promise<SentMember[]> {
  return (await db.query<SentMember>(
    `SELECT m.person_id::text AS person_id, m.rows FROM audience_share_members m
      WHERE m.share_id = $1
        AND NOT EXISTS (SELECT 1 FROM audience_members am WHERE am.app_id = $2 AND am.audience_id = $3 AND am.person_id = m.person_id)
      ORDER BY m.person_id LIMIT $4`,
    [share.id, share.app_id, share.audience_id, limit],
  )).rows;
}

/** Every person the share uploaded (a deletion removes them), from `after` on, by person id. */
export async function sentMembers(db: Queryable, shareId: string, after: string | null, limit: number): Promise<SentMember[]> {
  return (await db.query<SentMember>(
    `SELECT person_id::text AS person_id, rows FROM audience_share_members WHERE share_id = $1 AND ($2::bigint IS NULL OR person_id > $2::bigint)
      ORDER BY person_id LIMIT $3`,
    [shareId, after, limit],
  )).rows;
}

/** Members still in the audience whose rows were sent more than `minutes` ago (platforms whose memberships expire). */
export async function staleMembers(db: Queryable, share: Pick<ShareRow, 'id' | 'app_id' | 'audience_id'>, minutes: number, limit: number): Promise<SentMember[]> {
  return (await db.query<SentMember>(
    `SELECT m.person_id::text AS person_id, m.rows FROM audience_share_members m
      WHERE m.share_id = $1 AND m.uploaded_at < now() - make_interval(mins => $4)
        AND EXISTS (SELECT 1 FROM audience_members am WHERE am.app_id = $2 AND am.audience_id = $3 AND am.person_id = m.person_id)
      ORDER BY m.person_id LIMIT $5`,
    [share.id, share.app_id, share.audience_id, minutes, limit],
  )).rows;
}

/**
 * Members not uploaded yet, after person `after`, with their identifiers: e-mail, customer id,
 * the `phone` profile attribute and their devices' advertising ids (most recently seen first).
 */
export async function addedMembers(db: Queryable, share: Pick<ShareRow, 'id' | 'app_id' | 'audience_id'>, after: string | null, limit: number): Promise<MemberIdentifiers[]> {
  return (await db.query<MemberIdentifiers>(
    `SELECT p.id::text AS person_id, p.customer_id, p.email, p.attributes->>'phone' AS phone,
            (SELECT array_agg(ad ORDER BY d.last_seen_at DESC) FROM devices d, LATERAL unnest(ARRAY[d.idfa, d.gaid]) AS ad
              WHERE d.app_id = p.app_id AND d.person_id = p.id AND ad IS NOT NULL) AS ad_ids
       FROM audience_members am JOIN people p ON p.app_id = am.app_id AND p.id = am.person_id
      WHERE am.app_id = $1 AND am.audience_id = $2 AND ($4::bigint IS NULL OR am.person_id > $4::bigint)
        AND NOT EXISTS (SELECT 1 FROM audience_share_members m WHERE m.share_id = $3 AND m.person_id = am.person_id)
      ORDER BY am.person_id LIMIT $5`,
    [share.app_id, share.audience_id, share.id, after, limit],
  )).rows;
}

/** People sent (added or renewed): their rows, as uploaded now. */
export async function recordSent(db: Queryable, shareId: string, members: readonly SentMember[]): Promise<void> {
  if (members.length === 0) return;
  await db.query(
    `INSERT INTO audience_share_members (share_id, person_id, rows)
     SELECT $1, x.person_id, x.rows FROM jsonb_to_recordset($2::jsonb) AS x(person_id bigint, rows jsonb)
     ON CONFLICT (share_id, person_id) DO UPDATE SET rows = EXCLUDED.rows, uploaded_at = now()`,
    [shareId, JSON.stringify(members)],
  );
}

/** People taken off the platform audience. */
export async function forgetSent(db: Queryable, shareId: string, personIds: readonly string[]): Promise<void> {
  if (personIds.length === 0) return;
  await db.query('DELETE FROM audience_share_members WHERE share_id = $1 AND person_id = ANY($2::bigint[])', [shareId, personIds]);
}

export interface AudienceBrief { id: string; name: string }

/** An audience of the app that is not deleted. */
export async function findAudience(db: Queryable, appId: string, id: string): Promise<AudienceBrief | undefined> {
  return (await db.query<AudienceBrief>('SELECT id, name FROM audiences WHERE id = $1 AND app_id = $2 AND deleted_at IS NULL', [id, appId])).rows[0];
}
