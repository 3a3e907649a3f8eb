/**
 * A service connection given up while it is still connecting (the sync server accepts TCP but
 * never answers: overloaded, or a proxy in the way) must not end the API process: `ws` reports the
 * aborted handshake after the provider removed its listeners. Vitest fails the run on such an
 * uncaught error, so these tests fail if the provider socket class (shared docs/providerSocket.ts)
 * stops listening.
 */
import net, { type AddressInfo } from 'node:net';
import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import { destroyProvider } from '@gd/shared/docs/providerSocket';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { ProviderSocket } from './liveDocs.ts';
import * as Y from 'yjs';

let silent: net.Server;
const held: net.Socket[] = [];
beforeAll(async () => {
  silent = net.createServer((s) => held.push(s));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  for (const s of held) s.destroy();
  await new Promise((resolve) => silent.close(resolve));
});

it('closing a provider whose socket is still connecting raises nothing uncaught', async () => {
  const { port } = silent.address() as AddressInfo;
  const socket = new HocuspocusProviderWebsocket({ url: `ws://127.0.0.1:${port}`, WebSocketPolyfill: ProviderSocket });
  const provider = new HocuspocusProvider({ websocketProvider: socket, name: 'a/b/journey/c', document: new Y.Doc(), token: 't' });
  provider.attach();
  await expect.poll(() => held.length).toBe(1);
  const ws = socket.webSocket as unknown as WebSocket;
  expect(ws.readyState).toBe(WebSocket.CONNECTING);
  destroyProvider(provider, socket);
  await expect.poll(() => ws.readyState).toBe(WebSocket.CLOSED);
  // The error is emitted on the tick after the close: give it the time to surface.
  await new Promise((resolve) => setTimeout(resolve, 50));
});

it('a service connection closed while still connecting does not end the process', async () => {
  const silent = net.createServer(() => undefined);
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown) => uncaught.push(error);
  process.prependListener('uncaughtException', onUncaught);
  try {
    const socket = new ProviderSocket(`ws://127.0.0.1:${(silent.address() as AddressInfo).port}`);
    socket.close(); // what the provider does on a timeout or destroy: `ws` would throw here
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(uncaught).toEqual([]);
  } finally {
    process.removeListener('uncaughtException', onUncaught);
    silent.close();
  }
});
