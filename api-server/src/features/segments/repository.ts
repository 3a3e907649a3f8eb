/** SQL for segments, audiences and audience members (the evaluation queries are in evaluate.ts). */
import {
  Segment, personName, type AudienceSourceType, type AudienceStatus, type AudienceSummary, type SamplePerson, type SegmentSummary, type TagValueType,
} from '@gd/shared';
import type { Queryable } from '../../db/pool.ts';
import { nameAttributesSql } from '../people/repository.ts';

// ---------------------------------------------------------------------------------------------
// Segments

export interface SegmentRow {
  id: string; account_id: string; app_id: string; name: string; doc_name: string; created_by: string | null;
  created_by_name: string | null; created_at: Date; updated_at: Date;
}

const SEGMENT_SELECT = `SELECT s.*, u.name AS created_by_name FROM segments s LEFT JOIN users u ON u.id = s.created_by`;

export async function listSegments(db: Queryable, appId: string): Promise<SegmentRow[]> {
  return (await db.query<SegmentRow>(`${SEGMENT_SELECT} WHERE s.app_id = $1 AND s.deleted_at IS NULL ORDER BY s.updated_at DESC, s.id`, [appId])).rows;
}

export async function findSegment(db: Queryable, appId: string, id: string): Promise<SegmentRow | undefined> {
  return (await db.query<SegmentRow>(`${SEGMENT_SELECT} WHERE s.id = $1 AND s.app_id = $2 AND s.deleted_at IS NULL`, [id, appId])).rows[0];
}

export async function insertSegment(db: Queryable, s: { id: string; accountId: string; appId: string; name: string; docName: string; createdBy: string }): Promise<void> {
  await db.query(
    'INSERT INTO segments (id, account_id, app_id, name, doc_name, created_by) VALUES ($1, $2, $3, $4, $5, $6)',
    [s.id, s.accountId, s.appId, s.name, s.docName, s.createdBy],
  );
}

export async function renameSegment(db: Queryable, id: string, name: string): Promise<void> {
  await db.query('UPDATE segments SET name = $2, updated_at = now() WHERE id = $1', [id, name]);
}

export async function softDeleteSegment(db: Queryable, id: string): Promise<void> {
  await db.query('UPDATE segments SET deleted_at = now() WHERE id = $1', [id]);
}

export const toSegmentSummary = (r: SegmentRow): SegmentSummary => ({
  id: r.id, appId: r.app_id, name: r.name, docName: r.doc_name, createdBy: r.created_by, createdByName: r.created_by_name,
  createdAt: r.created_at.toISOString(), updatedAt: r.updated_at.toISOString(),
});

// ---------------------------------------------------------------------------------------------
// Audiences

export interface AudienceRow {
  id: string; account_id: string; app_id: string; name: string; status: AudienceStatus; source_type: AudienceSourceType;
  segment_id: string | null; segment_name: string | null; segment_doc_name: string | null; definition: unknown;
  source_config: unknown; is_test: boolean; person_count: number | null; refreshed_at: Date | null; refresh_started_at: Date | null;
  next_refresh_at: Date | null; refresh_every_minutes: number; error_name: string | null; error_message: string | null;
  created_by: string | null; created_by_name: string | null; created_at: Date; updated_at: Date;
}

const AUDIENCE_SELECT = `SELECT a.*, s.name AS segment_name, s.doc_name AS segment_doc_name, u.name AS created_by_name
  FROM audiences a
  LEFT JOIN segments s ON s.id = a.segment_id AND s.deleted_at IS NULL
  LEFT JOIN users u ON u.id = a.created_by`;

export async function listAudiences(db: Queryable, appId: string, f: { ownerId?: string | undefined; testOnly: boolean }): Promise<AudienceRow[]> {
  return (await db.query<AudienceRow>(
    `${AUDIENCE_SELECT} WHERE a.app_id = $1 AND a.deleted_at IS NULL AND ($2::uuid IS NULL OR a.created_by = $2) AND (NOT $3 OR a.is_test)
     ORDER BY a.updated_at DESC, a.id`,
    [appId, f.ownerId ?? null, f.testOnly],
  )).rows;
}

export async function findAudience(db: Queryable, appId: string, id: string): Promise<AudienceRow | undefined> {
  return (await db.query<AudienceRow>(`${AUDIENCE_SELECT} WHERE a.id = $1 AND a.app_id = $2 AND a.deleted_at IS NULL`, [id, appId])).rows[0];
}

export interface NewAudience {
  id: string; accountId: string; appId: string; name: string; sourceType: AudienceSourceType; segmentId: string | null;
  definition: Segment | null; sourceConfig?: unknown; isTest: boolean; refreshEveryMinutes: number; createdBy: string;
}

