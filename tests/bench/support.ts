/** Shared pieces of the benchmark scripts: a fresh database and the real server in a child process. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { randomUUID } from 'node:crypto';
import { AUTH_COOKIES, BUILT_IN_ROLES, CSRF_HEADER, ROLE_GRANTS, endpoints, type MessageDraft } from '@gd/shared';
import type { Queryable } from '../../api-server/src/db/pool.ts';
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

/** An account with a client user and one iOS app, written straight to the tables; answers their ids. */
export async function benchAccount(db: Queryable): Promise<{ accountId: string; userId: string; appId: string }> {
  const one = async (sql: string, params: unknown[]) => (await db.query<{ id: string }>(sql, params)).rows[0]!.id;
  const accountId = await one(`INSERT INTO accounts (name, plan) VALUES ('Bench', 'growth') RETURNING id`, []);
  const roleId = await one(`INSERT INTO user_roles (account_id, name, built_in, user_type, grants) VALUES ($1, 'Client', 'client', $2, $3) RETURNING id`,
    [accountId, BUILT_IN_ROLES.client.userType, [...ROLE_GRANTS.client]]);
  const userId = await one(`INSERT INTO users (account_id, email, name, role_id) VALUES ($1, 'bench@example.com', 'Bench', $2) RETURNING id`, [accountId, roleId]);
  const appId = await one(`INSERT INTO apps (account_id, name, os, app_key) VALUES ($1, 'Bench', 'iOS', $2) RETURNING id`, [accountId, `key-${randomUUID()}`]);
  return { accountId, userId, appId };
}

/** An approved message of `definition` (its version 1) in its own campaign, ready to play; answers its id. */
export async function approvedMessageRow(db: Queryable, w: { accountId: string; userId: string; appId: string }, definition: MessageDraft): Promise<string> {
  const messageId = randomUUID();
  const campaignId = (await db.query<{ id: string }>(`INSERT INTO campaigns (account_id, app_id, name, created_by) VALUES ($1, $2, $3, $4) RETURNING id`, [w.accountId, w.appId, `C ${messageId}`, w.userId])).rows[0]!.id;
  await db.query(
    `INSERT INTO messages (id, account_id, app_id, campaign_id, name, type, origin, status, doc_name, created_by, owner_id, approved_version)
     VALUES ($1, $2, $3, $4, $5, $6, 'classic', 'Approved', $7, $8, $8, 1)`,
    [messageId, w.accountId, w.appId, campaignId, `M ${messageId}`, definition.type, `message/${w.appId}/${messageId}`, w.userId]);
  const submissionId = (await db.query<{ id: string }>(
    `INSERT INTO message_submissions (message_id, number, definition, yjs_state, state_vector, sha256, submitted_by, outcome) VALUES ($1, 1, $2, '\\x00', '\\x00', 'x', $3, 'approved') RETURNING id`,
    [messageId, definition, w.userId])).rows[0]!.id;
  await db.query(`INSERT INTO message_versions (message_id, version, submission_id, definition, yjs_state, state_vector, sha256) VALUES ($1, 1, $2, $3, '\\x00', '\\x00', 'x')`, [messageId, submissionId, definition]);
  return messageId;
}

/**
 * CPU time so far, in microseconds (Linux /proc; NaN elsewhere): this process, the processes
 * `pids` (summed), and the whole machine (every core's busy time), so a benchmark can say what each
 * side and everything else (Postgres) cost per operation.
 */
export function cpuSnapshot(pids: readonly number[] = []): { self: number; pids: number; machine: number } {
  const own = process.cpuUsage();
  const ticks = (fields: string[], from: number, to: number) => fields.slice(from, to).reduce((n, f) => n + Number(f), 0) * 10_000;
  let others = 0;
  let machine = NaN;
  try {
    // utime and stime, fields 14 and 15 of /proc/<pid>/stat, in clock ticks (100 a second).
    for (const pid of pids) others += ticks(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [], 11, 13);
    // /proc/stat "cpu user nice system idle iowait irq softirq steal": busy = all but idle and iowait.
    const cpu = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/);
    machine = ticks(cpu, 1, 4) + ticks(cpu, 6, 9);
  } catch {
    others = NaN;
  }
  return { self: own.user + own.system, pids: others, machine };
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
