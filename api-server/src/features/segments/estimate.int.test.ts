/**
 * The estimate stops server-side: when its caller goes away the running query is cancelled on
 * the database, and a query past its time limit stops with a timeout. A deliberately slow
 * condition (pg_sleep) stands in for an expensive segment; waits are on conditions, not times.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createPool, type Db } from '../../db/pool.ts';
import { createTestApp, registerAccount, startTestApi, type TestApi } from '../../testing/harness.ts';
import type { CompiledSegment } from './compile.ts';
import { EstimateStopped, estimate } from './evaluate.ts';
import { seeder } from './testing/data.ts';

let api: TestApi;
let db: Db;
let appId: string;

beforeAll(async () => {
  api = await startTestApi();
  db = createPool(inject('databaseUrl'), 3);
  const owner = await registerAccount(api);
  appId = (await createTestApp(owner.client)).id;
  await seeder(db, appId).person({ customer_id: 'slow' });
});
afterAll(async () => {
  await db.end();
  await api.stop();
});

const slow = (marker: string): CompiledSegment => {
  const where = `p.app_id = $1::uuid AND pg_sleep(30) IS NOT NULL AND $2::text <> '${marker}'`;
  return { where, sql: `SELECT p.id FROM people p WHERE ${where}`, params: [appId, 'x'] };
};
const running = async (marker: string) =>
  (await db.query<{ n: number }>(`SELECT count(*) AS n FROM pg_stat_activity WHERE state = 'active' AND pid <> pg_backend_pid() AND query LIKE $1`, [`%${marker}%`])).rows[0]!.n;

async function until(check: () => Promise<boolean>, what: string) {
  for (let i = 0; i < 500; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`gave up waiting for ${what}`);
}

it('cancels the running query when the caller goes away', async () => {
  const marker = `marker-${randomUUID()}`;
  const controller = new AbortController();
  const answer = estimate(db, slow(marker), { signal: controller.signal, timeoutMs: 60_000, sampleSize: 20, cancelBackend: true });
  const outcome = answer.then(() => 'answered', (error: unknown) => error);
  await until(async () => (await running(marker)) > 0, 'the query to run');
  controller.abort();
  // Stopped on the database well before its 30 s sleep ends (the wait gives up long before).
  await until(async () => (await running(marker)) === 0, 'the query to stop');
  const error = await outcome;
  expect(error).toBeInstanceOf(EstimateStopped);
  expect((error as EstimateStopped).reason).toBe('cancelled');
});

it('stops a query that runs past its time limit', async () => {
  const marker = `marker-${randomUUID()}`;
  const error = await estimate(db, slow(marker), { timeoutMs: 200, sampleSize: 20, cancelBackend: true }).then(() => 'answered', (e: unknown) => e);
  expect(error).toBeInstanceOf(EstimateStopped);
  expect((error as EstimateStopped).reason).toBe('timeout');
  expect(await running(marker)).toBe(0);
});
