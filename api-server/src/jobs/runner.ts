/**
 * Durable background jobs (imports, exports): the job is a row of its own table (import_tasks,
 * audience_exports) with run_at, attempts, max_attempts and a lease (locked_by, locked_until).
 *
 * - Claim: one due row whose lease is free or expired, `FOR UPDATE SKIP LOCKED`, so N worker
 *   processes (and the API process under `npm start`) share the work; attempts counts the claims.
 * - Lease: LEASE_SECONDS, renewed every third of it while the job runs. A job whose lease is lost
 *   (its row was deleted, or another worker took it over after this process stalled) is aborted.
 * - Crash: a worker that dies leaves its lease to expire; the next claim runs the job again from
 *   the start (imports stage into scratch rows and swap members at the end, so a half-done run
 *   left nothing behind). A job claimed more than max_attempts times fails for good.
 * - Shutdown: running jobs are aborted and their lease released without counting the attempt.
 * - Wake-up: polling every `intervalMs`; `wakeJobRunners()` runs a pass at once in this process
 *   (the API calls it after queuing a job).
 *
 * Why not pg-boss or graphile-worker (ARCHITECTURE.md names them): pg-boss 11.1 was verified to
 * start and run jobs on embedded PGlite (it polls; no LISTEN/NOTIFY needed), but (1) it has no
 * heartbeat: a job's lease is a fixed expireInSeconds, so a long import is either killed while
 * alive or, when its worker dies, waits the whole expiry before another worker retries it; (2) it
 * opens its own pool, a second connection into pglite-socket, which interleaves large protocol
 * messages from several connections (see server.ts: the embedded database gets ONE connection);
 * (3) it keeps its own schema outside migrations/ and a second copy of each task's state (attempts,
 * run_at, errors) that the task row needs anyway for the screens. graphile-worker depends on
 * LISTEN/NOTIFY for prompt pick-up and installs its own schema and functions likewise. This is the
 * polling pattern of mail/worker.ts and segments/refresh.ts, with leases.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { Db, Queryable } from '../db/pool.ts';

export const LEASE_SECONDS = 60;

/** A claimed job: its id and how many times it has been claimed (this one included). */
export interface Claimed { id: string; attempts: number; max_attempts: number }

export interface JobContext {
  workerId: string;
  /** Aborted when the lease is lost or the runner stops. */
  signal: AbortSignal;
  /** Extends the lease now (progress writes call it); false when the job is no longer ours. */
  renew(): Promise<boolean>;
}

export interface JobKind {
  /** For logs. */
  name: string;
  /** The table holding the jobs (columns queue, run_at, attempts, max_attempts, locked_by, locked_until). */
  table: 'import_tasks' | 'audience_exports' | 'scheduled_reports' | 'report_runs' | 'event_breakdowns';
  /** SQL condition on the table's rows (alias-free) for rows that may run. */
  runnable: string;
  run(job: Claimed, ctx: JobContext): Promise<void>;
}

/** Claims the next due job of `kind` for `workerId`, or undefined. */
export async function claimJob(db: Queryable, kind: JobKind, queue: string, workerId: string, leaseSeconds = LEASE_SECONDS): Promise<Claimed | undefined> {
  const { rows } = await db.query<Claimed>(
    `UPDATE ${kind.table} SET locked_by = $2, locked_until = now() + make_interval(secs => $3), attempts = attempts + 1
      WHERE id = (SELECT id FROM ${kind.table}
                   WHERE queue = $1 AND ${kind.runnable} AND run_at <= now() AND (locked_until IS NULL OR locked_until < now())
                   ORDER BY run_at LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING id, attempts, max_attempts`,
    [queue, workerId, leaseSeconds],
  );
  return rows[0];
}

