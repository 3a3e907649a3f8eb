/**
 * Sending provider postbacks: the durable work of `acq_postbacks` rows (migration 044), run by a
 * loop of the worker (and of the API process under `npm start`; config POSTBACKS_IN_PROCESS),
 * started with the other background jobs (jobs/start.ts). Each tick consumes the trigger inbox
 * (enqueue.ts `queueEventPostbacks`) and then sends what is due.
 *
 * - Lease: due pending rows FOR UPDATE SKIP LOCKED, held LEASE_SECONDS of database time (a call's
 *   own limit is POSTBACK_TIMEOUT_MS), attempts counted at the lease, so any number of processes
 *   share the work. The call is made OUTSIDE any transaction; its outcome is written only while the
 *   lease is still ours. A process that dies mid-call leaves the row to be called again after the
 *   lease: at least once, and every attempt sends the same request (fixed when queued) with the
 *   same `Idempotency-Key: acq-postback-<row id>` header, so the receiver can drop a repeat. A row
 *   that ended (`ok` or `failed`) is never called again.
 * - Address: http or https, through the guarded client (net/): names are resolved and checked at
 *   connect time, so private, loopback and link-local targets are refused: recorded `failed` at
 *   once with `refused_address` and the reason (never retried). Tests let loopback through with
 *   OUTGOING_ALLOW_LOOPBACK only.
 * - Outcome: 2xx `ok`; a connection failure, timeout, 408, 429 or 5xx is retried with backoff
 *   (10 s, 30 s, 90 s, 270 s: MAX_ATTEMPTS 5 in all) and then `failed`; any other status `failed` at
 *   once. The answer code and the error are kept on the row (the campaign's postbacks list).
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { tx, type Db } from '../../db/pool.ts';
import { startLoop, type Loop } from '../../jobs/loop.ts';
import type { JobRunner } from '../../jobs/runner.ts';
import { NetError, guardedRequest, publicOnly, readBody, type NetPolicy } from '../../net/index.ts';
import { queueEventPostbacks } from './enqueue.ts';
import * as repo from './repository.ts';

export const MAX_ATTEMPTS = 5;
export const POSTBACK_TIMEOUT_MS = 10_000;
export const LEASE_SECONDS = 60;
const CONCURRENCY = 20;
const BATCH = 100;
export const backoffMs = (attempt: number) => 10_000 * 3 ** Math.max(0, attempt - 1);

export interface SendDeps {
  db: Db;
  log: Logger;
  netPolicy?: NetPolicy | undefined;
  now?: () => Date;
  /** Only these apps' postbacks (tests); null: all. */
  appIds?: readonly string[] | null;
}

type Outcome = { status: 'ok'; code: number } | { status: 'retry' | 'failed'; code: number | null; error: string };

async function call(row: repo.DueRow, policy: NetPolicy): Promise<Outcome> {
  if (!/^https?:\/\//i.test(row.url)) return { status: 'failed', code: null, error: 'invalid_url: postbacks go to http(s) addresses' };
  try {
    const res = await guardedRequest(row.url, policy, {
      method: row.method,
      headers: { 'idempotency-key': `acq-postback-${row.id}`, ...(row.method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      ...(row.method === 'POST' ? { body: row.body ?? '' } : {}),
      connectTimeoutMs: POSTBACK_TIMEOUT_MS, idleMs: POSTBACK_TIMEOUT_MS, totalMs: POSTBACK_TIMEOUT_MS, maxBytes: 64 * 1024,
    });
    await readBody(res).catch(() => undefined);
    if (res.status >= 200 && res.status < 300) return { status: 'ok', code: res.status };
    const transient = res.status === 408 || res.status === 429 || res.status >= 500;
    return { status: transient ? 'retry' : 'failed', code: res.status, error: `http_${res.status}` };
  } catch (error) {
    if (error instanceof NetError && error.reason === 'refused_address') return { status: 'failed', code: null, error: `refused_address: ${error.message}`.slice(0, 500) };
    const message = error instanceof Error ? error.message : String(error);
    const reason = error instanceof NetError ? error.reason : ((error as { code?: string }).code ?? 'error');
    return { status: 'retry', code: null, error: `${reason}: ${message}`.slice(0, 500) };
  }
}

/** Sends one lease of due postbacks; answers how many were called. */
export async function sendDuePostbacks(deps: SendDeps, workerId: string, limit = BATCH): Promise<number> {
  const now = deps.now ?? (() => new Date());
  const rows = await repo.leaseDue(deps.db, workerId, now(), limit, LEASE_SECONDS, deps.appIds ?? null);
  if (rows.length === 0) return 0;
  const policy = deps.netPolicy ?? publicOnly();
  const queue = [...rows];
  const worker = async () => {
    for (let row = queue.shift(); row; row = queue.shift()) {
      let outcome = await call(row, policy);
      if (outcome.status === 'retry' && row.attempts >= MAX_ATTEMPTS) outcome = { ...outcome, status: 'failed' };
      const done = outcome.status !== 'retry';
      await repo.recordAttempt(deps.db, row.id, workerId, {
        status: outcome.status === 'retry' ? 'pending' : outcome.status, code: outcome.code, error: outcome.status === 'ok' ? null : outcome.error,
        doneAt: done ? now() : null, nextAt: done ? null : new Date(now().getTime() + backoffMs(row.attempts)),
      });
      if (outcome.status !== 'ok') deps.log.warn({ postback: row.id, outcome }, 'provider postback not delivered');
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, rows.length) }, worker));
  return rows.length;
}

/** Consumes the inbox until it is empty (or the loop stops); answers the postbacks queued. */
export async function drainInbox(db: Db, loop?: Pick<Loop, 'stopped'>): Promise<number> {
  let queued = 0;
  for (;;) {
    const r = await tx(db, (client) => queueEventPostbacks(client));
    queued += r.queued;
    if (r.consumed === 0 || loop?.stopped) return queued;
  }
}

export interface PostbackLoop { wake(): void; stop(): Promise<void> }

/** The loop of a process: inbox, then due postbacks, every `intervalMs` or when woken. */
export function startPostbacks(deps: SendDeps, workerId: string, opts: { intervalMs?: number } = {}): PostbackLoop {
  const loop = startLoop('provider postbacks', deps.log, opts.intervalMs ?? 1000, async (l) => {
    await drainInbox(deps.db, l);
    while (!l.stopped && (await sendDuePostbacks(deps, workerId)) > 0) { /* next lease */ }
  });
  return { wake: () => loop.wake(), stop: () => loop.stop() };
}

export const postbackWorkerId = () => `${hostname()}:${process.pid}:postbacks:${randomUUID().slice(0, 8)}`;

/** The job runner with the postback loop beside it: woken and stopped together. */
export function alongside(loop: PostbackLoop | null, runner: JobRunner): JobRunner {
  if (!loop) return runner;
  return {
    workerId: runner.workerId,
    wake: () => { runner.wake(); loop.wake(); },
    stop: async () => { await loop.stop(); await runner.stop(); },
  };
}
