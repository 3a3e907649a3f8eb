/**
 * The analytics benchmark data set (issue 15): 10,000,000 events of about 1,000,000 people over 120
 * days of a shopping app (installs, sessions, screens, product views, searches, carts, checkouts,
 * purchases with revenue), in the database `gd_bench_analytics`, kept between runs.
 * `ensureAnalyticsSet()` is what the benchmark scripts (explore, funnels, cohorts, dashboard) call.
 *
 * Decisions:
 * - The behaviour generator (api-server/src/seed/generator) simulates about 80 events per person
 *   over 120 days; the set thins each person to their first active day's first events plus one
 *   day in THIN_DAYS of the rest (whole days, chosen by a hash of person and day), about 10 events
 *   a person, so that 10M events hold ~1M people whose activity still spans weeks (retention).
 * - Loaded with COPY (data/copyLoader.ts), then every rollup is built by
 *   `gd_rebuild_event_rollup(app)`, the SQL a time zone change runs: the daily rollup, the person
 *   month bitmaps and distinct people per day, and the property breakdowns of the marked
 *   properties (product_view.category, e_screen_name.screen, gd_transaction.payment).
 * - Kept between runs: a `bench_sets` row written last marks a complete load; a database without
 *   it (a partial load) is dropped and loaded anew. Pending migrations are applied on every call
 *   (other pieces add theirs), and the demo account is seeded (sign in as its owner).
 * - When it returns, `/tmp/gd-bench-set.ready` exists.
 */
import { writeFile } from 'node:fs/promises';
import pg from 'pg';
import { migrate } from '../../../api-server/src/db/migrate.ts';
import { createPool } from '../../../api-server/src/db/pool.ts';
import { DEMO_PASSWORD, demoEmail, seedDemo } from '../../../api-server/src/seed/demo.ts';
import { GENERATOR_VERSION, addDays, type GeneratedPerson, type GeneratorConfig } from '../../../api-server/src/seed/generator/index.ts';
import { benchAppKey, loadGenerated } from './copyLoader.ts';

export interface AnalyticsSet {
  url: string;
  appId: string;
  accountEmail: string;
  password: string;
  /** The whole span of the data (120 local days of the app). */
  range: { startDay: string; endDay: string };
}

const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const ANALYTICS_DB = process.env.BENCH_ANALYTICS_DB ?? 'gd_bench_analytics';
/** 10M; BENCH_ANALYTICS_EVENTS makes a smaller set for a smoke run (with its own BENCH_ANALYTICS_DB). */
export const ANALYTICS_EVENTS = Number(process.env.BENCH_ANALYTICS_EVENTS ?? 10_000_000);
const DAYS = 120;
/** People simulated: ~94% are active in the window; the load stops at exactly ANALYTICS_EVENTS. */
const SIMULATED = Math.ceil(ANALYTICS_EVENTS * 0.11);
/** Of a person's later days, one in THIN_DAYS is kept; of the first day, the first FIRST_EVENTS events. */
const THIN_DAYS = 16, FIRST_EVENTS = 6;
const CONFIG: GeneratorConfig = { seed: 15, people: SIMULATED, days: DAYS, endDate: '2026-11-20', timezone: 'Europe/Madrid', appOs: 'Android', batchSize: 500 };
const SET_NAME = `Analytics set: ${ANALYTICS_EVENTS} events, seed ${CONFIG.seed}, thin ${THIN_DAYS}/${FIRST_EVENTS}, generator v${GENERATOR_VERSION}`;
export const ANALYTICS_RANGE = { startDay: addDays(CONFIG.endDate, 1 - DAYS), endDay: CONFIG.endDate };
/** Properties marked as breakdowns in the set's event catalogue. */
export const ANALYTICS_BREAKDOWNS = [['product_view', 'category'], ['e_screen_name', 'screen'], ['gd_transaction', 'payment']] as const;
const READY_FILE = '/tmp/gd-bench-set.ready';

const hash = (a: number, b: number) => {
  let x = (Math.imul(a, 374761393) + Math.imul(b, 668265263)) >>> 0;
  x = Math.imul(x ^ (x >>> 13), 1274126177) >>> 0;
  return (x ^ (x >>> 16)) >>> 0;
};

/** A person thinned to their first day's first events and one later day in THIN_DAYS. */
export function thinPerson(person: GeneratedPerson): GeneratedPerson {
  let firstDay = -1, onFirst = 0;
  const keep = (time: number) => {
    const day = Math.floor(time / 86_400_000);
    if (firstDay < 0) firstDay = day;
    if (day === firstDay) return onFirst++ < FIRST_EVENTS;
    return hash(person.index, day) % THIN_DAYS === 0;
  };
  return {
    ...person,
    requests: person.requests.map((r) => (r.kind === 'batch' ? { ...r, body: { ...r.body, events: r.body.events.filter((e) => keep(e.time)) } } : r)),
  };
}

