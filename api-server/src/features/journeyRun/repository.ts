/**
 * All SQL of the journey engine's state (migration 032): entries, re-entry marks, passages (the
 * trace), step counts, journey runs (stop), and what the engine reads about journeys. Bulk writes go
 * through `unnest` so a batch of a thousand entries costs a handful of statements.
 *
 * Open entries are `active` (to move at wake_at) or `waiting` (at a wait). Every write of an entry
 * happens in a transaction that holds its row lock (the batch took it FOR UPDATE SKIP LOCKED), so
 * two workers never move one entry.
 */
import type { EntryState } from '@gd/shared/journey/run/types';
import type { ReentryMode } from '@gd/shared/journey/settings';
import type { DbClient, Queryable } from '../../db/pool.ts';

export const OPEN = `('active', 'waiting')`;

export interface EntryRow {
  id: string; app_id: string; journey_id: string; version: number; person_id: string; entry_key: string;
  state: EntryState; last_message_step_id: string | null;
}

/** Due entries (wake_at reached), locked for this transaction; others skip them. */
export async function lockDue(client: DbClient, now: Date, limit: number, appIds: readonly string[] | null): Promise<EntryRow[]> {
  const { rows } = await client.query<EntryRow>(
    `SELECT id::text, app_id, journey_id, version, person_id::text, entry_key, state, last_message_step_id FROM journey_entries
      WHERE status IN ${OPEN} AND wake_at <= $1 AND ($3::uuid[] IS NULL OR app_id = ANY($3)) ORDER BY wake_at, id LIMIT $2 FOR UPDATE SKIP LOCKED`,
    [now, limit, appIds]);
  return rows;
}

export interface JourneyInfo { id: string; account_id: string; app_id: string; status: string; deleted: boolean; live_version: number | null; stopped_through: number }

export async function journeysOf(db: Queryable, ids: readonly string[]): Promise<Map<string, JourneyInfo>> {
  const { rows } = await db.query<JourneyInfo>(
    `SELECT j.id, j.account_id, j.app_id, j.status, j.deleted_at IS NOT NULL AS deleted, j.live_version, coalesce(r.stopped_through, 0) AS stopped_through
       FROM journeys j LEFT JOIN journey_runs r ON r.journey_id = j.id WHERE j.id = ANY($1::uuid[])`,
    [[...ids]]);
  return new Map(rows.map((r) => [r.id, r]));
}

/** Whether an entry of `version` may still move: its journey live, not deleted, the version not stopped. */
export const versionRuns = (j: JourneyInfo | undefined, version: number) =>
  !!j && !j.deleted && j.status === 'live' && version > j.stopped_through;

/** Live journeys of these apps with their live version. */
export async function liveJourneys(db: Queryable, appIds: readonly string[]): Promise<{ id: string; app_id: string; account_id: string; live_version: number }[]> {
  const { rows } = await db.query<{ id: string; app_id: string; account_id: string; live_version: number }>(
    `SELECT id, app_id, account_id, live_version FROM journeys
      WHERE app_id = ANY($1::uuid[]) AND status = 'live' AND deleted_at IS NULL AND live_version IS NOT NULL`,
    [[...appIds]]);
  return rows;
}

/**
 * The earlier versions of live journeys, which may still have people inside (the last 20 of each:
 * a version's people finish within its longest path, far sooner than 20 launches). Read from the
 * small versions table, not from the entries.
 */
export async function earlierVersions(db: Queryable, journeys: readonly { id: string; live_version: number }[]): Promise<{ journey_id: string; version: number }[]> {
  if (journeys.length === 0) return [];
  const { rows } = await db.query<{ journey_id: string; version: number }>(
    `SELECT v.journey_id, v.version FROM unnest($1::uuid[], $2::int[]) AS j(id, live)
       JOIN journey_versions v ON v.journey_id = j.id AND v.version < j.live AND v.version >= j.live - 20`,
    [journeys.map((j) => j.id), journeys.map((j) => j.live_version)]);
  return rows;
}

export interface EntryUpdate {
  id: string; status: 'active' | 'waiting' | 'ended' | 'exited'; stepId: string; state: EntryState; wakeAt: Date | null;
  waitingFor: 'interaction' | 'segment' | null; endedAt: Date | null; endReason: string | null; lastMessageStepId: string | null;
}

