/**
 * Sustained ingestion through the HTTP API: POST /api/ingest/v1/batch with batches of 100
 * generated events (one device each, the realistic mix of the behaviour generator), from N
 * concurrent keep-alive connections for BENCH_SECONDS (default 20), against the real server
 * (scripts/serve.ts in its own process) on local Postgres. Target (issue 4): at least 20,000
 * events/s on the 2-core machine; the p99 answer time is reported beside it.
 *
 * Request bodies are generated and serialised before the clock starts (cached in
 * test-results/bench-data, so later runs skip the generation), and each is sent once: every
 * request carries 100 new events of another device. The load comes from wrk (one thread, a Lua script cycling
 * through the bodies) when installed, else from node:http. Afterwards the events table, the daily
 * rollup and the id registry are counted against what the API acknowledged.
 */
import { spawnSync } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { GENERATOR_VERSION, generatePeople } from '../../api-server/src/seed/generator/index.ts';
import { ROOT } from '../support/env.ts';
import { fmt, freshDatabase, percentile, startServerProcess } from './support.ts';

const BATCH = 100;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
/** Bodies prepared: enough for 60,000 events/s over the run, so no batch is ever sent twice. */
const BODIES = Math.ceil((60_000 * SECONDS) / BATCH) + 200;
const SEED = 4_242;
const PORT = 4292;
const DIR = path.join(ROOT, 'test-results/bench-data');
const INGEST_PATH = '/api/ingest/v1/batch';

/**
 * One JSON body per line: the generator's batches that carry exactly 100 events, one per device.
 * A device sends its batches one after another (the SDK waits for an answer), so a load that sent
 * one device's consecutive batches on several connections at once would measure row-lock waits
 * on that device and person, which real traffic does not have.
 */
