/** SenderCache against real Postgres, counting the questions it asks. */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPool, type Db, type Queryable } from '../../db/pool.ts';
import { SenderCache } from './senderCache.ts';

let db: Db;
beforeAll(() => {
  db = createPool(inject('databaseUrl'), 2);
});
afterAll(async () => {
  await db.end();
});

/** The database, counting queries; `failNext` makes the next one fail as a dropped connection would. */
function counted() {
  let failNext = false;
  const counter = {
    queries: 0,
    failNext: () => { failNext = true; },
    db: { query: ((...args: Parameters<Queryable['query']>) => {
      counter.queries++;
      if (failNext) {
        failNext = false;
        return Promise.reject(new Error('connection terminated'));
      }
      return (db.query as (...a: unknown[]) => unknown)(...args);
    }) as Queryable['query'] } satisfies Queryable,
  };
  return counter;
}

describe('SenderCache.stillRunning', () => {
  it('asks once for all the sends of a batch that ask together, and again after a failed question', async () => {
    const cache = new SenderCache();
    const c = counted();
    const messageId = randomUUID();
    // 200 lanes asking at once about a message that does not exist (so: not running).
    const answers = await Promise.all(Array.from({ length: 200 }, () => cache.stillRunning(c.db, messageId)));
    expect(answers.every((a) => a === false)).toBe(true);
    expect(c.queries).toBe(1);
    // Within 250 ms the answer is reused.
    await cache.stillRunning(c.db, messageId);
    expect(c.queries).toBe(1);

    const other = randomUUID();
    c.failNext();
    await expect(cache.stillRunning(c.db, other)).rejects.toThrow('connection terminated');
    // The failure is not kept: the next send asks again, and gets the answer.
    expect(await cache.stillRunning(c.db, other)).toBe(false);
    expect(c.queries).toBe(3);
    cache.close();
  });
});
