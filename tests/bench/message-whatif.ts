/**
 * Message what-if (issue 12; target under 1 s): "what-if recipients for a segment over 1M people".
 * Measures the what-if as its endpoint runs it (compile the segment, then the statement that
 * counts the people, their reach per channel and their time zones, and the send time per zone),
 * p50/p95 over 20 runs, on local Postgres.
 *
 * Data: the 1,000,000 people and 10,000,000 events of tests/bench/segment-count.ts (database
 * BENCH_SEGMENT_DB, default gd_bench_segments, kept between runs; loaded by running that script
 * first when it is missing). Its people have no devices, e-mails, sessions or time zones, so this
 * script adds them once (deterministic hashes of the person id; about a minute):
 * - one device per person, with a push token for 70% (push enabled on 62% of people, disabled on 8%);
 * - an e-mail for 55%;
 * - a last session spread over the 60 days before 2026-11-22 (about half in the last 30 days);
 * - a `timezone` profile attribute for 90%, following the person's country (several zones for the
 *   US, Mexico, Brazil, Argentina, Spain and Portugal: 31 zones, so some fall into "others").
 *
 * Segments timed: everyone (1,000,000 people); made `product_view` in the 30 days of the data
 * (an event condition over most people); country is not FR (an attribute over most people).
 * BENCH_EXPLAIN=1 prints the query plan of the event segment.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { createConditionNode, createGroupNode, type MessageSchedule, type Segment } from '@gd/shared';
import { migrate } from '../../api-server/src/db/migrate.ts';
import { createPool, type Db } from '../../api-server/src/db/pool.ts';
import { compileFor } from '../../api-server/src/features/segments/definition.ts';
import { segmentTarget, whatIf, whatIfSql } from '../../api-server/src/features/messageWhatIf/whatIf.ts';
import { ROOT } from '../support/env.ts';
import { fmt, percentile } from './support.ts';

const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DB_NAME = process.env.BENCH_SEGMENT_DB ?? 'gd_bench_segments';
/** The app segment-count.ts creates (its SYNTHETIC_APP). */
const SYNTHETIC_APP = 'Segment bench 1000000 people 10000000 events';
const RUNS = 20;
const WINDOW = { startDay: '2026-10-23', endDay: '2026-11-21' };
const SCHEDULE: MessageSchedule = { kind: 'at', at: '2026-12-01T09:00', basis: 'deviceLocal' };