async function prepareBodies(): Promise<string> {
  const file = path.join(DIR, `ingest-bodies-v${GENERATOR_VERSION}-s${SEED}-n${BODIES}-one-per-device.jsonl`);
  if (existsSync(file)) return file;
  mkdirSync(DIR, { recursive: true });
  const started = performance.now();
  const out = createWriteStream(`${file}.part`);
  let written = 0, generated = 0;
  const people = generatePeople({ seed: SEED, people: 10_000_000, days: 30, endDate: '2026-11-21', timezone: 'Europe/Madrid', appOs: 'Android', batchSize: BATCH });
  for (const person of people) {
    const used = new Set<string>();
    for (const r of person.requests) {
      if (r.kind !== 'batch') continue;
      generated += r.body.events.length;
      if (r.body.events.length !== BATCH || written >= BODIES || used.has(r.body.device.id)) continue;
      used.add(r.body.device.id);
      if (!out.write(`${JSON.stringify(r.body)}\n`)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
      written++;
    }
    if (written >= BODIES) break;
  }
  await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
  renameSync(`${file}.part`, file);
  console.log(`prepared ${written} bodies of ${BATCH} events (of ${generated.toLocaleString('en')} generated) in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return file;
}

async function readBodies(file: string, from: number, count: number): Promise<Buffer[]> {
  const bodies: Buffer[] = [];
  let i = 0;
  for await (const line of createInterface({ input: createReadStream(file) })) {
    if (i++ < from) continue;
    bodies.push(Buffer.from(line));
    if (bodies.length >= count) break;
  }
  return bodies;
}

const LUA = `
local bodies, headers = {}, nil
sent, ok, other, wrapped = 0, 0, 0, 0
function init(args)
  for line in io.lines(os.getenv("GD_BODIES")) do bodies[#bodies + 1] = line end
  headers = { ["Content-Type"] = "application/json", ["X-App-Key"] = os.getenv("GD_APP_KEY") }
end
function request()
  sent = sent + 1
  if sent > #bodies then wrapped = wrapped + 1 end
  return wrk.format("POST", "${INGEST_PATH}", headers, bodies[((sent - 1) % #bodies) + 1])
end
function response(status, headers, body)
  if status == 200 then ok = ok + 1 else other = other + 1 end
end
local threads = {}
function setup(thread) threads[#threads + 1] = thread end
function done(summary, latency, requests)
  for _, t in ipairs(threads) do
    io.write(string.format("GD sent=%d ok=%d other=%d wrapped=%d\\n", t:get("sent"), t:get("ok"), t:get("other"), t:get("wrapped")))
  end
end
`;

interface LoadResult { label: string; okRequests: number; otherRequests: number; seconds: number; p50: number; p90: number; p99: number; exact: boolean }

function runWrk(base: string, appKey: string, file: string): LoadResult | null {
  if (spawnSync('wrk', ['--version']).error) return null;
  const script = path.join(DIR, 'ingest.lua');
  writeFileSync(script, LUA);
  const out = spawnSync('wrk', ['-t1', `-c${CONNECTIONS}`, `-d${SECONDS}s`, '--timeout', '10s', '--latency', '-s', script, `${base}${INGEST_PATH}`], {
    encoding: 'utf8', env: { ...process.env, GD_BODIES: file, GD_APP_KEY: appKey }, maxBuffer: 1 << 24,
  });
  const text = out.stdout;
  const ms = (p: string) => {
    const m = new RegExp(`\\s${p}%\\s+([\\d.]+)(us|ms|s)`).exec(text);
    return m ? Number(m[1]) * (m[2] === 'us' ? 0.001 : m[2] === 's' ? 1000 : 1) : NaN;
  };
  const gd = /GD sent=(\d+) ok=(\d+) other=(\d+) wrapped=(\d+)/.exec(text);
  if (!gd) throw new Error(`wrk gave no summary:\n${text}\n${out.stderr}`);
  if (Number(gd[4]) > 0) console.log(`  warning: ${gd[4]} requests reused a body (raise BODIES)`);
  return { label: `wrk, ${CONNECTIONS} connections`, okRequests: Number(gd[2]), otherRequests: Number(gd[3]), seconds: SECONDS, p50: ms('50'), p90: ms('90'), p99: ms('99'), exact: false };
}

async function runNode(base: string, appKey: string, bodies: Buffer[]): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const latencies: number[] = [];
  let next = 0, okRequests = 0, otherRequests = 0;
  const post = (body: Buffer) => new Promise<number>((resolve, reject) => {
    const req = http.request(`${base}${INGEST_PATH}`, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'x-app-key': appKey, 'content-length': body.length } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
  const started = performance.now();
  const until = started + SECONDS * 1000;
  await Promise.all(Array.from({ length: CONNECTIONS }, async () => {
    while (performance.now() < until && next < bodies.length) {
      const body = bodies[next++]!;
      const t0 = performance.now();
      const status = await post(body);
      latencies.push(performance.now() - t0);
      if (status === 200) okRequests++;
      else otherRequests++;
    }
  }));
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    label: `node:http, ${CONNECTIONS} connections`, okRequests, otherRequests, seconds: (performance.now() - started) / 1000,
    p50: percentile(latencies, 50), p90: percentile(latencies, 90), p99: percentile(latencies, 99), exact: true,
  };
}

const file = await prepareBodies();
const db = await freshDatabase('gd_bench_ingest');
const server = await startServerProcess({ DATABASE_URL: db.url, WORKER: 'off', INGEST_RATE_PER_SECOND: '1000000', INGEST_RATE_BURST: '1000000' }, PORT);
const sql = new pg.Client({ connectionString: db.url });
await sql.connect();
try {
  // The demo account's Android app (Europe/Madrid), with no events: activity seeding is off in benchmarks.
  let app: { id: string; app_key: string } | undefined;
  for (let i = 0; i < 300 && !app; i++) {
    app = (await sql.query<{ id: string; app_key: string }>("SELECT id, app_key FROM apps WHERE name = 'Demo Shop Android'")).rows[0];
    if (!app) await new Promise((r) => setTimeout(r, 100)); // the server answers health before the demo account is seeded
  }
  if (!app) throw new Error('demo app missing');
  // Warm-up with bodies the load never uses (the last ones of the file): JIT, pool, partitions.
  const warm = await readBodies(file, BODIES - 200, 200);
  for (const body of warm) {
    const res = await fetch(`${server.base}${INGEST_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-app-key': app.app_key }, body: new Uint8Array(body) });
    if (res.status !== 200) throw new Error(`warm-up answered ${res.status}: ${await res.text()}`);
  }
  const count = async () => (await sql.query<{ events: string; rollup: string; ids: string }>(
    `SELECT (SELECT count(*) FROM events WHERE app_id = $1) AS events, (SELECT coalesce(sum(events), 0) FROM event_daily WHERE app_id = $1) AS rollup,
            (SELECT count(*) FROM event_ids WHERE app_id = $1) AS ids`, [app.id])).rows[0]!;
  const before = Number((await count()).events);

  const result = runWrk(server.base, app.app_key, file) ?? (await runNode(server.base, app.app_key, await readBodies(file, 0, BODIES - 200)));
  // Let requests cut at the stop finish on the server, then count what was stored.
  let after = await count();
  for (let i = 0; i < 50; i++) {
    await new Promise((r) => setTimeout(r, 200));
    const again = await count();
    if (again.events === after.events) break;
    after = again;
  }
  const acknowledged = result.okRequests * BATCH;
  const stored = Number(after.events) - before;
  const eventsPerSecond = acknowledged / result.seconds;
  console.log(`ingest, batches of ${BATCH} events (${result.label}, ${result.seconds.toFixed(0)} s): ${Math.round(eventsPerSecond).toLocaleString('en')} events/s (${Math.round(result.okRequests / result.seconds)} requests/s)  (target ≥ 20,000 events/s)`);
  console.log(`  answer time p50 ${fmt(result.p50)}  p90 ${fmt(result.p90)}  p99 ${fmt(result.p99)}`);
  console.log(`  acknowledged ${acknowledged.toLocaleString('en')} events, stored ${stored.toLocaleString('en')}; rollup ${Number(after.rollup).toLocaleString('en')} and id registry ${Number(after.ids).toLocaleString('en')} (warm-up included); non-200 answers: ${result.otherRequests}`);
  const cut = stored - acknowledged;
  if (Number(after.rollup) !== Number(after.events) || Number(after.ids) !== Number(after.events)) console.log('  MISMATCH: rollup or id registry differ from the events table');
  else if (cut === 0) console.log('  stored = acknowledged');
  else if (!result.exact && cut > 0 && cut % BATCH === 0 && cut <= CONNECTIONS * BATCH) console.log(`  stored = acknowledged + ${cut / BATCH} batches in flight when wrk stopped (their answers were not read)`);
  else console.log(`  MISMATCH: ${cut} events stored without acknowledgement`);
} finally {
  await sql.end();
  await server.stop();
  await db.drop();
}
