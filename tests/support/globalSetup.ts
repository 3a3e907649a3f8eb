/**
 * Before the end-to-end run: a fresh database on the local Postgres, an SMTP sink on loopback
 * (the server's real mail path, SMTP, ends here; messages are appended to MAIL_FILE), and the real
 * server (API + worker + built web app) with the demo data. Returns the teardown.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { CLIENT_DIST, E2E_BASE_URL, E2E_PORT, MAIL_FILE, ROOT } from './env.ts';

const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export default async function globalSetup() {
  if (!existsSync(path.join(CLIENT_DIST, 'index.html'))) throw new Error('Build the client first: npm run build -w client');
  const name = `gd_e2e_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const dbUrl = new URL(adminUrl);
  dbUrl.pathname = `/${name}`;

  mkdirSync(path.dirname(MAIL_FILE), { recursive: true });
  rmSync(MAIL_FILE, { force: true });
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((r) => r.address).join(', ');
        appendFileSync(MAIL_FILE, `${JSON.stringify({ to, raw: Buffer.concat(chunks).toString('utf8') })}\n`);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const smtpPort = (smtp.server.address() as AddressInfo).port;

  const server = spawn(process.execPath, ['scripts/serve.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      DATABASE_URL: dbUrl.toString(), PORT: String(E2E_PORT), CLIENT_DIST, SDK_DIST: path.join(ROOT, 'sdk-web/dist'),
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, LOG_LEVEL: 'warn', DATA_DIR: path.join(ROOT, `test-results/e2e-data-${E2E_PORT}`),
      PUBLIC_URL: E2E_BASE_URL, SEED_ACTIVITY: 'off',
      // Mail providers (and other outgoing connections) may reach the tests' own servers on loopback.
      OUTGOING_ALLOW_LOOPBACK: '127.0.0.1',
      // Web push subscriptions may name the tests' loopback push service (e2e/webPush.spec.ts).
      WEB_PUSH_ALLOW_HOSTS: '127.0.0.1',
    },
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const res = await fetch(`${E2E_BASE_URL}/api/health`);
      if (res.ok) break;
    } catch { /* not up yet */ }
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`);
    if (Date.now() > deadline) throw new Error('server did not start within 60 s');
    await new Promise((r) => setTimeout(r, 250));
  }

  return async () => {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    const drop = new pg.Client({ connectionString: adminUrl });
    await drop.connect();
    await drop.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await drop.end();
  };
}
