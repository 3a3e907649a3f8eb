/**
 * What other workspaces use: the API attaches the sync server to its HTTP server in single-process
 * mode and reads live documents in-process. See CONTEXT.md.
 */
export { createSyncServer, type SyncServer, type SyncServerOptions } from './server.ts';
export { announceToDoc, inProcessLiveDocs, openLiveDocState, type LiveDocState } from './live.ts';
export type { SyncContext } from './auth.ts';
export { UPDATE_REJECTED_CODE, UPDATE_REJECTED_PREFIX } from './validation.ts';
