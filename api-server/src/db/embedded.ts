/**
 * Embedded Postgres for `npm start` without DATABASE_URL: PGlite (Postgres compiled to WASM) kept in
 * DATA_DIR/pg, served on a loopback socket so the server uses the same `pg` code path as with real
 * Postgres. PGlite is one session: connections are multiplexed and serialised, so keep
 * transactions short and never hold one open while awaiting another connection.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface EmbeddedDb {
  url: string;
  stop(): Promise<void>;
}

export async function startEmbeddedDb(dataDir: string): Promise<EmbeddedDb> {
  const dir = path.resolve(dataDir, 'pg');
  await mkdir(dir, { recursive: true });
  const db = await PGlite.create(dir);
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 32 });
  await server.start();
  const url = `postgres://postgres@${server.getServerConn()}/postgres?sslmode=disable`;
  return {
    url,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
