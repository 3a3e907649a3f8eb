/**
 * Workers of the outbox (migration 020): lease due rows, send each through its channel, record the
 * outcome on the row, and finish runs whose rows are all done.
 *
 * - Lease: a batch of due rows (`run_at` reached: quiet hours and local-time waves move it) of
 *   the runs of messages that are running, `FOR UPDATE SKIP LOCKED`, with a 60 s lease; any number
 *   of worker processes share the outbox. The lease reads each running run's due rows through its
 *   own index range, so a paused or deleted message's rows cost nothing however many wait. A pause
 *   stops new sends as soon as the batches in flight end, and play continues with the rows still
 *   queued. A batch renews its lease while it sends (every third of it), and a row whose lease
 *   could not be renewed in time goes back unsent: another worker may have it.
 * - Exactly once: a row is sent only under its lease and marked with its outcome right after (the
 *   marks of the sends that end together share one write: record.ts Recorder). A worker killed between a
 *   provider's acceptance and that mark leaves the row queued; when its lease expires it goes again
 *   with the same idempotency key, and the copy carries the same Message-ID (e-mail) or collapse id
 *   (push), which mailbox providers and devices show once. At most SENDS_IN_FLIGHT e-mails and
 *   PUSH_SENDS_IN_FLIGHT notifications are in that state at any moment.
 * - Throughput: a process runs SENDERS senders side by side (sendWhileDue), so one leases its next
 *   batch while the other sends; e-mails are composed by mime.ts and go through the provider's
 *   SMTP pool (mailProviders/smtpPool.ts).
 * - Channels: e-mail through the account's active mail provider (nodemailer, email.ts); push
 *   through the app's APNs (iOS devices) or FCM (the others) credentials (push/).
 * - Outcomes: `sent`; transient errors (a 4xx SMTP answer, a refused connection, a provider's 429
 *   or 503, no mail provider or push credentials configured yet) stay queued with a backoff until MAX_ATTEMPTS, then
 *   `failed`; permanent ones: `retired` (a 5xx for the mailbox, an unregistered token: the address
 *   gets no more) or `failed` (this message cannot go out, e.g. too large).
 * - Frequency caps (caps.ts): a person who already got the message's cap of messages on that
 *   channel during their current calendar day is `skipped` with the reason. Test sends bypass caps.
 * - Rate limits per provider (rateLimit.ts): what a provider's second cannot take is spread over
 *   the next seconds, without spending an attempt.
 */
import type { Logger } from 'pino';
import { DELIVERING_STATUSES, STANDING_STATUSES } from '@gd/shared/message/lifecycle';
import { createHash } from 'node:crypto';
import type { Db, Queryable } from '../../db/pool.ts';
import { publicOnly, type NetPolicy } from '../../net/index.ts';
import { together } from '../../jobs/together.ts';
import { sendWebPushRow } from './push/webPush.ts';
import { capCounts } from './caps.ts';
import { contentFor, renderEmail, type EmailPerson } from './email.ts';
import { composeForSending } from './mime.ts';
import { pushOutcome, pushProviderOf, smtpOutcome, type Outcome } from './outcome.ts';
import { claimSends, windowOf } from './rateLimit.ts';
import { Recorder, record } from './record.ts';
import type { SenderCache} from './senderCache.ts';
import { type Run } from './senderCache.ts';

export { finishRuns } from './finish.ts';
export { SenderCache } from './senderCache.ts';
export { sentToday } from './caps.ts';
export { MAX_ATTEMPTS } from './record.ts';

export const BATCH = 200;
/** How long a worker holds the rows it leased (DELIVERY_LEASE_SECONDS): a dead worker's rows go again after it. */
export const SEND_LEASE_SECONDS = 60;
/** Sends in flight per batch (its lanes); SENDERS batches run side by side (sendWhileDue). */
const SEND_CONCURRENCY = 20;
/**
 * Sends in flight per batch to APNs and FCM: all of its rows. They multiplex on HTTP/2 connections
 * (http2Endpoint.ts spreads them over its connections' streams), so a send costs no connection of
 * its own, and with the 20 lanes of e-mail a batch waited on its slowest twentieth: the pipeline
 * carried 6,300-6,500 notifications a second on one worker, and 9,800-10,200 with every row of the
 * batch in flight (docs/BENCHMARKS.md, delivery-push).
 */
