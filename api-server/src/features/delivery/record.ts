/**
 * The outcomes of a batch's sends, written to their outbox rows (only rows this worker still
 * holds): sent, retried with backoff until MAX_ATTEMPTS, failed, retired (a dead device token is
 * dropped from its device, a bounced mailbox suppressed), skipped, or put back (released by a
 * pause, deferred by a rate limit or a cap). send.ts decides them; Recorder writes the sends' own
 * as they end, several to a write.
 */
import type { Logger } from 'pino';
import type { Queryable } from '../../db/pool.ts';
import type { Outcome } from './outcome.ts';
import { backoffMs } from './push/result.ts';
import type { OutboxRow } from './send.ts';

export const MAX_ATTEMPTS = 8;

/** Writes the batch's outcomes (only rows this worker still holds). */
export async function record(db: Queryable, workerId: string, rows: readonly OutboxRow[], outcomes: ReadonlyMap<string, Outcome>, now: Date): Promise<void> {
  const ids: string[] = [], statuses: string[] = [], errors: (string | null)[] = [], providers: (string | null)[] = [], runAts: (Date | null)[] = [];
  const released: string[] = [];
  const deferred: { id: string; until: Date }[] = [];
  for (const row of rows) {
    const o = outcomes.get(row.id);
    if (!o) continue;
    if (o.status === 'released') {
      released.push(row.id);
      continue;
    }
    if (o.status === 'deferred') {
      deferred.push({ id: row.id, until: o.until });
      continue;
    }
    const exhausted = o.status === 'retry' && row.attempts >= MAX_ATTEMPTS;
    ids.push(row.id);
    statuses.push(o.status === 'retry' ? (exhausted ? 'failed' : 'queued') : o.status);
    errors.push(o.status === 'sent' ? null : o.reason);
    providers.push(o.status === 'sent' ? o.providerId ?? null : null);
    runAts.push(o.status === 'retry' && !exhausted ? new Date(now.getTime() + backoffMs(row.attempts, o.retryAfterMs)) : null);
  }
  if (released.length) {
    await db.query('UPDATE message_outbox SET locked_by = NULL, locked_until = NULL, attempts = attempts - 1 WHERE id = ANY($2::bigint[]) AND locked_by = $1', [workerId, released]);
  }
  if (deferred.length) {
    await db.query(
      `UPDATE message_outbox o SET run_at = x.until, locked_by = NULL, locked_until = NULL, attempts = o.attempts - 1
         FROM unnest($2::bigint[], $3::timestamptz[]) AS x(id, until) WHERE o.id = x.id AND o.locked_by = $1`,
      [workerId, deferred.map((d) => d.id), deferred.map((d) => d.until)]);
  }
  if (ids.length === 0) return;
  await db.query(
    `UPDATE message_outbox o SET status = x.status, error = x.error, provider_id = x.provider,
            sent_at = CASE WHEN x.status = 'sent' THEN $7::timestamptz ELSE o.sent_at END,
            run_at = coalesce(x.run_at, o.run_at), locked_by = NULL, locked_until = NULL
       FROM unnest($2::bigint[], $3::text[], $4::text[], $5::text[], $6::timestamptz[]) AS x(id, status, error, provider, run_at)
      WHERE o.id = x.id AND o.locked_by = $1`,
    [workerId, ids, statuses, errors, providers, runAts, now]);
  // A dead device token is dropped from its device: no more pushes to it, and the person's push reach follows (migration 017).
  const deadTokens = rows.filter((r) => r.channel === 'push' && outcomes.get(r.id)?.status === 'retired');
  if (deadTokens.length) {
    await db.query(
      `UPDATE devices d SET push_token = NULL, web_push = NULL FROM unnest($1::uuid[], $2::text[]) AS x(app_id, token) WHERE d.app_id = x.app_id AND d.push_token = x.token`,
      [deadTokens.map((r) => r.app_id), deadTokens.map((r) => r.address)]);
  }
  // A mailbox that answered 5xx gets no more e-mail from the app.
  const bounced = rows.filter((r) => r.channel === 'email' && outcomes.get(r.id)?.status === 'retired');
  if (bounced.length) {
    await db.query(
      `INSERT INTO email_suppressions (app_id, email, reason) SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[]) ON CONFLICT DO NOTHING`,
      [bounced.map((r) => r.app_id), bounced.map((r) => r.address), bounced.map(() => 'bounced')]);
  }
}

/**
 * Group commit of the outcomes of a batch's sends: each send's outcome is written before its lane
 * sends again, and the outcomes that arrive while a write is under way go together in the next
 * one. At 2,000 e-mails a second that is a write every few milliseconds instead of one per
 * message, and a killed worker still leaves only the sends in flight unmarked.
 */
export class Recorder {
  private waiting: { row: OutboxRow; outcome: Outcome; done: (recorded: boolean) => void }[] = [];
  private flushing = false;
  private readonly db: Queryable;
  private readonly workerId: string;
  private readonly clock: () => Date;
  private readonly log: Logger;

  constructor(db: Queryable, workerId: string, clock: () => Date, log: Logger) {
    this.db = db;
    this.workerId = workerId;
    this.clock = clock;
    this.log = log;
  }

  /** Whether the outcome was written (false: the write failed; the row stays leased). */
  record(row: OutboxRow, outcome: Outcome): Promise<boolean> {
    return new Promise((done) => {
      this.waiting.push({ row, outcome, done });
      if (!this.flushing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    while (this.waiting.length > 0) {
      const group = this.waiting.splice(0);
      let recorded = true;
      try {
        await record(this.db, this.workerId, group.map((g) => g.row), new Map(group.map((g) => [g.row.id, g.outcome])), this.clock());
      } catch (error) {
        recorded = false;
        this.log.error({ err: error, rows: group.map((g) => g.row.id) }, 'recording sends failed');
      }
      for (const g of group) g.done(recorded);
    }
    this.flushing = false;
  }
}
