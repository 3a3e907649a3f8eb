/**
 * Building blocks for journey engine tests and the benchmark, written straight to the database: an
 * account's app with people, approved automatic messages, launched journeys (what launch.ts writes,
 * without the sync server), trigger inbox rows as ingestion writes them, and an engine worker on an
 * injected clock scoped to the app.
 */
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { createMessageDraft, type Journey, type MessageDraft } from '@gd/shared';
import type { Db, Queryable } from '../../../db/pool.ts';
import { processVersions } from '../definitions.ts';
import { JourneyWorker, type JourneyEngineOptions } from '../engine.ts';
import { journeyLaunched, journeyStopped } from '../lifecycle.ts';
import type { NetPolicy } from '../../../net/index.ts';

export interface World { db: Db; accountId: string; appId: string; userId: string }

/** A clock a test moves by hand. */
export class TestClock {
  ms: number;
  constructor(start: Date) {
    this.ms = start.getTime();
  }
  readonly now = (): Date => new Date(this.ms);
  advance(ms: number): void {
    this.ms += ms;
  }
}

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

export function worker(w: World, clock: TestClock, opts: JourneyEngineOptions & { netPolicy?: NetPolicy; secret?: string } = {}): JourneyWorker {
  return new JourneyWorker({ db: w.db, log: pino({ level: 'silent' }), netPolicy: opts.netPolicy, secret: opts.secret }, { now: clock.now, appIds: [w.appId], ...opts });
}

/** `n` people with e-mail addresses; answers their ids in order. */
export async function people(w: World, n: number, prefix = randomUUID().slice(0, 8)): Promise<string[]> {
  const { rows } = await w.db.query<{ id: string }>(
    `INSERT INTO people (app_id, customer_id, email, country) SELECT $1, $2 || '-' || g, $2 || '-' || g || '@example.test', 'ES' FROM generate_series(1, $3::int) g
     RETURNING id::text`, [w.appId, prefix, n]);
  return rows.map((r) => r.id).sort((a, b) => Number(a) - Number(b));
}

/** An approved e-mail message of origin automaticJourney; answers its campaign and message ids. */
export async function journeyMessage(w: World): Promise<{ campaignId: string; messageId: string }> {
  const messageId = randomUUID();
  const campaignId = (await w.db.query<{ id: string }>(`INSERT INTO campaigns (account_id, app_id, name, created_by) VALUES ($1, $2, $3, $4) RETURNING id`,
    [w.accountId, w.appId, `C ${messageId}`, w.userId])).rows[0]?.id ?? '';
  await w.db.query(
    `INSERT INTO messages (id, account_id, app_id, campaign_id, name, type, origin, status, doc_name, created_by, owner_id, approved_version)
     VALUES ($1, $2, $3, $4, $5, 'email', 'automaticJourney', 'Approved', $6, $7, $7, 1)`,
    [messageId, w.accountId, w.appId, campaignId, `M ${messageId}`, `message/${w.appId}/${messageId}`, w.userId]);
  const d = createMessageDraft('email', 'automaticJourney');
  const definition: MessageDraft = {
    ...d, name: 'Journey mail', target: { kind: 'none' },
    variants: d.variants.map((v) => ({ ...v, content: Object.fromEntries(Object.entries(v.content).map(([lang, c]) => [lang, { ...c, subject: 'Hello', sender_email: 'news@example.com', sender_name: 'News', html_body: '<p>Hi</p>' }])) })),
  };
  const submissionId = (await w.db.query<{ id: string }>(
    `INSERT INTO message_submissions (message_id, number, definition, yjs_state, state_vector, sha256, submitted_by, outcome) VALUES ($1, 1, $2, '\\x00', '\\x00', 'x', $3, 'approved') RETURNING id`,
    [messageId, definition, w.userId])).rows[0]?.id;
  await w.db.query(`INSERT INTO message_versions (message_id, version, submission_id, definition, yjs_state, state_vector, sha256) VALUES ($1, 1, $2, $3, '\\x00', '\\x00', 'x')`, [messageId, submissionId, definition]);
  return { campaignId, messageId };
}

/** Launches `journey` as the journey's next version (a new journey unless `journeyId`), as launch.ts does; answers its id and version. */
export async function launch(w: World, journey: Journey, journeyId?: string): Promise<{ journeyId: string; version: number }> {
  const id = journeyId ?? randomUUID();
  if (!journeyId) {
    await w.db.query(`INSERT INTO journeys (id, account_id, app_id, name, doc_name, created_by) VALUES ($1, $2, $3, $4, $5, $6)`,
      [id, w.accountId, w.appId, `J ${id}`, `journey/${w.appId}/${id}`, w.userId]);
  }
  const version = ((await w.db.query<{ v: number }>('SELECT coalesce(max(version), 0) + 1 AS v FROM journey_versions WHERE journey_id = $1', [id])).rows[0]?.v ?? 1);
  await w.db.query(`INSERT INTO journey_versions (journey_id, version, definition, yjs_state, state_vector, sha256, launched_by) VALUES ($1, $2, $3, '\\x00', '\\x00', 'x', $4)`,
    [id, version, JSON.stringify(journey), w.userId]);
  await w.db.query(`UPDATE journeys SET status = 'live', live_version = $2 WHERE id = $1`, [id, version]);
  await journeyLaunched(w.db, processVersions, { journeyId: id, appId: w.appId, version, definition: journey });
  return { journeyId: id, version };
}