const PUSH_CONCURRENCY = BATCH;
/** How long a row over the frequency cap only with other workers' sends in flight waits before it is decided again. */
const CAP_RECHECK_MS = 5_000;

export interface SenderDeps {
  db: Db;
  /** The server secret: sealed provider credentials, tracking tokens. */
  secret: string;
  /** Where recipients' links point (PUBLIC_URL or this server). */
  baseUrl: string;
  log: Logger;
  /** Which addresses SMTP connections may reach (tests allow loopback). */
  netPolicy?: NetPolicy | undefined;
}

export interface OutboxRow {
  id: string; send_id: string; app_id: string; message_id: string; person_id: string; channel: 'email' | 'push' | 'inApp';
  address: string; platform: string | null; variant_id: string; language: string; time_zone: string; test: boolean; idempotency_key: string; attempts: number;
}

/**
 * Leases up to `limit` due rows of the runs of running messages (and of test runs, and the standing
 * runs of automatic messages that are approved and not paused: enqueue.ts) for `workerId`:
 * each running run's due rows in order through its own index range (migration 029), the earliest
 * `limit` of them all.
 */
export async function leaseDue(db: Queryable, workerId: string, limit: number, now: Date, leaseSeconds = SEND_LEASE_SECONDS, appIds: readonly string[] | null = null, channel: 'push' | null = null): Promise<OutboxRow[]> {
  const { rows } = await db.query<OutboxRow>(
    `WITH running AS (
       SELECT s.id FROM message_sends s JOIN messages m ON m.id = s.message_id
        WHERE s.state <> 'finished' AND s.not_before <= $3 AND ($7::uuid[] IS NULL OR s.app_id = ANY($7::uuid[]))
          AND (s.kind = 'test' OR (s.kind IN ('journey', 'rule') AND m.deleted_at IS NULL AND m.status = ANY($6::text[])) OR m.status = ANY($5::text[]))
     ), picked AS (
       SELECT x.id FROM running r CROSS JOIN LATERAL (
         SELECT o.id, o.run_at FROM message_outbox o
          WHERE o.send_id = r.id AND o.status = 'queued' AND o.channel <> 'inApp' AND o.run_at <= $3 AND ($8::text IS NULL OR o.channel = $8::text)
            AND (o.locked_until IS NULL OR o.locked_until < $3)
          ORDER BY o.run_at, o.id LIMIT $2 FOR UPDATE SKIP LOCKED) x
       ORDER BY x.run_at, x.id LIMIT $2
     )
     UPDATE message_outbox o SET locked_by = $1, locked_until = $3::timestamptz + make_interval(secs => $4), attempts = o.attempts + 1
      WHERE o.id IN (SELECT id FROM picked)
      RETURNING o.id::text, o.send_id, o.app_id, o.message_id, o.person_id::text, o.channel, o.address, o.platform, o.variant_id, o.language,
                o.time_zone, o.test, o.idempotency_key, o.attempts`,
    [workerId, limit, now, leaseSeconds, DELIVERING_STATUSES, STANDING_STATUSES, appIds, channel]);
  return rows;
}

/**
 * A batch's hold on its rows while it sends: renewed every third of the lease for the rows not
 * yet recorded; a row is still ours only while the last renewal that kept it is comfortably
 * current. A renewal that fails (the database unreachable) renews nothing, and the rows go back
 * unsent before their lease can run out under another worker.
 */
class BatchLease {
  private pending: Set<string>;
  private validUntil: number;
  private timer: NodeJS.Timeout;
  private readonly ms: number;
  private readonly db: Queryable;
  private readonly workerId: string;
  private readonly clock: () => Date;
  private readonly log: Logger;

  constructor(db: Queryable, workerId: string, ids: readonly string[], leaseSeconds: number, clock: () => Date, log: Logger) {
    this.db = db;
    this.workerId = workerId;
    this.clock = clock;
    this.log = log;
    this.pending = new Set(ids);
    this.ms = leaseSeconds * 1000;
    this.validUntil = Date.now() + this.ms;
    this.timer = setInterval(() => void this.renew(), this.ms / 3);
    this.timer.unref();
  }

