/** What other workspaces use: the API attaches the sync server to its HTTP server in single-process mode. */
export { createSyncServer, type SyncServer, type SyncServerOptions } from './server.ts';
export { openLiveDocState, type LiveDocState } from './live.ts';
export { loadSigningSecret, createPool } from './repository.ts';
export type { SyncContext } from './auth.ts';
export { UPDATE_REJECTED_CODE, UPDATE_REJECTED_PREFIX } from './validation.ts';
