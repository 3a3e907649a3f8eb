/**
 * From identifiers to people, one batch per statement, into the task's scratch rows
 * (import_staging). Identifier types (SPEC.md section 3):
 * - customerId: people.customer_id (the known person, not a merged-away row);
 * - {product}Id: people.id, this product's own person id (a merged-away id resolves to the person
 *   it was merged into);
 * - deviceId: any id of a device: the SDK's install id (device_key), idfa, idfv, gaid or oaid.
 * Answers how many of the batch's rows matched somebody; the others are counted as unmatched by
 * the caller and stored nowhere. Empty and over-long identifiers match nobody.
 */
import { IMPORT_LIMITS, type AudienceIdType } from '@gd/shared';
import type { Queryable } from '../../db/pool.ts';

const usable = (v: string) => v !== '' && v.length <= IMPORT_LIMITS.identifierMaxLength;
const PERSON_ID = /^[1-9][0-9]{0,17}$/;

export async function stageBatch(db: Queryable, taskId: string, appId: string, idType: AudienceIdType, batch: readonly string[]): Promise<number> {
  switch (idType) {
    case 'customerId': {
      const values = batch.filter(usable);
      if (!values.length) return 0;
      const { rowCount } = await db.query(
        `INSERT INTO import_staging (task_id, person_id)
         SELECT $1, p.id FROM unnest($3::text[]) AS u(v)
           JOIN people p ON p.app_id = $2 AND p.customer_id = u.v AND p.merged_into IS NULL`,
        [taskId, appId, values],
      );
      return rowCount ?? 0;
    }
    case '{product}Id': {
      const values = batch.filter((v) => PERSON_ID.test(v));
      if (!values.length) return 0;
      const { rowCount } = await db.query(
        `INSERT INTO import_staging (task_id, person_id)
         SELECT $1, coalesce(p.merged_into, p.id) FROM unnest($3::bigint[]) AS u(v)
           JOIN people p ON p.app_id = $2 AND p.id = u.v`,
        [taskId, appId, values],
      );
      return rowCount ?? 0;
    }
    case 'deviceId': {
      const values = batch.filter(usable);
      if (!values.length) return 0;
      // One index probe per id column; a row matches when any column holds its value.
      const { rows } = await db.query<{ matched: number }>(
        `WITH input AS (SELECT v, n FROM unnest($3::text[]) WITH ORDINALITY AS u(v, n)),
         hits AS (
           SELECT i.n, d.person_id FROM input i JOIN devices d ON d.app_id = $2 AND d.device_key = i.v
           UNION SELECT i.n, d.person_id FROM input i JOIN devices d ON d.app_id = $2 AND d.idfa = i.v
           UNION SELECT i.n, d.person_id FROM input i JOIN devices d ON d.app_id = $2 AND d.idfv = i.v
           UNION SELECT i.n, d.person_id FROM input i JOIN devices d ON d.app_id = $2 AND d.gaid = i.v
           UNION SELECT i.n, d.person_id FROM input i JOIN devices d ON d.app_id = $2 AND d.oaid = i.v),
         staged AS (INSERT INTO import_staging (task_id, person_id) SELECT DISTINCT $1::uuid, person_id FROM hits)
         SELECT count(DISTINCT n)::int AS matched FROM hits`,
        [taskId, appId, values],
      );
      return rows[0]?.matched ?? 0;
    }
    default: {
      const never: never = idType;
      throw new Error(`unknown identifier type ${String(never)}`);
    }
  }
}

/** Forgets a run's scratch rows (before a run starts again, and after it ended). */
export async function clearStaging(db: Queryable, taskId: string): Promise<void> {
  await db.query('DELETE FROM import_staging WHERE task_id = $1', [taskId]);
}
