/** A real API server on port 0 against the run's database, and a cookie-keeping typed client. */
import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { inject } from 'vitest';
import './provided.ts';
import { AUTH_COOKIES, CSRF_HEADER, endpoints, fillPath, rangeQuery, type EndpointName } from '@gd/shared';
import { loadConfig } from '../config.ts';
import { startServer, type RunningServer } from '../server.ts';
import type { MailSender } from '../mail/worker.ts';

export interface SentMail { to: string; subject: string; text: string }

export interface TestApi extends RunningServer {
  /**
   * Waits until a mail to `to` matching `pattern` was sent, and answers the oldest such mail this
   * harness has not answered before (so a second call waits for the next one). Read from the mail
   * outbox: test files share one database, and whichever file's server worker sent a mail (they all
   * take any queued row, as workers do in production), it is sent once and found here.
   */
  waitForMail(to: string, pattern?: RegExp): Promise<SentMail>;
}

export async function startTestApi(env: Record<string, string> = {}): Promise<TestApi> {
  // The mail worker's transport: what it sends is read back from mail_outbox (waitForMail).
  const sender: MailSender = { send: () => Promise.resolve() };
  const answered = new Set<string>();
  const config = loadConfig({
    DATABASE_URL: inject('databaseUrl'), PORT: '0', LOG_LEVEL: 'silent', DB_POOL_SIZE: '4',
    JWT_SECRET: 'integration-tests-secret-0123456789abcdef', DATA_DIR: '/tmp/gd-it',
    // Test files share one database: only those that test delivery run its loop (DELIVERY_IN_PROCESS: 'on'),
    // so no other file's server leases their outbox rows. The same for the journey engine (JOURNEYS_IN_PROCESS)
    // and the attribution loop, which takes any app's pending installs: a test attributes its own
    // with attributePending, and another file's loop holding them made it read a partial answer.
    DELIVERY_IN_PROCESS: 'off', JOURNEYS_IN_PROCESS: 'off', ATTRIBUTION_IN_PROCESS: 'off', RULES_IN_PROCESS: 'off', POSTBACKS_IN_PROCESS: 'off', AUDIENCE_SHARE_IN_PROCESS: 'off', INTEGRATION_REFRESH_IN_PROCESS: 'off', ...env,
  });
  const server = await startServer(config, { log: pino({ level: 'silent' }), mailSender: sender });
  return {
    ...server,
    async waitForMail(to, pattern) {
      for (let i = 0; i < 200; i++) {
        server.deps.notifyMail();
        const { rows } = await server.db.query<{ id: string; subject: string; text_body: string }>(
          'SELECT id, subject, text_body FROM mail_outbox WHERE to_address = $1 AND sent_at IS NOT NULL ORDER BY sent_at, id', [to.toLowerCase()]);
        const found = rows.find((r) => !answered.has(r.id) && (!pattern || pattern.test(r.text_body)));
        if (found) {
          answered.add(found.id);
          return { to: to.toLowerCase(), subject: found.subject, text: found.text_body };
        }
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error(`no mail to ${to}`);
    },
  };
}

/** A query string's parameters (arrays as `key[]`, undefined and null left out). */
export type Query = Parameters<typeof rangeQuery>[0];

export interface ApiAnswer { httpStatus: number; body: Record<string, unknown> & { status: 'OK' | 'KO'; code?: number; message?: string } }

/** A browser-like client: keeps cookies, sends the CSRF header, speaks the endpoint table. */
export class TestClient {
  readonly base: string;
  cookies = new Map<string, string>();
  constructor(base: string) {
    this.base = base;
  }

  async raw(method: string, path: string, init: { body?: string; headers?: Record<string, string>; csrf?: boolean } = {}): Promise<ApiAnswer> {
    const headers: Record<string, string> = { ...init.headers };
    if (init.body !== undefined) headers['content-type'] ??= 'application/json';
    if (method !== 'GET' && init.csrf !== false) {
      if (!this.cookies.has(AUTH_COOKIES.csrf)) await this.raw('GET', '/auth/csrf');
      headers[CSRF_HEADER] ??= this.cookies.get(AUTH_COOKIES.csrf) ?? '';
    }
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(`${this.base}/api${path}`, { method, headers, ...(init.body !== undefined ? { body: init.body } : {}) });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      const value = decodeURIComponent(pair!.slice(eq + 1));
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    // A file route (CSV) answers its file: kept as text beside the status, so a test can read both.
    if (!(res.headers.get('content-type') ?? '').includes('json')) return { httpStatus: res.status, body: { status: res.ok ? 'OK' : 'KO', file: await res.text() } };
    return { httpStatus: res.status, body: (await res.json()) as ApiAnswer['body'] };
  }

  /** Calls an endpoint of the table: `params` fill its path, `query` is the query string as the web app writes it (shared `rangeQuery`). */
  call(name: EndpointName, body?: unknown, params?: Record<string, string>, query?: Query): Promise<ApiAnswer> {
    const e = endpoints[name];
    const search = query ? rangeQuery(query) : '';
    return this.raw(e.method, `${fillPath(e.path, params)}${search ? `?${search}` : ''}`, body === undefined || e.method === 'GET' ? {} : { body: JSON.stringify(body) });
  }

  /** Like `call`, but fails the test unless the answer is OK. */
  async ok<T = Record<string, unknown>>(name: EndpointName, body?: unknown, params?: Record<string, string>, query?: Query): Promise<T> {
    const answer = await this.call(name, body, params, query);
    if (answer.body.status !== 'OK') throw new Error(`${name} answered ${JSON.stringify(answer.body)}`);
    return answer.body as T;
  }
}

export const uniqueEmail = (tag = 'user') => `${tag}.${randomBytes(5).toString('hex')}@it.example.com`;
export const STRONG_PASSWORD = 'Sturdy-Pass-42!';

/** Registers a fresh account; returns its signed-in owner client and ids. */
export async function registerAccount(api: { url: string }, plan = 'growth') {
  const client = new TestClient(api.url);
  const email = uniqueEmail('owner');
  const { user } = await client.ok<{ user: { id: string; accountId: string } }>('register', {
    name: 'Owner', email, password: STRONG_PASSWORD, accountName: `Acct ${email}`, plan,
  });
  return { client, email, userId: user.id, accountId: user.accountId };
}

/** Creates an app in the client's account; answers its id and ingestion key. */
export async function createTestApp(client: TestClient, input: { name?: string; os?: string; timezone?: string } = {}) {
  const { app } = await client.ok<{ app: { id: string; appKey: string; timezone: string } }>('createApp', {
    name: input.name ?? `App ${randomBytes(3).toString('hex')}`, os: input.os ?? 'Android', timezone: input.timezone ?? 'UTC',
  });
  return app;
}

/** Calls an ingestion endpoint with an app key, as an SDK would (no cookies). */
export async function ingest(api: { url: string }, appKey: string | null, name: 'ingestBatch' | 'ingestIdentify' | 'ingestProfile', body: unknown): Promise<ApiAnswer> {
  const res = await fetch(`${api.url}/api${endpoints[name].path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(appKey === null ? {} : { 'x-app-key': appKey }) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { httpStatus: res.status, body: (await res.json()) as ApiAnswer['body'] };
}

/**
 * Invites a user with one of the account's built-in roles (or with `{ roleId }`, any role of the
 * account) and signs them in; answers their client.
 */
export async function addMember(api: TestApi, owner: TestClient, role: string | { roleId: string }): Promise<TestClient & { userId: string }> {
  let roleId: string;
  if (typeof role === 'string') {
    const { roles } = await owner.ok<{ roles: { id: string; builtIn: string | null }[] }>('listRoles');
    const builtIn = roles.find((r) => r.builtIn === role);
    if (!builtIn) throw new Error(`no built-in role ${role}`);
    roleId = builtIn.id;
  } else {
    roleId = role.roleId;
  }
  const label = typeof role === 'string' ? role : 'member';
  const email = uniqueEmail(label);
  await owner.ok('addUser', { name: label, email, roleId });
  const token = decodeURIComponent(/token=([^\s]+)/.exec((await api.waitForMail(email, /token=/)).text)?.[1] ?? '');
  const client = new TestClient(api.url);
  const { user } = await client.ok<{ user: { id: string } }>('autoLogin', { token });
  await client.ok('changePassword', { newPassword: STRONG_PASSWORD });
  return Object.assign(client, { userId: user.id });
}