export async function updateEntries(client: DbClient, u: readonly EntryUpdate[]): Promise<void> {
  if (u.length === 0) return;
  await client.query(
    `UPDATE journey_entries e SET status = x.status, step_id = x.step_id, state = x.state, wake_at = x.wake_at, waiting_for = x.waiting_for,
            ended_at = x.ended_at, end_reason = x.end_reason, last_message_step_id = x.last_message_step_id
       FROM unnest($1::bigint[], $2::text[], $3::text[], $4::jsonb[], $5::timestamptz[], $6::text[], $7::timestamptz[], $8::text[], $9::text[])
            AS x(id, status, step_id, state, wake_at, waiting_for, ended_at, end_reason, last_message_step_id)
      WHERE e.id = x.id`,
    [u.map((x) => x.id), u.map((x) => x.status), u.map((x) => x.stepId), u.map((x) => JSON.stringify(x.state)), u.map((x) => x.wakeAt),
      u.map((x) => x.waitingFor), u.map((x) => x.endedAt), u.map((x) => x.endReason), u.map((x) => x.lastMessageStepId)]);
}

export interface PassageRow {
  entryId: string; stepId: string; pathId: string | null; at: Date; reason: string; detail: string | null;
  effectKind: string | null; effectStatus: string | null; effectReason: string | null;
}

export async function insertPassages(client: Queryable, p: readonly PassageRow[]): Promise<void> {
  if (p.length === 0) return;
  await client.query(
    `INSERT INTO journey_passages (entry_id, step_id, path_id, at, reason, detail, effect_kind, effect_status, effect_reason)
     SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::timestamptz[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[])`,
    [p.map((x) => x.entryId), p.map((x) => x.stepId), p.map((x) => x.pathId), p.map((x) => x.at), p.map((x) => x.reason), p.map((x) => x.detail),
      p.map((x) => x.effectKind), p.map((x) => x.effectStatus), p.map((x) => x.effectReason)]);
}

/** Adds to the step counts; keys are sorted so concurrent batches lock the rows in one order (no deadlock). */
export async function addCounts(client: Queryable, counts: ReadonlyMap<string, { journeyId: string; version: number; stepId: string; cumulative: number; conversions: number }>): Promise<void> {
  if (counts.size === 0) return;
  const list = [...counts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);
  await client.query(
    `INSERT INTO journey_step_counts (journey_id, version, step_id, cumulative, conversions)
     SELECT * FROM unnest($1::uuid[], $2::int[], $3::text[], $4::bigint[], $5::bigint[])
     ON CONFLICT (journey_id, version, step_id) DO UPDATE
       SET cumulative = journey_step_counts.cumulative + excluded.cumulative, conversions = journey_step_counts.conversions + excluded.conversions`,
    [list.map((c) => c.journeyId), list.map((c) => c.version), list.map((c) => c.stepId), list.map((c) => c.cumulative), list.map((c) => c.conversions)]);
}

/** A count tally keyed for addCounts. */
export class Tally {
  readonly map = new Map<string, { journeyId: string; version: number; stepId: string; cumulative: number; conversions: number }>();
  add(journeyId: string, version: number, stepId: string, what: 'cumulative' | 'conversions', n = 1): void {
    const key = `${journeyId}\u0000${String(version).padStart(10, '0')}\u0000${stepId}`;
    const row = this.map.get(key) ?? { journeyId, version, stepId, cumulative: 0, conversions: 0 };
    row[what] += n;
    this.map.set(key, row);
  }
}

/** Pseudo steps of journey_step_counts that keep a version's totals (cumulative column). */
export const TOTAL_ENDED = '$ended';
export const TOTAL_EXITED = '$exited';
export const TOTAL_CONVERTED = '$converted';

export interface Candidate { personId: string; entryKey: string }

/**
 * New entries into one version at its source step, under the journey's re-entry rule (per
 * journey, person and entry key, across versions): `never` enters once; `afterPeriod` again once
 * `periodSeconds` passed since the last entry began; `always` any time. In every mode a person
 * with an open entry (same key) does not enter again. Candidates must be distinct.
 */