  /** Whether the row may still be sent under this lease (a third of it left at least). */
  holds(id: string): boolean {
    return this.pending.has(id) && Date.now() < this.validUntil - this.ms / 3;
  }

  done(id: string): void {
    this.pending.delete(id);
  }

  private async renew(): Promise<void> {
    if (this.pending.size === 0) return;
    const asked = Date.now();
    try {
      const { rows } = await this.db.query<{ id: string }>(
        `UPDATE message_outbox SET locked_until = $3::timestamptz + make_interval(secs => $4)
          WHERE id = ANY($2::bigint[]) AND locked_by = $1 AND status = 'queued' RETURNING id::text`,
        [this.workerId, [...this.pending], this.clock(), this.ms / 1000]);
      const kept = new Set(rows.map((r) => r.id));
      for (const id of this.pending) if (!kept.has(id)) this.pending.delete(id);
      this.validUntil = asked + this.ms;
    } catch (error) {
      this.log.warn({ err: error }, 'renewing the outbox lease failed; rows not sent in time go back to the queue');
    }
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

async function sendEmail(deps: SenderDeps, cache: SenderCache, row: OutboxRow, run: Run, person: EmailPerson | undefined): Promise<Outcome> {
  let mail;
  try {
    mail = await cache.mail(deps, run.account_id);
  } catch (error) {
    return { status: 'retry', reason: `mail provider: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (!mail) return { status: 'retry', reason: 'no_mail_provider: the account has no active mail provider' };
  let email;
  try {
    email = renderEmail({ definition: run.definition, row, person: person ?? { customer_id: null, email: row.address }, provider: mail.from, baseUrl: deps.baseUrl, secret: deps.secret });
  } catch (error) {
    return { status: 'failed', reason: error instanceof Error ? error.message : String(error) };
  }
  let composed;
  try {
    composed = await composeForSending(email, { 'X-Growthdeck-Test': row.test ? 'yes' : 'no' });
  } catch (error) {
    return { status: 'failed', reason: `invalid_message: ${error instanceof Error ? error.message : String(error)}` };
  }
  try {
    await mail.pool.send(composed.envelope, composed.raw);
    return { status: 'sent', providerId: email.messageId };
  } catch (error) {
    return smtpOutcome(error);
  }
}

/** A UUID from the row's idempotency key: the same notification id (apns-id) on every attempt. */
function uuidOf(key: string): string {
  const h = createHash('sha256').update(key).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${((parseInt(h.slice(16, 17), 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

async function sendPush(deps: SenderDeps, cache: SenderCache, row: OutboxRow, run: Run): Promise<Outcome> {
  const provider = pushProviderOf(row.platform);
  // A browser's subscription: web push with the app's VAPID keys (push/webPush.ts).
  if (provider === 'web') return pushOutcome(await sendWebPushRow({ db: deps.db, secret: deps.secret, policy: deps.netPolicy ?? publicOnly() }, row, run.definition));
  const loaded = await cache.pushClient(deps, row.app_id, provider);
  if (!loaded.ok) {
    return { status: 'retry', reason: loaded.reason === 'not_configured' ? `push_not_configured: the app has no ${provider === 'apns' ? 'APNs' : 'FCM'} credentials` : `push_credentials_unreadable: enter the ${provider === 'apns' ? 'APNs' : 'FCM'} key again` };
  }
  const content = contentFor(run.definition, row.variant_id, row.language);
  if (!content) return { status: 'failed', reason: `no content for variant ${row.variant_id}` };
  const id = uuidOf(row.idempotency_key);
  return pushOutcome(await loaded.client.send({
    token: row.address,
    ...(content.title ? { title: content.title } : {}),
    ...(content.message ? { body: content.message } : {}),
    ...(content.image_url ? { imageUrl: content.image_url } : {}),
    data: { gd_message: row.message_id, gd_variant: row.variant_id, ...(content.target_url ? { gd_url: content.target_url } : {}), ...(row.test ? { gd_test: '1' } : {}) },
    ...(content.life ? { lifeSeconds: content.life } : {}),
    // A copy of a send that went twice (a worker killed before marking it) replaces the first on the device.
    collapseId: id,
    id,
  }));
}

async function inParallel<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    for (let item = items[next++]; item !== undefined; item = items[next++]) await work(item);
  }));
}

/**
 * The provider a row goes out through and its rate limit, or null when it has none. Web push has
 * none: each subscription names its browser's own push service (Google's, Mozilla's, Apple's),
 * which limit per subscription, not per sender.
 */
async function limitOf(deps: SenderDeps, cache: SenderCache, row: OutboxRow, run: Run): Promise<{ key: string; perSecond: number } | null> {
  if (row.channel === 'email') {
    const mail = await cache.mail(deps, run.account_id).catch(() => null);
    return mail?.ratePerSecond ? { key: `mail:${mail.providerId}`, perSecond: mail.ratePerSecond } : null;
  }
  const provider = row.channel === 'push' ? pushProviderOf(row.platform) : 'web';
  if (provider === 'web') return null;
  const perSecond = await cache.pushRate(deps.db, row.app_id, provider);
  return perSecond ? { key: `${provider}:${row.app_id}`, perSecond } : null;
}

/**
 * Claims each provider's share of this second for the rows about to go through it (rateLimit.ts);
 * the rows beyond it are spread over the next seconds at the provider's rate, so they come due a
 * second's worth at a time instead of all at once. Test sends count against the limit too: the
 * provider does not know they are tests.
 */
async function applyRateLimits(deps: SenderDeps, cache: SenderCache, toSend: readonly { row: OutboxRow; run: Run }[], outcomes: Map<string, Outcome>, now: Date): Promise<void> {
  const byProvider = new Map<string, { perSecond: number; rows: OutboxRow[] }>();
  for (const { row, run } of toSend) {
    const limit = await limitOf(deps, cache, row, run);
    if (!limit) continue;
    const group = byProvider.get(limit.key) ?? { perSecond: limit.perSecond, rows: [] };
    group.rows.push(row);
    byProvider.set(limit.key, group);
  }
  for (const [key, group] of byProvider) {
    const granted = await claimSends(deps.db, key, group.perSecond, group.rows.length, now);
    const next = windowOf(now).next.getTime();
    group.rows.slice(granted).forEach((row, i) => {
      outcomes.set(row.id, { status: 'deferred', until: new Date(next + Math.floor(i / group.perSecond) * 1000) });
    });
  }
}

/**
 * One batch: lease, cap, limit, send, record. Answers how many rows it handled (sent, failed,
 * retired, skipped, or retried later); 0 when nothing was due or all it leased had to wait (a
 * spent rate limit), so the loop sleeps instead of leasing the same waiting rows again.
 */
export async function sendDueBatch(
  deps: SenderDeps, cache: SenderCache, workerId: string,
  opts: { batch?: number; now?: () => Date; leaseSeconds?: number; appIds?: readonly string[]; channel?: 'push'; onLeased?: (rows: readonly OutboxRow[]) => void } = {},
): Promise<number> {
  const clock = opts.now ?? (() => new Date());
  const leaseSeconds = opts.leaseSeconds ?? SEND_LEASE_SECONDS;
  // `appIds`: tests only (files sharing a database leave each other's rows alone); null: every app.
  const rows = await leaseDue(deps.db, workerId, opts.batch ?? BATCH, clock(), leaseSeconds, opts.appIds ?? null, opts.channel ?? null);
  opts.onLeased?.(rows);
  if (rows.length === 0) return 0;
  const lease = new BatchLease(deps.db, workerId, rows.map((r) => r.id), leaseSeconds, clock, deps.log);
  const outcomes = new Map<string, Outcome>();
  const sending = new Set<string>();
  const recorder = new Recorder(deps.db, workerId, clock, deps.log);
  try {
    const now = clock();
    const runs = await cache.runs(deps.db, rows.map((r) => r.send_id));
    const runOf = (row: OutboxRow): Run => {
      const run = runs.get(row.send_id);
      if (!run) throw new Error(`run ${row.send_id} is gone`);
      return run;
    };
    const capped = rows.filter((r) => !r.test && runOf(r).definition.delivery.frequencyCap !== null);
    const { sent: counts, elsewhere } = await capCounts(deps.db, capped, workerId, now);
    const people = new Map<string, EmailPerson>();
    const emailRows = rows.filter((r) => r.channel === 'email');
    if (emailRows.length) {
      for (const p of (await deps.db.query<EmailPerson & { app_id: string; id: string }>(
        `SELECT app_id, id::text, customer_id, email FROM people WHERE (app_id, id) IN (SELECT * FROM unnest($1::uuid[], $2::bigint[]))`,
        [emailRows.map((r) => r.app_id), emailRows.map((r) => r.person_id)])).rows) people.set(`${p.app_id}:${p.id}`, p);
    }

    const toSend: { row: OutboxRow; run: Run }[] = [];
    for (const row of rows) {
      const run = runOf(row);
      const cap = run.definition.delivery.frequencyCap;
      const key = `${row.app_id}:${row.person_id}:${row.channel}`;
      if (!row.test && cap !== null) {
        const sent = counts.get(key) ?? 0;
        if (sent >= cap) {
          outcomes.set(row.id, { status: 'skipped', reason: `frequency_cap: ${cap} per day reached` });
          continue;
        }
        if (sent + (elsewhere.get(key) ?? 0) >= cap) {
          // Another worker is sending this person their last allowed message: decided again on what it became.
          outcomes.set(row.id, { status: 'deferred', until: new Date(now.getTime() + CAP_RECHECK_MS) });
          continue;
        }
        // Counted now, so two rows of one person in this batch respect the cap too.
        counts.set(key, sent + 1);
      }
      toSend.push({ row, run });
    }
    await applyRateLimits(deps, cache, toSend, outcomes, now);
    const granted = toSend.filter((t) => !outcomes.has(t.row.id));
    const sendOne = async ({ row, run }: { row: OutboxRow; run: Run }) => {
      if (!lease.holds(row.id) || (!row.test && !(await cache.stillRunning(deps.db, row.message_id, run.standing)))) {
        // Recorded with the rest below: paused meanwhile, or the lease could not be kept.
        outcomes.set(row.id, { status: 'released' });
        return;
      }
      sending.add(row.id);
      let outcome: Outcome;
      try {
        outcome = row.channel === 'email'
          ? await sendEmail(deps, cache, row, run, people.get(`${row.app_id}:${row.person_id}`))
          : row.channel === 'push'
            ? await sendPush(deps, cache, row, run)
            : { status: 'failed', reason: `${row.channel} messages are fetched by the SDK, not sent` };
      } catch (error) {
        outcome = { status: 'retry', reason: error instanceof Error ? error.message : String(error) };
      }
      outcomes.set(row.id, outcome);
      // Recorded before this lane sends again, not with the batch: a worker killed now leaves at most
      // the sends in flight (SENDS_IN_FLIGHT) accepted by the provider but not marked, which go again
      // with their Message-ID or collapse id. The lanes' records share their writes (Recorder).
      // Not recorded (the database unreachable): left leased, it goes again when the lease ends.
      if (await recorder.record(row, outcome)) lease.done(row.id);
    };
    // APNs and FCM multiplex hundreds of sends on one connection: all of a batch's at once. E-mail
    // (the SMTP pool's connections) and web push (an HTTPS request each) go SEND_CONCURRENCY at a time.
    const multiplexed: typeof granted = [];
    const others: typeof granted = [];
    for (const g of granted) (multiplexes(g.row) ? multiplexed : others).push(g);
    await Promise.all([inParallel(multiplexed, PUSH_CONCURRENCY, sendOne), inParallel(others, SEND_CONCURRENCY, sendOne)]);
  } finally {
    lease.stop();
    // The rest: skipped by the cap, deferred by a rate limit or another worker's send, released by a pause.
    await record(deps.db, workerId, rows.filter((r) => !sending.has(r.id)), outcomes, clock());
  }
  return [...outcomes.values()].filter((o) => o.status !== 'deferred' && o.status !== 'released').length;
}

/** Whether a row goes to APNs or FCM, whose sends multiplex on HTTP/2 (web push does not). */
const multiplexes = (row: OutboxRow) => row.channel === 'push' && pushProviderOf(row.platform) !== 'web';

/** Senders of one process (sendWhileDue). */
export const SENDERS = 2;
/**
 * Senders that lease push rows only, started beside the SENDERS while a push send is under way
 * (sendWhileDue). A worker's push throughput is at most what it has in flight divided by the
 * provider's round trip: the SENDERS' 400 notifications with APNs answering after 50 ms carried
 * 4,000-4,600 a second, and 3,100 at 100 ms (docs/BENCHMARKS.md, delivery-push with
 * BENCH_PUSH_APNS_DELAY_MS). Three more (1,000 in flight) carried 8,200-8,400 and 6,600, and
 * cost nothing on loopback (9,400-9,800 against 9,700-10,200); six cost 15% there (more streams
 * and leases for the same work). They lease push rows only, so e-mail keeps its SENDS_IN_FLIGHT.
 */
export const PUSH_SENDERS = 3;
/** The most e-mails (and web pushes) one process has in flight: what a worker killed at the worst moment leaves accepted but unmarked. */
export const SENDS_IN_FLIGHT = SENDERS * SEND_CONCURRENCY;
/**
 * The most APNs and FCM notifications one process has in flight, the same bound for them (a copy
 * sent again carries the same collapse id and apns-id: the device shows it once). The provider's
 * stream limits may hold it lower (PUSH_MAX_CONNECTIONS connections of its streams each).
 */
export const PUSH_SENDS_IN_FLIGHT = (SENDERS + PUSH_SENDERS) * PUSH_CONCURRENCY;
/** How soon a sender with nothing due looks again while rows are still being resolved. */
const PENDING_RECHECK_MS = 25;

/**
 * The sending of one process: SENDERS senders side by side, each leasing and sending its own
 * batches under its own id (`<workerId>/<n>`, so the caps see each other's rows as another
 * worker's). While one sender leases and prepares its next batch (its lease, people and caps
 * queries: about 25 ms for 200 rows), the other's lanes keep sending, so the provider's
 * connections do not wait for the database between batches. When a sender leases a full batch
 * with APNs or FCM rows in it, PUSH_SENDERS more (`<workerId>/p<n>`) lease push rows beside them
 * until none is due.
 *
 * Each sender goes on until nothing is due or it has sent `maxBatches`; while `pending()` (a run
 * still being resolved into the outbox) it looks again shortly instead of stopping, so the rows of
 * a page just resolved go out at once. Answers the rows handled.
 */
export async function sendWhileDue(
  deps: SenderDeps, cache: SenderCache, workerId: string,
  opts: { maxBatches?: number; pending?: () => boolean; stopped?: () => boolean; batch?: Parameters<typeof sendDueBatch>[3] } = {},
): Promise<number> {
  const maxBatches = opts.maxBatches ?? Number.POSITIVE_INFINITY;
  const batchSize = opts.batch?.batch ?? BATCH;
  let handled = 0;
  const helpers: Promise<void>[] = [];
  let helping = 0;
  const sender = async (id: string, channel?: 'push') => {
    const batchOpts = { ...opts.batch, ...(channel ? { channel } : {}), onLeased: (rows: readonly OutboxRow[]) => {
      if (channel || helping > 0 || rows.length < batchSize || !rows.some(multiplexes)) return;
      helping = PUSH_SENDERS;
      for (let i = 0; i < PUSH_SENDERS; i++) helpers.push(sender(`${workerId}/p${i}`, 'push').finally(() => { helping--; }));
    } };
    for (let batches = 0; batches < maxBatches && !opts.stopped?.();) {
      const n = await sendDueBatch(deps, cache, id, batchOpts);
      handled += n;
      if (n > 0) {
        batches++;
        continue;
      }
      // The push senders stop when no push row is due; the next full push batch starts them again.
      if (channel || !opts.pending?.()) return;
      await new Promise((resolve) => setTimeout(resolve, PENDING_RECHECK_MS));
    }
  };
  await together(Array.from({ length: SENDERS }, (_, i) => sender(`${workerId}/${i}`)));
  // Helpers started late in the general senders' last batches are waited for too (none outlives the tick).
  while (helpers.length > 0) await together(helpers.splice(0));
  return handled;
}
