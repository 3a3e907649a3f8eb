/**
 * Reading a collaborative document as it is live on the sync server, not as last stored (the store
 * is debounced by up to 10 s). In one process (`npm start`) through a direct connection; across
 * processes through a read-only service connection to the sync server.
 */
import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import { WebSocket } from 'ws';
import * as Y from 'yjs';
import { signJwt } from '../auth/accessToken.ts';
export interface LiveDocReader {
  /** The full encoded Yjs state of the document as the sync server holds it now. */
  read(name: string): Promise<Uint8Array>;
}

const READ_TIMEOUT_MS = 10_000;

/**
 * Reads a live document from a sync server in another process: a read-only service connection
 * (token `typ: 'service'`), waits for the first sync, encodes the state and disconnects.
 */
export function remoteLiveDocs(syncUrl: string, secret: string): LiveDocReader {
  return {
    read(name) {
      const doc = new Y.Doc();
      const socket = new HocuspocusProviderWebsocket({ url: syncUrl, WebSocketPolyfill: WebSocket, maxAttempts: 3 });
      const token = () => signJwt(secret, { typ: 'service', sub: 'service:api', acc: name.split('/')[0] ?? '', doc: name, access: 'read' }, 60);
      const provider = new HocuspocusProvider({ websocketProvider: socket, name, document: doc, token });
      const close = () => {
        provider.destroy();
        socket.destroy();
        doc.destroy();
      };
      return new Promise<Uint8Array>((resolve, reject) => {
        const timer = setTimeout(() => {
          close();
          reject(new Error(`reading the live document ${name} timed out`));
        }, READ_TIMEOUT_MS);
        provider.on('synced', () => {
          clearTimeout(timer);
          const state = Y.encodeStateAsUpdate(doc);
          close();
          resolve(state);
        });
        provider.on('authenticationFailed', ({ reason }: { reason: string }) => {
          clearTimeout(timer);
          close();
          reject(new Error(`the sync server refused the service connection: ${reason}`));
        });
        provider.attach();
      });
    },
  };
}
