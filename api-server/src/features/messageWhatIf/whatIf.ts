/**
 * The what-if of a message draft (shared schemas/messageWhatIf.ts states what each figure means):
 * two SQL statements over the target's people count them per raw time zone with their reach per
 * channel; the time zones are then read, merged and timed here.
 *
 * Cost: two passes over the target's people (people p WHERE <target>), the second a semi-join to
 * the push-enabled devices; no per-person round trips. The target's SQL is the segment engine's
 * compiled WHERE for a segment, the members table for an audience, the devices matching the app's
 * test devices otherwise. Over a million people the time goes to reading every row's `attributes`
 * for the zone and to the devices pass (docs/BENCHMARKS.md "Message what-if"): a zone column on
 * people and a push flag kept by ingest would make it one plain scan.
 */
import { WHAT_IF_RECENT_SESSION_DAYS, WHAT_IF_TIME_ZONES, type WhatIfChannel, type WhatIfTimeZone } from '@gd/shared/schemas/messageWhatIf';
import type { MessageSchedule, ResponseOf } from '@gd/shared';
import type { Db } from '../../db/pool.ts';
import { canonicalTimeZone, instantOf } from './localTime.ts';

/** People of the target as `people p` filtered by `where`; `$1` is the app's id. */
export interface TargetSql {
  where: string;
  params: unknown[];
}

export const segmentTarget = (compiled: { where: string; params: unknown[] }): TargetSql => compiled;

export const audienceTarget = (appId: string, audienceId: string): TargetSql => ({
  where: `p.app_id = $1::uuid AND p.merged_into IS NULL
    AND p.id IN (SELECT m.person_id FROM audience_members m WHERE m.app_id = $1::uuid AND m.audience_id = $2::uuid)`,
  params: [appId, audienceId],
});

/**
 * The people owning a device that one of the app's test devices names, by its id type (ids are
 * stored in the form the SDK reports them: schemas/account.ts canonicalDeviceId). One branch per
 * type so each uses its index.
 */
export const testDevicesTarget = (appId: string): TargetSql => {
  const branch = (column: string, idType: string) =>
    `SELECT d.person_id FROM test_devices t JOIN devices d ON d.app_id = t.app_id AND d.${column} = t.device_id WHERE t.app_id = $1::uuid AND t.id_type = '${idType}'`;
  const branches = [branch('device_key', 'auto'), branch('idfa', 'idfa'), branch('idfv', 'idfv'), branch('gaid', 'gaid'), branch('oaid', 'oaid')];
  return { where: `p.app_id = $1::uuid AND p.merged_into IS NULL AND p.id IN (${branches.join(' UNION ')})`, params: [appId] };
};

/** Distinct raw time zone values read one by one; people beyond them are counted as other zones. */
const RAW_ZONES = 400;

/** What "reachable" means per channel, as a condition on `people p` (push: a semi-join, see whatIfSql). */
const CHANNEL_SQL: Record<Exclude<WhatIfChannel, 'push'>, string> = {
  email: `p.email <> ''`,
  inApp: 'p.last_session_at >= $RECENT',
};

interface GroupRow { tz: string | null; listed: boolean; zones: number; people: number; email: number; in_app: number; channel: number }
interface PushRow { push: number; channel: number }

/**
 * The two statements, run on one snapshot: the target's people per raw `timezone` attribute with
 * their reach by e-mail and in-app; and the target's people with a push-enabled device, counted
 * once as a semi-join (a parallel hash semi-join over a million people: joining every person to
 * the distinct push owners in the first statement cost several times more, docs/BENCHMARKS.md).
 * The draft's channel count comes from the second when push is one of its channels.
 */
export function whatIfSql(target: TargetSql, channels: readonly WhatIfChannel[], now: Date): { zones: string; push: string; values: unknown[]; pushValues: unknown[] } {
  const recent = `$${target.params.length + 1}::timestamptz`;
  const reach = (c: Exclude<WhatIfChannel, 'push'>) => CHANNEL_SQL[c].replace('$RECENT', recent);
  const others = channels.filter((c): c is Exclude<WhatIfChannel, 'push'> => c !== 'push').map(reach);
  const zones = `
    WITH zones AS (
      SELECT p.attributes->>'timezone' AS tz, count(*) AS people,
             count(*) FILTER (WHERE ${reach('email')}) AS email,
             count(*) FILTER (WHERE ${reach('inApp')}) AS in_app,
             count(*) FILTER (WHERE ${others.length ? others.join(' AND ') : 'true'}) AS channel
        FROM people p
       WHERE ${target.where}
       GROUP BY 1
    ), ranked AS (
      SELECT zones.*, row_number() OVER (ORDER BY people DESC, tz) <= ${RAW_ZONES} AS listed FROM zones
    )
    SELECT CASE WHEN listed THEN tz END AS tz, listed, count(*) AS zones, sum(people)::bigint AS people,
           sum(email)::bigint AS email, sum(in_app)::bigint AS in_app, sum(channel)::bigint AS channel
      FROM ranked GROUP BY 1, 2`;
  const push = `
    SELECT count(*) AS push, count(*) FILTER (WHERE ${others.length ? others.join(' AND ') : 'true'}) AS channel
      FROM people p
     WHERE ${target.where}
       AND EXISTS (SELECT 1 FROM devices d WHERE d.app_id = p.app_id AND d.person_id = p.id AND d.push_token <> '' AND d.push_enabled IS TRUE)`;
  const values = [...target.params, new Date(now.getTime() - WHAT_IF_RECENT_SESSION_DAYS * 86_400_000).toISOString()];
  // A parameter a statement does not name has no type Postgres can infer: the push statement names
  // the session cut-off only when in-app is one of the channels.
  return { zones, push, values, pushValues: push.includes(recent) ? values : target.params };
}

