/** Shared pieces of the benchmark scripts: a fresh database and the real server in a child process. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
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
