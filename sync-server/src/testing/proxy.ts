/**
 * A TCP proxy on loopback between sync clients and a server, for network faults: `blackhole()`
 * silently discards every byte in both directions (packets dropped, no close, no reset), and the
 * connections it hit stay dead for good, as after a NAT or Wi-Fi drop; `cut()` resets every
 * connection and refuses new ones, as a restarting server or a load balancer with no backend does;
 * `heal()` lets new connections through again; `retarget()` sends new connections elsewhere, as a
 * load balancer failing over; `holdFrom(text, ms)` holds back for `ms` what a new connection sends
 * from its first chunk containing `text` on (in order), as a slow link for one kind of client
 * (Redis's SUBSCRIBE: the subscriber comes back after the publisher).
 */
import net, { type AddressInfo } from 'node:net';

export interface FaultyProxy {
  url: string;
  port: number;
  blackhole(): void;
  cut(): void;
  heal(): void;
  retarget(to: { host: string; port: number }): void;
  holdFrom(text: string, ms: number): void;
  close(): Promise<void>;
}

export async function startProxy(target: { host: string; port: number }): Promise<FaultyProxy> {
  let dropping = false;
  let refusing = false;
  let to = target;
  let hold: { text: string; ms: number } | null = null;
  const dead = new WeakSet<net.Socket>();
  const sockets = new Set<net.Socket>();
  const track = (s: net.Socket) => { sockets.add(s); s.on('close', () => sockets.delete(s)); s.on('error', () => undefined); };
  const server = net.createServer((client) => {
    track(client);
    if (refusing) { client.destroy(); return; }
    const upstream = net.connect(to.port, to.host);
    track(upstream);
    if (dropping) { dead.add(client); dead.add(upstream); }
    // Copies one direction; with a `rule`, holds back `rule.ms` from its first chunk naming `rule.text` on.
    const forward = (from: net.Socket, to: net.Socket, rule: { text: string; ms: number } | null) => {
      let queue: Buffer[] | null = null;
      let ruleSpent = false;
      from.on('data', (chunk: Buffer) => {
        if (dropping) { dead.add(client); dead.add(upstream); }
        if (dead.has(from) || to.destroyed) return;
        if (rule && !ruleSpent && chunk.toString('latin1').toUpperCase().includes(rule.text.toUpperCase())) {
          ruleSpent = true;
          const held: Buffer[] = [];
          queue = held;
          setTimeout(() => {
            queue = null;
            if (!to.destroyed) for (const c of held) to.write(c);
          }, rule.ms);
        }
        if (queue) queue.push(chunk);
        else to.write(chunk);
      });
    };
    forward(client, upstream, hold);
    forward(upstream, client, null);
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
    holdFrom: (text, ms) => { hold = { text, ms }; },
    close: () => new Promise<void>((resolve) => { for (const s of sockets) s.destroy(); server.close(() => resolve()); }),
  };
}
