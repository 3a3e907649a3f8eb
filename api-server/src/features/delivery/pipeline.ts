/**
 * The delivery loop of one process (the API under `npm start`, or each `worker` process): resolve
 * runs into the outbox a page at a time, send due rows a batch at a time, finish runs. Every step
 * is a short transaction on leased rows, so any number of processes share the work and a process
 * that dies mid-way loses nothing (resolve.ts, send.ts).
 *
 * A tick resolves and sends side by side (send.ts `sendWhileDue`: two senders, so one leases its
 * next batch while the other sends) while there is work (bounded, so one busy run cannot starve
 * the others' timers),
 * then sleeps `intervalMs` (200 ms: a paused message stops within a second, a played one starts
 * within one); `wake()` starts a tick at once (the API calls it after play and test).
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { Db } from '../../db/pool.ts';
import type { NetPolicy } from '../../net/index.ts';
import type { LiveDocReader } from '../documents/liveDocs.ts';
import { startLoop, type Loop } from '../../jobs/loop.ts';
import { together } from '../../jobs/together.ts';
import { pruneRateWindows } from './rateLimit.ts';
import { resolveNextPage } from './resolve.ts';
import { SenderCache, finishRuns, sendWhileDue } from './send.ts';

export interface DeliveryDeps {
  db: Db;
  log: Logger;
  secret: string;
  baseUrl: string;
  netPolicy?: NetPolicy | undefined;
  liveDocs?: LiveDocReader | undefined;
}

export interface Delivery {
  wake(): void;
  stop(): Promise<void>;
}

/** Work of one tick at most: pages resolved and batches sent before the timers get a turn. */
const MAX_STEPS = 50;

export function startDelivery(deps: DeliveryDeps, opts: { intervalMs?: number; now?: () => Date; leaseSeconds?: number } = {}): Delivery {
  const workerId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const cache = new SenderCache();
  const interval = opts.intervalMs ?? 200;
  let pruned = 0;

  async function tick(loop: Loop): Promise<void> {
    const step = { ...(opts.now ? { now: opts.now } : {}), ...(opts.leaseSeconds ? { leaseSeconds: opts.leaseSeconds } : {}) };
    // Resolution and sending side by side: the rows of each page resolved go out while the next is read.
    let resolving = true;
    const resolution = (async () => {
      try {
        for (let n = 0; n < MAX_STEPS && !loop.stopped; n++) if (!(await resolveNextPage(deps, workerId, step))) break;
      } finally {
        resolving = false;
      }
    })();
    const sending = sendWhileDue(deps, cache, workerId, { maxBatches: MAX_STEPS, pending: () => resolving, stopped: () => loop.stopped, batch: step });
    await together([resolution, sending]);
    if (!loop.stopped) await finishRuns(deps.db, deps.log, opts.now);
    if (!loop.stopped && Date.now() - pruned > 60_000) {
      pruned = Date.now();
      await pruneRateWindows(deps.db, new Date());
    }
  }

  const loop = startLoop('delivery', deps.log, interval, tick);
  return {
    wake: () => loop.wake(),
    async stop() {
      await loop.stop();
      cache.close();
    },
  };
}
