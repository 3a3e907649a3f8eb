/**
 * The delivery entry point of journeys and automatic rules (docs/design/journey-engine.md §3): a
 * message to some people, one at a time, through the same outbox, workers, frequency caps, quiet
 * hours and rate limits as every message.
 *
 * - Standing runs: an automatic message is never played; each of its approved versions has one
 *   run per kind (`journey` or `rule`, migration 031), made on first use, which never resolves an
 *   audience and never finishes. Rows come from `enqueueSends`, each with the caller's idempotency
 *   key, so the engine that retries a transition writes nothing twice.
 * - Runs in the caller's transaction: a journey's transition and its outbox row commit together
 *   (a worker killed in between leaves neither).
 * - What goes out: the message's latest approved version, while the message is in
 *   STANDING_STATUSES (approved, not paused, not deleted). A request that cannot be sent answers
 *   `skipped` with why (the journey records it on the step and moves the person on).
 * - `cancelQueued`: exit criteria and a stopped journey skip an entry's rows still queued.
 */
import type { MessageDraft, MessageOrigin } from '@gd/shared';
import { STANDING_STATUSES, type CommunicationStatus } from '@gd/shared/message/lifecycle';
import type { DbClient, Queryable } from '../../db/pool.ts';
import { writePage, type PagePerson } from './resolve.ts';

export interface SendRequest {
  appId: string;
  accountId: string;
  messageId: string;
  personId: string;
  origin: Extract<MessageOrigin, 'automaticJourney' | 'automaticRule'>;
  /** Journeys: `j:<journeyId>:<version>:<stepId>:<personId>:<entryId>`; rules: `r:<ruleId>:<personId>:<occasion>`. */
  idempotencyKey: string;
  journeyEntryId?: string | undefined;
  journeyId?: string | undefined;
  stepId?: string | undefined;
}

export type SkipReason = 'message_gone' | 'not_approved' | 'paused' | 'no_address' | 'wrong_origin' | 'person_gone';
export type SendResult = { status: 'queued' | 'duplicate' } | { status: 'skipped'; reason: SkipReason };

interface MessageRow {
  id: string; app_id: string; origin: MessageOrigin; status: CommunicationStatus; deleted: boolean;
  version: number | null; definition: MessageDraft | null; app_zone: string | null;
}

const kindOf = (origin: SendRequest['origin']) => (origin === 'automaticJourney' ? 'journey' : 'rule');

/** Queues each request (see the module doc); answers one result per request, in order. */
export async function enqueueSends(client: DbClient, items: readonly SendRequest[], now: Date): Promise<SendResult[]> {
  const results: SendResult[] = new Array<SendResult>(items.length);
  const byMessage = new Map<string, number[]>();
  items.forEach((item, i) => byMessage.set(`${item.messageId}\u0000${item.origin}`, [...(byMessage.get(`${item.messageId}\u0000${item.origin}`) ?? []), i]));
  const messages = await messagesOf(client, [...new Set(items.map((i) => i.messageId))]);
  for (const indexes of byMessage.values()) {
    const first = items[indexes[0] ?? -1];
    if (!first) continue;
    const message = messages.get(first.messageId);
    const refused = refusalOf(message, first);
    if (refused || !message?.definition || message.version === null) {
      for (const i of indexes) results[i] = { status: 'skipped', reason: refused ?? 'not_approved' };
      continue;
    }
    const runId = await standingRun(client, message, first, now);
    const run = { id: runId, app_id: message.app_id, message_id: message.id, kind: kindOf(first.origin), occurrence: 0 } as const;
    const definition = message.definition;
    const people = new Map((await peopleOf(client, first.appId, [...new Set(indexes.map((i) => (items[i] as SendRequest).personId))])).map((p) => [p.id, p]));
    // A page holds each person once (its rows are keyed by person): two requests for one person
    // (two entries of a journey, an entry key) go in successive rounds.
    for (const round of distinctPeopleRounds(indexes, (i) => (items[i] as SendRequest).personId)) {
      const byPerson = new Map(round.map((i) => [(items[i] as SendRequest).personId, items[i] as SendRequest]));
      const page = [...byPerson.keys()].flatMap((id) => people.get(id) ?? []);
      const written = await writePage(client, run, definition, page, message.app_zone ?? 'UTC', now, {
        keyOf: (personId) => byPerson.get(personId)?.idempotencyKey ?? `${runId}:${personId}`,
        journeyOf: (personId) => {
          const g = byPerson.get(personId);
          return { entryId: g?.journeyEntryId ?? null, journeyId: g?.journeyId ?? null, stepId: g?.stepId ?? null };
        },
      });
      for (const i of round) {
        const personId = (items[i] as SendRequest).personId;
        results[i] = !people.has(personId) ? { status: 'skipped', reason: 'person_gone' }
          : !written.addressed.has(personId) ? { status: 'skipped', reason: 'no_address' }
            : written.inserted.has(personId) ? { status: 'queued' } : { status: 'duplicate' };
      }
    }
  }
  return results;
}