type Answer = ResponseOf<'messageWhatIf'>;

/** The wall-clock time the schedule names (its first send), or null for `now`. */
function scheduledLocal(schedule: MessageSchedule): string | null {
  switch (schedule.kind) {
    case 'now':
      return null;
    case 'at':
      return schedule.at;
    case 'recurring':
      return schedule.startsAt;
    default: {
      const never: never = schedule;
      throw new Error(`unknown schedule ${String(never)}`);
    }
  }
}

/** The answer from the statement's rows. */
export function assemble(rows: readonly GroupRow[], pushRow: PushRow, c: { schedule: MessageSchedule; appTimeZone: string; channels: WhatIfChannel[]; now: Date }): Omit<Answer, 'computedInMs'> {
  const appZone = canonicalTimeZone(c.appTimeZone) ?? 'UTC';
  const local = scheduledLocal(c.schedule);
  const perZone = c.schedule.kind !== 'now' && c.schedule.basis === 'deviceLocal';
  const single = local === null ? c.now : instantOf(local, appZone);
  const sendsAt = (zone: string) => (perZone && local !== null ? instantOf(local, zone) : single).toISOString();

  const reachable = { push: pushRow.push, email: 0, inApp: 0 };
  let total = 0;
  // With push among the channels, its semi-join counted them; else the zones did.
  const viaPush = c.channels.includes('push');
  let channel = viaPush ? pushRow.channel : 0;
  let unknownTimeZone = 0;
  const zones = new Map<string, number>();
  let unlisted = { zones: 0, people: 0 };
  for (const r of rows) {
    total += r.people;
    if (!viaPush) channel += r.channel;
    reachable.email += r.email;
    reachable.inApp += r.in_app;
    if (!r.listed) {
      unlisted = { zones: r.zones, people: r.people };
      continue;
    }
    const zone = r.tz === null ? null : canonicalTimeZone(r.tz);
    if (zone === null) unknownTimeZone += r.people;
    const key = zone ?? appZone;
    zones.set(key, (zones.get(key) ?? 0) + r.people);
  }
  const ordered: WhatIfTimeZone[] = [...zones].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([timeZone, people]) => ({ timeZone, people, sendsAt: sendsAt(timeZone) }));
  const rest = ordered.slice(WHAT_IF_TIME_ZONES);
  const restTimes = rest.map((z) => z.sendsAt).sort();
  return {
    total, reachable, channels: c.channels, channel,
    timeZones: ordered.slice(0, WHAT_IF_TIME_ZONES),
    otherTimeZones: {
      zones: rest.length + unlisted.zones,
      people: rest.reduce((n, z) => n + z.people, 0) + unlisted.people,
      firstSendsAt: restTimes[0] ?? null,
      lastSendsAt: restTimes.at(-1) ?? null,
    },
    unknownTimeZone,
    appTimeZone: appZone,
    computedAt: c.now.toISOString(),
  };
}

/** Runs the statement (read-only, bounded by `timeoutMs`) and assembles the answer; no target (null) is nobody, without a query. */
export async function whatIf(
  db: Db,
  target: TargetSql | null,
  c: { schedule: MessageSchedule; appTimeZone: string; channels: WhatIfChannel[]; now?: Date; timeoutMs: number },
): Promise<Answer> {
  const startedAt = performance.now();
  const now = c.now ?? new Date();
  if (!target) return { ...assemble([], { push: 0, channel: 0 }, { ...c, now }), computedInMs: 0 };
  const sql = whatIfSql(target, c.channels, now);
  const client = await db.connect();
  let rows: GroupRow[];
  let pushRow: PushRow;
  try {
    // One snapshot for both statements: the counts add up.
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    await client.query(`SELECT set_config('statement_timeout', $1, true)`, [String(c.timeoutMs)]);
    rows = (await client.query<GroupRow>(sql.zones, sql.values)).rows;
    pushRow = (await client.query<PushRow>(sql.push, sql.pushValues)).rows[0] ?? { push: 0, channel: 0 };
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
  const answer = assemble(rows, pushRow, { ...c, now });
  return { ...answer, computedInMs: Math.round((performance.now() - startedAt) * 10) / 10 };
}
