/**
 * The Hocuspocus hooks that guard a connection: authentication, validation of incoming updates and
 * presence identity. Each rule lives in its own module (auth, validation, presence); this file only
 * wires them to the hooks Hocuspocus 4 calls.
 */
import type {
  beforeHandleAwarenessPayload, beforeHandleMessagePayload, beforeSyncPayload, Connection, Document, Extension,
  onAuthenticatePayload, onStatelessPayload,
} from '@hocuspocus/server';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import { authenticate, recheckAccess, type SyncContext } from './auth.ts';
import { rewritePresence } from './presence.ts';
import type { AccessFence, Db } from './repository.ts';
import { SYNC_STEP_2, SYNC_UPDATE, UpdateRejected, messageLimit, rejectReason, updateLimit } from './validation.ts';
import { ACCESS_CHANGED_CODE, ACCESS_CHANGED_PREFIX, DOC_SUMMARY_CHANGED, SYNC_PING, SYNC_PONG } from '@gd/shared';

const DONE = Promise.resolve();
/** Attempts to log one update (about 7 s with the backoff) before the socket is closed. */
const APPEND_ATTEMPTS = 8;

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

/**
 * Closes a connection whose user may no longer open the document (`access` null), or may now do
 * something else with it ('read' or 'write'); the client reopens it with a fresh token.
 */
export class AccessChanged extends Error {
  readonly code = ACCESS_CHANGED_CODE;
  readonly reason: string;
  constructor(access: 'read' | 'write' | null) {
    const why = access ?? 'revoked';
    super(why);
    this.reason = `${ACCESS_CHANGED_PREFIX}${why}`;
  }
}

/**
 * Appends an update to the document's log before it is applied (Persistence.append): false when
 * the fence moved and nothing was logged.
 */
export type AppendUpdate = (documentName: string, update: Uint8Array, fence: AccessFence) => Promise<boolean>;

export function accessHooks(opts: { db: Db; secret: string; log: Logger; append: AppendUpdate }): Extension<SyncContext> {
  const key = new TextEncoder().encode(opts.secret);
  const { db, log } = opts;

  // Hocuspocus runs hooks inside a promise chain: a rejected promise closes the sender's connection.
  function reject(why: string, documentName: string, context: SyncContext): Promise<void> {
    log.warn({ doc: documentName, user: context.userId, why }, 'update rejected, closing the sender');
    return Promise.reject(new UpdateRejected(why));
  }

  /**
   * The log refusing an update (the database down or failing) holds this connection's messages,
   * unacknowledged, while it retries; past the budget the socket is closed, so the client
   * reconnects and sends its unconfirmed changes again. Nothing is acknowledged that is not logged.
   */
  async function appendOrRetry(documentName: string, update: Uint8Array, fence: AccessFence, connection: Connection<SyncContext>): Promise<boolean> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await opts.append(documentName, update, fence);
      } catch (error) {
        if (attempt + 1 >= APPEND_ATTEMPTS) {
          log.error({ err: error, doc: documentName }, 'update log unavailable, closing the socket');
          connection.webSocket.close(1011, 'store unavailable');
          throw error;
        }
        log.warn({ err: error, doc: documentName, attempt }, 'update log failed, retrying');
        await sleep(Math.min(100 * 2 ** attempt, 2_000));
      }
    }
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
      return update.byteLength > messageLimit(update) ? reject('oversized', documentName, context) : DONE;
    },

    /**
     * Every update is validated, then logged (stored before Hocuspocus applies and acknowledges it)
     * in one statement with the check that the sender's rights did not change since they were
     * decided. When they did, they are decided again: a reader's update is dropped (Hocuspocus
     * answers SyncStatus false), and the connection is closed so the client reconnects with its new
     * rights; a user who lost access is closed out. Nothing sent after the change is applied.
     */
    async beforeSync({ type, payload, documentName, context, connection }: beforeSyncPayload<SyncContext>): Promise<void> {
      if (type !== SYNC_STEP_2 && type !== SYNC_UPDATE) return;
      if (connection.readOnly) return; // dropped by Hocuspocus, never applied
      const why = rejectReason(payload, context.kind, updateLimit(type));
      if (why) return reject(why, documentName, context);
      // A writer always has a fence (only service connections lack one, and they are read-only).
      if (!context.fence) throw new AccessChanged(null);
      while (!(await appendOrRetry(documentName, payload, context.fence, connection))) {
        const access = await recheckAccess(db, context, documentName);
        if (access === 'write') continue;
        connection.readOnly = true;
        log.info({ doc: documentName, user: context.userId, access }, 'access changed, closing the connection');
        throw new AccessChanged(access);
      }
    },

    /**
     * The heartbeat: a ping is answered at once, on the connection it came from. And the API's
     * announcement that a document's summary changed (its service connection only) goes to every
     * editor of the document, on every instance (the Redis extension relays broadcasts).
     */
    onStateless({ payload, connection, document }: onStatelessPayload): Promise<void> {
      if (payload === SYNC_PING) connection.sendStateless(SYNC_PONG);
      else if (payload === DOC_SUMMARY_CHANGED && (connection.context as SyncContext | undefined)?.userId.startsWith('service:')) {
        document.broadcastStateless(payload);
      }
      return DONE;
    },

    beforeHandleAwareness({ states, context, connection, document }: beforeHandleAwarenessPayload<SyncContext>): Promise<void> {
      // Updates relayed by Redis were rewritten on the instance the client is connected to.
      if (connection && context) rewritePresence(states, context, (clientId) => ownedByOthers(document, connection, clientId));
      return DONE;
    },
  };
}