/** `indexes` split into rounds in which each person appears once, in order. */
function distinctPeopleRounds(indexes: readonly number[], personOf: (i: number) => string): number[][] {
  const rounds: number[][] = [];
  const seen: Set<string>[] = [];
  for (const i of indexes) {
    const person = personOf(i);
    let r = seen.findIndex((s) => !s.has(person));
    if (r === -1) {
      r = rounds.length;
      rounds.push([]);
      seen.push(new Set());
    }
    rounds[r]?.push(i);
    seen[r]?.add(person);
  }
  return rounds;
}

function refusalOf(message: MessageRow | undefined, request: SendRequest): SkipReason | null {
  if (!message || message.deleted || message.app_id !== request.appId) return 'message_gone';
  if (message.origin !== request.origin) return 'wrong_origin';
  if (message.status === 'Paused') return 'paused';
  if (!STANDING_STATUSES.includes(message.status) || message.version === null) return 'not_approved';
  return null;
}

async function messagesOf(db: Queryable, ids: readonly string[]): Promise<Map<string, MessageRow>> {
  const { rows } = await db.query<MessageRow>(
    `SELECT m.id, m.app_id, m.origin, m.status, (m.deleted_at IS NOT NULL OR m.status = 'Deleted') AS deleted, v.version, v.definition,
            (SELECT a.timezone FROM apps a WHERE a.id = m.app_id) AS app_zone
       FROM messages m
       LEFT JOIN LATERAL (SELECT version, definition FROM message_versions WHERE message_id = m.id ORDER BY version DESC LIMIT 1) v ON true
      WHERE m.id = ANY($1::uuid[])`,
    [ids.filter((id) => /^[0-9a-f-]{36}$/i.test(id))]);
  return new Map(rows.map((r) => [r.id, r]));
}

/** The message version's standing run of this kind, made on first use (two makers agree on one). */
async function standingRun(client: DbClient, message: MessageRow, request: SendRequest, now: Date): Promise<string> {
  const kind = kindOf(request.origin);
  const found = await client.query<{ id: string }>(`SELECT id FROM message_sends WHERE message_id = $1 AND version = $2 AND kind = $3`, [message.id, message.version, kind]);
  if (found.rows[0]) return found.rows[0].id;
  await client.query(
    `INSERT INTO message_sends (account_id, app_id, message_id, version, definition, kind, origin, state, not_before, resolved_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'sending', $8, $8)
     ON CONFLICT (message_id, version, kind) WHERE kind IN ('journey', 'rule') DO NOTHING`,
    [request.accountId, message.app_id, message.id, message.version, message.definition, kind, request.origin, now]);
  const made = await client.query<{ id: string }>(`SELECT id FROM message_sends WHERE message_id = $1 AND version = $2 AND kind = $3`, [message.id, message.version, kind]);
  const id = made.rows[0]?.id;
  if (!id) throw new Error(`standing run of message ${message.id} not made`);
  return id;
}

async function peopleOf(db: Queryable, appId: string, ids: readonly string[]): Promise<PagePerson[]> {
  const { rows } = await db.query<PagePerson>(
    `SELECT p.id::text, p.email, p.time_zone, p.attributes->>'language' AS language
       FROM people p WHERE p.app_id = $1 AND p.id = ANY($2::bigint[]) AND p.merged_into IS NULL ORDER BY p.id`,
    [appId, ids]);
  return rows;
}

/**
 * Skips the queued rows of these journey entries (exit criteria, a stopped journey); answers how
 * many. A row a worker is sending at that moment is left to it: it was already on its way.
 */
export async function cancelQueued(client: Queryable, journeyEntryIds: readonly string[], reason: string): Promise<number> {
  if (journeyEntryIds.length === 0) return 0;
  const { rowCount } = await client.query(
    `UPDATE message_outbox SET status = 'skipped', error = $2
      WHERE journey_entry_id = ANY($1::bigint[]) AND status = 'queued' AND (locked_until IS NULL OR locked_until < now())`,
    [journeyEntryIds, reason]);
  return rowCount ?? 0;
}
