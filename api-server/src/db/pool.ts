/** The one way the server talks to Postgres: a `pg` pool, on real Postgres or on embedded PGlite. */
import pg from 'pg';

// Return int8 (counts) as numbers; our counts stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export type Db = pg.Pool;
export type DbClient = pg.PoolClient;
export type Queryable = Pick<pg.Pool, 'query'>;


/**
 * JIT compilation is off for the product's connections: Postgres compiles a query to machine code
 * when its estimated cost passes `jit_above_cost`, and for our analytical queries (explore over the
 * events table) the compilation took longer than it saved: an explore by property over 2.6 million
 * events ran in 14.8 s with JIT and 6.8 s without (docs/BENCHMARKS.md). Set in the connection's
 * startup packet, so it holds before the first query. (Embedded PGlite ignores startup options;
 * it is built without a JIT provider, so it never compiles anyway.)
 */
const SESSION_OPTIONS = '-c jit=off';

export function createPool(connectionString: string, max = 10): Db {
  const pool = new pg.Pool({ connectionString, max, idleTimeoutMillis: 30_000, options: SESSION_OPTIONS });
  // A dropped idle connection must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  return pool;
}

/**
 * Named prepared statements save Postgres a parse and plan on hot queries (measured: /user/meta
 * went from ~3,000 to ~4,700 req/s). Embedded PGlite multiplexes every `pg` connection onto one
 * session, where a name prepared by one connection collides with the next ("already exists"), so
 * they are used only on real Postgres (`openDatabase` turns them off for the embedded database).
 */
let preparedStatements = true;
export function usePreparedStatements(enabled: boolean): void {
  preparedStatements = enabled;
}
export function statement(name: string, text: string, values: unknown[]): pg.QueryConfig {
  return preparedStatements ? { name, text, values } : { text, values };
}

/** The single row an INSERT/UPDATE ... RETURNING must give; a missing row is a bug. */
export function single<T>(rows: T[]): T {
  const row = rows[0];
  if (row === undefined) throw new Error('expected one row, got none');
  return row;
}

/**
 * Run `fn` in one transaction; rolls back on any throw. Keep transactions short (PGlite serialises
 * them). `begin`: the statement(s) that open it, e.g. 'BEGIN; SET LOCAL ...' in one round trip.
 */
export async function tx<T>(db: Db, fn: (client: DbClient) => Promise<T>, begin = 'BEGIN'): Promise<T> {
  const client = await db.connect();
  try {
    await client.query(begin);
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** `tx`, run again (up to `attempts` times) when it fails with one of the SQLSTATE `codes`: a lost race, not a bug. */
export async function retryingTx<T>(db: Db, fn: (client: DbClient) => Promise<T>, codes: ReadonlySet<string>, attempts = 3, begin = 'BEGIN'): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await tx(db, fn, begin);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (attempt >= attempts || !code || !codes.has(code)) throw error;
    }
  }
}
