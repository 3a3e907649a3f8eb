/**
 * Workers of the outbox (migration 020): lease due rows, send each through its channel, record the
 * outcome on the row, and finish runs whose rows are all done.
 *
 * - Lease: a batch of due rows (`run_at` reached: quiet hours and local-time waves move it) of
 *   messages that are running, `FOR UPDATE SKIP LOCKED`, with a 60 s lease; any number of worker
 *   processes share the outbox. A paused message's rows are not leased, so a pause stops new sends
 *   as soon as the batches in flight end (a batch is at most BATCH rows, well under a second), and
 *   play continues with the rows still queued.
 * - Exactly once: a row is sent only under its lease and marked with its outcome right after. A
 *   worker killed between a provider's acceptance and that mark leaves the row queued; when its
 *   lease expires it goes again with the same idempotency key, and the copy carries the same
 *   Message-ID (e-mail) or collapse id (push), which mailbox providers and devices show once.
 * - Channels: e-mail through the account's active mail provider (nodemailer, email.ts); push
 *   through the app's APNs (iOS devices) or FCM (the others) credentials (push/).
 * - Outcomes: `sent`; transient errors (a 4xx SMTP answer, a refused connection, a provider's 429
 *   or 503, no mail provider or push credentials configured yet) stay queued with a backoff until MAX_ATTEMPTS, then
 *   `failed`; permanent ones: `retired` (a 5xx for the mailbox, an unregistered token: the address
 *   gets no more) or `failed` (this message cannot go out, e.g. too large).
 * - Frequency caps: a person who already got the message's cap of messages on that channel during
 *   their current calendar day (in their zone, counted over every message, journey and rule, all of
 *   which send through this outbox) is `skipped` with the reason. Test sends bypass caps.
 */
import type { Logger } from 'pino';
import type { MessageDraft, MessageSchedule } from '@gd/shared';
import { RUNNING_STATUSES } from '@gd/shared/message/lifecycle';
import { createHash } from 'node:crypto';
import { tx, type Db, type Queryable } from '../../db/pool.ts';
import { publicOnly, type NetPolicy } from '../../net/index.ts';
import { activeMailTransport } from '../mailProviders/transport.ts';
import { backoffMs } from './push/result.ts';
import { loadPushClient } from './push/credentials.ts';
import { WEB_PLATFORM, sendWebPushRow } from './push/webPush.ts';
import type { PushResult } from './push/result.ts';
import { contentFor, renderEmail, type EmailPerson } from './email.ts';
import { applySystemEvent } from './resolve.ts';
import { claimSends, windowOf } from './rateLimit.ts';
import { localDay, nextOccurrence } from './timing.ts';

/** Running statuses in which rows go out: all but Scheduled (its rows wait for the run to start). */
const SENDING_STATUSES = RUNNING_STATUSES.filter((s) => s !== 'Scheduled');

export const BATCH = 200;
export const MAX_ATTEMPTS = 8;
/** How long a worker holds the rows it leased (DELIVERY_LEASE_SECONDS): a dead worker's rows go again after it. */
export const SEND_LEASE_SECONDS = 60;
const SEND_CONCURRENCY = 20;

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

type Outcome =
  | { status: 'sent'; providerId?: string | undefined }
  | { status: 'retry'; reason: string; retryAfterMs?: number | undefined }
  | { status: 'retired'; reason: string }
  | { status: 'failed'; reason: string }
  | { status: 'skipped'; reason: string }
  /** Not sent: its message was paused while the batch ran; back to the queue as it was. */
  | { status: 'released' }
  /** Not sent: its provider's rate limit is reached in this second; back to the queue for `until`, not an attempt. */
  | { status: 'deferred'; until: Date };

interface Run { account_id: string; definition: MessageDraft }

/** Per worker: each run's definition (immutable) and each account's mail transport (for a short while). */
export class SenderCache {
  private runs = new Map<string, Run>();
  private transports = new Map<string, { at: number; value: Awaited<ReturnType<typeof activeMailTransport>> }>();

  async run(db: Queryable, sendId: string): Promise<Run> {
    let run = this.runs.get(sendId);
    if (!run) {
      const { rows } = await db.query<Run>('SELECT account_id, definition FROM message_sends WHERE id = $1', [sendId]);
      if (!rows[0]) throw new Error(`run ${sendId} is gone`);
      run = rows[0];
      if (this.runs.size > 200) this.runs.clear();
      this.runs.set(sendId, run);
    }
    return run;
  }

