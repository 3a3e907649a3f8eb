/**
 * The sync status a person sees for an open document, from what the session knows. Pure.
 *
 * - loading: the browser copy is being read (nothing to show yet);
 * - error: the document cannot be opened (no access, gone, refused);
 * - offline: the browser is offline, or the server could not be reached since the last sync
 *   (reconnect attempts alternate "connecting"/"disconnected"; that is still offline);
 * - syncing: connecting for the first time, or connected with changes the server has not confirmed;
 * - online: connected, in sync, nothing pending.
 */
export type SyncStatus = 'loading' | 'online' | 'offline' | 'syncing' | 'error';
export type SocketState = 'connecting' | 'connected' | 'disconnected';

export interface StatusInput {
  phase: 'opening' | 'open' | 'failed';
  browserOnline: boolean;
  socket: SocketState;
  /** Authenticated and the first sync exchange completed on the current connection. */
  synced: boolean;
  /** A connection failed or dropped since the last completed sync. */
  lostSinceSync: boolean;
  /** Local changes the server has not confirmed (0 for read-only documents). */
  unsynced: number;
}

export function syncStatus(s: StatusInput): SyncStatus {
  if (s.phase === 'failed') return 'error';
  if (s.phase === 'opening') return 'loading';
  if (!s.browserOnline) return 'offline';
  if (!s.synced || s.socket !== 'connected') return s.lostSinceSync ? 'offline' : 'syncing';
  return s.unsynced > 0 ? 'syncing' : 'online';
}

/** Reconnect delay after a failed token fetch or refusal: 1 s doubling up to 15 s. */
export const retryDelay = (attempt: number): number => Math.min(15_000, 1_000 * 2 ** Math.max(0, attempt));

/** Why the server closed a connection, when it refused one of our updates (see shared docs schema). */
export function isUpdateRejection(event: { code?: number; reason?: string } | undefined, code: number, prefix: string): boolean {
  if (!event) return false;
  return event.code === code || (typeof event.reason === 'string' && event.reason.startsWith(prefix));
}

/** Server refusals that a fresh token fixes (the others mean the document cannot be opened). */
export const isTransientRefusal = (reason: string): boolean => /token (expired|missing|invalid)|Failed to get token/i.test(reason);

/** The part of a Hocuspocus message a reader needs (the provider's `IncomingMessage`). */
export interface MessageReader {
  readVarString(): string;
  readVarUint(): number;
}

/**
 * Whether a message from the sync server says "your update was not applied": a SyncStatus message
 * (`<document address> <syncStatusType> 0`). Hocuspocus sends it only on read-only connections,
 * for every update the server does not already have (on the first sync too); a writer's updates
 * are applied or refused by closing the connection.
 */
export function isRefusedSyncStatus(message: MessageReader, syncStatusType: number): boolean {
  try {
    message.readVarString();
    return message.readVarUint() === syncStatusType && message.readVarUint() === 0;
  } catch {
    return false;
  }
}
