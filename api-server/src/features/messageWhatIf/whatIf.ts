/**
 * The what-if of a message draft (shared schemas/messageWhatIf.ts states what each figure means):
 * one SQL statement over the target's people counts them per raw time zone with their reach per
 * channel; the time zones are then read, merged and timed here.
 *
 * Cost: one pass over the target's people (people p WHERE <target>) with no join and no JSON: the
 * zone is `people.time_zone` and push reach `people.push_devices`, both kept by the database
 * (migration 017). The target's SQL is the segment engine's compiled WHERE for a segment, the
 * members table for an audience, the devices matching the app's test devices otherwise; the
 * figures over a million people are in docs/BENCHMARKS.md ("Message what-if").
 */
import { WHAT_IF_RECENT_SESSION_DAYS, WHAT_IF_TIME_ZONES, type WhatIfChannel, type WhatIfTimeZone } from '@gd/shared/schemas/messageWhatIf';
import type { MessageSchedule, ResponseOf } from '@gd/shared';
import type { Db } from '../../db/pool.ts';
import { canonicalTimeZone, instantOf } from './localTime.ts';

/** People of the target as `people p` filtered by `where`; `$1` is the app's id. */
/** work_mem of the what-if statement (each of its parallel workers' hashes may use this much). */
const WHAT_IF_WORK_MEM = '32MB';

export interface TargetSql {
  where: string;
  params: unknown[];
  /** Set for an audience: readers that page through the target walk its members by person id instead (delivery/resolve.ts). */
  audienceId?: string;
}

export const segmentTarget = (compiled: { where: string; params: unknown[] }): TargetSql => compiled;

export const audienceTarget = (appId: string, audienceId: string): TargetSql => ({
  where: `p.app_id = $1::uuid AND p.merged_into IS NULL
    AND p.id IN (SELECT m.person_id FROM audience_members m WHERE m.app_id = $1::uuid AND m.audience_id = $2::uuid)`,
  params: [appId, audienceId],
  audienceId,
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

/** What "reachable" means per channel, as a condition on `people p` (columns of migration 017). */
const CHANNEL_SQL: Record<WhatIfChannel, string> = {
  push: 'p.push_devices > 0',
  email: `p.email <> ''`,
  inApp: 'p.last_session_at >= $RECENT',
};

interface GroupRow { tz: string | null; listed: boolean; zones: number; people: number; push: number; email: number; in_app: number; channel: number }

/**
 * The statement: the target's people per raw time zone with their reach per channel and by all of
 * the draft's channels together, the largest RAW_ZONES zones one row each and the rest as one row.
 * One scan of the target's people: the zone is a column and push reach a counter on the person
 * (migration 017), so there is no JSON to parse and no join to the devices.
 */
export function whatIfSql(target: TargetSql, channels: readonly WhatIfChannel[], now: Date): { text: string; values: unknown[] } {
  const recent = `$${target.params.length + 1}::timestamptz`;
  const reach = (c: WhatIfChannel) => CHANNEL_SQL[c].replace('$RECENT', recent);
  const text = `
    WITH zones AS (
      SELECT p.time_zone AS tz, count(*) AS people,
             count(*) FILTER (WHERE ${reach('push')}) AS push,
             count(*) FILTER (WHERE ${reach('email')}) AS email,
             count(*) FILTER (WHERE ${reach('inApp')}) AS in_app,
             count(*) FILTER (WHERE ${channels.length ? channels.map(reach).join(' AND ') : 'true'}) AS channel
        FROM people p
       WHERE ${target.where}
       GROUP BY 1
    ), ranked AS (
      SELECT zones.*, row_number() OVER (ORDER BY people DESC, tz) <= ${RAW_ZONES} AS listed FROM zones
    )
    SELECT CASE WHEN listed THEN tz END AS tz, listed, count(*)::int AS zones, sum(people)::bigint AS people,
           sum(push)::bigint AS push, sum(email)::bigint AS email, sum(in_app)::bigint AS in_app, sum(channel)::bigint AS channel
      FROM ranked GROUP BY 1, 2`;
  const values = [...target.params, new Date(now.getTime() - WHAT_IF_RECENT_SESSION_DAYS * 86_400_000).toISOString()];
  return { text, values };
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
export function assemble(rows: readonly GroupRow[], c: { schedule: MessageSchedule; appTimeZone: string; channels: WhatIfChannel[]; now: Date }): Omit<Answer, 'computedInMs'> {
  const appZone = canonicalTimeZone(c.appTimeZone) ?? 'UTC';
  const local = scheduledLocal(c.schedule);
  const perZone = c.schedule.kind !== 'now' && c.schedule.basis === 'deviceLocal';
  const single = local === null ? c.now : instantOf(local, appZone);
  const sendsAt = (zone: string) => (perZone && local !== null ? instantOf(local, zone) : single).toISOString();

  const reachable = { push: 0, email: 0, inApp: 0 };
  let total = 0;
  let channel = 0;
  let unknownTimeZone = 0;
  const zones = new Map<string, number>();
  let unlisted = { zones: 0, people: 0 };
  for (const r of rows) {
    total += r.people;
    channel += r.channel;
    reachable.push += r.push;
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
  if (!target) return { ...assemble([], { ...c, now }), computedInMs: 0 };
  const sql = whatIfSql(target, c.channels, now);
  const client = await db.connect();
  let rows: GroupRow[];
  try {
    await client.query('BEGIN READ ONLY');
    await client.query(`SELECT set_config('statement_timeout', $1, true)`, [String(c.timeoutMs)]);
    // The hash of the segment's people (up to an app's whole audience) fits in memory instead of
    // spilling to disk in batches (docs/BENCHMARKS.md, message what-if); for this statement only.
    await client.query(`SELECT set_config('work_mem', $1, true)`, [WHAT_IF_WORK_MEM]);
    rows = (await client.query<GroupRow>(sql.text, sql.values)).rows;
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
  const answer = assemble(rows, { ...c, now });
  return { ...answer, computedInMs: Math.round((performance.now() - startedAt) * 10) / 10 };
}
