/**
 * Segment count (issue 5; target under 1 s): "one event condition in a time window, one attribute
 * and one tag condition over 1 million people and 10 million events". Measures the segment engine
 * as the estimate endpoint runs it (compile, then count; and count plus the 20-person sample),
 * p50/p95 over 20 runs, on local Postgres.
 *
 * The segment: made `product_view` in the last 7 days of the data (2026-11-15 to 2026-11-21, Europe/
 * Madrid) AND country is ES AND the text tag `bench_tier` is gold.
 *
 * Two data sets, each kept in its own database between runs:
 * - issue size (BENCH_SEGMENT_DB, default gd_bench_segments): 1,000,000 people and 10,000,000 events
 *   written by SQL (deterministic hashes of row numbers): countries weighted like the demo generator
 *   (ES 30%), activity skewed (a few people make many events), six event names over 30 days, the
 *   tag on half of the people. The first run takes several minutes.
 * - the explore data set (tests/bench/explore.ts: generated behaviour, 10,000,000 events of about
 *   175,000 people in BENCH_EXPLORE_DB, default gd_bench_10m), when it is loaded; this script adds
 *   the tag to half of its people (explore does not read tags).
 * BENCH_EXPLAIN=1 prints the query plans.
 */
import pg from 'pg';
import { createConditionNode, createGroupNode, type Segment } from '@gd/shared';
import { migrate } from '../../api-server/src/db/migrate.ts';
import { createPool, type Db } from '../../api-server/src/db/pool.ts';
import { compileFor } from '../../api-server/src/features/segments/definition.ts';
import { countSegment, estimate } from '../../api-server/src/features/segments/evaluate.ts';
import { fmt, percentile } from './support.ts';

const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const PEOPLE = 1_000_000;
const EVENTS = 10_000_000;
const LAST_DAY = '2026-11-21';
const WINDOW = { startDay: '2026-11-15', endDay: LAST_DAY };
const RUNS = 20;