export async function createEntries(client: Queryable, e: {
  appId: string; journeyId: string; version: number; sourceStepId: string; mode: ReentryMode; periodSeconds: number; now: Date; candidates: readonly Candidate[];
}): Promise<{ id: string; person_id: string }[]> {
  if (e.candidates.length === 0) return [];
  const state = (at: number) => JSON.stringify({ stepId: e.sourceStepId, arrivedAt: at, enteredAt: at, since: at, lastMessage: null } satisfies EntryState);
  const { rows } = await client.query<{ id: string; person_id: string }>(
    `WITH c AS (SELECT DISTINCT ON (person, key) person, key FROM unnest($3::bigint[], $4::text[]) AS c(person, key)),
     marked AS (
       INSERT INTO journey_entry_marks AS m (journey_id, person_id, entry_key, last_entered_at)
       SELECT $1, c.person, c.key, $6 FROM c
         WHERE NOT EXISTS (SELECT 1 FROM journey_entries o WHERE o.journey_id = $1 AND o.person_id = c.person AND o.entry_key = c.key AND o.status IN ${OPEN})
       ON CONFLICT (journey_id, person_id, entry_key) DO UPDATE SET last_entered_at = excluded.last_entered_at
        WHERE $7 = 'always' OR ($7 = 'afterPeriod' AND m.last_entered_at <= excluded.last_entered_at - make_interval(secs => $8))
       RETURNING person_id, entry_key)
     INSERT INTO journey_entries (app_id, journey_id, version, person_id, entry_key, source_step_id, status, step_id, state, wake_at, entered_at)
     SELECT $2, $1, $5, k.person_id, k.entry_key, $9, 'active', $9, $10::jsonb, $6, $6 FROM marked k
     ON CONFLICT (journey_id, person_id, entry_key) WHERE status IN ${OPEN} DO NOTHING
     RETURNING id::text, person_id::text`,
    [e.journeyId, e.appId, e.candidates.map((c) => c.personId), e.candidates.map((c) => c.entryKey), e.version, e.now, e.mode, e.periodSeconds,
      e.sourceStepId, state(e.now.getTime())]);
  return rows;
}

/** Exits open entries (exit criteria, stop); answers those exited with the step they were at. */
export async function exitEntries(client: Queryable, where: { ids?: readonly string[] }, reason: string, now: Date): Promise<{ id: string; step_id: string; journey_id: string; version: number }[]> {
  if (!where.ids?.length) return [];
  const { rows } = await client.query<{ id: string; step_id: string; journey_id: string; version: number }>(
    `UPDATE journey_entries SET status = 'exited', end_reason = $2, ended_at = $3, wake_at = NULL, waiting_for = NULL
      WHERE id = ANY($1::bigint[]) AND status IN ${OPEN} RETURNING id::text, step_id, journey_id, version`,
    [[...where.ids], reason, now]);
  return rows;
}

/** Wakes a person's waiting entries in these journeys now (an event or interaction they may wait for). */
export async function wakeEntries(client: Queryable, journeyIds: readonly string[], personIds: readonly string[], now: Date): Promise<number> {
  if (journeyIds.length === 0 || personIds.length === 0) return 0;
  const { rowCount } = await client.query(
    `UPDATE journey_entries SET wake_at = $3
      WHERE journey_id = ANY($1::uuid[]) AND person_id = ANY($2::bigint[]) AND status = 'waiting' AND (wake_at IS NULL OR wake_at > $3)`,
    [[...journeyIds], [...personIds], now]);
  return rowCount ?? 0;
}

/**
 * Credits the goal event to a person's unconverted entries of a journey that began within the
 * window before it (open or ended: the goal counts after the journey, within its window).
 */
export async function convert(client: Queryable, journeyId: string, personId: string, at: Date, windowSeconds: number): Promise<{ id: string; version: number; conversion_step_id: string | null }[]> {
  const { rows } = await client.query<{ id: string; version: number; conversion_step_id: string | null }>(
    `UPDATE journey_entries SET converted_at = $3, conversion_step_id = last_message_step_id
      WHERE journey_id = $1 AND person_id = $2 AND converted_at IS NULL AND entered_at <= $3 AND entered_at >= $3 - make_interval(secs => $4)
      RETURNING id::text, version, conversion_step_id`,
    [journeyId, personId, at, windowSeconds]);
  return rows;
}

/** A launch or a stop: the journey's run row (stop: its versions up to `stoppedThrough` must empty). */
export async function upsertRun(client: Queryable, r: { journeyId: string; appId: string; stoppedThrough?: number }): Promise<void> {
  await client.query(
    `INSERT INTO journey_runs (journey_id, app_id, stopped_through, stopping) VALUES ($1, $2, coalesce($3, 0), $3 IS NOT NULL)
     ON CONFLICT (journey_id) DO UPDATE SET stopped_through = greatest(journey_runs.stopped_through, coalesce($3, 0)),
       stopping = journey_runs.stopping OR $3 IS NOT NULL, updated_at = now()`,
    [r.journeyId, r.appId, r.stoppedThrough ?? null]);
}

