/** A real sync server on port 0 against the run's migrated database (vitest globalSetup). */
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { pino } from 'pino';
import { inject } from 'vitest';
import * as Y from 'yjs';
import { createPool } from '../repository.ts';
import { createSyncServer, type SyncServer, type SyncServerOptions } from '../server.ts';
import { TEST_SECRET } from './fixtures.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}

export const databaseUrl = () => inject('databaseUrl');
export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** A Redis key prefix of our own, so concurrent runs and files never share channels or locks. */
export const redisPrefix = () => `gd-sync-test-${randomBytes(6).toString('hex')}`;

export interface RunningSync { sync: SyncServer; url: string; db: pg.Pool; stop(): Promise<void> }

export async function startSync(opts: Partial<SyncServerOptions> = {}): Promise<RunningSync> {
  const db = opts.db as pg.Pool | undefined ?? createPool(databaseUrl(), 4);
  const sync = createSyncServer({
    db, secret: TEST_SECRET, log: pino({ level: process.env.SYNC_TEST_LOG ?? 'silent' }), ...opts,
  });
  const { url } = await sync.listen(0, '127.0.0.1');
  return {
    sync, url, db,
    async stop() {
      await sync.shutdown();
      if (!opts.db) await db.end();
    },
  };
}

/** The document as stored in Postgres, or null. */
export async function storedDoc(db: pg.Pool, name: string): Promise<Y.Doc | null> {
  const { rows } = await db.query<{ state: Buffer }>('SELECT state FROM documents WHERE name = $1', [name]);
  const row = rows[0];
  if (!row) return null;
  const doc = new Y.Doc();
  Y.applyUpdate(doc, row.state);
  return doc;
}