export async function insertAudience(db: Queryable, a: NewAudience): Promise<void> {
  await db.query(
    `INSERT INTO audiences (id, account_id, app_id, name, source_type, segment_id, definition, source_config, is_test, refresh_every_minutes, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    [a.id, a.accountId, a.appId, a.name, a.sourceType, a.segmentId, a.definition ? JSON.stringify(a.definition) : null,
      JSON.stringify(a.sourceConfig ?? {}), a.isTest, a.refreshEveryMinutes, a.createdBy],
  );
}

export async function updateAudience(db: Queryable, id: string, patch: { name?: string | undefined; isTest?: boolean | undefined; refreshEveryMinutes?: number | undefined; status?: AudienceStatus }): Promise<void> {
  await db.query(
    `UPDATE audiences SET name = coalesce($2, name), is_test = coalesce($3, is_test),
       refresh_every_minutes = coalesce($4, refresh_every_minutes), status = coalesce($5, status),
       next_refresh_at = CASE WHEN $4::integer IS NULL OR refreshed_at IS NULL THEN next_refresh_at ELSE refreshed_at + make_interval(mins => $4) END,
       updated_at = now()
     WHERE id = $1`,
    [id, patch.name ?? null, patch.isTest ?? null, patch.refreshEveryMinutes ?? null, patch.status ?? null],
  );
}

/** Copies an audience's definition (and, for imports, its members) into a new one, in one statement each. */
export async function cloneAudience(db: Queryable, sourceId: string, c: { id: string; name: string; createdBy: string; withMembers: boolean }): Promise<void> {
  await db.query(
    `INSERT INTO audiences (id, account_id, app_id, name, status, source_type, segment_id, definition, source_config, is_test,
                            refresh_every_minutes, person_count, refreshed_at, created_by)
     SELECT $2, account_id, app_id, $3, CASE WHEN $5 THEN status ELSE 'new' END, source_type, segment_id, definition, source_config, is_test,
            refresh_every_minutes, CASE WHEN $5 THEN person_count END, CASE WHEN $5 THEN refreshed_at END, $4
       FROM audiences WHERE id = $1`,
    [sourceId, c.id, c.name, c.createdBy, c.withMembers],
  );
  if (c.withMembers) {
    await db.query(
      `INSERT INTO audience_members (app_id, audience_id, person_id) SELECT app_id, $2, person_id FROM audience_members WHERE audience_id = $1`,
      [sourceId, c.id],
    );
  }
}

export async function softDeleteAudience(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM audience_members WHERE audience_id = $1', [id]);
  await db.query(`UPDATE audiences SET deleted_at = now(), status = 'inactive', next_refresh_at = NULL WHERE id = $1`, [id]);
}

/**
 * Claims an audience for a refresh: in_progress, unless it is inactive or another refresh holds
 * it (one older than 15 minutes is taken to have died with its process). Committed at once, so
 * lists show the state while the refresh runs. False when not claimed.
 */
export async function claimRefresh(db: Queryable, id: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE audiences SET status = 'in_progress', refresh_started_at = now()
      WHERE id = $1 AND deleted_at IS NULL
        AND (status NOT IN ('in_progress', 'inactive') OR (status = 'in_progress' AND refresh_started_at < now() - interval '15 minutes'))`,
    [id],
  );
  return rowCount === 1;
}

/** The next segment audience due for its scheduled refresh, claimed (SKIP LOCKED: several workers may run). */
export async function claimDueAudience(db: Queryable): Promise<{ id: string; app_id: string } | undefined> {
  const { rows } = await db.query<{ id: string; app_id: string }>(
    `UPDATE audiences SET status = 'in_progress', refresh_started_at = now()
      WHERE id = (
        SELECT id FROM audiences
         WHERE deleted_at IS NULL AND source_type = 'segment'
           AND ((status NOT IN ('inactive', 'in_progress') AND next_refresh_at <= now())
                OR (status = 'in_progress' AND refresh_started_at < now() - interval '15 minutes'))
         ORDER BY next_refresh_at NULLS FIRST LIMIT 1 FOR UPDATE SKIP LOCKED)
     RETURNING id, app_id`,
  );
  return rows[0];
}

export async function recordRefreshed(db: Queryable, id: string, r: { count: number; definition: Segment | null }): Promise<void> {
  await db.query(
    `UPDATE audiences SET status = 'ready', person_count = $2, definition = coalesce($3::jsonb, definition), refreshed_at = now(),
       next_refresh_at = CASE WHEN source_type = 'segment' THEN now() + make_interval(mins => refresh_every_minutes) END,
       refresh_started_at = NULL, error_name = NULL, error_message = NULL, updated_at = now()
     WHERE id = $1`,
    [id, r.count, r.definition ? JSON.stringify(r.definition) : null],
  );
}

