/**
 * The whole product in one process, as `npm start` runs it: the API (with the worker and the built
 * web app) and the sync server attached to the same HTTP server at /collab, sharing one database
 * pool. Launches read live documents through a direct connection. This file is the composition
 * root: api-server and sync-server do not import each other.
 */
import { pino } from 'pino';
import { boot, keepServing, loadConfig, stopOnSignals } from '@gd/api-server';
import { createSyncServer, inProcessLiveDocs } from '@gd/sync-server';

const config = loadConfig();
const log = pino({ level: config.LOG_LEVEL });
const api = await boot(config, log);
const sync = createSyncServer({ db: api.db, secret: api.deps.secret, log, redis: config.REDIS_URL ? { url: config.REDIS_URL } : undefined });
const detach = sync.attach(api.httpServer, '/collab');
api.deps.liveDocs = inProcessLiveDocs(sync);
console.log(api.banner());

stopOnSignals(log, async () => {
  // Store every pending document change before the database goes away.
  await sync.shutdown();
  detach();
  await api.stop();
});
// Only once everything started: a failure to start (a port in use) must still end the process.
keepServing(log);