export async function renewLease(db: Queryable, table: JobKind['table'], id: string, workerId: string, leaseSeconds = LEASE_SECONDS): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE ${table} SET locked_until = now() + make_interval(secs => $3) WHERE id = $1 AND locked_by = $2`,
    [id, workerId, leaseSeconds],
  );
  return rowCount === 1;
}

/** Gives the job back (shutdown): free lease, the attempt not counted, runnable at once. */
export async function releaseLease(db: Queryable, table: JobKind['table'], id: string, workerId: string): Promise<void> {
  await db.query(
    `UPDATE ${table} SET locked_by = NULL, locked_until = NULL, attempts = greatest(attempts - 1, 0), run_at = now() WHERE id = $1 AND locked_by = $2`,
    [id, workerId],
  );
}

const runners = new Set<{ wake(): void }>();
/** Runs a pass of every job runner of this process now (after the API queued a job). */
export function wakeJobRunners(): void {
  for (const r of runners) r.wake();
}

export interface RunnerOptions {
  db: Db;
  log: Logger;
  kinds: readonly JobKind[];
  /** Only jobs of this queue (config JOB_QUEUE; tests use their own). */
  queue: string;
  intervalMs?: number;
  /** Jobs run at the same time by this process. */
  concurrency?: number;
  leaseSeconds?: number;
}

export interface JobRunner {
  workerId: string;
  wake(): void;
  /** Aborts running jobs (their lease is released) and resolves when every loop has ended. */
  stop(): Promise<void>;
}

export function startJobRunner(opts: RunnerOptions): JobRunner {
  const workerId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const leaseSeconds = opts.leaseSeconds ?? LEASE_SECONDS;
  const stopping = new AbortController();
  let kindIndex = 0;
  // Idle loops sleep until the interval passes or wake() is called; a wake while no loop sleeps
  // is remembered so the next sleep returns at once.
  const sleepers = new Set<() => void>();
  let woken = false;
  const sleep = (ms: number) => new Promise<void>((resolve) => {
    if (woken) {
      woken = false;
      resolve();
      return;
    }
    const done = () => {
      clearTimeout(timer);
      sleepers.delete(done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    sleepers.add(done);
  });

  async function runOne(kind: JobKind, job: Claimed): Promise<void> {
    const lost = new AbortController();
    const signal = AbortSignal.any([lost.signal, stopping.signal]);
    const renew = async () => {
      const mine = await renewLease(opts.db, kind.table, job.id, workerId, leaseSeconds).catch(() => true);
      if (!mine) lost.abort(new Error('lease lost'));
      return mine;
    };
    const heartbeat = setInterval(() => void renew(), (leaseSeconds * 1000) / 3);
    try {
      await kind.run(job, { workerId, signal, renew });
    } catch (error) {
      opts.log.error({ err: error, job: job.id, kind: kind.name }, 'job failed unexpectedly');
    } finally {
      clearInterval(heartbeat);
      if (stopping.signal.aborted) await releaseLease(opts.db, kind.table, job.id, workerId).catch(() => undefined);
    }
  }

  /** Claims and runs due jobs until none is left; kinds take turns. */
  async function pass(): Promise<void> {
    let idle = 0;
    while (!stopping.signal.aborted && idle < opts.kinds.length) {
      const kind = opts.kinds[kindIndex++ % opts.kinds.length] as JobKind;
      const job = await claimJob(opts.db, kind, opts.queue, workerId, leaseSeconds);
      if (!job) {
        idle++;
        continue;
      }
      idle = 0;
      await runOne(kind, job);
    }
  }

  async function loop(): Promise<void> {
    while (!stopping.signal.aborted) {
      try {
        await pass();
      } catch (error) {
        opts.log.error({ err: error }, 'job runner pass failed');
      }
      if (!stopping.signal.aborted) await sleep(opts.intervalMs ?? 1000);
    }
  }

  const loops = Array.from({ length: opts.concurrency ?? 1 }, () => loop());
  const runner = {
    workerId,
    wake() {
      if (sleepers.size === 0) woken = true;
      for (const done of [...sleepers]) done();
    },
    async stop() {
      runners.delete(runner);
      stopping.abort();
      for (const done of [...sleepers]) done();
      await Promise.all(loops);
    },
  };
  runners.add(runner);
  return runner;
}
