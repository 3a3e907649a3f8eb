/**
 * The rules loop of one process (the API under `npm start`, or each `worker` process), started
 * beside the delivery loop: a tick consumes the trigger inbox while it has rows, reads coupon
 * redemptions, and runs the daily rules whose hour has come (engine.ts), then sleeps
 * `intervalMs`. `wake()` starts a tick at once; `wakeRules()` wakes every loop of this process
 * (the API calls it after a rule is saved or activated). The clock is injectable (`now`), so tests
 * run a day's rules at the hour they choose.
 */
import type { Logger } from 'pino';
import type { Db } from '../../db/pool.ts';
import { startLoop, type Loop } from '../../jobs/loop.ts';
import { consumeInbox, consumeRedemptions, runDailyRules } from './engine.ts';

export interface RulesLoop {
  wake(): void;
  stop(): Promise<void>;
}

/** Inbox batches and daily pages of one tick at most, before the timers get a turn. */
const MAX_STEPS = 50;

const loops = new Set<RulesLoop>();

/** Wakes the rules loops of this process (none: a worker elsewhere polls). */
export function wakeRules(): void {
  for (const loop of loops) loop.wake();
}

export function startRules(deps: { db: Db; log: Logger }, opts: { intervalMs?: number; now?: () => Date } = {}): RulesLoop {
  const now = opts.now ?? (() => new Date());
  const interval = opts.intervalMs ?? 1000;

  async function tick(self: Loop): Promise<void> {
    for (let n = 0; n < MAX_STEPS && !self.stopped; n++) {
      if ((await consumeInbox(deps.db, now())) === 0) break;
    }
    if (!self.stopped) await consumeRedemptions(deps.db, now());
    if (!self.stopped) await runDailyRules(deps.db, now(), MAX_STEPS);
  }

  const inner = startLoop('rules', deps.log, interval, tick);
  const loop: RulesLoop = {
    wake: () => inner.wake(),
    async stop() {
      loops.delete(loop);
      await inner.stop();
    },
  };
  loops.add(loop);
  return loop;
}
