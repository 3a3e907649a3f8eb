/**
 * p50/p95/p99 answer time of GET /api/user/meta with 50 concurrent signed-in clients, against the
 * real server (separate process) on real Postgres, load from wrk when installed (apt-get install wrk),
 * else from node:http with keep-alive. Target (issue 2): p99 under 20 ms.
 *
 * Two runs of DURATION_S each: "cold", right after start-up and 200 sequential warm-up requests (the
 * pool's other connections open, their statements are prepared and the code is compiled during the
 * run), then "steady", the same load again on the warmed server. With wrk, each also prints the
 * server's CPU time per request (from /proc), which moves less than latency when other work shares
 * the two cores.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { loadavg } from 'node:os';
import { AUTH_COOKIES, CSRF_HEADER } from '@gd/shared';
import { fmt, freshDatabase, percentile, startServerProcess } from './support.ts';
import { DEMO_PASSWORD } from '../support/env.ts';

const CONCURRENCY = 50;
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);

async function signIn(base: string, email: string): Promise<string> {
  const csrf = await fetch(`${base}/api/auth/csrf`);
  const csrfCookie = csrf.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const token = csrfCookie.split('=')[1] ?? '';
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST', headers: { 'content-type': 'application/json', cookie: csrfCookie, [CSRF_HEADER]: token },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  const access = res.headers.getSetCookie().find((c) => c.startsWith(`${AUTH_COOKIES.access}=`));
  if (!access) throw new Error(`login failed: ${await res.text()}`);
  return access.split(';')[0] ?? '';
}

/** wrk (C, one thread) keeps the load generator from eating the cores the server needs. */
function runWrk(url: string, cookie: string): string | null {
  const probe = spawnSync('wrk', ['--version']);
  if (probe.error) return null;
  const out = spawnSync('wrk', ['-t1', `-c${CONCURRENCY}`, `-d${DURATION_S}s`, '--latency', '-H', `Cookie: ${cookie}`, url], { encoding: 'utf8' });
  return out.stdout;
}

/** User + system CPU seconds of a process so far (Linux /proc), or NaN elsewhere. */
function cpuSeconds(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

const db = await freshDatabase('gd_bench_meta');
const server = await startServerProcess({ DATABASE_URL: db.url, WORKER: 'off' }, 4290);
try {
  const cookie = await signIn(server.base, 'analyst@demo.growthdeck.test');
  const url = `${server.base}/api/user/meta`;
  let bytes = 0;
  for (let i = 0; i < 200; i++) bytes = (await (await fetch(url, { headers: { cookie } })).arrayBuffer()).byteLength; // warm-up
  console.log(`answer: ${(bytes / 1024).toFixed(1)} KB`);
  for (const phase of ['cold', 'steady']) {
    console.log(`load average before the ${phase} run: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    const cpuBefore = cpuSeconds(server.child.pid);
    const wrk = runWrk(url, cookie);
    const cpu = cpuSeconds(server.child.pid) - cpuBefore;
    if (wrk) {
      const pick = (p: string) => new RegExp(`\\s${p}%\\s+([\\d.]+)(us|ms|s)`).exec(wrk);
      const ms = (m: RegExpExecArray | null) => (m ? Number(m[1]) * (m[2] === 'us' ? 0.001 : m[2] === 's' ? 1000 : 1) : NaN);
      const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(wrk)?.[1]);
      const perRequest = Number.isFinite(cpu) ? `, server CPU ${((cpu / (rps * DURATION_S)) * 1e6).toFixed(0)} µs/request` : '';
      console.log(`/user/meta ${phase} (analyst, ${CONCURRENCY} concurrent connections, ${DURATION_S} s, wrk): ${rps.toFixed(0)} req/s${perRequest}`);
      console.log(`  p50 ${fmt(ms(pick('50')))}  p90 ${fmt(ms(pick('90')))}  p99 ${fmt(ms(pick('99')))}  (target p99 < 20 ms)`);
    } else {
      const latencies: number[] = [];
      const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
      const get = () => new Promise<number>((resolve, reject) => {
        const t0 = performance.now();
        http.get(url, { agent, headers: { cookie } }, (res) => { res.resume(); res.on('end', () => resolve(performance.now() - t0)); }).on('error', reject);
      });
      const until = performance.now() + DURATION_S * 1000;
      await Promise.all(Array.from({ length: CONCURRENCY }, async () => { while (performance.now() < until) latencies.push(await get()); }));
      latencies.sort((a, b) => a - b);
      console.log(`/user/meta ${phase} (analyst, ${CONCURRENCY} concurrent clients, ${DURATION_S} s, node http): ${(latencies.length / DURATION_S).toFixed(0)} req/s`);
      console.log(`  p50 ${fmt(percentile(latencies, 50))}  p90 ${fmt(percentile(latencies, 90))}  p99 ${fmt(percentile(latencies, 99))}  (target p99 < 20 ms)`);
      agent.destroy();
    }
  }
} finally {
  await server.stop();
  await db.drop();
}
