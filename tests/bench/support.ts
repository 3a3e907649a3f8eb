/** Shared pieces of the benchmark scripts: a fresh database and the real server in a child process. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { AUTH_COOKIES, CSRF_HEADER, endpoints } from '@gd/shared';
import { ROOT } from '../support/env.ts';

const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export async function freshDatabase(prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export async function startServerProcess(env: Record<string, string>, port: number): Promise<{ base: string; child: ChildProcess; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [...(process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean), 'scripts/serve.ts'], {
    cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, PORT: String(port), LOG_LEVEL: 'warn', CLIENT_DIST: path.join(ROOT, 'client/dist'), DATA_DIR: path.join(ROOT, 'test-results/bench-data'), SEED_ACTIVITY: 'off', ...env },
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch { /* starting */ }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { base, child, stop: () => new Promise((resolve) => { child.once('exit', () => resolve()); child.kill('SIGTERM'); }) };
}

export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
export const fmt = (ms: number) => `${ms.toFixed(2)} ms`;

/**
 * Signs in through the API as the web app does: `access` is the session cookie alone, `cookie` the
 * session and CSRF cookies together, `csrf` the token a write sends in its header.
 */
export async function benchSignIn(base: string, email: string, password: string): Promise<{ access: string; cookie: string; csrf: string }> {
  const csrfRes = await fetch(`${base}/api${endpoints.csrf.path}`);
  const csrfCookie = csrfRes.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const csrf = decodeURIComponent(csrfCookie.split(`${AUTH_COOKIES.csrf}=`)[1]?.split(';')[0] ?? '');
  const res = await fetch(`${base}/api${endpoints.login.path}`, {
    method: 'POST', headers: { 'content-type': 'application/json', cookie: csrfCookie, [CSRF_HEADER]: csrf },
    body: JSON.stringify({ email, password }),
  });
  const setCookie = res.headers.getSetCookie().find((c) => c.startsWith(`${AUTH_COOKIES.access}=`));
  if (!setCookie) throw new Error(`login failed: ${await res.text()}`);
  const access = setCookie.split(';')[0] ?? '';
  return { access, cookie: `${csrfCookie}; ${access}`, csrf };
}
