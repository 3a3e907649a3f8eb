/**
 * What a delivery worker keeps between batches: each run's definition (immutable), each account's
 * mail transport, each app's push clients and limits, and whether a message still runs. Every map
 * is bounded; entries are checked again after a short while so a changed provider takes over.
 *
 * The mail transport is a pool of SMTP connections: it is kept while the account's active
 * provider row is the same (its id and `updated_at`), made once when several sends ask at the same
 * moment, and a replaced pool is closed only after the sends already handed to it had time to end
 * (longer than its socket timeout), so an edit never fails mail in flight.
 */
import { DELIVERING_STATUSES, STANDING_STATUSES } from '@gd/shared/message/lifecycle';
import type { Queryable } from '../../db/pool.ts';
import { publicOnly } from '../../net/index.ts';
import { activeMailTransport, SEND_SOCKET_MS } from '../mailProviders/transport.ts';
import { loadPushClient } from './push/credentials.ts';
import { RunDefinitions, type RunRecord } from './runDefinitions.ts';
import type { SenderDeps } from './send.ts';

export type Run = RunRecord;

type MailTransport = Awaited<ReturnType<typeof activeMailTransport>>;

/** How long a provider's settings are trusted before they are read again. */
const RECHECK_MS = 30_000;
/** Entries kept per map: far more than the runs, accounts and apps one worker sends for at once. */
const MAX_ENTRIES = 500;

/** A map that forgets its oldest entries beyond MAX_ENTRIES. */
class Bounded<V> extends Map<string, V> {
  override set(key: string, value: V): this {
    super.delete(key);
    super.set(key, value);
    if (this.size > MAX_ENTRIES) {
      const oldest = this.keys().next();
      if (!oldest.done) this.delete(oldest.value);
    }
    return this;
  }
}

export class SenderCache {
  private definitions = new RunDefinitions(MAX_ENTRIES);
  private transports = new Bounded<{ checkedAt: number; version: string; value: Promise<MailTransport> }>();
  /** Each message's answer and when it was asked: the sends of a batch that ask together share one question. */
  private running = new Bounded<{ at: number; running: Promise<boolean> }>();
  private push = new Bounded<{ at: number; value: Awaited<ReturnType<typeof loadPushClient>> }>();
  private pushRates = new Bounded<{ at: number; value: number | null }>();
  private retiring = new Set<NodeJS.Timeout>();

  /** The runs of a batch's rows, those not cached read in one query. */
  runs(db: Queryable, sendIds: readonly string[]): Promise<Map<string, Run>> {
    return this.definitions.many(db, sendIds);
  }

  /** The account's active mail transport, or null when it has none. */
  async mail(deps: SenderDeps, accountId: string): Promise<MailTransport> {
    const cached = this.transports.get(accountId);
    if (cached && Date.now() - cached.checkedAt < RECHECK_MS) return cached.value;
    const { rows } = await deps.db.query<{ version: string }>(
      `SELECT id || ':' || updated_at::text AS version FROM mail_providers WHERE account_id = $1 AND active`, [accountId]);
    const version = rows[0]?.version ?? '';
    const again = this.transports.get(accountId);
    if (again && again.version === version) {
      again.checkedAt = Date.now();
      return again.value;
    }
    const value = activeMailTransport(deps.db, deps.secret, accountId, ...(deps.netPolicy ? [deps.netPolicy] : []));
    // A failure is not kept: the next send asks again.
    value.catch(() => {
      if (this.transports.get(accountId)?.value === value) this.transports.delete(accountId);
    });
    this.transports.set(accountId, { checkedAt: Date.now(), version, value });
    if (again) this.retire(again.value);
    return value;
  }

  /** Closes a replaced pool once the sends already on it have had their socket timeout to end. */
  private retire(old: Promise<MailTransport>): void {
    const timer = setTimeout(() => {
      this.retiring.delete(timer);
      void old.then((t) => t?.pool.close(), () => undefined);
    }, SEND_SOCKET_MS + 5_000);
    timer.unref();
    this.retiring.add(timer);
  }

  /**
   * Whether the message still runs (read at most every 250 ms): a pause stops a batch in the middle.
   * A standing run's message (a journey's or rule's, enqueue.ts) runs while it is approved and not paused.
   */
  async stillRunning(db: Queryable, messageId: string, standing = false): Promise<boolean> {
    const key = `${messageId}:${standing}`;
    const cached = this.running.get(key);
    if (cached && Date.now() - cached.at < 250) return cached.running;
    const running = db.query<{ status: string; deleted: boolean }>('SELECT status, deleted_at IS NOT NULL AS deleted FROM messages WHERE id = $1', [messageId])
      .then(({ rows: [row] }) => !!row && !row.deleted && ((standing ? STANDING_STATUSES : DELIVERING_STATUSES) as readonly string[]).includes(row.status));
    // A failed question is not kept: the next send asks again.
    running.catch(() => {
      if (this.running.get(key)?.running === running) this.running.delete(key);
    });
    this.running.set(key, { at: Date.now(), running });
    return running;
  }

  /** The app's client for a provider (loadPushClient keeps one per credentials row; asked again after a while). */
  async pushClient(deps: SenderDeps, appId: string, provider: 'apns' | 'fcm') {
    const key = `${appId}:${provider}`;
    const cached = this.push.get(key);
    if (cached && Date.now() - cached.at < RECHECK_MS) return cached.value;
    const value = await loadPushClient(deps.db, deps.secret, appId, provider, { policy: deps.netPolicy ?? publicOnly() });
    this.push.set(key, { at: Date.now(), value });
    return value;
  }

  /** The app's push provider's rate limit (sends a second; null: none). */
  async pushRate(db: Queryable, appId: string, provider: 'apns' | 'fcm'): Promise<number | null> {
    const key = `${appId}:${provider}`;
    const cached = this.pushRates.get(key);
    if (cached && Date.now() - cached.at < RECHECK_MS) return cached.value;
    const { rows } = await db.query<{ rate_per_second: number | null }>('SELECT rate_per_second FROM app_push_credentials WHERE app_id = $1 AND provider = $2', [appId, provider]);
    const value = rows[0]?.rate_per_second ?? null;
    this.pushRates.set(key, { at: Date.now(), value });
    return value;
  }

  /** Closes every pool (the worker stops). */
  close(): void {
    for (const timer of this.retiring) clearTimeout(timer);
    this.retiring.clear();
    for (const t of this.transports.values()) void t.value.then((v) => v?.pool.close(), () => undefined);
    this.transports.clear();
    this.push.clear();
  }
}
