/** The pool's session settings reach every connection it opens, before the first query on it. */
import { inject } from 'vitest';
import { describe, expect, it } from 'vitest';
import '../testing/provided.ts';
import { createPool } from './pool.ts';

describe('database pool', () => {
  it('turns JIT compilation off on every connection', async () => {
    const pool = createPool(inject('databaseUrl'), 3);
    try {
      const clients = await Promise.all([pool.connect(), pool.connect(), pool.connect()]);
      const settings = await Promise.all(clients.map((c) => c.query<{ jit: string }>('SHOW jit')));
      for (const c of clients) c.release();
      expect(settings.map((s) => s.rows[0]?.jit)).toEqual(['off', 'off', 'off']);
    } finally {
      await pool.end();
    }
  });
});
