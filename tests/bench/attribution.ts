/**
 * Attribution of 100,000 installs against 5,000,000 clicks (issue 16; target under 60 s): the
 * engine's `attributePending` (api-server/src/features/attribution/engine.ts), the loop's own
 * function, in this process against Postgres, batch after batch until nothing is pending.
 *
 * The data, generated with set-based SQL (generate_series) in the database `gd_bench_attribution`
 * and kept between runs (a `bench_attribution_set` row written last marks a complete load):
 * one app, one source (7-day lookback, fingerprinting on), 20 campaigns with a link each; 5M clicks
 * over the 30 days before T0 (40% with a GAID, 30% with an IDFA, 30% with neither; 2M and 1.5M
 * distinct ids, so an id clicks 2-3 times over the month; 1% bots); 100k devices and people
 * installing in the hour after T0: 30% whose GAID clicked, 20% whose IDFA clicked, 10% carrying a
 * click id in their install referrer, 10% from the IP and user agent of a click, 30% with nothing
 * (Organic). Each run puts the installs back in `acq_pending` (attributions, people's sources and
 * lifecycle rows reset), then times the attribution.
 */
import pg from 'pg';
import { migrate } from '../../api-server/src/db/migrate.ts';
import { createPool } from '../../api-server/src/db/pool.ts';
import { attributePending } from '../../api-server/src/features/attribution/engine.ts';

const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DB = process.env.BENCH_ATTRIBUTION_DB ?? 'gd_bench_attribution';
const CLICKS = Number(process.env.BENCH_CLICKS ?? 5_000_000);
const INSTALLS = Number(process.env.BENCH_INSTALLS ?? 100_000);
const SET_NAME = `attribution set: ${CLICKS} clicks, ${INSTALLS} installs, v1`;
const APP = '0a770000-0000-4000-8000-000000000016';
const SOURCE = '0a770000-0000-4000-8000-0000000005c0';
const T0 = '2026-11-01T00:00:00Z';

const url = new URL(adminUrl);
url.pathname = `/${DB}`;

async function ensureDatabase(): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const { rows } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [DB]);
  if (!rows.length) await admin.query(`CREATE DATABASE ${DB}`);
  await admin.end();
}

