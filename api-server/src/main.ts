/** `node api-server/src/main.ts`: the API (and, in one process for `npm start`, the worker and the web app). */
import { pino } from 'pino';
import { loadConfig } from './config.ts';
import { seedDemo } from './seed/demo.ts';
import { startServer } from './server.ts';

const config = loadConfig();
const log = pino({ level: config.LOG_LEVEL });
const server = await startServer(config, { log, worker: process.env.WORKER !== 'off' });

if (process.env.SEED_DEMO !== 'off') {
  const { created, logins } = await seedDemo(server.db);
  if (created) log.info('demo account seeded');
  const width = Math.max(...logins.map((l) => l.role.length));
  const lines = logins.map((l) => `    ${l.role.padEnd(width)}  ${l.email}`);
  console.log(`\n  Growthdeck is running at ${config.PUBLIC_URL ?? server.url}\n\n  Demo logins (password ${logins[0]?.password ?? ''}):\n${lines.join('\n')}\n`);
} else {
  console.log(`API listening on ${server.url}`);
}

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    server.stop().then(() => process.exit(0), (error: unknown) => {
      log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    });
  });
}
