/**
 * Closing a Hocuspocus provider outside the browser. Under Node's `ws`, a socket closed while it is
 * still connecting reports "closed before the connection was established" on the next tick, after
 * the provider has removed its listeners: an uncaught exception that would end the process (the
 * API's service connection timing out against an unreachable sync server). The error is listened
 * to and ignored; in a browser the call is the plain destroy.
 */
interface Destroyable {
  destroy(): void;
}

export function destroyProvider(provider: Destroyable, socket: Destroyable & { webSocket: unknown }): void {
  const ws = socket.webSocket as { on?: (event: string, listener: () => void) => unknown } | null;
  provider.destroy();
  socket.destroy();
  ws?.on?.('error', () => undefined);
}
