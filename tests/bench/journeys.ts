/**
 * Journey engine figures (issue 14), the engine's own code on real Postgres, in this one process:
 * - audience entry: BENCH_PEOPLE (default 100,000) members of an audience entered into a launched
 *   journey by one worker, page by page (seconds; entries/s);
 * - transitions per second on one worker (target >= 10,000/s): the same entries moved through
 *   source → join → random → join → e-mail (a send queued in the outbox per person) → wait, then,
 *   an hour later on the engine's clock, wait → end. A transition is one step passed (a trace row);
 *   entries/s is given beside it;
 * - ingested event to journey entry: events POSTed to the real ingestion API (its trigger inbox
 *   hook, features/ingest/triggers.ts) of an in-process server whose engine runs as under
 *   `npm start`, until the person's entry exists; p50/p99 over BENCH_EVENTS (default 200) events
 *   (target p99 < 1 s).
 * The database is made fresh and dropped.
 */
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { BUILT_IN_ROLES, ROLE_GRANTS } from '@gd/shared';
import { journey, linked, mk } from '@gd/shared/journey/testing';
import { DEFAULT_JOURNEY_SETTINGS } from '@gd/shared/journey/settings';
import { loadConfig } from '../../api-server/src/config.ts';
import { migrate } from '../../api-server/src/db/migrate.ts';
import { createPool, type Db } from '../../api-server/src/db/pool.ts';
import { startServer } from '../../api-server/src/server.ts';
import { enrolNextPage } from '../../api-server/src/features/journeyRun/enter.ts';
import { transitionBatch } from '../../api-server/src/features/journeyRun/transition.ts';
import { HOUR, TestClock, journeyMessage, launch, worker, type World } from '../../api-server/src/features/journeyRun/testing/world.ts';
import { fmt, freshDatabase, percentile } from './support.ts';

const PEOPLE = Number(process.env.BENCH_PEOPLE ?? 100_000);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 200);
const BATCH = Number(process.env.BENCH_BATCH ?? 1000);

async function world(db: Db): Promise<World & { appKey: string }> {
  const one = async (sql: string, params: unknown[]) => (await db.query<{ id: string }>(sql, params)).rows[0]?.id ?? '';
  const accountId = await one(`INSERT INTO accounts (name, plan) VALUES ('Bench', 'growth') RETURNING id`, []);
  const roleId = await one(`INSERT INTO user_roles (account_id, name, built_in, user_type, grants) VALUES ($1, 'Client', 'client', $2, $3) RETURNING id`,
    [accountId, BUILT_IN_ROLES.client.userType, [...ROLE_GRANTS.client]]);
  const userId = await one(`INSERT INTO users (account_id, email, name, role_id) VALUES ($1, 'bench@example.com', 'Bench', $2) RETURNING id`, [accountId, roleId]);
  const appKey = `key-${randomUUID()}`;
  const appId = await one(`INSERT INTO apps (account_id, name, os, app_key) VALUES ($1, 'Bench', 'iOS', $2) RETURNING id`, [accountId, appKey]);
  return { db, accountId, userId, appId, appKey };
}

