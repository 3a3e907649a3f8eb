/** SQL for journeys, their versions and their stored documents. */
import type { JourneyStatus, JourneySummary } from '@gd/shared';
import { single, type Queryable } from '../../db/pool.ts';

export interface JourneyRow {
  id: string; account_id: string; app_id: string; name: string; doc_name: string; status: JourneyStatus;
  live_version: number | null; created_by: string | null; created_by_name: string | null; assigned_to: string | null;
  created_at: Date; updated_at: Date; launched_at: Date | null;
  /** Stored document state and the live version's state vector, to tell whether the draft changed. */
  doc_state: Buffer | null; live_state_vector: Buffer | null;
}

const SELECT = `SELECT j.*, u.name AS created_by_name, v.launched_at, d.state AS doc_state, v.state_vector AS live_state_vector
  FROM journeys j
  LEFT JOIN users u ON u.id = j.created_by
  LEFT JOIN journey_versions v ON v.journey_id = j.id AND v.version = j.live_version
  LEFT JOIN documents d ON d.name = j.doc_name`;

export async function listJourneys(db: Queryable, appId: string, f: { ownerId?: string | undefined; includeStopped: boolean }): Promise<JourneyRow[]> {
  const { rows } = await db.query<JourneyRow>(
    `${SELECT} WHERE j.app_id = $1 AND j.deleted_at IS NULL AND ($2::uuid IS NULL OR j.created_by = $2)
       AND ($3 OR j.status <> 'stopped') ORDER BY j.updated_at DESC`,
    [appId, f.ownerId ?? null, f.includeStopped],
  );
  return rows;
}

export async function findJourney(db: Queryable, appId: string, id: string): Promise<JourneyRow | undefined> {
  return (await db.query<JourneyRow>(`${SELECT} WHERE j.id = $1 AND j.app_id = $2 AND j.deleted_at IS NULL`, [id, appId])).rows[0];
}

export async function insertJourney(db: Queryable, j: { id: string; accountId: string; appId: string; name: string; docName: string; createdBy: string }): Promise<void> {
  await db.query(
    `INSERT INTO journeys (id, account_id, app_id, name, doc_name, created_by) VALUES ($1, $2, $3, $4, $5, $6)`,
    [j.id, j.accountId, j.appId, j.name, j.docName, j.createdBy],
  );
}

export async function updateJourney(db: Queryable, id: string, patch: { name?: string; assignedTo?: string | null; status?: JourneyStatus; liveVersion?: number }): Promise<void> {
  await db.query(
    `UPDATE journeys SET name = COALESCE($2, name),
       assigned_to = CASE WHEN $3::boolean THEN $4::uuid ELSE assigned_to END,
       status = COALESCE($5, status), live_version = COALESCE($6, live_version), updated_at = now()
     WHERE id = $1`,
    [id, patch.name ?? null, patch.assignedTo !== undefined, patch.assignedTo ?? null, patch.status ?? null, patch.liveVersion ?? null],
  );
}

export async function softDeleteJourney(db: Queryable, id: string): Promise<void> {
  await db.query(`UPDATE journeys SET deleted_at = now(), status = CASE WHEN status = 'live' THEN 'stopped' ELSE status END WHERE id = $1`, [id]);
}

export async function recordEvent(db: Queryable, journeyId: string, kind: string, actorId: string, version?: number): Promise<void> {
  await db.query('INSERT INTO journey_events (journey_id, kind, version, actor_id) VALUES ($1, $2, $3, $4)', [journeyId, kind, version ?? null, actorId]);
}

/** Serialises launches of one journey until the transaction ends. */
export async function lockJourney(db: Queryable, journeyId: string): Promise<void> {
  await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [journeyId]);
}

export async function nextVersion(db: Queryable, journeyId: string): Promise<number> {
  return single((await db.query<{ next: number }>('SELECT COALESCE(max(version), 0) + 1 AS next FROM journey_versions WHERE journey_id = $1', [journeyId])).rows).next;
}

export interface VersionRow {
  version: number;
  definition: unknown;
  launched_at: Date;
  launched_by_name: string | null;
}

export async function findVersion(db: Queryable, journeyId: string, version: number): Promise<VersionRow | undefined> {
  const { rows } = await db.query<VersionRow>(
    `SELECT v.version, v.definition, v.launched_at, u.name AS launched_by_name
       FROM journey_versions v LEFT JOIN users u ON u.id = v.launched_by
      WHERE v.journey_id = $1 AND v.version = $2`,
    [journeyId, version],
  );
  return rows[0];
}

export async function insertVersion(db: Queryable, v: { journeyId: string; version: number; definition: unknown; state: Uint8Array; stateVector: Uint8Array; sha256: string; launchedBy: string }): Promise<void> {
  await db.query(
    `INSERT INTO journey_versions (journey_id, version, definition, yjs_state, state_vector, sha256, launched_by) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [v.journeyId, v.version, JSON.stringify(v.definition), Buffer.from(v.state), Buffer.from(v.stateVector), v.sha256, v.launchedBy],
  );
}

export const toSummary = (r: JourneyRow, draftChanged: boolean): JourneySummary => ({
  id: r.id, appId: r.app_id, name: r.name, status: r.status, docName: r.doc_name, liveVersion: r.live_version,
  launchedAt: r.launched_at?.toISOString() ?? null, draftChanged, liveStateVector: r.live_state_vector?.toString('base64') ?? null, createdBy: r.created_by, createdByName: r.created_by_name,
  assignedTo: r.assigned_to, createdAt: r.created_at.toISOString(), updatedAt: r.updated_at.toISOString(),
});
