/**
 * The Hocuspocus hooks that guard a connection: authentication, validation of incoming updates and
 * presence identity. Each rule lives in its own module (auth, validation, presence); this file only
 * wires them to the hooks Hocuspocus 4 calls.
 */
import type {
  beforeHandleAwarenessPayload, beforeHandleMessagePayload, beforeSyncPayload, Connection, Document, Extension,
  onAuthenticatePayload,
} from '@hocuspocus/server';
import type { Logger } from 'pino';
import { authenticate, type SyncContext } from './auth.ts';
import { rewritePresence } from './presence.ts';
import type { Db } from './repository.ts';
import { MAX_MESSAGE_BYTES, UpdateRejected, rejectReason } from './validation.ts';

/** y-protocols sync message types that carry an update (SyncStep1 carries a state vector). */
const SYNC_STEP_2 = 1;
const SYNC_UPDATE = 2;
const DONE = Promise.resolve();

/**
 * Whether another user's connection on this document owns the awareness client id. The same user's
 * older connection may still hold it (a reconnect before the server noticed the drop): allowed.
 */
function ownedByOthers(document: Document, self: Connection<SyncContext>, clientId: number): boolean {
  for (const [connection, { clients }] of document.connections) {
    const owner = connection.context as SyncContext;
    if (connection !== self && clients.has(clientId) && owner.userId !== self.context.userId) return true;
  }
  return false;
}

export function accessHooks(opts: { db: Db; secret: string; log: Logger }): Extension<SyncContext> {
  const key = new TextEncoder().encode(opts.secret);
  const { db, log } = opts;

  // Hocuspocus runs hooks inside a promise chain: a rejected promise closes the sender's connection.
  function reject(why: string, documentName: string, context: SyncContext): Promise<void> {
    log.warn({ doc: documentName, user: context.userId, why }, 'update rejected, closing the sender');
    return Promise.reject(new UpdateRejected(why));
  }

  return {
    extensionName: 'gd-access',

    async onAuthenticate(data: onAuthenticatePayload<SyncContext>): Promise<SyncContext> {
      try {
        const context = await authenticate(db, key, data.token, data.documentName);
        if (context.readOnly) data.connectionConfig.readOnly = true;
        log.debug({ doc: data.documentName, user: context.userId, readOnly: context.readOnly }, 'connection authenticated');
        return context;
      } catch (error) {
        log.info({ doc: data.documentName, why: (error as { reason?: string }).reason ?? String(error) }, 'connection refused');
        throw error;
      }
    },

    beforeHandleMessage({ update, documentName, context }: beforeHandleMessagePayload<SyncContext>): Promise<void> {
      return update.byteLength > MAX_MESSAGE_BYTES ? reject('oversized', documentName, context) : DONE;
    },

    beforeSync({ type, payload, documentName, context }: beforeSyncPayload<SyncContext>): Promise<void> {
      if (type !== SYNC_STEP_2 && type !== SYNC_UPDATE) return DONE;
      const why = rejectReason(payload, context.kind);
      return why ? reject(why, documentName, context) : DONE;
    },

    beforeHandleAwareness({ states, context, connection, document }: beforeHandleAwarenessPayload<SyncContext>): Promise<void> {
      // Updates relayed by Redis were rewritten on the instance the client is connected to.
      if (connection && context) rewritePresence(states, context, (clientId) => ownedByOthers(document, connection, clientId));
      return DONE;
    },
  };
}
