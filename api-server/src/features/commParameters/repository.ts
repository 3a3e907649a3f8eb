/** SQL for communication parameters (migration 015): one row per parameter of an app. */
import type { CommunicationParameter } from '@gd/shared';
import type { CommunicationParameterInput, CommunicationParameterRecord } from '@gd/shared/schemas/messageSettings';
import type { Queryable } from '../../db/pool.ts';

interface ParameterRow {
  id: string; name: string; label: string; type: CommunicationParameterRecord['type']; choices: string[]; created_at: Date; updated_at: Date;
}
const toRecord = (r: ParameterRow): CommunicationParameterRecord => ({
  id: r.id, name: r.name, label: r.label, type: r.type, values: r.choices,
  createdAt: r.created_at.toISOString(), updatedAt: r.updated_at.toISOString(),
});
const COLUMNS = 'id, name, label, type, choices, created_at, updated_at';

export async function listParameters(db: Queryable, appId: string): Promise<CommunicationParameterRecord[]> {
  const { rows } = await db.query<ParameterRow>(`SELECT ${COLUMNS} FROM communication_parameters WHERE app_id = $1 ORDER BY name`, [appId]);
  return rows.map(toRecord);
}

/** The app's parameters as message validation reads them (validateDraft's `parameters`). */
export async function parameterDefinitions(db: Queryable, appId: string): Promise<CommunicationParameter[]> {
  return (await listParameters(db, appId)).map(({ name, label, type, values }) => ({ name, label, type, values }));
}

export async function insertParameter(db: Queryable, input: { accountId: string; appId: string; userId: string; parameter: CommunicationParameterInput }): Promise<CommunicationParameterRecord> {
  const p = input.parameter;
  const { rows } = await db.query<ParameterRow>(
    `INSERT INTO communication_parameters (account_id, app_id, name, label, type, choices, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
    [input.accountId, input.appId, p.name, p.label, p.type, p.values, input.userId],
  );
  const row = rows[0];
  if (!row) throw new Error('inserted parameter not returned');
  return toRecord(row);
}

export async function updateParameter(db: Queryable, appId: string, id: string, p: CommunicationParameterInput): Promise<CommunicationParameterRecord | undefined> {
  const { rows } = await db.query<ParameterRow>(
    `UPDATE communication_parameters SET name = $3, label = $4, type = $5, choices = $6, updated_at = now()
      WHERE app_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
    [appId, id, p.name, p.label, p.type, p.values],
  );
  return rows[0] && toRecord(rows[0]);
}

export async function deleteParameter(db: Queryable, appId: string, id: string): Promise<boolean> {
  return ((await db.query('DELETE FROM communication_parameters WHERE app_id = $1 AND id = $2', [appId, id])).rowCount ?? 0) > 0;
}
