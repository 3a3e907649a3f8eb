/**
 * Hocuspocus providers outside the browser. Under Node's `ws`, a socket closed while it is still
 * connecting reports "closed before the connection was established" on the next tick, after the
 * provider has removed its listeners: an uncaught exception that would end the process (the API's
 * service connection timing out against an unreachable sync server, a test client's reconnect, a
 * destroy during the handshake). The provider learns of failures through its own handlers, so the
 * socket class a Node provider is given (`providerSocketClass(WebSocket)` as `WebSocketPolyfill`)
 * listens to its errors from birth, whichever path closes it. Browsers' WebSocket never throws
 * there; they use the plain calls below.
 */
import type { WebSocket as WsSocket } from 'ws';

/** How a provider constructs its socket (`WebSocketPolyfill`): an address and optional protocols. */
export type ClientSocketClass = new (address: string | URL, protocols?: string | string[]) => WsSocket;

/** `ws`'s WebSocket, never throwing an error no one listens to (pass `ws`'s class: shared does not load it). */
export function providerSocketClass(Ws: typeof WsSocket): ClientSocketClass {
  return class ProviderSocket extends Ws {
    constructor(address: string | URL, protocols?: string | string[]) {
      super(address, protocols);
      this.on('error', () => undefined);
    }
  };
}

interface Destroyable {
  destroy(): void;
}

interface Reconnectable {
  disconnect(): void;
  connect(): Promise<unknown>;
}

export function destroyProvider(provider: Destroyable, socket: Destroyable): void {
  provider.destroy();
  socket.destroy();
}

interface Reopenable extends Reconnectable {
  /** The provider's WebSocketStatus: 'connecting', 'connected' or 'disconnected'. */
  readonly status: string;
  onClose(parameters: { event: { code: number; reason: string } }): void;
}

/**
 * Connects again a socket that was told to disconnect (the browser went offline, a retry after a
 * refused token). The provider's connect() does nothing while it still calls its socket
 * connected, and a socket closed without a network may stay "connected" for a long time: its
 * closing handshake cannot finish, so its close event comes late (or, in a browser whose network
 * is emulated offline, after the network is back). Connecting then was a no-op, and disconnect()
 * had cleared the provider's wish to connect, so when the close finally came nothing reconnected:
 * the document stayed offline for good. The stale socket is dropped first (the provider's own
 * close handling: listeners removed, attempt rejected, status disconnected), then a new one opens.
 */
export function reopenConnection(socket: Reopenable): void {
  if (socket.status !== 'disconnected') socket.onClose({ event: { code: 4000, reason: 'reopened after a disconnect' } });
  void socket.connect();
}

/** Gives up the current connection attempt and starts a new one (the heartbeat's restart). */
export function restartConnection(socket: Reconnectable): void {
  socket.disconnect();
  void socket.connect();
}
