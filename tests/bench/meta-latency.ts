/**
 * p50/p95/p99 answer time of GET /api/user/meta with 50 concurrent signed-in clients, against the
 * real server (separate process) on real Postgres, load from wrk when installed (apt-get install wrk),
 * else from node:http with keep-alive. Target (issue 2): p99 under 20 ms.
 */
import { spawnSync } from 'node:child_process';
import http from 'node:http';
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

const db = await freshDatabase('gd_bench_meta');
const server = await startServerProcess({ DATABASE_URL: db.url, WORKER: 'off' }, 4290);
try {
  const cookie = await signIn(server.base, 'analyst@demo.growthdeck.test');
  const url = `${server.base}/api/user/meta`;
  for (let i = 0; i < 200; i++) await (await fetch(url, { headers: { cookie } })).arrayBuffer(); // warm-up
  const wrk = runWrk(url, cookie);
  if (wrk) {
    const pick = (p: string) => new RegExp(`\\s${p}%\\s+([\\d.]+)(us|ms|s)`).exec(wrk);
    const ms = (m: RegExpExecArray | null) => (m ? Number(m[1]) * (m[2] === 'us' ? 0.001 : m[2] === 's' ? 1000 : 1) : NaN);
    const rps = /Requests\/sec:\s+([\d.]+)/.exec(wrk)?.[1];
    console.log(`/user/meta (analyst, ${CONCURRENCY} concurrent connections, ${DURATION_S} s, wrk): ${rps} req/s`);
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
    console.log(`/user/meta (analyst, ${CONCURRENCY} concurrent clients, ${DURATION_S} s, node http): ${(latencies.length / DURATION_S).toFixed(0)} req/s`);
    console.log(`  p50 ${fmt(percentile(latencies, 50))}  p90 ${fmt(percentile(latencies, 90))}  p99 ${fmt(percentile(latencies, 99))}  (target p99 < 20 ms)`);
    agent.destroy();
  }
} finally {
  await server.stop();
  await db.drop();
}
