/**
 * Runs whose outbox has nothing left to send are finished (a journey's or rule's standing run,
 * enqueue.ts, never is: its rows come one at a time for as long as the message may send): the message moves Sending → Finished
 * (or stays Active until a recurring schedule's next occurrence, whose run is made here), a test
 * run moves Testing back to Draft. A live run's in-app rows count as waiting while they are on
 * offer (until their `expires_at`; without a `life`, until the message is paused: an in-app message
 * runs as long as it is shown). A paused message played again whose run was already resolved moves
 * straight back to Sending.
 *
 * Each run finishes in one transaction with what follows from it (the next occurrence, the
 * message's status), so a worker killed in between leaves the run to finish again, never a
 * finished run whose message stays Sending; one run that fails does not hold up the others.
 */
import type { Logger } from 'pino';
import type { MessageSchedule } from '@gd/shared';
import { tx, type Db } from '../../db/pool.ts';
import { applySystemEvent } from './resolve.ts';
import { nextOccurrence } from './timing.ts';

/**
 * Nothing of the run is waiting to be sent or offered. Two probes per run, each a lookup in an index
 * of its own (message_outbox_send_due, migration 029; message_outbox_in_app_send, 057). Written as
 * scalar subqueries with LIMIT 1 so that they stay per-run lookups: as one NOT EXISTS with an OR the
 * planner scanned the outbox until a match (0.3 s a tick beside a paused 1,000,000-row run), and an
 * anti join may walk every queued row of a large run to get past it. The first is ordered as its
 * index is, so the planner reads the index rather than scanning the table in the hope of an early
 * match (a run whose first rows are sent has none there).
 */
const DONE = `(SELECT 1 FROM message_outbox o WHERE o.send_id = s.id AND o.status = 'queued' AND o.channel <> 'inApp' ORDER BY o.run_at, o.id LIMIT 1) IS NULL
  -- A live run's in-app rows keep it running while they are on offer (a test's do not: they expire on their own).
  AND (s.kind <> 'live' OR (
    SELECT 1 FROM message_outbox o WHERE o.send_id = s.id AND o.channel = 'inApp' AND o.status IN ('queued', 'sent') AND (o.expires_at IS NULL OR o.expires_at > now()) LIMIT 1) IS NULL)`;

export async function finishRuns(db: Db, log: Logger, now: () => Date = () => new Date()): Promise<void> {
  const { rows: resumed } = await db.query<{ message_id: string }>(
    `SELECT DISTINCT s.message_id FROM message_sends s JOIN messages m ON m.id = s.message_id WHERE s.kind IN ('live', 'winner') AND s.state = 'sending' AND m.status = 'Processing'`);
  for (const r of resumed) await tx(db, (c) => applySystemEvent(c, r.message_id, ['processed', 'sendStarted']));
  const { rows: candidates } = await db.query<{ id: string }>(`SELECT s.id FROM message_sends s WHERE s.state = 'sending' AND s.kind IN ('live', 'test', 'winner') AND ${DONE}`);
  for (const { id } of candidates) {
    try {
      await finishRun(db, log, id, now());
    } catch (error) {
      log.error({ err: error, run: id }, 'finishing a message run failed; it is tried again on the next tick');
    }
  }
}

async function finishRun(db: Db, log: Logger, id: string, now: Date): Promise<void> {
  await tx(db, async (c) => {
    const { rows } = await c.query<{ message_id: string; kind: 'live' | 'test' | 'winner'; occurrence: number; schedule: MessageSchedule; app_zone: string | null }>(
      `UPDATE message_sends s SET state = 'finished', finished_at = now()
        WHERE s.id = $1 AND s.state = 'sending' AND ${DONE}
        RETURNING s.message_id, s.kind, s.occurrence, s.definition->'schedule' AS schedule, (SELECT a.timezone FROM apps a WHERE a.id = s.app_id) AS app_zone`,
      [id]);
    const r = rows[0];
    // Another worker finished it first, or a row came back to the queue meanwhile.
    if (!r) return;
    // A recurring message's live run makes the run of its next occurrence, and the message stays Active until then.
    const next = r.kind === 'live' ? nextOccurrence(r.schedule, r.occurrence, r.app_zone ?? 'UTC', now) : null;
    if (next) {
      await c.query(
        `INSERT INTO message_sends (account_id, app_id, message_id, version, definition, kind, origin, not_before, created_by, occurrence)
         SELECT account_id, app_id, message_id, version, definition, 'live', origin, $2, created_by, $3 FROM message_sends WHERE id = $1
         ON CONFLICT (message_id, version, occurrence) WHERE kind = 'live' DO NOTHING`,
        [id, next.notBefore, next.occurrence]);
    }
    await applySystemEvent(c, r.message_id, r.kind === 'test' ? ['testDone'] : ['sendDone'], { staysLive: next !== null });
    log.info({ run: id, message: r.message_id, kind: r.kind, ...(next ? { nextOccurrence: next.occurrence, nextAt: next.notBefore.toISOString() } : {}) }, 'message run finished');
  });
}
