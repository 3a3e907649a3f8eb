/**
 * One open collaborative document in the browser: its Y.Doc, the browser copy (y-indexeddb) and the
 * connection to the sync server (Hocuspocus). Framework-free; `useCollabDoc` wraps it for React.
 *
 * Opening: the browser copy is read first (awaited with a timeout: y-indexeddb has no error events),
 * so the document shows offline or with the server down; then a token is fetched from the API (its
 * answer also says the access and the server URL, both remembered for offline opens) and the
 * provider connects. The token is a function: every (re)connect fetches a fresh one.
 *
 * Rules (ARCHITECTURE.md "Sync rules"): the client never seeds content; a read-only document is
 * never written (the UI gates on `access`); when the server refuses one of our updates it closes the
 * connection (`update-rejected:`), our copy has diverged, so the browser copy is dropped and the
 * document reloaded from the server (`resets` counts it so the UI can tell the person); a writer's
 * copy is first kept as a recovery copy (localStore `recoveries`) that they can restore. A read-only
 * connection is not closed: the server answers "not applied" (a SyncStatus message) to anything it
 * lacks that we send, starting with the first sync, which carries whatever the browser copy has
 * and the server does not. A copy holding such changes (forced into a viewer's document, or made
 * before the person lost write access) is dropped and reloaded the same way, so a viewer's
 * browser never keeps content the server refused.
 * The browser's `offline` event closes the socket (no zombie connection) and `online` reconnects.
 */
import { HocuspocusProvider, HocuspocusProviderWebsocket, MessageType, type onMessageParameters } from '@hocuspocus/provider';
import { IndexeddbPersistence } from 'y-indexeddb';
import * as Y from 'yjs';
import { docSchemaVersion } from '@gd/shared/docs/migrate';
import { parseDocName, type DocumentKind } from '@gd/shared/docs/names';
import { SCHEMA_VERSION } from '@gd/shared/docs/schema';
import { ErrorCode } from '@gd/shared/errors';
import { SYNC_SOCKET_OPTIONS, startHeartbeat } from '@gd/shared/docs/heartbeat';
import { reopenConnection, restartConnection } from '@gd/shared/docs/providerSocket';
import { ACCESS_CHANGED_CODE, ACCESS_CHANGED_PREFIX, DOC_SUMMARY_CHANGED, SYNC_PING, UPDATE_REJECTED_CODE, UPDATE_REJECTED_PREFIX } from '@gd/shared/schemas/docs';
import { api } from '../api/client.ts';
import { ApiError } from '../api/errors.ts';
import { deleteDocCopy, docDbName, docRecord, keepRecovery, lastSyncUrl, readPendingCount, rememberDoc, savePendingCount } from './localStore.ts';
import type { CollabError, CollabState, DocAccess } from './collabState.ts';
import { withTimeout } from './timeout.ts';
import { isRefusedSyncStatus, isTransientRefusal, isUpdateRejection, retryDelay, syncStatus, type SocketState } from './status.ts';

const LOCAL_COPY_TIMEOUT_MS = 3_000;
const TOKEN_PREFETCH_TIMEOUT_MS = 6_000;
/** A token request on (re)connect that has not answered by then is given up (and retried). */
const TOKEN_TIMEOUT_MS = 8_000;
/** A prefetched token is used for the first connection only while it is this fresh. */
const PREFETCH_FRESH_MS = 60_000;
/** A second refusal within this window after a reload stops the session. */
const RESET_LOOP_MS = 15_000;

const defaultSyncUrl = (): string => `${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}/collab`;

/** A refusal from the API that no retry fixes. */
const isPermanentApiError = (error: unknown): error is ApiError =>
  error instanceof ApiError && (error.code === ErrorCode.NO_PERMISSION || error.code === ErrorCode.MANDATORY);


export class CollabSession {
  readonly dbName: string;
  private readonly kind: DocumentKind | null;
  private doc = new Y.Doc();
  private idb: IndexeddbPersistence | null = null;
  private socket: HocuspocusProviderWebsocket | null = null;
  private provider: HocuspocusProvider | null = null;
  private generation = 0;
  private destroyed = false;
  private listeners = new Set<() => void>();
  private snapshot: CollabState;

  private phase: 'opening' | 'open' | 'failed' = 'opening';
  private error: CollabError | null = null;
  private socketState: SocketState = 'disconnected';
  private synced = false;
  private lostSinceSync = false;
  private browserOnline = typeof navigator === 'undefined' ? true : navigator.onLine;
  private pendingLocal = 0;
  private authAccess: DocAccess | null = null;
  private tokenAccess: DocAccess | null = null;
  private rememberedAccess: DocAccess | null = null;
  private prefetched: { token: string; at: number } | null = null;
  private lastTokenError: unknown = null;
  private retryAttempt = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private resets = 0;
  private accessChanges = 0;
  private summaryChanges = 0;
  private lastResetAt = 0;
  /** A reload from the server is under way: further refusals of the old copy are the same news. */
  private reloading = false;
  private stopHeartbeat: (() => void) | null = null;

