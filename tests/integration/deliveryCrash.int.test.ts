/**
 * A delivery worker killed with SIGKILL in the middle of a 1,000-person e-mail send (issue 13):
 * after another worker takes over, every person has received the message exactly once, counted at
 * a real SMTP server on loopback by Message-ID (the copy of a send the killed worker had handed to
 * the server but not yet marked carries the same Message-ID, which mailbox providers show once);
 * at most the sends in flight at the kill reach the server twice; every outbox row ends sent.
 *
 * The workers are real processes (`node api-server/src/worker.ts` with WORKER_ONLY=delivery); the
 * API of this test sends nothing itself (DELIVERY_IN_PROCESS=off).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { registerAccount, type TestApi } from '../../api-server/src/testing/harness.ts';
import { startSmtpSink, type SmtpSink } from '../../api-server/src/features/delivery/testing/smtpSink.ts';
import { approvedMessage, audienceOf, startApiWithSync, statusOf, until, type DeliveryWorld } from '../support/delivery.ts';
import { ROOT } from '../support/env.ts';

const PEOPLE = 1000;
let world: DeliveryWorld;
let api: TestApi;
let sink: SmtpSink;
const workers: ChildProcess[] = [];

beforeAll(async () => {
  sink = await startSmtpSink();
  world = await startApiWithSync({ OUTGOING_ALLOW_LOOPBACK: '127.0.0.1', DELIVERY_IN_PROCESS: 'off' });
  api = world.api;
});
afterAll(async () => {
  for (const w of workers) if (w.exitCode === null) w.kill('SIGKILL');
  await world.stop();
  await sink.close();
});

/** A delivery-only worker process on the test database, with a short lease so a dead worker's rows come back soon. */
function startWorker(): ChildProcess {
  const child = spawn(process.execPath, [path.join(ROOT, 'api-server/src/worker.ts')], {
    cwd: ROOT,
    env: {
      ...process.env, DATABASE_URL: inject('databaseUrl'), JWT_SECRET: api.deps.config.JWT_SECRET, WORKER_ONLY: 'delivery',
      DELIVERY_LEASE_SECONDS: '2', OUTGOING_ALLOW_LOOPBACK: '127.0.0.1', LOG_LEVEL: 'silent', DATA_DIR: '/tmp/gd-it',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  workers.push(child);
  return child;
}

it('a worker killed in the middle of a 1,000-person send: after another takes over, each person has the message exactly once', { timeout: 120_000 }, async () => {
  const owner = await registerAccount(api);
  await owner.client.ok('updateApprovalPolicy', { required: 1, authorsMayApprove: true });
  const { app } = await owner.client.ok<{ app: { id: string } }>('createApp', { name: 'Crash', os: 'iOS' });
  const appId = app.id;
  const { provider } = await owner.client.ok<{ provider: { id: string } }>('createMailProvider', {
    name: 'Loopback', host: '127.0.0.1', port: sink.port, tls: 'none', username: '', senderName: 'Team', senderEmail: 'team@example.com',
  });
  await owner.client.ok('activateMailProvider', undefined, { providerId: provider.id });

  const emails = Array.from({ length: PEOPLE }, (_, i) => `crash-${i}@example.com`);
  const { audienceId } = await audienceOf(api, appId, emails.map((email) => ({ email })), 'Everyone');
  const message = await approvedMessage(owner.client, world, { appId, type: 'email', name: 'Crash sale', audienceId, content: { sender_name: 'Team', sender_email: 'team@example.com', subject: 'Sale', html_body: '<p>Hello</p>' } });
  const ids = { appId, messageId: message.id };

  // The SMTP server takes 15 ms per message: with 20 sends in flight, about 1,300 a second.
  sink.delayMs = 15;
  const mine = () => sink.received.filter((m) => m.to[0]?.startsWith('crash-'));
  const first = startWorker();
  await owner.client.ok('transitionMessage', { action: 'play' }, ids);
  await until(() => mine().length >= 250, 'the first 250 e-mails', 60_000);
  first.kill('SIGKILL');
  await new Promise<void>((resolve) => first.once('exit', () => resolve()));
  const atKill = mine().length;
  expect(atKill).toBeLessThan(PEOPLE);

  startWorker();
  await until(async () => (await statusOf(owner.client, appId, message)) === 'Finished', 'the send to finish after the takeover', 60_000);
  const byPerson = new Map<string, Set<string>>();
  for (const m of mine()) byPerson.set(m.to[0]!, (byPerson.get(m.to[0]!) ?? new Set()).add(m.headers.get('message-id') ?? ''));
  expect(byPerson.size).toBe(PEOPLE);
  expect([...byPerson.values()].every((ids) => ids.size === 1)).toBe(true);
  // Copies of sends in flight at the kill (accepted by the server, not yet marked sent): at most one per concurrent send.
  expect(mine().length - PEOPLE).toBeLessThanOrEqual(20);
  const rows = await api.db.query<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM message_outbox WHERE message_id = $1 GROUP BY status', [message.id]);
  expect(rows.rows).toEqual([{ status: 'sent', n: PEOPLE }]);
});