async function load(db: pg.Pool): Promise<void> {
  await db.query('CREATE TABLE IF NOT EXISTS bench_attribution_set (name text PRIMARY KEY, loaded_at timestamptz NOT NULL DEFAULT now())');
  const { rows } = await db.query('SELECT 1 FROM bench_attribution_set WHERE name = $1', [SET_NAME]);
  if (rows.length) return;
  console.log(`loading ${SET_NAME} into ${DB} (once)...`);
  const t = performance.now();
  await db.query('DELETE FROM accounts WHERE id = $1', [APP]);
  await db.query('TRUNCATE acq_clicks, acq_pending, acq_attributions');
  await db.query(`SELECT gd_ensure_month_partitions(timestamptz '${T0}' - interval '2 months', timestamptz '${T0}' + interval '1 month')`);
  await db.query(`INSERT INTO accounts (id, name, plan) VALUES ($1, 'Attribution bench', 'growth')`, [APP]);
  await db.query(`INSERT INTO apps (id, account_id, name, os, app_key, timezone) VALUES ($1, $1, 'Bench app', 'Android', 'bench-attribution-key', 'UTC')`, [APP]);
  await db.query(`INSERT INTO acq_sources (id, app_id, name, type) VALUES ($2, $1, 'Network', 'adnetwork')`, [APP, SOURCE]);
  await db.query(`INSERT INTO acq_campaigns (id, app_id, name, source_id, pricing_model, cost_value)
                  SELECT ('0a770000-0000-4000-8000-' || lpad(i::text, 12, '0'))::uuid, $1, 'Campaign ' || i, $2, 'cpi', 1 FROM generate_series(0, 19) i`, [APP, SOURCE]);
  await db.query(`INSERT INTO acq_links (id, app_id, campaign_id, kind, name, code)
                  SELECT ('0a770000-0000-4000-8001-' || lpad(i::text, 12, '0'))::uuid, $1, ('0a770000-0000-4000-8000-' || lpad(i::text, 12, '0'))::uuid,
                         'tracking', 'Link ' || i, 'bench' || i FROM generate_series(0, 19) i`, [APP]);
  // Click i: GAID when i % 10 < 4, IDFA when 4..6, else none; its time i seconds (mod 30 days) before T0.
  for (let from = 0; from < CLICKS; from += 1_000_000) {
    await db.query(`
      INSERT INTO acq_clicks (app_id, clicked_at, id, link_id, campaign_id, source_id, ip, user_agent, platform, gaid, idfa, params, bot)
      SELECT $1, timestamptz '${T0}' - ((i % 2592000) * interval '1 second'), md5(i::text || 'c')::uuid,
             ('0a770000-0000-4000-8001-' || lpad((i % 20)::text, 12, '0'))::uuid, ('0a770000-0000-4000-8000-' || lpad((i % 20)::text, 12, '0'))::uuid, $2,
             ('100.' || ((i >> 16) & 255) || '.' || ((i >> 8) & 255) || '.' || (i & 255))::inet,
             'Mozilla/5.0 (Linux; Android 14; Model ' || (i % 50) || ')', 'android',
             CASE WHEN i % 10 < 4 THEN 'gaid-' || (i % 2000000) END, CASE WHEN i % 10 BETWEEN 4 AND 6 THEN 'idfa-' || (i % 1500000) END,
             '{}', i % 100 = 99
        FROM generate_series($3::int, $4::int) i`, [APP, SOURCE, from, Math.min(CLICKS, from + 1_000_000) - 1]);
    console.log(`  clicks ${Math.min(CLICKS, from + 1_000_000).toLocaleString('en')} (${((performance.now() - t) / 1000).toFixed(0)} s)`);
  }
  // Install k: its click c = 10k + slot (slot 0: GAID, 4: IDFA, 7: referrer, 8: fingerprint; k % 10 ≥ 7: none).
  await db.query(`CREATE TABLE IF NOT EXISTS bench_installs (k int PRIMARY KEY, person_id bigint, device_id bigint, event_time timestamptz,
                    ip inet, user_agent text, referrer_click_id uuid)`);
  await db.query('TRUNCATE bench_installs');
  await db.query(`
    INSERT INTO bench_installs (k, person_id, device_id, event_time, ip, user_agent, referrer_click_id)
    SELECT k, nextval('people_id_seq'), nextval('devices_id_seq'), timestamptz '${T0}' + ((k % 3600) * interval '1 second'),
           CASE WHEN k % 10 = 6 THEN ('100.' || (((10 * k + 8) >> 16) & 255) || '.' || (((10 * k + 8) >> 8) & 255) || '.' || ((10 * k + 8) & 255))::inet
                ELSE ('192.0.' || (k % 250) || '.' || (k % 200))::inet END,
           CASE WHEN k % 10 = 6 THEN 'Mozilla/5.0 (Linux; Android 14; Model ' || ((10 * k + 8) % 50) || ')' ELSE 'Mozilla/5.0 (Linux; Android 13; Other)' END,
           CASE WHEN k % 10 = 5 THEN md5((10 * k + 7)::text || 'c')::uuid END
      FROM generate_series(1, $1::int) k`, [INSTALLS]);
  await db.query(`INSERT INTO people (app_id, id, device_id, install_at, created_at, updated_at)
                  SELECT $1, person_id, 'bench-' || k, event_time, event_time, event_time FROM bench_installs`, [APP]);
  await db.query(`INSERT INTO devices (app_id, id, device_key, person_id, gaid, idfa, first_seen_at, last_seen_at)
                  SELECT $1, device_id, 'bench-' || k, person_id,
                         CASE WHEN k % 10 < 3 THEN 'gaid-' || ((10 * k) % 2000000) END,
                         CASE WHEN k % 10 IN (3, 4) THEN 'idfa-' || ((10 * k + 4) % 1500000) END, event_time, event_time
                    FROM bench_installs`, [APP]);
  await db.query(`INSERT INTO lifecycle_events (app_id, event_time, kind, person_id, device_id) SELECT $1, event_time, 'install', person_id, device_id FROM bench_installs`, [APP]);
  await db.query('ANALYZE');
  await db.query('INSERT INTO bench_attribution_set (name) VALUES ($1)', [SET_NAME]);
  console.log(`loaded in ${((performance.now() - t) / 1000).toFixed(0)} s`);
}

async function reset(db: pg.Pool): Promise<void> {
  await db.query('DELETE FROM acq_attributions WHERE app_id = $1', [APP]);
  await db.query('DELETE FROM acq_pending WHERE app_id = $1', [APP]);
  await db.query('UPDATE people SET from_source = NULL, from_campaign = NULL WHERE app_id = $1', [APP]);
  await db.query('UPDATE lifecycle_events SET source = NULL, campaign = NULL WHERE app_id = $1', [APP]);
  await db.query(`INSERT INTO acq_pending (app_id, kind, event_time, person_id, device_id, ip, user_agent, referrer_click_id)
                  SELECT $1, 'install', event_time, person_id, device_id, ip, user_agent, referrer_click_id FROM bench_installs ORDER BY k`, [APP]);
  await db.query('VACUUM ANALYZE acq_pending');
  await db.query('VACUUM ANALYZE acq_attributions');
}

await ensureDatabase();
const db = createPool(url.toString(), 4);
try {
  await migrate(db);
  await load(db);
  await reset(db);
  const t = performance.now();
  const result = await attributePending(db, { appId: APP });
  const seconds = (performance.now() - t) / 1000;
  const { rows } = await db.query<{ match: string; n: number }>('SELECT match, count(*)::int AS n FROM acq_attributions WHERE app_id = $1 GROUP BY 1 ORDER BY 1', [APP]);
  console.log(`attributed ${result.pending.toLocaleString('en')} installs against ${CLICKS.toLocaleString('en')} clicks in ${seconds.toFixed(1)} s `
    + `(${Math.round(result.pending / seconds).toLocaleString('en')} installs/s, ${result.batches} batches; target under 60 s)`);
  console.log(`  by match: ${rows.map((r) => `${r.match} ${r.n.toLocaleString('en')}`).join(', ')}`);
} finally {
  await db.end();
}
