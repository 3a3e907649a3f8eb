/**
 * Explore over 10 million events: GET /api/apps/:appId/explore for "daily counts of one event over
 * 30 days with a breakdown by country" (answered from the daily rollup), and the same with a
 * property breakdown (a scan of the event's rows in the events table), p50/p95 over 20 runs each
 * (5 for a query slower than 3 s), against the real server (scripts/serve.ts in its own process)
 * on local Postgres. Target (issue 4): explore under 500 ms.
 *
 * The data set is generated (seed 10, a shopping app's 30 days in Europe/Madrid, cut at exactly
 * BENCH_EVENTS events, default 10,000,000) and loaded with COPY into a database kept between runs
 * (BENCH_EXPLORE_DB, default gd_bench_10m): a later run finds the app of the same seed, size and
 * generator version complete and reuses it; any other content is dropped and loaded anew. The
 * first load takes a few minutes.
 */
import pg from 'pg';
import { AUTH_COOKIES, CSRF_HEADER, endpoints, fillPath, rangeQuery } from '@gd/shared';
import { GENERATOR_VERSION, addDays, type GeneratorConfig } from '../../api-server/src/seed/generator/index.ts';
import { DEMO_PASSWORD } from '../support/env.ts';
import { benchAppKey, loadGenerated } from './data/copyLoader.ts';
import { fmt, percentile, startServerProcess } from './support.ts';

const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DB_NAME = process.env.BENCH_EXPLORE_DB ?? 'gd_bench_10m';
const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000_000);
/** Timed runs per query; a query slower than SLOW_MS is timed SLOW_RUNS times (the figure is clear by then). */
const RUNS = 20, SLOW_MS = 3000, SLOW_RUNS = 5;
const PORT = 4293;
const CONFIG: GeneratorConfig = { seed: 10, people: 5_000_000, days: 30, endDate: '2026-11-21', timezone: 'Europe/Madrid', appOs: 'Android', batchSize: 500 };
const APP_NAME = `Bench ${EVENTS} events, seed ${CONFIG.seed}, generator v${GENERATOR_VERSION}`;
const RANGE = { startDay: addDays(CONFIG.endDate, 1 - CONFIG.days), endDay: CONFIG.endDate };
const EVENT = 'product_view';