const { url, drop } = await freshDatabase('gd_bench_journeys');
const db = createPool(url, 8);
try {
  await migrate(db);
  const w = await world(db);
  const mail = await journeyMessage(w);

  // 1. Audience entry.
  console.log(`loading ${PEOPLE.toLocaleString('en')} people into an audience…`);
  await db.query(`INSERT INTO people (app_id, id, customer_id, email) SELECT $1, g, 'c' || g, 'p' || g || '@example.com' FROM generate_series(1, $2::int) g`, [w.appId, PEOPLE]);
  await db.query(`SELECT setval('people_id_seq', $1)`, [PEOPLE + 1]);
  const audienceId = (await db.query<{ id: string }>(`INSERT INTO audiences (account_id, app_id, name, status, source_type, refreshed_at) VALUES ($1, $2, 'All', 'ready', 'csv', now()) RETURNING id`, [w.accountId, w.appId])).rows[0]?.id ?? '';
  await db.query(`INSERT INTO audience_members (app_id, audience_id, person_id) SELECT $1, $2, g FROM generate_series(1, $3::int) g`, [w.appId, audienceId, PEOPLE]);
  await db.query('VACUUM ANALYZE people, audience_members');
  const { journeyId } = await launch(w, {
    ...journey('s', linked('sourceAudience', 's', 'j1', { audienceId, segment: null }), linked('flowJoin', 'j1', 'rnd'), linked('flowRandom', 'rnd', ['j2', 'j2']),
      linked('flowJoin', 'j2', 'm1'), linked('actionMessageEmail', 'm1', 'w', mail), linked('flowWait', 'w', 'end', { duration: 3600 }), mk('end', 'end')),
    settings: structuredClone(DEFAULT_JOURNEY_SETTINGS),
  });
  const clock = new TestClock(new Date());
  const engine = worker(w, clock, { batchSize: BATCH });
  const t0 = performance.now();
  while (await enrolNextPage(engine.ctx)) { /* next page */ }
  const enrolMs = performance.now() - t0;
  const entered = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM journey_entries WHERE journey_id = $1', [journeyId])).rows[0]?.n ?? 0;
  console.log(`audience entry: ${entered.toLocaleString('en')} people entered in ${(enrolMs / 1000).toFixed(2)} s (${Math.round(entered / (enrolMs / 1000)).toLocaleString('en')} entries/s, one worker)`);
  await db.query('VACUUM ANALYZE journey_entries');

  // 2. Transitions on one worker.
  const phase = async (what: string) => {
    let passages = 0;
    let entries = 0;
    const t = performance.now();
    for (;;) {
      const r = await transitionBatch(engine.ctx, BATCH);
      if (r.entries === 0) break;
      passages += r.passages;
      entries += r.entries;
    }
    const s = (performance.now() - t) / 1000;
    console.log(`transitions (${what}): ${passages.toLocaleString('en')} steps passed by ${entries.toLocaleString('en')} entries in ${s.toFixed(2)} s = ${Math.round(passages / s).toLocaleString('en')} transitions/s, ${Math.round(entries / s).toLocaleString('en')} entries/s (batches of ${BATCH}; target >= 10,000/s)`);
  };
  await phase('source, join, random, join, e-mail send, to the wait');
  const outbox = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM message_outbox WHERE journey_id = $1', [journeyId])).rows[0]?.n ?? 0;
  console.log(`  outbox rows queued: ${outbox.toLocaleString('en')}`);
  clock.advance(2 * HOUR);
  await phase('wait elapsed, end');

  // 3. Ingested event to journey entry, through the real API and the in-process engine.
  const server = await startServer(loadConfig({ DATABASE_URL: url, PORT: '0', LOG_LEVEL: 'silent', JWT_SECRET: 'bench-journeys-secret-0123456789abcdef', DATA_DIR: '/tmp/gd-bench', DELIVERY_IN_PROCESS: 'off', JOURNEYS_IN_PROCESS: 'on', INGEST_RATE_PER_SECOND: '100000', INGEST_RATE_BURST: '100000' }), { log: pino({ level: 'silent' }) });
  try {
    const events = await launch(w, { ...journey('s', linked('sourceEvents', 's', 'w', { eventIds: ['bench_go'] }), linked('flowWait', 'w', 'end', { duration: 60 }), mk('end', 'end')), settings: structuredClone(DEFAULT_JOURNEY_SETTINGS) });
    server.deps.notifyJourneys?.();
    const fromPost: number[] = [];
    const fromAnswer: number[] = [];
    for (let i = 0; i < EVENTS + 5; i++) {
      const device = randomUUID();
      const start = performance.now();
      const res = await fetch(`${server.url}/api/ingest/v1/batch`, {
        method: 'POST', headers: { 'content-type': 'application/json', 'x-app-key': w.appKey },
        body: JSON.stringify({ device: { id: device, os: 'Android' }, events: [{ id: randomUUID(), name: 'bench_go', time: new Date().toISOString() }] }),
      });
      if (!res.ok) throw new Error(`ingest answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
      const answered = performance.now();
      for (;;) {
        const { rowCount } = await db.query(
          `SELECT 1 FROM journey_entries e JOIN devices d ON d.app_id = e.app_id AND d.person_id = e.person_id WHERE e.journey_id = $1 AND d.device_key = $2`, [events.journeyId, device]);
        if (rowCount) break;
        if (performance.now() - start > 10_000) throw new Error('no entry after 10 s');
        await new Promise((r) => setTimeout(r, 1));
      }
      const done = performance.now();
      if (i >= 5) {
        fromPost.push(done - start);
        fromAnswer.push(done - answered);
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    fromPost.sort((a, b) => a - b);
    fromAnswer.sort((a, b) => a - b);
    console.log(`ingested event to journey entry (from the POST): p50 ${fmt(percentile(fromPost, 50))}  p99 ${fmt(percentile(fromPost, 99))}  max ${fmt(fromPost.at(-1) ?? NaN)}  (${EVENTS} events, target p99 < 1 s)`);
    console.log(`  from the ingestion answer: p50 ${fmt(percentile(fromAnswer, 50))}  p99 ${fmt(percentile(fromAnswer, 99))}`);
  } finally {
    await server.stop();
  }
} finally {
  await db.end();
  await drop();
}
