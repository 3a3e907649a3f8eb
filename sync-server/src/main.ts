/**
 * `node sync-server/src/main.ts`: the sync server on its own. Env: DATABASE_URL (required), PORT
 * (4001), HOST (0.0.0.0), REDIS_URL and REDIS_PREFIX (optional), JWT_SECRET (else the secret the API
 * keeps in server_secrets), LOG_LEVEL (info), STORE_DEBOUNCE_MS / STORE_MAX_DEBOUNCE_MS (2000 / 10000).
 * SIGTERM/SIGINT store every pending change, then exit.
 */
import { pino } from 'pino';
import { createPool, loadSigningSecret } from './repository.ts';
import { createSyncServer } from './server.ts';

const env = process.env;
const log = pino({ level: env.LOG_LEVEL ?? 'info' });
if (!env.DATABASE_URL) {
  log.fatal('DATABASE_URL is required');
  process.exit(1);
}
const db = createPool(env.DATABASE_URL);
const secret = await loadSigningSecret(db, env.JWT_SECRET);
const ms = (value: string | undefined) => (value ? Number(value) : undefined);
const sync = createSyncServer({
  db, secret, log,
  debounceMs: ms(env.STORE_DEBOUNCE_MS),
  maxDebounceMs: ms(env.STORE_MAX_DEBOUNCE_MS),
  redis: env.REDIS_URL ? { url: env.REDIS_URL, prefix: env.REDIS_PREFIX } : undefined,
});
const { port, url } = await sync.listen(Number(env.PORT ?? 4001), env.HOST ?? '0.0.0.0');
log.info({ port, url, redis: Boolean(env.REDIS_URL) }, 'sync server listening');
// Once serving, an error that escaped every handler is logged, never the end of every open
// document's server (before, a failure to start must end the process).
process.on('uncaughtException', (error) => log.error({ err: error }, 'uncaught exception: kept serving'));
process.on('unhandledRejection', (reason) => log.error({ err: reason }, 'unhandled rejection: kept serving'));

let exiting = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (exiting) return;
    exiting = true;
    log.info({ signal }, 'shutting down');
    sync.shutdown()
      .then(() => db.end())
      .then(() => process.exit(0), (error: unknown) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  });
}
