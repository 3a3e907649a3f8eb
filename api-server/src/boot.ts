/**
 * Starting the API as a product process: server, optional in-process worker, demo data, and the
 * start-up banner with the URL and demo logins. Used by `main.ts` (API alone) and by the
 * single-process entry `scripts/serve.ts` (API + sync server + worker + web app).
 */
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import { startDemoActivity } from './seed/behaviour.ts';
import { seedDemo, type DemoLogin } from './seed/demo.ts';
import { startServer, type RunningServer } from './server.ts';

export interface Booted extends RunningServer {
  logins: DemoLogin[];
  /** The banner a person reads in the terminal: where the app is and how to sign in. */
  banner(): string;
}

export async function boot(config: Config, log: Logger): Promise<Booted> {
  const server = await startServer(config, { log, worker: process.env.WORKER !== 'off' });
  let logins: DemoLogin[] = [];
  if (process.env.SEED_DEMO !== 'off') {
    const seeded = await seedDemo(server.db);
    if (seeded.created) log.info('demo account seeded');
    logins = seeded.logins;
  }
  // Demo apps without events get a few weeks of activity through the ingestion API, in the background.
  const activity = process.env.SEED_DEMO !== 'off' && process.env.SEED_ACTIVITY !== 'off' ? startDemoActivity(server.db, server.url, log) : null;
  return {
    ...server,
    async stop() {
      await activity?.stop();
      await server.stop();
    },
    logins,
    banner() {
      const url = config.PUBLIC_URL ?? server.url;
      if (logins.length === 0) return `Growthdeck API listening on ${url}`;
      const width = Math.max(...logins.map((l) => l.role.length));
      const lines = logins.map((l) => `    ${l.role.padEnd(width)}  ${l.email}`);
      return `\n  Growthdeck is running at ${url}\n\n  Demo logins (password ${logins[0]?.password ?? ''}):\n${lines.join('\n')}\n`;
    },
  };
}

/** Stops on SIGINT/SIGTERM, once, running `stop` before exiting. */
export function stopOnSignals(log: Logger, stop: () => Promise<void>): void {
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      log.info({ signal }, 'shutting down');
      stop().then(() => process.exit(0), (error: unknown) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
    });
  }
}