function urlOf(name: string) {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function appOf(db: Db): Promise<string | undefined> {
  return (await db.query<{ id: string }>(`SELECT a.id FROM apps a WHERE a.name = $1 AND EXISTS (SELECT 1 FROM tags t WHERE t.app_id = a.id AND t.name = 'bench_tier')`, [SYNTHETIC_APP])).rows[0]?.id;
}

async function databaseExists(name: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    return (await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;
  } finally {
    await c.end();
  }
}

/** segment-count.ts's data set: loaded by running that script when it is missing (several minutes). */
async function dataSet(): Promise<{ db: Db; appId: string }> {
  if (await databaseExists(DB_NAME)) {
    const db = createPool(urlOf(DB_NAME), 4);
    await migrate(db);
    const appId = await appOf(db);
    if (appId) return { db, appId };
    await db.end();
  }
  console.log(`${DB_NAME} is not loaded: running segment-count.ts first…`);
  const run = spawnSync(process.execPath, [path.join(ROOT, 'tests/bench/segment-count.ts')], { stdio: 'inherit', cwd: ROOT });
  if (run.status !== 0) throw new Error('segment-count.ts failed');
  const db = createPool(urlOf(DB_NAME), 4);
  const appId = await appOf(db);
  if (!appId) throw new Error(`no app "${SYNTHETIC_APP}" in ${DB_NAME}`);
  return { db, appId };
}

/** Zones by country, with the share of the country's people (per cent, cumulative in order). */
const ZONES: Record<string, [string, number][]> = {
  ES: [['Europe/Madrid', 95], ['Atlantic/Canary', 100]],
  MX: [['America/Mexico_City', 70], ['America/Monterrey', 82], ['America/Tijuana', 92], ['America/Cancun', 100]],
  US: [['America/New_York', 45], ['America/Chicago', 70], ['America/Denver', 78], ['America/Phoenix', 82], ['America/Los_Angeles', 97], ['America/Anchorage', 98], ['Pacific/Honolulu', 100]],
  FR: [['Europe/Paris', 100]],
  DE: [['Europe/Berlin', 100]],
  GB: [['Europe/London', 100]],
  IT: [['Europe/Rome', 100]],
  PT: [['Europe/Lisbon', 93], ['Atlantic/Azores', 97], ['Atlantic/Madeira', 100]],
  CO: [['America/Bogota', 100]],
  AR: [['America/Argentina/Buenos_Aires', 75], ['America/Argentina/Cordoba', 90], ['America/Argentina/Mendoza', 100]],
  BR: [['America/Sao_Paulo', 60], ['America/Bahia', 70], ['America/Fortaleza', 78], ['America/Recife', 84], ['America/Manaus', 90], ['America/Belem', 95], ['America/Cuiaba', 100]],
};

/** Devices, e-mails, sessions and time zones for the people, once (idempotent: each step is skipped when its rows are there). */
async function reachData(db: Db, appId: string): Promise<void> {
  const hasDevices = (await db.query('SELECT 1 FROM devices WHERE app_id = $1 LIMIT 1', [appId])).rowCount;
  // segment-count.ts leaves every last session empty; the update below sets them all.
  const hasProfiles = (await db.query('SELECT 1 FROM people WHERE app_id = $1 AND last_session_at IS NOT NULL LIMIT 1', [appId])).rowCount;
  if (hasDevices && hasProfiles) return;
  const t0 = performance.now();
  const step = (what: string) => console.log(`  ${what} (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
  console.log('adding devices, e-mails, sessions and time zones to the people…');
  // h: a hash of the person id in 0..99 independent of the one segment-count.ts used for countries.
  if (!hasDevices) await db.query(
    `INSERT INTO devices (app_id, device_key, person_id, push_token, push_enabled, os, first_seen_at, last_seen_at)
     SELECT $1, 'bench-' || p.id, p.id, CASE WHEN h < 70 THEN 'token-' || p.id END, CASE WHEN h < 62 THEN true WHEN h < 70 THEN false END,
            p.os, timestamptz '2026-10-01', timestamptz '2026-11-22' - make_interval(days => ((h * 7) % 60)::int)
       FROM (SELECT id, os, abs(hashint8(id * 31 + 7)::bigint) % 100 AS h FROM people WHERE app_id = $1) AS p`,
    [appId],
  );
  step('devices');
  if (hasProfiles) return;
  const zoneCase = Object.entries(ZONES).map(([country, zones]) =>
    `WHEN '${country}' THEN CASE ${zones.map(([zone, upTo]) => `WHEN z < ${upTo} THEN '${zone}'`).join(' ')} END`).join(' ');
  await db.query(
    `UPDATE people p SET
       email = CASE WHEN s.h < 55 THEN 'person' || p.id || '@example.com' END,
       last_session_at = timestamptz '2026-11-22' - make_interval(days => ((s.h * 13) % 60)::int, hours => (s.h % 24)::int),
       attributes = CASE WHEN s.h % 10 = 9 THEN p.attributes ELSE p.attributes || jsonb_build_object('timezone', CASE p.country ${zoneCase} END) END
      FROM (SELECT id, abs(hashint8(id * 17 + 3)::bigint) % 100 AS h, abs(hashint8(id * 29 + 11)::bigint) % 100 AS z FROM people WHERE app_id = $1) AS s
     WHERE p.app_id = $1 AND p.id = s.id`,
    [appId],
  );
  step('e-mails, sessions, time zones');
  await db.query('VACUUM (ANALYZE) people, devices');
  step('vacuumed and analysed');
}

const everyone = (): Segment => ({ rootKey: 'root', nodes: [createGroupNode('root', 'and')] });
function single(condition: Parameters<typeof createConditionNode>[1]): Segment {
  const root = createGroupNode('root', 'and');
  const node = createConditionNode('c', condition);
  root.children.push(node.key);
  return { rootKey: 'root', nodes: [root, node] };
}

async function measure(db: Db, appId: string, label: string, segment: Segment) {
  const appTimeZone = (await db.query<{ timezone: string }>('SELECT timezone FROM apps WHERE id = $1', [appId])).rows[0]!.timezone;
  const run = async () => {
    const compiled = await compileFor(db, segment, { appId, now: new Date('2026-11-21T22:00:00Z'), requireConditions: false });
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.problems));
    return whatIf(db, segmentTarget(compiled.value), { schedule: SCHEDULE, appTimeZone, channels: ['push'], timeoutMs: 60_000 });
  };
  const answer = await run();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await run();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const n = (x: number) => x.toLocaleString('en');
  console.log(`${label}: ${n(answer.total)} people; push ${n(answer.reachable.push)}, e-mail ${n(answer.reachable.email)}, in-app ${n(answer.reachable.inApp)}; ` +
    `${answer.timeZones.length} zones listed + ${answer.otherTimeZones.zones} others (${n(answer.otherTimeZones.people)} people), ${n(answer.unknownTimeZone)} without a zone`);
  console.log(`  what-if (compile + statement + zones): p50 ${fmt(percentile(times, 50))}  p95 ${fmt(percentile(times, 95))}  max ${fmt(times.at(-1) ?? NaN)}  (${RUNS} runs, target < 1 s)`);
  if (process.env.BENCH_EXPLAIN && label.startsWith('product_view')) {
    const compiled = await compileFor(db, segment, { appId, now: new Date('2026-11-21T22:00:00Z'), requireConditions: false });
    if (!compiled.ok) return;
    const sql = whatIfSql(segmentTarget(compiled.value), ['push'], new Date());
    const plan = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${sql.text}`, sql.values);
    console.log(plan.rows.map((r) => `    ${r['QUERY PLAN']}`).join('\n'));
  }
}

const { db, appId } = await dataSet();
try {
  await reachData(db, appId);
  await measure(db, appId, 'everyone', everyone());
  await measure(db, appId, `product_view ${WINDOW.startDay}..${WINDOW.endDay}`, single({ type: 'user_event', id: 'product_view', condition: 'was_made', dateRange: WINDOW }));
  await measure(db, appId, 'country is not FR', single({ type: 'attribute', id: 'country', condition: 'not_equals', input: 'FR' }));
} finally {
  await db.end();
}