export async function stop(w: World, journeyId: string): Promise<void> {
  const { rows } = await w.db.query<{ live_version: number }>(`UPDATE journeys SET status = 'stopped' WHERE id = $1 RETURNING live_version`, [journeyId]);
  await journeyStopped(w.db, processVersions, { journeyId, appId: w.appId, version: rows[0]?.live_version ?? null });
}

/** What ingestion writes for an event someone listens for (features/ingest/triggers.ts), at `at`. */
export async function inboxEvent(db: Queryable, appId: string, personId: string, name: string, at: Date, properties: Record<string, unknown> = {}): Promise<void> {
  await db.query(
    `INSERT INTO trigger_inbox (consumer, app_id, person_id, kind, name, at, properties, client_id) VALUES ('journeys', $1, $2, 'event', $3, $4, $5, $6)`,
    [appId, personId, name, at, JSON.stringify(properties), randomUUID()]);
}

/** An event in `events` (flowEvent reads them there), with its inbox row when `inbox`. */
export async function event(w: World, personId: string, name: string, at: Date, inbox = true): Promise<void> {
  await w.db.query(`INSERT INTO events (app_id, event_time, received_at, client_id, person_id, device_id, name) VALUES ($1, $2, $2, $3, $4, 0, $5)`,
    [w.appId, at, randomUUID(), personId, name]);
  // What ingestion keeps beside the events (the person-month day bitmaps segment conditions read).
  await w.db.query('SELECT gd_rebuild_event_rollup($1)', [w.appId]);
  if (inbox) await inboxEvent(w.db, w.appId, personId, name, at);
}

/** An interaction with a journey's message step (message_interactions) and its inbox row. */
/** An interaction as reported: with its journey and step (e-mail tracking), or naming only the message (push and in-app SDKs: null journey and step). */
export async function interaction(w: World, personId: string, kind: string, at: Date, j: { journeyId: string | null; stepId: string | null; messageId: string }): Promise<void> {
  await w.db.query(
    `INSERT INTO message_interactions (app_id, event_time, client_id, person_id, device_id, channel, kind, message_id, journey_id, step_id) VALUES ($1, $2, $3, $4, 0, 'email', $5, $6, $7, $8)`,
    [w.appId, at, randomUUID(), personId, kind, j.messageId, j.journeyId, j.stepId]);
  await w.db.query(
    `INSERT INTO trigger_inbox (consumer, app_id, person_id, kind, name, at, client_id, message_id, journey_id, step_id) VALUES ('journeys', $1, $2, 'interaction', $3, $4, $5, $6, $7, $8)`,
    [w.appId, personId, kind, at, randomUUID(), j.messageId, j.journeyId, j.stepId]);
}

/** An audience of these people (import-like: members written directly). */
export async function audience(w: World, personIds: readonly string[]): Promise<string> {
  const id = (await w.db.query<{ id: string }>(`INSERT INTO audiences (account_id, app_id, name, source_type, status, refreshed_at) VALUES ($1, $2, $3, 'csv', 'ready', now()) RETURNING id`,
    [w.accountId, w.appId, `A ${randomUUID()}`])).rows[0]?.id ?? '';
  await w.db.query(`INSERT INTO audience_members (app_id, audience_id, person_id) SELECT $1, $2, unnest($3::bigint[])`, [w.appId, id, [...personIds]]);
  return id;
}

export async function entriesOf(db: Queryable, journeyId: string): Promise<{ id: string; person_id: string; status: string; step_id: string; end_reason: string | null; version: number; converted_at: Date | null; conversion_step_id: string | null }[]> {
  return (await db.query<{ id: string; person_id: string; status: string; step_id: string; end_reason: string | null; version: number; converted_at: Date | null; conversion_step_id: string | null }>(
    `SELECT id::text, person_id::text, status, step_id, end_reason, version, converted_at, conversion_step_id FROM journey_entries WHERE journey_id = $1 ORDER BY id`, [journeyId])).rows;
}

export async function passagesOf(db: Queryable, entryId: string): Promise<{ step_id: string; path_id: string | null; at: Date; reason: string; detail: string | null; effect_kind: string | null; effect_status: string | null; effect_reason: string | null }[]> {
  return (await db.query<{ step_id: string; path_id: string | null; at: Date; reason: string; detail: string | null; effect_kind: string | null; effect_status: string | null; effect_reason: string | null }>(
    `SELECT step_id, path_id, at, reason, detail, effect_kind, effect_status, effect_reason FROM journey_passages WHERE entry_id = $1 ORDER BY id`, [entryId])).rows;
}
