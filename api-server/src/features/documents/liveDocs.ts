/**
 * Reading a collaborative document as it is live on the sync server, not as last stored (the store
 * is debounced by up to 10 s). In one process (`npm start`) through a direct connection; across
 * processes through a read-only service connection to the sync server.
 */
import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import { WebSocket } from 'ws';
import * as Y from 'yjs';
import { destroyProvider, providerSocketClass } from '@gd/shared/docs/providerSocket';
import { unavailable, type Failure } from '@gd/shared';
import type { Queryable } from '../../db/pool.ts';
import { signJwt } from '../auth/accessToken.ts';
import { storedDocState } from './repository.ts';
export interface LiveDocReader {
  /** The full encoded Yjs state of the document as the sync server holds it now. */
  read(name: string): Promise<Uint8Array>;
  /** Tells every open editor of the document something (DOC_SUMMARY_CHANGED); best effort. */
  announce(name: string, payload: string): Promise<void>;
}

/** `ws` as the provider's WebSocket, never ending the process on a close during the handshake. */
export const ProviderSocket = providerSocketClass(WebSocket);

const READ_TIMEOUT_MS = 10_000;

/** The sync server could not be reached (or did not answer in time): callers answer 503, retryable. */
export class SyncUnreachable extends Error {}

/**
/** A read-only service connection to `name` on a sync server in another process (token `typ: 'service'`). */
function serviceConnection(syncUrl: string, secret: string, name: string) {
  const doc = new Y.Doc();
  // Three quick attempts (250, 500 ms apart): a sync server that is down is known within a second.
  const socket = new HocuspocusProviderWebsocket({ url: syncUrl, WebSocketPolyfill: ProviderSocket, maxAttempts: 3, delay: 250, factor: 2, minDelay: 250 });
  const token = () => signJwt(secret, { typ: 'service', sub: 'service:api', acc: name.split('/')[0] ?? '', doc: name, access: 'read' }, 60);
  const provider = new HocuspocusProvider({ websocketProvider: socket, name, document: doc, token });
  const close = () => {
    destroyProvider(provider, socket);
    doc.destroy();
  };
  /** Resolves with `use`'s answer once synced; closes in any case. */
  const whenSynced = <T>(use: () => T | Promise<T>) => new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      close();
      reject(new SyncUnreachable(`the live document ${name} did not answer in time`));
    }, READ_TIMEOUT_MS);
    provider.on('synced', () => {
      clearTimeout(timer);
      Promise.resolve(use()).then((value) => { close(); resolve(value); }, (error: unknown) => { close(); reject(error instanceof Error ? error : new Error(String(error))); });
    });
    socket.on('maxAttemptsFailed', () => {
      clearTimeout(timer);
      close();
      reject(new SyncUnreachable(`the sync server at ${syncUrl} is not reachable`));
    });
    provider.on('authenticationFailed', ({ reason }: { reason: string }) => {
      clearTimeout(timer);
      close();
      reject(new Error(`the sync server refused the service connection: ${reason}`));
    });
    provider.attach();
  });
  return { doc, provider, whenSynced };
}

/** Reads and announces through a sync server in another process, one service connection each time. */
export function remoteLiveDocs(syncUrl: string, secret: string): LiveDocReader {
  return {
    read(name) {
      const connection = serviceConnection(syncUrl, secret, name);
      return connection.whenSynced(() => Y.encodeStateAsUpdate(connection.doc));
    },
    announce(name, payload) {
      const connection = serviceConnection(syncUrl, secret, name);
      return connection.whenSynced(async () => {
        connection.provider.sendStateless(payload);
        // Let the message leave before the connection closes.
        await new Promise((resolve) => setTimeout(resolve, 50));
      });
    },
  };
}

/**
 * A document for a person's action that must not miss a colleague's last edits (launch, clone,
 * approve): the live state, or a retryable 503 when the sync server cannot be reached. Without a
 * sync server at all (a worker-only process), the stored state, which includes the logged updates.
 */
export async function readLive(liveDocs: LiveDocReader | undefined, db: Queryable, name: string): Promise<{ ok: true; state: Uint8Array | undefined } | Failure> {
  if (!liveDocs) return { ok: true, state: await storedDocState(db, name) };
  try {
    return { ok: true, state: await liveDocs.read(name) };
  } catch (error) {
    if (error instanceof SyncUnreachable) return unavailable('The sync server is not reachable; try again');
    throw error;
  }
}

/** A document for background work (an audience refresh): live when reachable, else as stored. */
export async function readLatest(liveDocs: LiveDocReader | undefined, db: Queryable, name: string): Promise<Uint8Array | undefined> {
  const live = liveDocs ? await liveDocs.read(name).catch(() => undefined) : undefined;
  return live ?? storedDocState(db, name);
}
