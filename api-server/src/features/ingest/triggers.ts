/**
 * The trigger inbox (migration 031; docs/design/journey-engine.md §4): what ingestion tells the
 * journey engine and the automatic rules. For each new event or interaction whose name a consumer
 * registered in `trigger_interests` (journeys: source, exit, goal and branch events; rules: their
 * events; `$interaction` for every interaction), one `trigger_inbox` row per consumer is written in
 * the caller's transaction, so a crash after the ingest commits loses nothing, and an event nobody
 * listens for costs one indexed join and writes nothing. Consumers lease, act and delete.
 */
import type { Queryable } from '../../db/pool.ts';

/** The interest name that stands for every message interaction. */
export const ANY_INTERACTION = '$interaction';

export interface TriggerEvent { name: string; at: Date; properties: Record<string, unknown>; clientId: string }
export interface TriggerInteraction { kind: string; at: Date; clientId: string; messageId: string | null; journeyId: string | null; stepId: string | null }

/** Inbox rows for the events someone listens for; answers how many were written. */
export async function recordEventTriggers(db: Queryable, appId: string, personId: string, events: readonly TriggerEvent[]): Promise<number> {
  if (events.length === 0) return 0;
  const { rowCount } = await db.query(
    `INSERT INTO trigger_inbox (consumer, app_id, person_id, kind, name, at, properties, client_id)
     SELECT i.consumer, $1, $2, 'event', x.name, x.at, x.properties, x.client_id
       FROM unnest($3::text[], $4::timestamptz[], $5::jsonb[], $6::text[]) AS x(name, at, properties, client_id)
       JOIN trigger_interests i ON i.app_id = $1 AND i.name = x.name`,
    [appId, personId, events.map((e) => e.name), events.map((e) => e.at), events.map((e) => JSON.stringify(e.properties)), events.map((e) => e.clientId)]);
  return rowCount ?? 0;
}

/** Inbox rows for interactions, for the consumers that listen for them; answers how many were written. */
export async function recordInteractionTriggers(db: Queryable, appId: string, personId: string, interactions: readonly TriggerInteraction[]): Promise<number> {
  if (interactions.length === 0) return 0;
  const { rowCount } = await db.query(
    `INSERT INTO trigger_inbox (consumer, app_id, person_id, kind, name, at, client_id, message_id, journey_id, step_id)
     SELECT i.consumer, $1, $2, 'interaction', x.kind, x.at, x.client_id, x.message_id, x.journey_id, x.step_id
       FROM unnest($3::text[], $4::timestamptz[], $5::text[], $6::text[], $7::text[], $8::text[]) AS x(kind, at, client_id, message_id, journey_id, step_id)
       JOIN trigger_interests i ON i.app_id = $1 AND i.name = '${ANY_INTERACTION}'`,
    [appId, personId, interactions.map((i) => i.kind), interactions.map((i) => i.at), interactions.map((i) => i.clientId),
      interactions.map((i) => i.messageId), interactions.map((i) => i.journeyId), interactions.map((i) => i.stepId)]);
  return rowCount ?? 0;
}

/** Replaces a consumer's interests of an app (in the caller's transaction). */
export async function setInterests(db: Queryable, appId: string, consumer: 'journeys' | 'rules', names: readonly string[]): Promise<void> {
  await db.query(`DELETE FROM trigger_interests WHERE app_id = $1 AND consumer = $2 AND NOT (name = ANY($3::text[]))`, [appId, consumer, [...names]]);
  if (names.length) {
    await db.query(`INSERT INTO trigger_interests (app_id, consumer, name) SELECT $1, $2, n FROM unnest($3::text[]) AS n ON CONFLICT DO NOTHING`, [appId, consumer, [...new Set(names)]]);
  }
}
