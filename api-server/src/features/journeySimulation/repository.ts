/** SQL of the journey simulation: whether one person is in a compiled segment now. */
import type { Queryable } from '../../db/pool.ts';
import type { CompiledSegment } from '../segments/compile.ts';

/** Whether the compiled segment (of the person's app, its $1) selects `personId`. */
export async function personInSegment(db: Queryable, compiled: CompiledSegment, personId: string): Promise<boolean> {
  const n = compiled.params.length + 1;
  const { rows } = await db.query<{ hit: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM people p WHERE p.id = $${n}::bigint AND (${compiled.where})) AS hit`,
    [...compiled.params, personId],
  );
  return rows[0]?.hit === true;
}
