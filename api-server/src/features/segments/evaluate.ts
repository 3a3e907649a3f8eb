/**
 * Running a compiled segment: count and sample (the editor's estimate, cancellable), and the
 * materialisation of an audience's members.
 */
import { isQueryCanceled } from '../../db/errors.ts';
import type { Db, Queryable } from '../../db/pool.ts';
import type { CompiledSegment } from './compile.ts';
import { SAMPLE_COLUMNS, type SampleRow } from './repository.ts';

export interface EstimateOptions {
  /** Aborted when the caller goes away: the running query is cancelled. */
  signal?: AbortSignal | undefined;
  /** statement_timeout of each query, in milliseconds. */
  timeoutMs: number;
  sampleSize: number;
  /**
   * Whether an abort may cancel the backend (pg_cancel_backend). Off on embedded PGlite, where
   * every connection shares one backend and a cancel would hit whoever runs next.
   */
  cancelBackend: boolean;
}

/** The estimate stopped: the caller went away, or it ran past its time. */
export class EstimateStopped extends Error {
  readonly reason: 'cancelled' | 'timeout';
  constructor(reason: 'cancelled' | 'timeout') {
    super(reason === 'cancelled' ? 'estimate cancelled' : 'estimate timed out');
    this.reason = reason;
  }
}


/** Count of the people the segment selects and a sample of them (newest people first), in one read-only transaction. */
export async function estimate(db: Db, compiled: CompiledSegment, opts: EstimateOptions): Promise<{ count: number; sample: SampleRow[] }> {
  if (opts.signal?.aborted) throw new EstimateStopped('cancelled');
  const client = await db.connect();
  let cancelIssued = false;
  const onAbort = () => {
    const pid = (client as unknown as { processID?: number | null }).processID;
    if (!opts.cancelBackend || !pid) return;
    cancelIssued = true;
    db.query('SELECT pg_cancel_backend($1)', [pid]).catch(() => undefined);
  };
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    await client.query('BEGIN READ ONLY');
    await client.query(`SELECT set_config('statement_timeout', $1, true)`, [String(opts.timeoutMs)]);
    const { rows } = await client.query<{ n: number }>(`SELECT count(*) AS n FROM people p WHERE ${compiled.where}`, compiled.params);
    const count = rows[0]?.n ?? 0;
    const sample = count === 0 || opts.signal?.aborted ? [] : (await client.query<SampleRow>(
      `SELECT ${SAMPLE_COLUMNS} FROM people p WHERE ${compiled.where} ORDER BY p.id DESC LIMIT ${Math.trunc(opts.sampleSize)}`,
      compiled.params,
    )).rows;
    await client.query('COMMIT');
    if (opts.signal?.aborted) throw new EstimateStopped('cancelled');
    return { count, sample };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    if (isQueryCanceled(error) || opts.signal?.aborted) throw new EstimateStopped(opts.signal?.aborted ? 'cancelled' : 'timeout');
    throw error;
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
    // A connection a late cancel may still reach is closed rather than handed to someone else.
    client.release(cancelIssued);
  }
}

/** People count of a compiled segment (no sample, no timeout: benchmarks and the worker). */
export async function countSegment(db: Queryable, compiled: CompiledSegment): Promise<number> {
  const { rows } = await db.query<{ n: number }>(`SELECT count(*) AS n FROM people p WHERE ${compiled.where}`, compiled.params);
  return rows[0]?.n ?? 0;
}

/**
 * Replaces an audience's members with the people the segment selects, in one statement (so in
 * the caller's transaction it is all or nothing): members no longer selected are removed, new
 * ones added, the others kept (with their `added_at`). Answers the new member count. The app is
 * the compiled segment's ($1).
 */
export async function materialise(db: Queryable, audienceId: string, compiled: CompiledSegment): Promise<number> {
  const audience = `$${compiled.params.length + 1}::uuid`;
  const { rows } = await db.query<{ total: number }>(
    `WITH target AS MATERIALIZED (${compiled.sql}),
     removed AS (
       DELETE FROM audience_members m WHERE m.app_id = $1::uuid AND m.audience_id = ${audience}
          AND NOT EXISTS (SELECT 1 FROM target t WHERE t.id = m.person_id)),
     added AS (
       INSERT INTO audience_members (app_id, audience_id, person_id)
       SELECT $1::uuid, ${audience}, t.id FROM target t ON CONFLICT DO NOTHING)
     SELECT count(*) AS total FROM target`,
    [...compiled.params, audienceId],
  );
  return rows[0]?.total ?? 0;
}
