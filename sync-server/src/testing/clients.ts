/**
 * Real clients for sync tests: a HocuspocusProvider over its own WebSocket (the `ws` package), with
 * what the server told it recorded (authentication, refusals, closes, sync acknowledgements), and a
 * `waitFor` that polls a condition instead of sleeping.
 */
import { HocuspocusProvider, HocuspocusProviderWebsocket, WebSocketStatus } from '@hocuspocus/provider';
import { applyJourneyToDoc, journeyFromDoc, updateStep, type JourneyStep } from '@gd/shared';
import { SYNC_SOCKET_OPTIONS, startHeartbeat } from '@gd/shared/docs/heartbeat';
import { SYNC_PING } from '@gd/shared/schemas/docs';
import { destroyProvider, providerSocketClass, restartConnection } from '@gd/shared/docs/providerSocket';
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import { WebSocket } from 'ws';
import * as Y from 'yjs';

export async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export interface TestClient {
  doc: Y.Doc;
  provider: HocuspocusProvider;
  socket: HocuspocusProviderWebsocket;
  /** 'read-write' | 'readonly' once authenticated. */
  scope: () => string | undefined;
  refusals: string[];
  /** Closes: the server closing this document connection (code 1000 on the client), or the socket. */
  closes: { code: number; reason: string }[];
  /** SyncStatus acknowledgements: true = applied, false = dropped (read-only). */
  syncStatuses: boolean[];
  /** Send raw bytes on the socket (a crafted message). */
  sendRaw(bytes: Uint8Array): void;
  destroy(): void;
}

const SYNC_STATUS = 8;

/** `ws` as the providers' WebSocket, never ending the process on a close during the handshake. */
const ProviderSocket = providerSocketClass(WebSocket);

export function openClient(opts: {
  url: string;
  name: string;
  token: string | (() => Promise<string>);
  doc?: Y.Doc;
}): TestClient {
  const doc = opts.doc ?? new Y.Doc();
  const socket = new HocuspocusProviderWebsocket({
    url: opts.url,
    WebSocketPolyfill: ProviderSocket,
    // Reconnect fast (the defaults start at 1 s); minDelay must not exceed maxDelay.
    delay: 50,
    minDelay: 50,
    maxDelay: 300,
    jitter: false,
  });
  const provider = new HocuspocusProvider({ websocketProvider: socket, name: opts.name, document: doc, token: opts.token });
  const client: TestClient = {
    doc, provider, socket,
    scope: () => (provider.isAuthenticated ? provider.authorizedScope : undefined),
    refusals: [],
    closes: [],
    syncStatuses: [],
    sendRaw: (bytes) => socket.send(bytes),
    destroy: () => destroyProvider(provider, socket),
  };
  provider.on('authenticationFailed', ({ reason }: { reason: string }) => client.refusals.push(reason));
  provider.on('close', ({ event }: { event: { code: number; reason: string } }) => client.closes.push({ code: event.code, reason: event.reason }));
  provider.on('message', ({ event }: { event: MessageEvent }) => {
    const decoder = decoding.createDecoder(new Uint8Array(event.data as ArrayBuffer));
    decoding.readVarString(decoder);
    if (decoding.readVarUint(decoder) === SYNC_STATUS) client.syncStatuses.push(decoding.readVarInt(decoder) === 1);
  });
  provider.attach();
  return client;
}

export const synced = (c: TestClient) => c.provider.isSynced && c.scope() !== undefined;

/** What opening a document through the API needs: a client of the API asking for document tokens (the API harness's `TestClient`). */
export interface DocTokenSource { ok<T>(name: 'docToken', body: { name: string }): Promise<T> }

/**
 * Opens `name` as the web app does, through the API: its docToken answer gives the sync server's
 * address and the access granted, and every (re)connection asks it for a fresh token. Answers once
 * synced; `opened` collects the client for the test to destroy at the end.
 */
export async function openApiDoc(api: DocTokenSource, name: string, opened: TestClient[]): Promise<TestClient & { access: string }> {
  const first = await api.ok<{ url: string; access: string }>('docToken', { name });
  const doc = openClient({ url: first.url, name, token: async () => (await api.ok<{ token: string }>('docToken', { name })).token });
  opened.push(doc);
  await waitFor(() => synced(doc), 'document synced');
  return Object.assign(doc, { access: first.access });
}

/** Changes a journey's source step through the provider, and waits until the server has the change. */
export async function editJourneySource(doc: TestClient, change: (s: JourneyStep) => JourneyStep): Promise<void> {
  const journey = journeyFromDoc(doc.doc);
  const source = journey.steps.find((s) => s.id === journey.entryId)!;
  applyJourneyToDoc(doc.doc, updateStep(journey, change(source)));
  await waitFor(() => !doc.provider.hasUnsyncedChanges, 'edit acknowledged');
}

/** A y-protocols Update message for `name` carrying arbitrary bytes as the update. */
export function rawUpdateMessage(name: string, update: Uint8Array): Uint8Array {
  const encoder = encoding.createEncoder();
  encoding.writeVarString(encoder, name);
  encoding.writeVarUint(encoder, 0); // Sync
  encoding.writeVarUint(encoder, 2); // Update
  encoding.writeVarUint8Array(encoder, update);
  return encoding.toUint8Array(encoder);
}

export const json = (doc: Y.Doc, root = 'meta') => doc.getMap(root).toJSON();

/**
 * A client set up as the browser's session is (collabSession.ts): the socket settings that go with
 * the heartbeat, and the heartbeat itself (ping, give up a dead connection, restart a hanging
 * attempt). `stop` ends both.
 */
export function openHeartbeatClient(opts: { url: string; name: string; token: () => Promise<string> }) {
  const doc = new Y.Doc();
  const socket = new HocuspocusProviderWebsocket({ url: opts.url, WebSocketPolyfill: ProviderSocket, ...SYNC_SOCKET_OPTIONS });
  const provider = new HocuspocusProvider({ websocketProvider: socket, name: opts.name, document: doc, token: opts.token });
  provider.attach();
  const stopHeartbeat = startHeartbeat({
    live: () => provider.isAuthenticated && socket.status === WebSocketStatus.Connected,
    connecting: () => socket.status === WebSocketStatus.Connecting,
    ping: () => provider.sendStateless(SYNC_PING),
    restartAttempt: () => restartConnection(socket),
  });
  return {
    doc,
    provider,
    socket,
    stop: () => {
      stopHeartbeat();
      destroyProvider(provider, socket);
    },
  };
}