  /** The account's active mail transport; read again after 30 s so an edited or activated provider takes over. */
  async mail(deps: SenderDeps, accountId: string) {
    const cached = this.transports.get(accountId);
    if (cached && Date.now() - cached.at < 30_000) return cached.value;
    cached?.value?.transporter.close();
    const value = await activeMailTransport(deps.db, deps.secret, accountId, ...(deps.netPolicy ? [deps.netPolicy] : []));
    this.transports.set(accountId, { at: Date.now(), value });
    return value;
  }

  private running = new Map<string, { at: number; running: boolean }>();

  /** Whether the message still runs (read at most every 250 ms): a pause stops a batch in the middle. */
  async stillRunning(db: Queryable, messageId: string): Promise<boolean> {
    const cached = this.running.get(messageId);
    if (cached && Date.now() - cached.at < 250) return cached.running;
    const { rows } = await db.query<{ status: string }>('SELECT status FROM messages WHERE id = $1', [messageId]);
    const running = (SENDING_STATUSES as readonly string[]).includes(rows[0]?.status ?? '');
    this.running.set(messageId, { at: Date.now(), running });
    return running;
  }

  private push = new Map<string, { at: number; value: Awaited<ReturnType<typeof loadPushClient>> }>();

  /** The app's client for a provider (loadPushClient keeps one per credentials row; asked again after 30 s). */
  async pushClient(deps: SenderDeps, appId: string, provider: 'apns' | 'fcm') {
    const key = `${appId}:${provider}`;
    const cached = this.push.get(key);
    if (cached && Date.now() - cached.at < 30_000) return cached.value;
    const value = await loadPushClient(deps.db, deps.secret, appId, provider, { policy: deps.netPolicy ?? publicOnly() });
    this.push.set(key, { at: Date.now(), value });
    return value;
  }

  private pushRates = new Map<string, { at: number; value: number | null }>();

  /** The app's push provider's rate limit (sends a second; null: none), read again after 30 s. */
  async pushRate(db: Queryable, appId: string, provider: 'apns' | 'fcm'): Promise<number | null> {
    const key = `${appId}:${provider}`;
    const cached = this.pushRates.get(key);
    if (cached && Date.now() - cached.at < 30_000) return cached.value;
    const { rows } = await db.query<{ rate_per_second: number | null }>('SELECT rate_per_second FROM app_push_credentials WHERE app_id = $1 AND provider = $2', [appId, provider]);
    const value = rows[0]?.rate_per_second ?? null;
    this.pushRates.set(key, { at: Date.now(), value });
    return value;
  }

  close(): void {
    for (const t of this.transports.values()) t.value?.transporter.close();
    this.transports.clear();
    this.push.clear();
  }
}

/** Leases up to `limit` due rows of running messages (and of test runs) for `workerId`. */
export async function leaseDue(db: Queryable, workerId: string, limit: number, now: Date, leaseSeconds = SEND_LEASE_SECONDS): Promise<OutboxRow[]> {
  const { rows } = await db.query<OutboxRow>(
    `UPDATE message_outbox o SET locked_by = $1, locked_until = $3::timestamptz + make_interval(secs => $4), attempts = o.attempts + 1
      WHERE o.id IN (SELECT x.id FROM message_outbox x JOIN messages m ON m.id = x.message_id
                      WHERE x.status = 'queued' AND x.channel <> 'inApp' AND x.run_at <= $3 AND (x.locked_until IS NULL OR x.locked_until < $3)
                        AND (x.test OR m.status = ANY($5::text[]))
                      ORDER BY x.run_at, x.id LIMIT $2 FOR UPDATE OF x SKIP LOCKED)
      RETURNING o.id::text, o.send_id, o.app_id, o.message_id, o.person_id::text, o.channel, o.address, o.platform, o.variant_id, o.language,
                o.time_zone, o.test, o.idempotency_key, o.attempts`,
    [workerId, limit, now, leaseSeconds, SENDING_STATUSES]);
  return rows;
}

/**
 * Messages each person got on each channel during their current local day (for caps), keyed
 * `app:person:channel`. Also what the SDK's in-app endpoint counts (sdkMessages/eligibility.ts):
 * an in-app row is 'sent' when first handed to the device, so one cap counts every channel alike.
 */
