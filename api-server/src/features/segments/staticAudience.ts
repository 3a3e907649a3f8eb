/**
 * An audience saved from an analysis: the people a funnel step converted or dropped, a cohort's
 * cell. It is a fixed list (source type `none`: nothing refreshes it), ready at once, with where it
 * came from kept in `source_config` (`{ from: 'funnel' | 'cohort', ... }`) so the audience screen
 * can say so and someone can rebuild the analysis.
 *
 * The person ids are chosen by a query of the calling feature (`members`: a SELECT of one bigint
 * column `person_id`, parameterised, already scoped to the app), so a million people never travel
 * through Node. The row and its members are written in one transaction: a name taken (code 30)
 * or a failure leaves nothing behind.
 */
import { randomUUID } from 'node:crypto';
import { ErrorCode, fail, ok, type AudienceSummary, type Result } from '@gd/shared';
import { isUniqueViolation } from '../../db/errors.ts';
import { tx, type Db } from '../../db/pool.ts';
import * as repo from './repository.ts';

export interface StaticAudienceInput {
  accountId: string;
  appId: string;
  createdBy: string;
  name: string;
  /** Kept as the audience's `source_config`; `from` names the analysis. */
  origin: { from: 'funnel' | 'cohort' } & Record<string, unknown>;
  /** SELECT person_id ... : its placeholders are $1..$n, taken from `values`. */
  members: { text: string; values: readonly unknown[] };
}

export async function saveStaticAudience(db: Db, input: StaticAudienceInput): Promise<Result<AudienceSummary>> {
  const id = randomUUID();
  try {
    await tx(db, async (client) => {
      await repo.insertAudience(client, {
        id, accountId: input.accountId, appId: input.appId, name: input.name, sourceType: 'none', segmentId: null,
        definition: null, sourceConfig: input.origin, isTest: false, refreshEveryMinutes: 60, createdBy: input.createdBy,
      });
      const n = input.members.values.length;
      const inserted = await client.query(
        `INSERT INTO audience_members (app_id, audience_id, person_id)
         SELECT $${n + 1}::uuid, $${n + 2}::uuid, m.person_id FROM (${input.members.text}) AS m(person_id)
         GROUP BY m.person_id
         ON CONFLICT DO NOTHING`,
        [...input.members.values, input.appId, id],
      );
      await client.query(
        `UPDATE audiences SET status = 'ready', person_count = $2, refreshed_at = now(), next_refresh_at = NULL, updated_at = now() WHERE id = $1`,
        [id, inserted.rowCount ?? 0],
      );
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      return fail(ErrorCode.NAME_DUPLICATED, 'An audience with that name already exists in this app', [{ path: 'name', message: 'Name already in use' }]);
    }
    throw error;
  }
  const row = await repo.findAudience(db, input.appId, id);
  if (!row) throw new Error(`audience ${id} vanished after it was saved`);
  return ok(repo.toAudienceSummary(row));
}
