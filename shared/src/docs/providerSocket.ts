/**
 * Closing a Hocuspocus provider outside the browser. Under Node's `ws`, a socket closed while it is
 * still connecting reports "closed before the connection was established" on the next tick, after
 * the provider has removed its listeners: an uncaught exception that would end the process (the
 * API's service connection timing out against an unreachable sync server). The error is listened
 * to and ignored; in a browser the calls are the plain destroy and reconnect. The heartbeat's
 * restart of a hanging attempt closes a socket in that state too (restartConnection).
 */
interface Destroyable {
  destroy(): void;
}

interface Reconnectable {
  webSocket: unknown;
  disconnect(): void;
  connect(): Promise<unknown>;
}

/** Keeps the error that `ws` reports after a close during the handshake from going uncaught. */
function quietAfterClose(webSocket: unknown) {
  (webSocket as { on?: (event: string, listener: () => void) => unknown } | null)?.on?.('error', () => undefined);
}

export function destroyProvider(provider: Destroyable, socket: Destroyable & { webSocket: unknown }): void {
  const ws = socket.webSocket;
  provider.destroy();
  socket.destroy();
  quietAfterClose(ws);
}

/** Gives up the current connection attempt and starts a new one (the heartbeat's restart). */
export function restartConnection(socket: Reconnectable): void {
  const ws = socket.webSocket;
  socket.disconnect();
  quietAfterClose(ws);
  void socket.connect();
}
