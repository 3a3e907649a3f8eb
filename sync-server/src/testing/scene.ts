/**
 * What a sync test file that starts servers of its own needs, set up once and torn down once: a
 * pool on the run's database and a fixture (users, documents), and trackers for the clients, child
 * processes, proxies and in-process servers it starts, so none outlives the file. Documents are
 * read through their `layout` map, the one the fault tests write.
 */
import { afterAll, beforeAll } from 'vitest';
import * as Y from 'yjs';
import { createPool } from '../repository.ts';
import { openClient, type TestClient } from './clients.ts';
import { createFixture, type Fixture } from './fixtures.ts';
import { spawnServer, type ChildServer } from './process.ts';
import { startProxy, type FaultyProxy } from './proxy.ts';
import { databaseUrl, startSync, storedDoc, type RunningSync } from './server.ts';
import type { SyncServerOptions } from '../server.ts';

export interface Scene {
  readonly db: ReturnType<typeof createPool>;
  fixture: () => Fixture;
  /** A client of the fixture's manager on `name` through `url`. */
  open: (url: string, name: string) => TestClient;
  /** Tracks a client made some other way (another user's token, another secret). */
  track: (client: TestClient) => TestClient;
  /** The standalone server as a child process (a minute of store debounce unless `env` says otherwise). */
  child: (env?: Record<string, string>) => Promise<ChildServer>;
  proxy: (target: { host: string; port: number }) => Promise<FaultyProxy>;
  server: (opts?: Partial<SyncServerOptions>) => Promise<RunningSync>;
  /** The stored document's layout map as JSON ({} when never stored). */
  storedLayout: (name: string) => Promise<Record<string, unknown>>;
}

export const LONG_DEBOUNCE = { STORE_DEBOUNCE_MS: '60000', STORE_MAX_DEBOUNCE_MS: '120000' };

/** The `layout` map a fault test writes, of a client or a document (undefined for none). */
export const layoutOf = (d: TestClient | Y.Doc | null): Y.Map<unknown> | undefined =>
  (d instanceof Y.Doc || d === null ? d : d.doc)?.getMap('layout');

/** Registers the file's beforeAll/afterAll; call once at the top of a test file. */
export function useScene(): Scene {
  const db = createPool(databaseUrl(), 2);
  let fx: Fixture | undefined;
  const clients: TestClient[] = [];
  const children: ChildServer[] = [];
  const proxies: FaultyProxy[] = [];
  const servers: RunningSync[] = [];
  beforeAll(async () => { fx = await createFixture(db); });
  afterAll(async () => {
    for (const c of clients) c.destroy();
    for (const s of children) s.child.kill('SIGKILL');
    await Promise.all(servers.map((s) => s.stop()));
    await Promise.all(proxies.map((p) => p.close()));
    await db.end();
  });
  const fixture = () => {
    if (!fx) throw new Error('the scene is used before beforeAll ran');
    return fx;
  };
  const track = (client: TestClient) => { clients.push(client); return client; };
  return {
    db, fixture, track,
    open: (url, name) => track(openClient({ url, name, token: () => fixture().token(fixture().users.manager, { doc: name }) })),
    async child(env = {}) {
      const s = await spawnServer({ DATABASE_URL: databaseUrl(), ...LONG_DEBOUNCE, ...env });
      children.push(s);
      return s;
    },
    async proxy(target) {
      const p = await startProxy(target);
      proxies.push(p);
      return p;
    },
    async server(opts = {}) {
      const s = await startSync(opts);
      servers.push(s);
      return s;
    },
    storedLayout: async (name) => layoutOf(await storedDoc(db, name))?.toJSON() ?? {},
  };
}
