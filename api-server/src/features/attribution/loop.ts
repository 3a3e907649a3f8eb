/**
 * The attribution loop of one process (the API under `npm start` with ATTRIBUTION_IN_PROCESS on,
 * and each worker): a tick attributes what is pending (engine.ts) and sleeps `intervalMs`;
 * ingestion wakes it after a batch that wrote pending rows (`wakeAttribution`), so an install is
 * usually attributed within milliseconds. Several loops (processes) share the work through the
 * engine's row locks.
 */
import type { Logger } from 'pino';
import type { Db } from '../../db/pool.ts';
import { startLoop } from '../../jobs/loop.ts';
import { attributePending } from './engine.ts';

export interface AttributionLoop { wake(): void; stop(): Promise<void> }

/** Batches of one tick at most, before the timer gets a turn. */
const MAX_BATCHES = 50;

const loops = new Set<AttributionLoop>();

/** Wakes the attribution loops of this process (none: a worker elsewhere polls). */
export function wakeAttribution(): void {
  for (const loop of loops) loop.wake();
}

export function startAttribution(deps: { db: Db; log: Logger }, opts: { intervalMs?: number } = {}): AttributionLoop {
  const inner = startLoop('attribution', deps.log, opts.intervalMs ?? 3000, async () => {
    await attributePending(deps.db, { maxBatches: MAX_BATCHES });
  });
  const loop: AttributionLoop = {
    wake: () => inner.wake(),
    async stop() {
      loops.delete(loop);
      await inner.stop();
    },
  };
  loops.add(loop);
  return loop;
}
