/**
 * Reading the live document in-process (the API launching a journey in single-process mode): the
 * in-memory state includes edits the debounced store has not written yet, and with Redis the peers'
 * state too (Hocuspocus 4.4+ waits for it on load).
 */
import { parseDocName } from '@gd/shared';
import * as Y from 'yjs';
import { colorFor, type SyncContext } from './auth.ts';
import type { SyncServer } from './server.ts';

export interface LiveDocState {
  /** `Y.encodeStateAsUpdate` of the live document. */
  state: Uint8Array;
  /** `Y.encodeStateVector`: which edits `state` contains. */
  stateVector: Uint8Array;
}

export async function openLiveDocState(server: SyncServer, name: string): Promise<LiveDocState> {
  const doc = parseDocName(name);
  if (!doc) throw new Error(`unknown document name ${name}`);
  if (server.stopping) throw new Error('sync server is shutting down');
  const context: SyncContext = { userId: 'service:api', name: 'GrowthDeck', color: colorFor('service:api'), readOnly: true, kind: doc.kind, tokenAccess: 'read' };
  const connection = await server.hocuspocus.openDirectConnection(name, context);
  try {
    const document = connection.document;
    if (!document) throw new Error(`document ${name} closed while reading`);
    return { state: Y.encodeStateAsUpdate(document), stateVector: Y.encodeStateVector(document) };
  } finally {
    // A read changes nothing: leave the document to the normal debounced store instead of forcing one
    // (which with Redis also waits for the peers' sync before returning).
    await connection.disconnect({ unloadImmediately: false });
  }
}

/**
 * Sends a stateless message to every open editor of `name` (in-process: the API announcing that a
 * document's summary changed). A document nobody has open has nobody to tell, on this instance; with
 * Redis, a loaded document relays the broadcast to the other instances.
 */
export function announceToDoc(server: SyncServer, name: string, payload: string): void {
  server.hocuspocus.documents.get(name)?.broadcastStateless(payload);
}

/**
 * The API's live documents (`LiveDocReader`: `api.deps.liveDocs`) read from this sync server in the
 * same process: what `npm start` (scripts/serve.ts) and the cross-service tests wire in. Typed by its
 * shape, not as `LiveDocReader`: sync-server does not import api-server (nor the reverse); the
 * composition root that assigns it to `api.deps.liveDocs` checks that the two match.
 */
export function inProcessLiveDocs(server: SyncServer): { read(name: string): Promise<Uint8Array>; announce(name: string, payload: string): Promise<void> } {
  return {
    read: async (name) => (await openLiveDocState(server, name)).state,
    announce: (name, payload) => Promise.resolve(announceToDoc(server, name, payload)),
  };
}