/** The kept database; dropped and made anew when it holds another data set (other size, seed or generator version) or a partial load. */
async function ensureDatabase(): Promise<string> {
  const url = new URL(adminUrl);
  url.pathname = `/${DB_NAME}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    if ((await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [DB_NAME])).rowCount) {
      const db = await connect(url.toString());
      const stale = await db.query(
        `SELECT 1 FROM apps a WHERE a.name LIKE 'Bench %'
            AND (a.name <> $1 OR (SELECT coalesce(sum(events), 0) FROM event_daily d WHERE d.app_id = a.id) <> $2)`,
        [APP_NAME, EVENTS],
      ).catch(() => ({ rowCount: 0 }));
      await db.end();
      if (!stale.rowCount) return url.toString();
      console.log(`${DB_NAME} holds another or a partial data set: dropping it`);
      await admin.query(`DROP DATABASE ${DB_NAME} WITH (FORCE)`);
    }
    await admin.query(`CREATE DATABASE ${DB_NAME}`);
    return url.toString();
  } finally {
    await admin.end();
  }
}

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

/** The bench app, loaded with the data set: reused when complete, else (re)loaded. */
async function benchApp(url: string): Promise<string> {
  const sql = await connect(url);
  try {
    let account: string | undefined;
    for (let i = 0; i < 300 && !account; i++) {
      account = (await sql.query<{ account_id: string }>("SELECT account_id FROM users WHERE email = 'client@demo.growthdeck.test'")).rows[0]?.account_id;
      if (!account) await new Promise((r) => setTimeout(r, 100)); // health answers before the demo account is seeded
    }
    if (!account) throw new Error('demo account missing');
    const existing = (await sql.query<{ id: string; events: string }>(
      'SELECT a.id, (SELECT coalesce(sum(events), 0) FROM event_daily d WHERE d.app_id = a.id) AS events FROM apps a WHERE a.account_id = $1 AND a.name = $2',
      [account, APP_NAME],
    )).rows[0];
    if (existing && Number(existing.events) === EVENTS) {
      console.log(`reusing ${EVENTS.toLocaleString('en')} events of "${APP_NAME}" in ${DB_NAME}`);
      return existing.id;
    }
    const appId = (await sql.query<{ id: string }>(
      "INSERT INTO apps (account_id, name, os, timezone, app_key) VALUES ($1, $2, 'Android', $3, $4) RETURNING id",
      [account, APP_NAME, CONFIG.timezone, benchAppKey()],
    )).rows[0]!.id;
    await sql.query('SELECT gd_ensure_month_partitions($1, $2)', [`${RANGE.startDay}T00:00:00Z`, `${addDays(CONFIG.endDate, 2)}T00:00:00Z`]);
    const started = performance.now();
    const secs = () => ((performance.now() - started) / 1000).toFixed(0);
    const others = [await connect(url), await connect(url)] as const;
    const loaded = await loadGenerated([sql, ...others], {
      config: CONFIG, maxEvents: EVENTS, appId, progress: (n) => console.log(`  ${n.toLocaleString('en')} events copied (${secs()} s)`),
    }).finally(() => Promise.all(others.map((c) => c.end())));
    console.log(`loaded ${loaded.events.toLocaleString('en')} events, ${loaded.people.toLocaleString('en')} people, ${loaded.devices.toLocaleString('en')} devices with COPY in ${secs()} s`);
    await sql.query('SELECT gd_rebuild_event_rollup($1)', [appId]);
    console.log(`  daily rollup rebuilt (${secs()} s)`);
    await sql.query('VACUUM (ANALYZE) events, event_daily, people, devices');
    console.log(`  vacuumed and analysed (${secs()} s)`);
    return appId;
  } finally {
    await sql.end();
  }
}

/** Signs in as the demo account owner; answers the cookie header. */
async function signIn(base: string): Promise<string> {
  const csrf = await fetch(`${base}/api${endpoints.csrf.path}`);
  const csrfCookie = csrf.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const token = decodeURIComponent(csrfCookie.split(`${AUTH_COOKIES.csrf}=`)[1]?.split(';')[0] ?? '');
  const res = await fetch(`${base}/api${endpoints.login.path}`, {
    method: 'POST', headers: { 'content-type': 'application/json', cookie: csrfCookie, [CSRF_HEADER]: token },
    body: JSON.stringify({ email: 'client@demo.growthdeck.test', password: DEMO_PASSWORD }),
  });
  const access = res.headers.getSetCookie().find((c) => c.startsWith(`${AUTH_COOKIES.access}=`));
  if (!access) throw new Error(`login failed: ${await res.text()}`);
  return access.split(';')[0] ?? '';
}

async function time(label: string, url: string, cookie: string): Promise<void> {
  const once = async () => {
    const t0 = performance.now();
    const res = await fetch(url, { headers: { cookie } });
    const body = (await res.json()) as { status: string; source?: string; series?: { total: number }[]; message?: string };
    const ms = performance.now() - t0;
    if (body.status !== 'OK') throw new Error(`${label}: ${JSON.stringify(body)}`);
    return { ms, body };
  };
  const first = await once();
  await once();
  const runs = first.ms > SLOW_MS ? SLOW_RUNS : RUNS;
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push((await once()).ms);
  times.sort((a, b) => a - b);
  const total = first.body.series?.reduce((s, x) => s + x.total, 0) ?? 0;
  console.log(`${label} [${first.body.source}, ${first.body.series?.length} series, ${total.toLocaleString('en')} events]`);
  console.log(`  first ${fmt(first.ms)}; ${runs} runs: p50 ${fmt(percentile(times, 50))}  p95 ${fmt(percentile(times, 95))}  max ${fmt(times.at(-1) ?? NaN)}  (target < 500 ms)`);
}

const url = await ensureDatabase();
const server = await startServerProcess({ DATABASE_URL: url, WORKER: 'off' }, PORT);
try {
  const appId = await benchApp(url);
  const cookie = await signIn(server.base);
  const base = `${server.base}/api${fillPath(endpoints.explore.path, { appId })}`;
  const query = (q: Record<string, string>) => `${base}?${rangeQuery({ event: EVENT, ...RANGE, timeGroup: 'day', ...q })}`;
  await time(`explore "${EVENT}" per day over 30 days by country`, query({ breakdown: 'country' }), cookie);
  await time(`explore "${EVENT}" per day over 30 days by property "category"`, query({ breakdown: 'property', property: 'category' }), cookie);
  await time(`explore "${EVENT}" distinct people per day over 30 days`, query({ metric: 'people' }), cookie);
  const sql = await connect(url);
  const size = (await sql.query<{ size: string }>('SELECT pg_size_pretty(pg_database_size(current_database())) AS size')).rows[0]?.size;
  await sql.end();
  console.log(`database ${DB_NAME}: ${size} (kept for the next run)`);
} finally {
  await server.stop();
}
