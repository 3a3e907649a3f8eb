/**
 * A polling loop of one process (delivery, the journey engine, the rules): `tick` runs, then the
 * loop sleeps `intervalMs`; `wake()` starts a tick at once, and a wake during a tick runs another
 * right after it (never two at once). A tick that throws is logged and the loop goes on. `stop()`
 * waits for the tick in flight. `stopped()` lets a long tick end early.
 */
import type { Logger } from 'pino';

export interface Loop {
  wake(): void;
  stop(): Promise<void>;
  readonly stopped: boolean;
}

export function startLoop(name: string, log: Logger, intervalMs: number, tick: (loop: Loop) => Promise<void>): Loop {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | null = null;
  let again = false;

  function schedule(delay: number) {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(run, delay);
  }

  function run() {
    if (running) {
      again = true;
      return;
    }
    running = tick(loop)
      .catch((error: unknown) => log.error({ err: error }, `${name} tick failed`))
      .finally(() => {
        running = null;
        const soon = again;
        again = false;
        schedule(soon ? 0 : intervalMs);
      });
  }

  const loop: Loop = {
    wake: () => schedule(0),
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
    get stopped() {
      return stopped;
    },
  };
  schedule(0);
  return loop;
}