const urlOf = (name: string) => {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** The complete set's app id, or null (no database, or a partial or other load: then dropped). */
async function existingSet(): Promise<string | null> {
  return withClient(adminUrl, async (admin) => {
    if (!(await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [ANALYTICS_DB])).rowCount) {
      await admin.query(`CREATE DATABASE ${ANALYTICS_DB}`);
      return null;
    }
    const app = await withClient(urlOf(ANALYTICS_DB), async (db) => (await db.query<{ app_id: string }>(
      'SELECT app_id FROM bench_sets WHERE name = $1', [SET_NAME],
    ).catch(() => ({ rows: [] as { app_id: string }[] }))).rows[0]?.app_id ?? null);
    if (app) return app;
    console.log(`${ANALYTICS_DB} holds another or a partial data set: dropping it`);
    await admin.query(`DROP DATABASE ${ANALYTICS_DB} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${ANALYTICS_DB}`);
    return null;
  });
}

async function load(url: string): Promise<string> {
  const started = performance.now();
  const secs = () => ((performance.now() - started) / 1000).toFixed(0);
  return withClient(url, async (sql) => {
    const account = (await sql.query<{ account_id: string }>('SELECT account_id FROM users WHERE email = $1', [demoEmail('client')])).rows[0]?.account_id;
    if (!account) throw new Error('demo account missing');
    const appId = (await sql.query<{ id: string }>(
      "INSERT INTO apps (account_id, name, os, timezone, app_key) VALUES ($1, 'Bench Shop (analytics set)', 'Android', $2, $3) RETURNING id",
      [account, CONFIG.timezone, benchAppKey()],
    )).rows[0]!.id;
    await sql.query('SELECT gd_ensure_month_partitions($1, $2)', [`${addDays(ANALYTICS_RANGE.startDay, -2)}T00:00:00Z`, `${addDays(CONFIG.endDate, 2)}T00:00:00Z`]);
    const others = await Promise.all([0, 1].map(async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      return c;
    }));
    const loaded = await loadGenerated([sql, others[0]!, others[1]!], {
      config: CONFIG, maxEvents: ANALYTICS_EVENTS, appId, transform: thinPerson,
      progress: (n) => console.log(`  ${n.toLocaleString('en')} events copied (${secs()} s)`),
    }).finally(() => Promise.all(others.map((c) => c.end())));
    console.log(`loaded ${loaded.events.toLocaleString('en')} events, ${loaded.people.toLocaleString('en')} people, ${loaded.devices.toLocaleString('en')} devices with COPY in ${secs()} s`);
    await sql.query(
      `INSERT INTO event_definitions (app_id, name, first_seen_at, updated_at)
       SELECT DISTINCT $1::uuid, name, $2::timestamptz, $2::timestamptz FROM events WHERE app_id = $1 AND name NOT LIKE 'gd\\_%'`,
      [appId, `${ANALYTICS_RANGE.startDay}T00:00:00Z`],
    );
    await sql.query(
      `INSERT INTO event_breakdowns (app_id, name, property, since, backfilled_at)
       SELECT $1, b[1], b[2], now(), now() FROM jsonb_array_elements($2::jsonb) AS j(v), LATERAL (SELECT ARRAY[v->>0, v->>1] AS b) x`,
      [appId, JSON.stringify(ANALYTICS_BREAKDOWNS)],
    );
    await sql.query('SET maintenance_work_mem = \'512MB\'');
    await sql.query('SET work_mem = \'256MB\'');
    await sql.query('SELECT gd_rebuild_event_rollup($1)', [appId]);
    console.log(`  rollups rebuilt (${secs()} s)`);
    await sql.query('VACUUM (ANALYZE) events, event_daily, event_person_months, event_people_daily, event_property_daily, people, devices');
    console.log(`  vacuumed and analysed (${secs()} s)`);
    await sql.query('CREATE TABLE IF NOT EXISTS bench_sets (name text PRIMARY KEY, app_id uuid NOT NULL, loaded_at timestamptz NOT NULL DEFAULT now())');
    await sql.query('INSERT INTO bench_sets (name, app_id) VALUES ($1, $2)', [SET_NAME, appId]);
    return appId;
  });
}

/** The loaded set (loaded now when missing: about 7 minutes on two busy cores: COPY 4 min, rollups 2 min). */
export async function ensureAnalyticsSet(): Promise<AnalyticsSet> {
  const url = urlOf(ANALYTICS_DB);
  let appId = await existingSet();
  const db = createPool(url, 2);
  try {
    await migrate(db);
    await seedDemo(db);
  } finally {
    await db.end();
  }
  if (!appId) appId = await load(url);
  else console.log(`reusing "${SET_NAME}" in ${ANALYTICS_DB}`);
  await writeFile(READY_FILE, `${new Date().toISOString()} ${url} ${appId}\n`);
  return { url, appId, accountEmail: demoEmail('client'), password: DEMO_PASSWORD, range: ANALYTICS_RANGE };
}

// Run directly (`node tests/bench/data/analyticsSet.ts`): load the set and print where it is.
if (import.meta.url === `file://${process.argv[1]}`) {
  const set = await ensureAnalyticsSet();
  console.log(JSON.stringify(set));
}