export async function sentToday(db: Queryable, rows: readonly Pick<OutboxRow, 'app_id' | 'person_id' | 'time_zone' | 'test'>[], now: Date): Promise<Map<string, number>> {
  const capped = rows.filter((r) => !r.test);
  const counts = new Map<string, number>();
  if (capped.length === 0) return counts;
  const zoneOf = new Map(capped.map((r) => [`${r.app_id}:${r.person_id}`, r.time_zone]));
  const { rows: sent } = await db.query<{ app_id: string; person_id: string; channel: string; sent_at: Date }>(
    `SELECT app_id, person_id::text, channel, sent_at FROM message_outbox
      WHERE (app_id, person_id) IN (SELECT * FROM unnest($1::uuid[], $2::bigint[])) AND status = 'sent' AND NOT test
        AND sent_at > $3::timestamptz - interval '2 days'`,
    [capped.map((r) => r.app_id), capped.map((r) => r.person_id), now]);
  for (const s of sent) {
    const zone = zoneOf.get(`${s.app_id}:${s.person_id}`) ?? 'UTC';
    if (localDay(s.sent_at, zone) !== localDay(now, zone)) continue;
    const key = `${s.app_id}:${s.person_id}:${s.channel}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** What an SMTP failure means for the row: a 5xx about the mailbox retires the address; 4xx and connection trouble retry. */
export function smtpOutcome(error: unknown): Outcome {
  const e = (error ?? {}) as { responseCode?: unknown; code?: unknown; message?: unknown; command?: unknown };
  const code = typeof e.responseCode === 'number' ? e.responseCode : null;
  const reason = `${code ?? (typeof e.code === 'string' ? e.code : 'error')}: ${(typeof e.message === 'string' ? e.message : '').split('\n')[0]?.slice(0, 200) ?? ''}`;
  if (code !== null && code >= 500 && code < 600) {
    // 550/551/553 to RCPT TO (or an EENVELOPE about the recipient): this mailbox is gone.
    const aboutRecipient = e.code === 'EENVELOPE' || e.command === 'RCPT TO' || [550, 551, 553].includes(code);
    return aboutRecipient ? { status: 'retired', reason } : { status: 'failed', reason };
  }
  return { status: 'retry', reason };
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
  try {
    const info = await mail.transporter.sendMail({
      from: email.from, to: email.to, ...(email.bcc ? { bcc: email.bcc } : {}), subject: email.subject, html: email.html, text: email.text,
      messageId: email.messageId, headers: { ...email.headers, 'X-Growthdeck-Test': row.test ? 'yes' : 'no' },
    });
    return { status: 'sent', providerId: typeof info.messageId === 'string' ? info.messageId : undefined };
  } catch (error) {
    return smtpOutcome(error);
  }
}

/** A UUID from the row's idempotency key: the same notification id (apns-id) on every attempt. */
function uuidOf(key: string): string {
  const h = createHash('sha256').update(key).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${((parseInt(h.slice(16, 17), 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** A push client's result as the row's outcome. */
function pushOutcome(result: PushResult): Outcome {
  switch (result.outcome) {
    case 'sent': return { status: 'sent', providerId: result.providerId };
    case 'retry': return { status: 'retry', reason: result.reason, retryAfterMs: result.retryAfterMs };
    case 'retire': return { status: 'retired', reason: result.reason };
    case 'failed': return { status: 'failed', reason: result.reason };
  }
}

async function sendPush(deps: SenderDeps, cache: SenderCache, row: OutboxRow, run: Run): Promise<Outcome> {
  // A browser's subscription: web push with the app's VAPID keys (push/webPush.ts).
  if (row.platform === WEB_PLATFORM) return pushOutcome(await sendWebPushRow({ db: deps.db, secret: deps.secret, policy: deps.netPolicy ?? publicOnly() }, row, run.definition));
  const provider = /^ios$/i.test(row.platform ?? '') ? 'apns' : 'fcm';
  const loaded = await cache.pushClient(deps, row.app_id, provider);
  if (!loaded.ok) {
    return { status: 'retry', reason: loaded.reason === 'not_configured' ? `push_not_configured: the app has no ${provider === 'apns' ? 'APNs' : 'FCM'} credentials` : `push_credentials_unreadable: enter the ${provider === 'apns' ? 'APNs' : 'FCM'} key again` };
  }
  const content = contentFor(run.definition, row.variant_id, row.language);
  if (!content) return { status: 'failed', reason: `no content for variant ${row.variant_id}` };
  const id = uuidOf(row.idempotency_key);
  const result = await loaded.client.send({
    token: row.address,
    ...(content.title ? { title: content.title } : {}),
    ...(content.message ? { body: content.message } : {}),
    ...(content.image_url ? { imageUrl: content.image_url } : {}),
    data: { gd_message: row.message_id, gd_variant: row.variant_id, ...(content.target_url ? { gd_url: content.target_url } : {}), ...(row.test ? { gd_test: '1' } : {}) },
    ...(content.life ? { lifeSeconds: content.life } : {}),
    // A copy of a send that went twice (a worker killed before marking it) replaces the first on the device.
    collapseId: id,
    id,
  });
  switch (result.outcome) {
    case 'sent':
      return { status: 'sent', providerId: result.providerId };
    case 'retry':
      return { status: 'retry', reason: result.reason, retryAfterMs: result.retryAfterMs };
    case 'retire':
      return { status: 'retired', reason: result.reason };
    case 'failed':
      return { status: 'failed', reason: result.reason };
  }
}

async function inParallel<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    for (let item = items[next++]; item !== undefined; item = items[next++]) await work(item);
  }));
}

/** Writes the batch's outcomes (only rows this worker still holds). */
async function record(db: Queryable, workerId: string, rows: readonly OutboxRow[], outcomes: ReadonlyMap<string, Outcome>, now: Date): Promise<void> {
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

/** The provider a row goes out through and its rate limit, or null when it has none. */
async function limitOf(deps: SenderDeps, cache: SenderCache, row: OutboxRow, run: Run): Promise<{ key: string; perSecond: number } | null> {
  if (row.channel === 'email') {
    const mail = await cache.mail(deps, run.account_id).catch(() => null);
    return mail?.ratePerSecond ? { key: `mail:${mail.providerId}`, perSecond: mail.ratePerSecond } : null;
  }
  if (row.channel === 'push' && row.platform !== 'web') {
    const provider = /^ios$/i.test(row.platform ?? '') ? 'apns' : 'fcm';
    const perSecond = await cache.pushRate(deps.db, row.app_id, provider);
    return perSecond ? { key: `${provider}:${row.app_id}`, perSecond } : null;
  }
  return null;
}

/**
 * Claims each provider's share of this second for the rows about to go through it (rateLimit.ts);
 * the rows beyond it are deferred to the next second. Test sends count against the limit too: the
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
    const until = windowOf(now).next;
    for (const row of group.rows.slice(granted)) outcomes.set(row.id, { status: 'deferred', until });
  }
}

/** One batch: lease, cap, send, record. Answers how many rows it leased (0: nothing was due). */
export async function sendDueBatch(deps: SenderDeps, cache: SenderCache, workerId: string, opts: { batch?: number; now?: () => Date; leaseSeconds?: number } = {}): Promise<number> {
  const clock = opts.now ?? (() => new Date());
  const rows = await leaseDue(deps.db, workerId, opts.batch ?? BATCH, clock(), opts.leaseSeconds);
  if (rows.length === 0) return 0;
  const now = clock();
  const counts = await sentToday(deps.db, rows, now);
  const people = new Map<string, EmailPerson>();
  for (const p of (await deps.db.query<EmailPerson & { app_id: string; id: string }>(
    `SELECT app_id, id::text, customer_id, email FROM people WHERE (app_id, id) IN (SELECT * FROM unnest($1::uuid[], $2::bigint[]))`,
    [rows.map((r) => r.app_id), rows.map((r) => r.person_id)])).rows) people.set(`${p.app_id}:${p.id}`, p);

  const outcomes = new Map<string, Outcome>();
  const toSend: { row: OutboxRow; run: Run }[] = [];
  for (const row of rows) {
    const run = await cache.run(deps.db, row.send_id);
    const cap = run.definition.delivery.frequencyCap;
    const key = `${row.app_id}:${row.person_id}:${row.channel}`;
    if (!row.test && cap !== null && (counts.get(key) ?? 0) >= cap) {
      outcomes.set(row.id, { status: 'skipped', reason: `frequency_cap: ${cap} per day reached` });
      continue;
    }
    // Counted now, so two rows of one person in this batch respect the cap too.
    if (!row.test) counts.set(key, (counts.get(key) ?? 0) + 1);
    toSend.push({ row, run });
  }
  await applyRateLimits(deps, cache, toSend, outcomes, now);
  const granted = toSend.filter((t) => !outcomes.has(t.row.id));
  await inParallel(granted, SEND_CONCURRENCY, async ({ row, run }) => {
    let outcome: Outcome;
    if (!row.test && !(await cache.stillRunning(deps.db, row.message_id))) {
      // Recorded with the rest below.
      outcomes.set(row.id, { status: 'released' });
      return;
    }
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
    // Recorded at once, not with the batch: a worker killed now leaves at most the sends in flight
    // (SEND_CONCURRENCY) accepted by the provider but not marked, which go again with their Message-ID.
    await record(deps.db, workerId, [row], outcomes, clock());
  });
  // The rest: skipped by the cap, deferred by a rate limit, released by a pause.
  const sending = new Set(granted.map((t) => t.row.id));
  await record(deps.db, workerId, rows.filter((r) => !sending.has(r.id) || outcomes.get(r.id)?.status === 'released'), outcomes, clock());
  return rows.length;
}

/**
 * Runs whose outbox has nothing queued any more are finished (the message moves Sending →
 * Finished; a test run moves Testing back to Draft); a live run's in-app rows count as waiting
 * while they are on offer (until their `expires_at`; without a `life`, until the message is
 * paused: an in-app message runs as long as it is shown); a paused message played again whose run was
 * already resolved moves straight back to Sending.
 */
export async function finishRuns(db: Db, log: Logger): Promise<void> {
  const { rows: resumed } = await db.query<{ message_id: string }>(
    `SELECT DISTINCT s.message_id FROM message_sends s JOIN messages m ON m.id = s.message_id WHERE s.kind <> 'test' AND s.state = 'sending' AND m.status = 'Processing'`);
  for (const r of resumed) await tx(db, (c) => applySystemEvent(c, r.message_id, ['processed', 'sendStarted']));
  const { rows } = await db.query<{ id: string; message_id: string; kind: 'live' | 'test' | 'winner'; occurrence: number; schedule: MessageSchedule; app_zone: string | null }>(
    `UPDATE message_sends s SET state = 'finished', finished_at = now()
      WHERE s.state = 'sending' AND NOT EXISTS (
              SELECT 1 FROM message_outbox o WHERE o.send_id = s.id
                 AND ((o.status = 'queued' AND o.channel <> 'inApp')
                      -- A live run's in-app rows keep it running while they are on offer (a test's do not: they expire on their own).
                      OR (s.kind = 'live' AND o.channel = 'inApp' AND o.status IN ('queued', 'sent') AND (o.expires_at IS NULL OR o.expires_at > now()))))
      RETURNING s.id, s.message_id, s.kind, s.occurrence, s.definition->'schedule' AS schedule,
                (SELECT a.timezone FROM apps a WHERE a.id = s.app_id) AS app_zone`);
  for (const r of rows) {
    // A recurring message's live run makes the run of its next occurrence, and the message stays Active until then.
    const next = r.kind === 'live' ? nextOccurrence(r.schedule, r.occurrence, r.app_zone ?? 'UTC', new Date()) : null;
    await tx(db, async (c) => {
      if (next) {
        await c.query(
          `INSERT INTO message_sends (account_id, app_id, message_id, version, definition, kind, origin, not_before, created_by, occurrence)
           SELECT account_id, app_id, message_id, version, definition, 'live', origin, $2, created_by, $3 FROM message_sends WHERE id = $1
           ON CONFLICT (message_id, version, occurrence) WHERE kind = 'live' DO NOTHING`,
          [r.id, next.notBefore, next.occurrence]);
      }
      await applySystemEvent(c, r.message_id, r.kind === 'test' ? ['testDone'] : ['sendDone'], { staysLive: next !== null });
    });
    log.info({ run: r.id, message: r.message_id, kind: r.kind, ...(next ? { nextOccurrence: next.occurrence, nextAt: next.notBefore.toISOString() } : {}) }, 'message run finished');
  }
}
