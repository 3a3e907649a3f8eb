/** What the single-process entry (scripts/serve.ts) and the tests use from the API server. */
export { boot, stopOnSignals, type Booted } from './boot.ts';
export { keepServing } from './processGuard.ts';
export { loadConfig, type Config } from './config.ts';
export { startServer, type RunningServer } from './server.ts';
export { remoteLiveDocs, type LiveDocReader } from './features/documents/liveDocs.ts';