/** A failed refresh: the error, and the next try at the normal period (members and count stay). */
export async function recordRefreshFailed(db: Queryable, id: string, e: { name: string; message: string }): Promise<void> {
  await db.query(
    `UPDATE audiences SET status = 'error', error_name = $2, error_message = left($3, 1000), refresh_started_at = NULL,
       next_refresh_at = CASE WHEN source_type = 'segment' THEN now() + make_interval(mins => refresh_every_minutes) END,
       updated_at = now()
     WHERE id = $1`,
    [id, e.name, e.message],
  );
}

/** Counts the members of an import audience (its members are written by the import). */
export async function countMembers(db: Queryable, appId: string, id: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*) AS n FROM audience_members WHERE app_id = $1 AND audience_id = $2', [appId, id]);
  return rows[0]?.n ?? 0;
}

/** Which analysis a fixed audience was saved from (staticAudience.ts), from its source_config. */
function originOf(config: unknown): 'funnel' | 'cohort' | null {
  const from = typeof config === 'object' && config !== null ? (config as { from?: unknown }).from : undefined;
  return from === 'funnel' || from === 'cohort' ? from : null;
}

export function toAudienceSummary(r: AudienceRow): AudienceSummary {
  const definition = Segment.safeParse(r.definition);
  return {
    id: r.id, appId: r.app_id, name: r.name, status: r.status, sourceType: r.source_type, segmentId: r.segment_name === null ? null : r.segment_id,
    segmentName: r.segment_name, definition: definition.success ? definition.data : null, isTest: r.is_test, personCount: r.person_count,
    origin: originOf(r.source_config),
    refreshedAt: r.refreshed_at?.toISOString() ?? null, nextRefreshAt: r.next_refresh_at?.toISOString() ?? null,
    refreshEveryMinutes: r.refresh_every_minutes, errorName: r.error_name, errorMessage: r.error_message, createdBy: r.created_by,
    createdByName: r.created_by_name, createdAt: r.created_at.toISOString(), updatedAt: r.updated_at.toISOString(),
  };
}

// ---------------------------------------------------------------------------------------------
// Evaluation context and samples

export async function appTimezone(db: Queryable, appId: string): Promise<string> {
  return (await db.query<{ timezone: string }>('SELECT timezone FROM apps WHERE id = $1', [appId])).rows[0]?.timezone ?? 'UTC';
}

export async function tagTypes(db: Queryable, appId: string, ids: readonly string[]): Promise<Map<string, TagValueType>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.query<{ id: string; value_type: TagValueType }>('SELECT id, value_type FROM tags WHERE app_id = $1 AND id = ANY($2::uuid[])', [appId, ids]);
  return new Map(rows.map((r) => [r.id, r.value_type]));
}

export async function existingAudiences(db: Queryable, appId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const { rows } = await db.query<{ id: string }>('SELECT id FROM audiences WHERE app_id = $1 AND id = ANY($2::uuid[]) AND deleted_at IS NULL', [appId, ids]);
  return new Set(rows.map((r) => r.id));
}

export interface SampleRow {
  id: string; customer_id: string | null; email: string | null; name_attributes: Record<string, unknown> | null;
  country: string | null; last_seen_at: Date | null;
}

/**
 * The columns of a sample person, for `people p`. Name: from only the attribute keys shared
 * `personName` reads, as on the people screen. Last seen: the latest event time of the person's
 * devices, as on the people screen (null before their first event; migration 012).
 */
export const SAMPLE_COLUMNS = `p.id::text AS id, p.customer_id, p.email, ${nameAttributesSql('p')} AS name_attributes, p.country,
  (SELECT max(d.last_seen_at) FROM devices d WHERE d.app_id = p.app_id AND d.person_id = p.id) AS last_seen_at`;

export async function memberSample(db: Queryable, appId: string, audienceId: string, limit: number): Promise<SampleRow[]> {
  return (await db.query<SampleRow>(
    `SELECT ${SAMPLE_COLUMNS} FROM audience_members m JOIN people p ON p.app_id = m.app_id AND p.id = m.person_id
      WHERE m.app_id = $1 AND m.audience_id = $2 ORDER BY m.person_id DESC LIMIT $3`,
    [appId, audienceId, limit],
  )).rows;
}

export const toSamplePerson = (r: SampleRow): SamplePerson => ({
  id: r.id, customerId: r.customer_id, email: r.email, name: personName(r.name_attributes), country: r.country, lastSeenAt: r.last_seen_at?.toISOString() ?? null,
});
