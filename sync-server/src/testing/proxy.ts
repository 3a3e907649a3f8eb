/**
 * A TCP proxy on loopback between sync clients and a server, for network faults: `blackhole()`
 * silently discards every byte in both directions (packets dropped, no close, no reset), and the
 * connections it hit stay dead for good, as after a NAT or Wi-Fi drop; `cut()` resets every
 * connection and refuses new ones, as a restarting server or a load balancer with no backend does;
 * `heal()` lets new connections through again; `retarget()` sends new connections elsewhere, as a
 * load balancer failing over.
 */
import net, { type AddressInfo } from 'node:net';

export interface FaultyProxy {
  url: string;
  port: number;
  blackhole(): void;
  cut(): void;
  heal(): void;
  retarget(to: { host: string; port: number }): void;
  close(): Promise<void>;
}

export async function startProxy(target: { host: string; port: number }): Promise<FaultyProxy> {
  let dropping = false;
  let refusing = false;
  let to = target;
  const dead = new WeakSet<net.Socket>();
  const sockets = new Set<net.Socket>();
  const track = (s: net.Socket) => { sockets.add(s); s.on('close', () => sockets.delete(s)); s.on('error', () => undefined); };
  const server = net.createServer((client) => {
    track(client);
    if (refusing) { client.destroy(); return; }
    const upstream = net.connect(to.port, to.host);
    track(upstream);
    if (dropping) { dead.add(client); dead.add(upstream); }
    const forward = (from: net.Socket, to: net.Socket) => from.on('data', (chunk: Buffer) => {
      if (dropping) { dead.add(client); dead.add(upstream); }
      if (!dead.has(from) && !to.destroyed) to.write(chunk);
    });
    forward(client, upstream);
    forward(upstream, client);
    client.on('close', () => { if (!dead.has(client)) upstream.destroy(); });
    upstream.on('close', () => { if (!dead.has(upstream)) client.destroy(); });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}`,
    port,
    blackhole: () => {
      dropping = true;
      for (const s of sockets) dead.add(s);
    },
    cut: () => {
      refusing = true;
      for (const s of sockets) s.destroy();
    },
    heal: () => { dropping = false; refusing = false; },
    retarget: (next) => { to = next; },
    close: () => new Promise<void>((resolve) => { for (const s of sockets) s.destroy(); server.close(() => resolve()); }),
  };
}