  readonly userId: string;
  readonly name: string;

  constructor(userId: string, name: string) {
    this.userId = userId;
    this.name = name;
    this.dbName = docDbName(userId, name);
    this.kind = parseDocName(name)?.kind ?? null;
    this.snapshot = this.compute();
  }

  // ---- React-facing store --------------------------------------------------------------------

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): CollabState => this.snapshot;

  private emit() {
    if (this.destroyed) return;
    const next = this.compute();
    const prev = this.snapshot;
    const same = (Object.keys(next) as (keyof CollabState)[]).every((k) => Object.is(next[k], prev[k]));
    if (same) return;
    this.snapshot = next;
    for (const l of this.listeners) l();
  }

  private access(): DocAccess | null {
    return this.authAccess ?? this.tokenAccess ?? this.rememberedAccess;
  }

  private tooNew(): boolean {
    const meta = this.doc.getMap('meta');
    return this.kind !== null && meta.has('kind') && docSchemaVersion(this.doc) > SCHEMA_VERSION[this.kind];
  }

  private compute(): CollabState {
    const access = this.access();
    const unsynced = access === 'write' ? this.pendingLocal : 0;
    return {
      doc: this.doc,
      provider: this.provider,
      awareness: this.provider?.awareness ?? null,
      access,
      status: syncStatus({
        phase: this.phase, browserOnline: this.browserOnline, socket: this.socketState,
        synced: this.synced, lostSinceSync: this.lostSinceSync, unsynced,
      }),
      unsynced,
      error: this.error,
      ready: this.doc.getMap('meta').has('kind'),
      tooNew: this.tooNew(),
      resets: this.resets,
      accessChanges: this.accessChanges,
      summaryChanges: this.summaryChanges,
    };
  }

  // ---- Lifecycle -----------------------------------------------------------------------------

  start(): void {
    window.addEventListener('online', this.onBrowserOnline);
    window.addEventListener('offline', this.onBrowserOffline);
    void this.open(this.generation);
  }

  /** Closes the connection and the browser copy (kept on disk). Resolves once the copy is closed. */
  async destroy(): Promise<void> {
    this.destroyed = true;
    this.generation++;
    window.removeEventListener('online', this.onBrowserOnline);
    window.removeEventListener('offline', this.onBrowserOffline);
    this.listeners.clear();
    await this.teardown();
  }

  /** Try again after an error (a person pressed "retry"). */
  retry(): void {
    if (this.destroyed) return;
    this.error = null;
    this.phase = 'opening';
    this.retryAttempt = 0;
    const gen = ++this.generation;
    void this.teardown().then(() => {
      if (gen !== this.generation) return;
      this.freshDoc();
      this.emit();
      return this.open(gen);
    });
  }

  private freshDoc() {
    this.doc = new Y.Doc();
    this.synced = false;
    this.lostSinceSync = false;
    this.pendingLocal = 0;
    this.authAccess = null;
  }

  private async teardown(): Promise<void> {
    this.stopHeartbeat?.();
    this.stopHeartbeat = null;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const { provider, socket, idb, doc } = this;
    this.provider = null;
    this.socket = null;
    this.idb = null;
    doc.off('update', this.onDocUpdate);
    provider?.destroy();
    socket?.destroy();
    this.socketState = 'disconnected';
    await idb?.destroy().catch(() => undefined);
    doc.destroy();
  }

  private async open(gen: number): Promise<void> {
    const stale = () => gen !== this.generation;
    const record = await docRecord(this.userId, this.name);
    if (stale()) return;
    this.rememberedAccess = record?.access ?? null;
    // Changes made offline before a reload are still unconfirmed (a copy from before the count was
    // kept in localStorage has it in its record).
    this.pendingLocal = readPendingCount(this.userId, this.name) ?? record?.pending ?? 0;
    void rememberDoc(this.userId, this.name);

    // 1. The browser copy.
    const idb = new IndexeddbPersistence(this.dbName, this.doc);
    this.idb = idb;
    await withTimeout(idb.whenSynced, LOCAL_COPY_TIMEOUT_MS).catch(() => 'timeout');
    if (stale()) return;
    this.doc.on('update', this.onDocUpdate);

    // 2. A first token (also the access and the URL); offline, what was remembered.
    let url: string | null = null;
    if (this.browserOnline) {
      try {
        const answer = await withTimeout(this.fetchToken(), TOKEN_PREFETCH_TIMEOUT_MS);
        if (answer !== 'timeout') {
          this.prefetched = { token: answer.token, at: Date.now() };
          url = answer.url;
        }
      } catch (error) {
        if (stale()) return;
        if (isPermanentApiError(error)) {
          this.fail({ kind: 'refused', reason: error.message });
          return;
        }
      }
      if (stale()) return;
    }
    url ??= record?.url ?? (await lastSyncUrl(this.userId)) ?? defaultSyncUrl();
    if (stale()) return;

    // 3. The connection.
    this.phase = 'open';
    this.connect(url);
    this.emit();
  }

  private connect(url: string) {
    const socket = new HocuspocusProviderWebsocket({
      url,
      autoConnect: this.browserOnline,
      // A connection that stopped answering is closed (heartbeat below), and a network that
      // returns is used within seconds.
      ...SYNC_SOCKET_OPTIONS,
    });
    const provider = new HocuspocusProvider({
      websocketProvider: socket,
      name: this.name,
      document: this.doc,
      token: this.token,
    });
    this.socket = socket;
    this.provider = provider;
    provider.on('status', this.onStatus);
    provider.on('authenticated', this.onAuthenticated);
    provider.on('authenticationFailed', this.onAuthenticationFailed);
    provider.on('synced', this.onSynced);
    provider.on('unsyncedChanges', this.onUnsyncedChanges);
    provider.on('close', this.onClose);
    provider.on('message', this.onMessage);
    provider.on('stateless', this.onStateless);
    // A provider on a shared websocket provider never syncs without attach().
    provider.attach();
    this.stopHeartbeat?.();
    this.stopHeartbeat = startHeartbeat({
      live: () => provider.isAuthenticated && this.socketState === 'connected',
      connecting: () => this.socketState === 'connecting' && this.browserOnline && this.retryTimer === null,
      ping: () => provider.sendStateless(SYNC_PING),
      restartAttempt: () => restartConnection(socket),
    });
  }

  private token = async (): Promise<string> => {
    const pre = this.prefetched;
    this.prefetched = null;
    if (pre && Date.now() - pre.at < PREFETCH_FRESH_MS) return pre.token;
    try {
      const answer = await withTimeout(this.fetchToken(), TOKEN_TIMEOUT_MS);
      if (answer === 'timeout') throw new Error('The token request did not answer in time');
      this.lastTokenError = null;
      return answer.token;
    } catch (error) {
      this.lastTokenError = error;
      throw error;
    }
  };

  private async fetchToken() {
    const answer = await api.call('docToken', { body: { name: this.name } });
    this.tokenAccess = answer.access;
    if (this.socket && this.socket.configuration.url !== answer.url) this.socket.setConfiguration({ url: answer.url });
    void rememberDoc(this.userId, this.name, { url: answer.url, access: answer.access });
    return answer;
  }

  private fail(error: CollabError) {
    this.phase = 'failed';
    this.error = error;
    this.emit();
  }

  // ---- Events --------------------------------------------------------------------------------

  private onDocUpdate = (_update: Uint8Array, origin: unknown) => {
    if (origin === this.provider || origin === this.idb) {
      this.emit();
      return;
    }
    this.setPending(this.pendingLocal + 1);
  };

  /** The unconfirmed-changes count, also kept with the browser copy (localStore.savePendingCount). */
  private setPending(count: number) {
    if (count === this.pendingLocal) return;
    this.pendingLocal = count;
    savePendingCount(this.userId, this.name, count);
    this.emit();
  }

  private onStatus = ({ status }: { status: string }) => {
    this.socketState = status === 'connected' ? 'connected' : status === 'connecting' ? 'connecting' : 'disconnected';
    if (this.socketState === 'disconnected') {
      this.synced = false;
      this.lostSinceSync = true;
    }
    this.emit();
  };

  private onAuthenticated = ({ scope }: { scope: string }) => {
    this.authAccess = scope === 'readonly' ? 'read' : 'write';
    this.retryAttempt = 0;
    this.emit();
  };

  private onAuthenticationFailed = ({ reason }: { reason: string }) => {
    const tokenError = this.lastTokenError;
    this.lastTokenError = null;
    if (isPermanentApiError(tokenError)) {
      this.fail({ kind: 'refused', reason: tokenError.message });
      this.socket?.disconnect();
      return;
    }
    if (tokenError !== null || isTransientRefusal(reason)) {
      // No token (API unreachable) or an expired one: reconnect later with a fresh token.
      this.synced = false;
      this.lostSinceSync = true;
      this.scheduleReconnect();
      this.emit();
      return;
    }
    this.fail({ kind: 'refused', reason });
    this.socket?.disconnect();
  };

  private onSynced = () => {
    this.synced = true;
    this.lostSinceSync = false;
    if (this.provider && !this.provider.hasUnsyncedChanges) this.setPending(0);
    // Announce this person now that the connection is authenticated (the state sent with the
    // handshake may precede authentication); the server stamps who it is.
    const awareness = this.provider?.awareness;
    if (awareness && this.access() === 'write') awareness.setLocalState({ ...(awareness.getLocalState() ?? {}) });
    this.emit();
  };

  /**
   * The provider's own count of changes the server has not confirmed. Reaching 0 on a live,
   * authenticated connection means in sync, whether or not a `synced` event comes (after a dead
   * connection the provider may still think itself synced and never send one again).
   */
  private onUnsyncedChanges = ({ number }: { number: number }) => {
    if (number === 0 && this.provider?.isAuthenticated && this.socketState === 'connected') {
      this.synced = true;
      this.lostSinceSync = false;
      this.setPending(0);
    } else if (number === 0 && this.synced) this.setPending(0);
    this.emit();
  };

  private onClose = ({ event }: { event?: { code?: number; reason?: string } }) => {
    if (isUpdateRejection(event, UPDATE_REJECTED_CODE, UPDATE_REJECTED_PREFIX)) void this.reloadFromServer(event?.reason ?? '');
    // Our rights changed while connected: reopen (the copy is kept) with a token carrying the new ones.
    else if (isUpdateRejection(event, ACCESS_CHANGED_CODE, ACCESS_CHANGED_PREFIX)) {
      this.accessChanges += 1;
      this.retry();
    }
  };

  /** On a read-only connection, the server's "not applied": our copy holds changes it refused. */
  private onMessage = ({ message }: onMessageParameters) => {
    if (this.access() === 'read' && isRefusedSyncStatus(message, MessageType.SyncStatus)) void this.reloadFromServer('read-only: local changes refused');
  };

  private onStateless = ({ payload }: { payload: string }) => {
    if (payload !== DOC_SUMMARY_CHANGED) return;
    this.summaryChanges += 1;
    this.emit();
  };

  private onBrowserOnline = () => {
    const wasOffline = !this.browserOnline;
    this.browserOnline = true;
    this.retryAttempt = 0;
    // The socket closed when the browser went offline may not have finished closing (see
    // reopenConnection): connect() alone would then do nothing, for good.
    if (this.phase === 'open' && this.socket) {
      if (wasOffline) reopenConnection(this.socket);
      else void this.socket.connect();
    }
    this.emit();
  };

  private onBrowserOffline = () => {
    this.browserOnline = false;
    // The socket is dead or about to be; close it rather than wait for a timeout.
    this.socket?.disconnect();
    this.synced = false;
    this.lostSinceSync = true;
    this.emit();
  };

  private scheduleReconnect() {
    if (this.retryTimer || !this.socket) return;
    const socket = this.socket;
    socket.disconnect();
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (this.socket === socket && this.browserOnline) reopenConnection(socket);
    }, retryDelay(this.retryAttempt++));
  }

  /** The server refused an update: our copy diverged. Drop it and load the server's. */
  private async reloadFromServer(reason: string): Promise<void> {
    if (this.destroyed || this.reloading) return;
    this.reloading = true;
    try {
      await this.dropCopyAndReopen(reason);
    } finally {
      this.reloading = false;
    }
  }

  private async dropCopyAndReopen(reason: string): Promise<void> {
    const now = Date.now();
    const gen = ++this.generation;
    if (now - this.lastResetAt < RESET_LOOP_MS) {
      // Stop instead of looping. A writer's copy is kept (it may hold work worth rescuing); a
      // viewer's holds nothing of theirs the server would ever take.
      const readOnly = this.access() === 'read';
      await this.teardown();
      if (readOnly) await deleteDocCopy(this.userId, this.name);
      if (gen !== this.generation) return;
      this.freshDoc();
      this.fail({ kind: 'rejected_again', reason });
      return;
    }
    this.lastResetAt = now;
    // A writer's copy is kept as a recovery copy first (their version, to restore); a copy that
    // cannot be kept is not dropped: the session stops with it, as after a second refusal.
    const kept = this.access() === 'read' || (await keepRecovery(this.userId, this.name, Y.encodeStateAsUpdate(this.doc), reason));
    if (gen !== this.generation) return;
    if (!kept) {
      await this.teardown();
      if (gen !== this.generation) return;
      this.freshDoc();
      this.fail({ kind: 'rejected_again', reason });
      return;
    }
    await this.teardown();
    await deleteDocCopy(this.userId, this.name);
    savePendingCount(this.userId, this.name, 0);
    if (gen !== this.generation) return;
    this.freshDoc();
    this.resets += 1;
    this.phase = 'opening';
    this.emit();
    await this.open(gen);
  }
}
