/**
 * The explore structures of migration 034 when a person merges into another (identify): the
 * merged person's month bitmaps move to the person they merge into, OR-ed with theirs, and distinct
 * people per day lose one on every day both had (two people became one; a day only the merged
 * person had keeps its count: the same activity, another id). The bits already set on the target
 * are read back from the upsert (`added`), the latest locked row, so a batch of the target person
 * committing meanwhile cannot make the count drift. The merged person's rows are found through
 * their events (names and months), by primary key, so the table needs no index by person.
 * Run it before the events move (their person id is how the rows are found).
 */
import type { Queryable } from '../../db/pool.ts';

const MERGE_ROLLUPS = `
WITH keys AS (
  SELECT DISTINCT e.name, date_trunc('month', e.event_time AT TIME ZONE a.timezone)::date AS month
    FROM events e JOIN apps a ON a.id = $1 WHERE e.app_id = $1 AND e.person_id = $2
), k AS (
  SELECT name, month FROM keys UNION SELECT '', month FROM keys
), src AS (
  DELETE FROM event_person_months m USING k
   WHERE m.app_id = $1 AND m.person_id = $2 AND m.name = k.name AND m.month = k.month
  RETURNING m.name, m.month, m.days
), up AS (
  INSERT INTO event_person_months AS m (app_id, name, month, person_id, days, added)
  SELECT $1, name, month, $3, days, days FROM src ORDER BY name, month
  ON CONFLICT (app_id, name, month, person_id) DO UPDATE SET days = m.days | excluded.days, added = excluded.days & ~m.days
  RETURNING name, month, added
), shared AS (
  SELECT src.name, src.month, src.days & ~up.added AS days FROM src JOIN up USING (name, month)
)
UPDATE event_people_daily pp SET people = pp.people - x.n
  FROM (SELECT s.name, s.month + b.i AS day, count(*) AS n FROM shared s CROSS JOIN generate_series(0, 30) b(i)
         WHERE s.days & (1 << b.i) <> 0 GROUP BY 1, 2) x
 WHERE pp.app_id = $1 AND pp.name = x.name AND pp.day = x.day`;

/** Moves person `from`'s bitmaps to `into` (same app) and corrects distinct people per day. */
export async function mergePersonRollups(db: Queryable, appId: string, from: string, into: string): Promise<void> {
  await db.query(MERGE_ROLLUPS, [appId, from, into]);
}
