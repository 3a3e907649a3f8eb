/**
 * Time from the network's return to every pending change confirmed (issue 10), for 10 and for 500
 * changes made while offline. The sync server runs as a child process (`node sync-server/src/main.ts`,
 * every update durably logged before it is acknowledged); the client is a real HocuspocusProvider with
 * the browser's socket settings and heartbeat (SYNC_SOCKET_OPTIONS, startHeartbeat), connected
 * through a loopback link that can cut the network (sync-server/src/testing/netsim.ts).
 *
 * Two ways the network comes back, as a browser sees them:
 * - announced: the connection broke visibly (reset) and the browser's `online` event reconnects at
 *   once (collabSession.onBrowserOnline calls connect());
 * - silent: packets were dropped without any event or close (a blackhole): the heartbeat notices
 *   the dead connection (within 10 s), the client keeps trying with backoff (SYNC_SOCKET_OPTIONS)
 *   and finds the network again by itself; timed from the network's return after 15 s away.
 * Each change is its own transaction (a step moved), so 500 changes are 500 Yjs updates.
 */
import { WebSocketStatus } from '@hocuspocus/provider';
import pg from 'pg';
import { migrate } from '../../api-server/src/db/migrate.ts';
import { openHeartbeatClient, waitFor } from '../../sync-server/src/testing/clients.ts';
import { createFixture } from '../../sync-server/src/testing/fixtures.ts';
import { startLink } from '../../sync-server/src/testing/netsim.ts';
import { spawnServer } from '../../sync-server/src/testing/process.ts';
import { fmt, freshDatabase, percentile } from './support.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const db = await freshDatabase('gd_bench_reconnect');
const pool = new pg.Pool({ connectionString: db.url, max: 2 });
await migrate(pool);
const fx = await createFixture(pool);
const server = await spawnServer({ DATABASE_URL: db.url });
const link = await startLink([{ host: '127.0.0.1', port: server.port }]);

async function round(pending: number, silent: boolean): Promise<number> {
  const name = await fx.newJourneyDoc();
  const client = openHeartbeatClient({ url: link.url, name, token: () => fx.token(fx.users.manager, { doc: name }) });
  const { doc, provider, socket } = client;
  try {
    await waitFor(() => provider.isSynced && provider.isAuthenticated && !provider.hasUnsyncedChanges, 'synced', 30_000);
    if (silent) link.blackhole();
    else link.partition();
    for (let i = 0; i < pending; i++) doc.getMap('layout').set(`step${i % 40}`, { x: i, y: i * 2 });
    await waitFor(() => socket.status !== WebSocketStatus.Connected, 'offline noticed', 30_000);
    // Offline for a while: the reconnect attempts have backed off, as after a real outage.
    await sleep(silent ? 15_000 : 500);
    const t0 = performance.now();
    link.heal();
    if (!silent) void socket.connect();
    await waitFor(() => provider.isSynced && provider.isAuthenticated && !provider.hasUnsyncedChanges && socket.status === WebSocketStatus.Connected, 'every change confirmed', 60_000);
    const elapsed = performance.now() - t0;
    const stored = await pool.query<{ n: string }>('SELECT count(*) AS n FROM document_updates WHERE name = $1', [name]);
    if (Number(stored.rows[0]?.n ?? 0) === 0) throw new Error('nothing was logged');
    return elapsed;
  } finally {
    client.stop();
  }
}

try {
  for (const silent of [false, true]) {
    for (const pending of [10, 500]) {
      const times: number[] = [];
      for (let i = 0; i < ROUNDS; i++) times.push(await round(pending, silent));
      times.sort((a, b) => a - b);
      console.log(`${silent ? 'silent' : 'announced'} return, ${pending} pending changes: p50 ${fmt(percentile(times, 50))}  max ${fmt(times.at(-1) ?? NaN)}  (${times.length} rounds)`);
    }
  }
} finally {
  await link.close();
  server.child.kill('SIGTERM');
  await server.exited;
  await pool.end();
  await db.drop();
}
