/**
 * The link host's click redirects (issue 16): throughput and latency of GET /l/:code against the
 * real server (separate process) on real Postgres, load from autocannon. Targets: at least 5,000
 * clicks/s and p99 under 20 ms on this 2-core machine (load generator included).
 *
 * Each request is a person's click (an iPhone user agent, a device id and tracking parameters),
 * so every one is parsed, stored (group commit, durable) and answered with a 302. Two runs of
 * BENCH_SECONDS (default 10): "cold" right after start-up, then "steady". After each, the stored
 * clicks are counted against the answered redirects (they must match: no click is lost).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import pg from 'pg';
import { fmt, freshDatabase, startServerProcess } from './support.ts';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

/** User + system CPU seconds of the processes whose command name matches (Linux /proc), or NaN elsewhere. */
function cpuSeconds(match: (pid: number, name: string) => boolean): number {
  let total = 0;
  try {
    for (const entry of readdirSync('/proc')) {
      const pid = Number(entry);
      if (!Number.isInteger(pid)) continue;
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        if (!match(pid, name)) continue;
        const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
        total += (Number(fields[11]) + Number(fields[12])) / 100;
      } catch { /* gone */ }
    }
    return total;
  } catch {
    return NaN;
  }
}

const db = await freshDatabase('gd_bench_clicks');
const server = await startServerProcess({ DATABASE_URL: db.url, WORKER: 'off', SEED_DEMO: 'off' }, 4291);
const client = new pg.Client({ connectionString: db.url });
try {
  await client.connect();
  const { rows: [account] } = await client.query<{ id: string }>("INSERT INTO accounts (name, plan) VALUES ('Bench', 'growth') RETURNING id");
  const { rows: [app] } = await client.query<{ id: string }>("INSERT INTO apps (account_id, name, os, app_key) VALUES ($1, 'Bench app', 'iOS', 'bench-clicks-key') RETURNING id", [account!.id]);
  const { rows: [source] } = await client.query<{ id: string }>("INSERT INTO acq_sources (app_id, name, type) VALUES ($1, 'Network', 'adnetwork') RETURNING id", [app!.id]);
  const { rows: [campaign] } = await client.query<{ id: string }>(
    `INSERT INTO acq_campaigns (app_id, name, source_id, pricing_model, cost_value, destinations)
     VALUES ($1, 'Bench', $2, 'cpi', 1, '{"ios":{"store":"https://apps.apple.com/app/id1"},"desktop":{"web":"https://example.com/"}}') RETURNING id`,
    [app!.id, source!.id],
  );
  await client.query("INSERT INTO acq_links (app_id, campaign_id, kind, name, code, params) VALUES ($1, $2, 'tracking', 'Bench', 'bench01', '{\"sid\":\"bench\"}')", [app!.id, campaign!.id]);
  const url = `${server.base}/l/bench01?idfa=6D92078A-8246-4BA4-AE5B-76104861E7DC&p1=creative-7&cid=spring`;
  const check = await fetch(url, { redirect: 'manual', headers: { 'user-agent': IPHONE } });
  if (check.status !== 302) throw new Error(`the link answered ${check.status}`);
  for (let i = 0; i < 500; i++) await (await fetch(url, { redirect: 'manual', headers: { 'user-agent': IPHONE } })).arrayBuffer(); // warm-up

  for (const phase of ['cold', 'steady']) {
    const before = Number((await client.query<{ n: string }>('SELECT count(*) AS n FROM acq_clicks')).rows[0]?.n);
    console.log(`load average before the ${phase} run: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    const serverCpu = () => cpuSeconds((pid) => pid === server.child.pid);
    const postgresCpu = () => cpuSeconds((_pid, name) => name === 'postgres');
    const [serverBefore, postgresBefore] = [serverCpu(), postgresCpu()];
    const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers: { 'user-agent': IPHONE } });
    const stored = Number((await client.query<{ n: string }>('SELECT count(*) AS n FROM acq_clicks')).rows[0]?.n) - before;
    const redirects = result.statusCodeStats?.['302' as keyof typeof result.statusCodeStats]?.count ?? 0;
    const rps = result.requests.total / DURATION_S;
    console.log(`GET /l/:code ${phase} (${CONNECTIONS} connections, ${DURATION_S} s, autocannon on the same machine): ${rps.toFixed(0)} clicks/s (target >= 5,000)`);
    console.log(`  p50 ${fmt(result.latency.p50)}  p90 ${fmt(result.latency.p90)}  p99 ${fmt(result.latency.p99)}  max ${fmt(result.latency.max)}  (target p99 < 20 ms)`);
    const perClick = (seconds: number) => `${((seconds / result.requests.total) * 1e6).toFixed(0)} µs`;
    console.log(`  CPU per click: server ${perClick(serverCpu() - serverBefore)}, Postgres (all its processes) ${perClick(postgresCpu() - postgresBefore)}`);
    console.log(`  answered 302: ${redirects}, other: ${result.requests.total - redirects}, errors: ${result.errors}, timeouts: ${result.timeouts}; clicks stored: ${stored}`);
  }
  const { rows: [batches] } = await client.query<{ n: string }>('SELECT count(*) AS n FROM acq_clicks');
  console.log(`clicks in the table: ${batches?.n}`);
} finally {
  await client.end();
  await server.stop();
  await db.drop();
}
