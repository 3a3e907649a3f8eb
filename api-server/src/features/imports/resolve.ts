/**
 * From identifiers to people. While the file streams in, its identifiers are written as they are
 * to import_rows (one multi-row INSERT per batch, no lookups); at the end ONE statement resolves
 * them all with a hash join against people (or devices) and replaces the audience's members.
 * Measured on 1,000,000 rows (docs/BENCHMARKS.md): a million index probes, one per row, cost
 * several times more than one hash join over the app's people.
 *
 * Identifier types (SPEC.md section 3):
 * - customerId: people.customer_id (the known person, not a merged-away row);
 * - {product}Id: people.id, this product's own person id (a merged-away id resolves to the person
 *   it was merged into);
 * - deviceId: any id of a device: the SDK's install id (device_key), idfa, idfv, gaid or oaid.
 * Empty, over-long and (for {product}Id) non-numeric identifiers match nobody and are not written.
 */
import { IMPORT_LIMITS, type AudienceIdType } from '@gd/shared';
import type { Queryable } from '../../db/pool.ts';

const PERSON_ID = /^[1-9][0-9]{0,17}$/;

/** Whether an identifier can match anyone (the others are counted as unmatched at once). */
export function usableIdentifier(idType: AudienceIdType, v: string): boolean {
  if (idType === '{product}Id') return PERSON_ID.test(v);
  return v !== '' && v.length <= IMPORT_LIMITS.identifierMaxLength;
}

/** Writes a batch's identifiers; `first` is the row number of the batch's first row. Answers how many were written. */
export async function stageRows(db: Queryable, taskId: string, idType: AudienceIdType, first: number, batch: readonly string[]): Promise<number> {
  const rows: string[] = [];
  const numbers: number[] = [];
  batch.forEach((v, i) => {
    if (usableIdentifier(idType, v)) {
      rows.push(v);
      numbers.push(first + i);
    }
  });
  if (!rows.length) return 0;
  await db.query(
    'INSERT INTO import_rows (task_id, n, ident) SELECT $1, u.n, u.v FROM unnest($2::bigint[], $3::text[]) AS u(n, v)',
    [taskId, numbers, rows],
  );
  return rows.length;
}

/**
 * SQL of the (n, person_id) pairs an import's rows match, for a statement where $1 is the app and
 * $3 the task. A row may match several people (a device id shared by devices); n says which row.
 */
export function matchedRowsSql(idType: AudienceIdType): string {
  const rows = 'FROM import_rows r';
  switch (idType) {
    case 'customerId':
      return `SELECT r.n, p.id AS person_id ${rows} JOIN people p ON p.app_id = $1 AND p.customer_id = r.ident AND p.merged_into IS NULL WHERE r.task_id = $3`;
    case '{product}Id':
      return `SELECT r.n, coalesce(p.merged_into, p.id) AS person_id ${rows} JOIN people p ON p.app_id = $1 AND p.id = r.ident::bigint WHERE r.task_id = $3`;
    case 'deviceId':
      return ['device_key', 'idfa', 'idfv', 'gaid', 'oaid']
        .map((column) => `SELECT r.n, d.person_id ${rows} JOIN devices d ON d.app_id = $1 AND d.${column} = r.ident WHERE r.task_id = $3`)
        .join(' UNION ');
    default: {
      const never: never = idType;
      throw new Error(`unknown identifier type ${String(never)}`);
    }
  }
}

/** Forgets a run's rows (before a run starts again, and after it ended). */
export async function clearRows(db: Queryable, taskId: string): Promise<void> {
  await db.query('DELETE FROM import_rows WHERE task_id = $1', [taskId]);
}
