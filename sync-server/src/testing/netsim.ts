/**
 * A network between one sync client and the server, on loopback, whose faults a test drives:
 * - `setDelay(ms)`: every byte waits that long in both directions (order within a connection is
 *   kept, as TCP keeps it);
 * - `drop()`: the client's side of every connection is reset at once (it reconnects), while what
 *   the old connection still carries towards the server arrives later, after the new connection's
 *   first messages: updates reordered across a reconnect;
 * - `partition()`: every connection is cut in both directions and new ones are refused until
 *   `heal()`;
 * - `blackhole()`: every byte is dropped, in both directions, without a close or a reset (a Wi-Fi
 *   or NAT drop): the connections it hit stay dead for good, new ones are dead too until `heal()`.
 * One link per client, so each person's network misbehaves on its own. Given several servers (sync
 * instances joined by Redis), each new connection goes to the next one, as behind a load balancer:
 * a reconnect lands on another instance while the old connection's last updates still travel.
 */
import net, { type AddressInfo } from 'node:net';

export interface SimLink {
  url: string;
  setDelay(ms: number): void;
  drop(): void;
  partition(): void;
  blackhole(): void;
  heal(): void;
  close(): Promise<void>;
}

interface Pair {
  client: net.Socket;
  upstream: net.Socket;
  /** Dropped by a blackhole: nothing passes any more, nothing is closed. */
  dead: boolean;
  /** When the last chunk towards the server is due (later chunks never overtake it). */
  upDue: number;
  downDue: number;
}

export async function startLink(targets: readonly { host: string; port: number }[]): Promise<SimLink> {
  let delay = 0;
  let connections = 0;
  let partitioned = false;
  let dropping = false;
  const pairs = new Set<Pair>();

  const server = net.createServer((client) => {
    client.on('error', () => undefined);
    if (partitioned) {
      client.destroy();
      return;
    }
    const target = targets[connections++ % targets.length] as { host: string; port: number };
    const upstream = net.connect(target.port, target.host);
    upstream.on('error', () => undefined);
    const pair: Pair = { client, upstream, dead: dropping, upDue: 0, downDue: 0 };
    pairs.add(pair);
    // Each direction keeps its order: a chunk is never due before the one sent ahead of it.
    const relay = (from: net.Socket, to: net.Socket, due: 'upDue' | 'downDue') =>
      from.on('data', (chunk: Buffer) => {
        if (pair.dead) return;
        pair[due] = Math.max(Date.now() + delay, pair[due]);
        setTimeout(() => {
          if (!to.destroyed && !pair.dead) to.write(chunk);
        }, Math.max(0, pair[due] - Date.now()));
      });
    relay(client, upstream, 'upDue');
    relay(upstream, client, 'downDue');
    // A close on either side reaches the other once what was sent before it has gone through.
    client.on('close', () => {
      if (pair.dead) return;
      setTimeout(() => upstream.end(), Math.max(0, pair.upDue - Date.now()) + 1);
    });
    upstream.on('close', () => {
      pairs.delete(pair);
      if (pair.dead) return;
      setTimeout(() => client.destroy(), Math.max(0, pair.downDue - Date.now()) + 1);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `ws://127.0.0.1:${port}`,
    setDelay: (ms) => {
      delay = ms;
    },
    drop: () => {
      for (const p of pairs) p.client.resetAndDestroy();
    },
    partition: () => {
      partitioned = true;
      for (const p of pairs) {
        p.client.resetAndDestroy();
        p.upstream.destroy();
      }
      pairs.clear();
    },
    blackhole: () => {
      dropping = true;
      for (const p of pairs) p.dead = true;
    },
    heal: () => {
      partitioned = false;
      dropping = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const p of pairs) {
          p.client.destroy();
          p.upstream.destroy();
        }
        server.close(() => resolve());
      }),
  };
}