/** Journeys whose stopped versions may still hold people (flagged by a stop or a delete; index journey_runs_stopping). */
export async function stoppingJourneys(db: Queryable, appIds: readonly string[] | null): Promise<JourneyInfo[]> {
  const { rows } = await db.query<JourneyInfo>(
    `SELECT j.id, j.account_id, j.app_id, j.status, j.deleted_at IS NOT NULL AS deleted, j.live_version, r.stopped_through
       FROM journey_runs r JOIN journeys j ON j.id = r.journey_id
      WHERE r.stopping AND ($1::uuid[] IS NULL OR r.app_id = ANY($1))`, [appIds]);
  return rows;
}

/** A page of a stopped journey's open entries that must leave, locked for this transaction. */
export async function lockStopped(client: DbClient, j: JourneyInfo, limit: number): Promise<{ id: string; step_id: string }[]> {
  const all = j.deleted || j.status !== 'live';
  const { rows } = await client.query<{ id: string; step_id: string }>(
    `SELECT id::text, step_id FROM journey_entries WHERE journey_id = $1 AND status IN ${OPEN} AND ($2 OR version <= $3)
      LIMIT $4 FOR UPDATE SKIP LOCKED`,
    [j.id, all, j.stopped_through, limit]);
  return rows;
}

export async function clearStopping(db: Queryable, journeyId: string): Promise<void> {
  await db.query(
    `UPDATE journey_runs r SET stopping = false WHERE journey_id = $1 AND NOT EXISTS (
       SELECT 1 FROM journey_entries e WHERE e.journey_id = r.journey_id AND e.status IN ${OPEN} AND e.version <= r.stopped_through)`,
    [journeyId]);
}

/** A user tag's numeric value += amount for each (person, tag); answers the pairs applied. Tags must be number user tags of the app. */
export async function addToTags(client: Queryable, appId: string, items: readonly { personId: string; tagId: string; amount: number }[]): Promise<Set<string>> {
  if (items.length === 0) return new Set();
  const sums = new Map<string, { personId: string; tagId: string; amount: number }>();
  for (const i of items) {
    const k = `${i.personId}:${i.tagId}`;
    const s = sums.get(k) ?? { ...i, amount: 0 };
    s.amount += i.amount;
    sums.set(k, s);
  }
  const list = [...sums.values()].filter((s) => /^[0-9a-f-]{36}$/i.test(s.tagId)).sort((a, b) => (a.personId + a.tagId < b.personId + b.tagId ? -1 : 1));
  const { rows } = await client.query<{ person_id: string; tag_id: string }>(
    `INSERT INTO person_tags AS pt (app_id, person_id, tag_id, value_number)
     SELECT $1, x.person, x.tag, x.amount FROM unnest($2::bigint[], $3::uuid[], $4::numeric[]) AS x(person, tag, amount)
       JOIN tags t ON t.id = x.tag AND t.app_id = $1 AND t.kind = 'user_tag' AND t.value_type = 'number'
       JOIN people p ON p.app_id = $1 AND p.id = x.person
     ON CONFLICT (app_id, person_id, tag_id) DO UPDATE SET value_number = coalesce(pt.value_number, 0) + excluded.value_number, updated_at = now()
     RETURNING person_id::text, tag_id`,
    [appId, list.map((s) => s.personId), list.map((s) => s.tagId), list.map((s) => s.amount)]);
  return new Set(rows.map((r) => `${r.person_id}:${r.tag_id}`));
}

export interface PostbackInsert { appId: string; journeyId: string; version: number; entryId: string; personId: string; stepId: string; campaignId: string | null; campaignType: string | null }

export async function insertPostbacks(client: Queryable, p: readonly PostbackInsert[], now: Date): Promise<void> {
  if (p.length === 0) return;
  await client.query(
    `INSERT INTO journey_postbacks (app_id, journey_id, version, entry_id, person_id, step_id, campaign_id, campaign_type, next_at, created_at)
     SELECT x.app, x.journey, x.version, x.entry, x.person, x.step, x.campaign, x.ctype, $9, $9
       FROM unnest($1::uuid[], $2::uuid[], $3::int[], $4::bigint[], $5::bigint[], $6::text[], $7::text[], $8::text[]) AS x(app, journey, version, entry, person, step, campaign, ctype)
     ON CONFLICT (entry_id, step_id) DO NOTHING`,
    [p.map((x) => x.appId), p.map((x) => x.journeyId), p.map((x) => x.version), p.map((x) => x.entryId), p.map((x) => x.personId), p.map((x) => x.stepId),
      p.map((x) => x.campaignId), p.map((x) => x.campaignType), now]);
}
