/**
 * `node api-server/src/main.ts`: the API on its own (with the worker in process unless WORKER=off).
 * When SYNC_URL is set, launches read live documents from that sync server. `npm start` runs
 * `scripts/serve.ts` instead, which adds the sync server to this same process.
 */
import { pino } from 'pino';
import { boot, stopOnSignals } from './boot.ts';
import { keepServing } from './processGuard.ts';
import { loadConfig } from './config.ts';
import { remoteLiveDocs } from './features/documents/liveDocs.ts';

const config = loadConfig();
const log = pino({ level: config.LOG_LEVEL });
const api = await boot(config, log);
if (config.SYNC_URL) api.deps.liveDocs = remoteLiveDocs(config.SYNC_URL, api.deps.secret);
console.log(api.banner());
stopOnSignals(log, () => api.stop());
// Only once everything started: a failure to start (a port in use) must still end the process.
keepServing(log);
