/**
 * The journey engine of one process (the API under `npm start`, or each `worker` process): the
 * trigger inbox (new entries from events, exits, goals, wakes), audience enrolments, due entries'
 * transitions, the stop sweep and, in a loop of its own (its calls may take seconds), postbacks.
 * Every part is short transactions on rows taken FOR UPDATE SKIP LOCKED, so any number of processes
 * share the work and a killed one loses nothing (see each module).
 *
 * One injectable clock: every decision (what is due, entry and passage times, waits, re-entry
 * periods, goal windows, postback retries) reads `now()`, never Date.now(); a test passes its own
 * clock and runs a month of a journey in milliseconds (`drain`). Only the loop's own pacing (how
 * often it polls) uses timers. Leases of postback calls use the database's time (they measure a
 * real call, not journey time).
 *
 * A tick works while there is work (bounded, so the timers get a turn), then sleeps `intervalMs`
 * (100 ms: an ingested event enters its journey well within a second); `wake()` starts a tick at
 * once (launch, stop and, through Deps.notifyJourneys, ingestion call it).
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { Db } from '../../db/pool.ts';
import { startLoop, type Loop } from '../../jobs/loop.ts';
import type { NetPolicy } from '../../net/index.ts';
import { processVersions } from './definitions.ts';
import { enrolNextPage, notifyAudienceJourneys, processInbox } from './enter.ts';
import { SegmentCache } from './facts.ts';
import { stopSweep } from './lifecycle.ts';
import { runPostbacks } from './postbacks.ts';
import { transitionBatch, type EngineContext } from './transition.ts';

export interface JourneyEngineDeps {
  db: Db; log: Logger; netPolicy?: NetPolicy | undefined;
  /** The server secret integrations' credentials are sealed with (integration postbacks). */
  secret?: string | undefined;
}

export interface JourneyEngineOptions {
  now?: () => Date;
  intervalMs?: number;
  /** Entries per transition batch (default 1000). */
  batchSize?: number;
  /** Tests: work only for these apps (test files share one database). */
  appIds?: readonly string[];
}

export interface JourneyEngine {
  wake(): void;
  stop(): Promise<void>;
}

/** One round of every kind of work; answers how much was done. */
export interface Round { inbox: number; enrolled: boolean; entries: number; passages: number; stopped: number; postbacks: number }

const MAX_ROUNDS = 50;

/** The engine's work as plain calls (the loop below, and tests that drive it with their clock). */
export class JourneyWorker {
  readonly ctx: EngineContext;
  readonly workerId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly netPolicy: NetPolicy | undefined;
  private readonly secret: string | undefined;
  private readonly batchSize: number;

  constructor(deps: JourneyEngineDeps, opts: JourneyEngineOptions = {}) {
    this.ctx = { db: deps.db, log: deps.log, now: opts.now ?? (() => new Date()), versions: processVersions, segments: new SegmentCache(), appIds: opts.appIds ?? null };
    this.netPolicy = deps.netPolicy;
    this.secret = deps.secret;
    this.batchSize = opts.batchSize ?? 1000;
  }

  async round(opts: { postbacks?: boolean } = {}): Promise<Round> {
    const inbox = await processInbox(this.ctx);
    const enrolled = await enrolNextPage(this.ctx);
    const { entries, passages } = await transitionBatch(this.ctx, this.batchSize);
    const stopped = await stopSweep(this.ctx);
    const postbacks = opts.postbacks ? await this.postbacks() : 0;
    return { inbox, enrolled, entries, passages, stopped, postbacks };
  }

  postbacks(): Promise<number> {
    return runPostbacks({ ...this.ctx, netPolicy: this.netPolicy, secret: this.secret }, this.workerId);
  }

  audiences(): Promise<number> {
    return notifyAudienceJourneys(this.ctx.db, null);
  }

  /** Works until nothing is due at the clock's current time (tests); answers the passages made. */
  async drain(opts: { postbacks?: boolean } = {}): Promise<number> {
    let total = 0;
    for (;;) {
      const r = await this.round(opts);
      total += r.passages;
      if (r.inbox === 0 && !r.enrolled && r.entries === 0 && r.stopped === 0 && r.postbacks === 0) return total;
    }
  }
}

export function startJourneyEngine(deps: JourneyEngineDeps, opts: JourneyEngineOptions = {}): JourneyEngine {
  const worker = new JourneyWorker(deps, opts);
  const interval = opts.intervalMs ?? 100;
  let audiencesAt = 0;

  async function tick(self: Loop): Promise<void> {
    for (let n = 0; n < MAX_ROUNDS && !self.stopped; n++) {
      const r = await worker.round();
      if (r.inbox === 0 && !r.enrolled && r.entries === 0 && r.stopped === 0) break;
    }
    // Audience refreshes a notification missed (see enter.ts notifyAudienceJourneys), every 30 s.
    if (!self.stopped && Date.now() - audiencesAt > 30_000) {
      audiencesAt = Date.now();
      await worker.audiences();
    }
  }

  // Postbacks: their own loop, so a slow target never holds transitions back.
  async function postbacks(self: Loop): Promise<void> {
    while (!self.stopped && (await worker.postbacks()) > 0);
  }

  const transitions = startLoop('journey engine', deps.log, interval, tick);
  const calls = startLoop('journey postbacks', deps.log, 500, postbacks);
  return {
    wake: () => transitions.wake(),
    async stop() {
      await Promise.all([transitions.stop(), calls.stop()]);
    },
  };
}