function urlOf(name: string) {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

const databaseExists = (name: string) => admin(async (c) => (await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1);

/** Half of the people get `bench_tier` (gold, silver or bronze by id), once. */
async function benchTag(db: Db, appId: string): Promise<string> {
  await db.query(`INSERT INTO tags (app_id, name, kind, value_type) VALUES ($1, 'bench_tier', 'user_tag', 'text') ON CONFLICT DO NOTHING`, [appId]);
  const tagId = (await db.query<{ id: string }>(`SELECT id FROM tags WHERE app_id = $1 AND kind = 'user_tag' AND lower(name) = 'bench_tier'`, [appId])).rows[0]!.id;
  if (!(await db.query('SELECT 1 FROM person_tags WHERE app_id = $1 AND tag_id = $2 LIMIT 1', [appId, tagId])).rowCount) {
    await db.query(
      `INSERT INTO person_tags (app_id, person_id, tag_id, value_text)
       SELECT app_id, id, $2, (ARRAY['gold','silver','bronze'])[(id / 2) % 3 + 1] FROM people WHERE app_id = $1 AND id % 2 = 0`,
      [appId, tagId],
    );
    await db.query('VACUUM (ANALYZE) person_tags');
  }
  return tagId;
}

const SYNTHETIC_APP = `Segment bench ${PEOPLE} people ${EVENTS} events`;

/** The issue-size data set: created (or completed) once, by SQL. */
async function syntheticDataSet(): Promise<{ db: Db; appId: string }> {
  const name = process.env.BENCH_SEGMENT_DB ?? 'gd_bench_segments';
  if (!(await databaseExists(name))) await admin((c) => c.query(`CREATE DATABASE ${name}`));
  const db = createPool(urlOf(name), 4);
  await migrate(db);
  const existing = (await db.query<{ id: string }>('SELECT id FROM apps WHERE name = $1', [SYNTHETIC_APP])).rows[0];
  if (existing && (await db.query(`SELECT 1 FROM tags WHERE app_id = $1 AND name = 'bench_tier'`, [existing.id])).rowCount) {
    // A data set loaded before the loader built the rollups (migrations 034 and 039: the segment
    // engine reads event conditions from event_person_months) gets them now, once.
    if (!(await db.query('SELECT 1 FROM event_person_months WHERE app_id = $1 LIMIT 1', [existing.id])).rowCount) {
      const t0 = performance.now();
      await db.query('SELECT gd_rebuild_event_rollup($1)', [existing.id]);
      await db.query('VACUUM (ANALYZE) event_person_months, event_people_daily, event_daily');
      console.log(`  rollups built for the existing data set (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
    }
    return { db, appId: existing.id };
  }
  const t0 = performance.now();
  const step = (what: string) => console.log(`  ${what} (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
  console.log(`loading ${PEOPLE.toLocaleString('en')} people and ${EVENTS.toLocaleString('en')} events into ${name}…`);
  if (existing) await db.query('DELETE FROM apps WHERE id = $1', [existing.id]);
  for (const table of ['events', 'person_tags', 'people']) await db.query(`TRUNCATE ${table} CASCADE`);
  const account = (await db.query<{ id: string }>(`INSERT INTO accounts (name, plan) VALUES ('Segment bench', 'growth') RETURNING id`)).rows[0]!.id;
  const appId = (await db.query<{ id: string }>(
    `INSERT INTO apps (account_id, name, os, timezone, app_key) VALUES ($1, $2, 'Android', 'Europe/Madrid', 'bench-' || gen_random_uuid()) RETURNING id`,
    [account, SYNTHETIC_APP],
  )).rows[0]!.id;
  await db.query(`SELECT gd_ensure_month_partitions('2026-10-01', '2026-11-30')`);
  // Countries weighted as in the demo generator's catalogue (ES 30 of 100).
  await db.query(
    `INSERT INTO people (app_id, id, customer_id, country, app_version, os, created_at)
     SELECT $1, i, 'c' || i,
            CASE WHEN h < 30 THEN 'ES' WHEN h < 42 THEN 'MX' WHEN h < 54 THEN 'US' WHEN h < 61 THEN 'FR' WHEN h < 68 THEN 'DE'
                 WHEN h < 74 THEN 'GB' WHEN h < 79 THEN 'IT' WHEN h < 83 THEN 'PT' WHEN h < 87 THEN 'CO' WHEN h < 91 THEN 'AR' ELSE 'BR' END,
            '3.' || (h % 7), CASE WHEN h % 3 = 0 THEN 'iOS' ELSE 'Android' END, timestamptz '2026-10-01'
       FROM (SELECT i, abs(hashint8(i)::bigint) % 100 AS h FROM generate_series(1, $2::bigint) AS i) AS s`,
    [appId, PEOPLE],
  );
  step('people');
  // Activity skewed toward a few people (u² of a uniform draw); times spread over the 30 days.
  await db.query(
    `INSERT INTO events (app_id, event_time, received_at, client_id, person_id, device_id, name, properties)
     SELECT $1, t, t, 'e' || j, 1 + floor($3::bigint * (u * u))::bigint, 0,
            CASE WHEN k < 45 THEN 'product_view' WHEN k < 65 THEN 'gd_start_session' WHEN k < 80 THEN 'gd_end_session'
                 WHEN k < 90 THEN 'add_to_cart' WHEN k < 95 THEN 'search' ELSE 'purchase' END, '{}'
       FROM (SELECT j, (abs(hashint8(j)::bigint) % 1000003) / 1000003.0 AS u, abs(hashint8(j * 7 + 1)::bigint) % 100 AS k,
                    timestamptz '2026-11-22 00:00 Europe/Madrid' - make_interval(secs => abs(hashint8(j * 13 + 5)::bigint) % (30 * 86400) + 1) AS t
               FROM generate_series(1, $2::bigint) AS j) AS s`,
    [appId, EVENTS, PEOPLE],
  );
  step('events');
  // The rollups ingestion keeps (the segment engine reads event conditions from the person-month
  // day bitmaps), built as a time zone change rebuilds them.
  await db.query('SELECT gd_rebuild_event_rollup($1)', [appId]);
  step('rollups');
  await db.query('VACUUM (ANALYZE) people, events, event_person_months, event_people_daily, event_daily');
  step('vacuumed and analysed');
  await benchTag(db, appId);
  step('tag values');
  return { db, appId };
}

/** The explore benchmark's app, when it is loaded completely. */
async function exploreDataSet(): Promise<{ db: Db; appId: string } | null> {
  const name = process.env.BENCH_EXPLORE_DB ?? 'gd_bench_10m';
  if (!(await databaseExists(name))) return null;
  const db = createPool(urlOf(name), 4);
  await migrate(db);
  // Same app as tests/bench/explore.ts (its name for 10,000,000 events, seed 10, any generator version).
  const app = (await db.query<{ id: string; events: number }>(
    `SELECT a.id, (SELECT coalesce(sum(events), 0) FROM event_daily d WHERE d.app_id = a.id)::bigint AS events
       FROM apps a WHERE a.name LIKE $1 ORDER BY a.created_at DESC LIMIT 1`,
    [`Bench ${EVENTS} events, seed 10%`],
  )).rows[0];
  if (!app || app.events !== EVENTS) {
    await db.end();
    return null;
  }
  await benchTag(db, app.id);
  return { db, appId: app.id };
}

type Part = 'event' | 'country' | 'tag';

function segmentOf(tagId: string, parts: readonly Part[]): Segment {
  const root = createGroupNode('root', 'and');
  const nodes = [];
  if (parts.includes('event')) nodes.push(createConditionNode('event', { type: 'user_event', id: 'product_view', condition: 'was_made', dateRange: WINDOW }));
  if (parts.includes('country')) nodes.push(createConditionNode('country', { type: 'attribute', id: 'country', condition: 'equals', input: 'ES' }));
  if (parts.includes('tag')) nodes.push(createConditionNode('tag', { type: 'user_tag', id: tagId, condition: 'equals', input: 'gold' }));
  root.children.push(...nodes.map((n) => n.key));
  return { rootKey: 'root', nodes: [root, ...nodes] };
}

async function timed(label: string, run: () => Promise<unknown>) {
  await run();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await run();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  console.log(`  ${label}: p50 ${fmt(percentile(times, 50))}  p95 ${fmt(percentile(times, 95))}  max ${fmt(times.at(-1) ?? NaN)}  (${RUNS} runs, target < 1 s)`);
}

async function measure(title: string, { db, appId }: { db: Db; appId: string }) {
  const tagId = await benchTag(db, appId);
  const compiled = async (segment: Segment) => {
    const result = await compileFor(db, segment, { appId, now: new Date(`${LAST_DAY}T22:00:00Z`), requireConditions: false });
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    return result.value;
  };
  const variants: (readonly Part[])[] = [['event'], ['country'], ['tag'], []];
  const counts = await Promise.all(variants.map(async (parts) => countSegment(db, await compiled(segmentOf(tagId, parts)))));
  console.log(`${title}: ${counts[3]!.toLocaleString('en')} people, ${EVENTS.toLocaleString('en')} events`);
  console.log(`  product_view in the window: ${counts[0]!.toLocaleString('en')} people; country ES: ${counts[1]!.toLocaleString('en')}; bench_tier gold: ${counts[2]!.toLocaleString('en')}`);
  const full = segmentOf(tagId, ['event', 'country', 'tag']);
  console.log(`  all three: ${(await countSegment(db, await compiled(full))).toLocaleString('en')} people`);
  await timed('count (compile + count)', async () => countSegment(db, await compiled(full)));
  await timed('estimate (compile + count + 20-person sample)', async () => estimate(db, await compiled(full), { timeoutMs: 60_000, sampleSize: 20, cancelBackend: true }));
  if (process.env.BENCH_EXPLAIN) {
    const c = await compiled(full);
    const plan = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) SELECT count(*) FROM people p WHERE ${c.where}`, c.params);
    console.log(plan.rows.map((r) => `    ${r['QUERY PLAN']}`).join('\n'));
  }
}

const synthetic = await syntheticDataSet();
try {
  await measure('issue size (synthetic)', synthetic);
} finally {
  await synthetic.db.end();
}
const explore = await exploreDataSet();
if (explore) {
  try {
    await measure('explore data set (generated behaviour)', explore);
  } finally {
    await explore.db.end();
  }
} else {
  console.log('explore data set not loaded (run `npm run bench explore` to load it); skipped');
}
