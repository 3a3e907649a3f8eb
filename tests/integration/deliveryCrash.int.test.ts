/**
 * A delivery worker killed with SIGKILL in the middle of a 1,000-person e-mail send, and of a
 * 1,000-device push send through APNs (issue 13):
 * after another worker takes over, every person has received the message exactly once, counted at
 * a real SMTP server on loopback by Message-ID (the copy of a send the killed worker had handed to
 * the server but not yet marked carries the same Message-ID, which mailbox providers show once);
 * at most the sends in flight at the kill reach the server twice; every outbox row ends sent. The
 * push side is counted at a loopback APNs server (HTTP/2, checking the provider token) by
 * collapse id: a copy sent again carries the same apns-collapse-id and apns-id, so the device
 * shows it once.
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
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { savePushCredentials } from '../../api-server/src/features/delivery/push/credentials.ts';
import { startApnsServer, type ApnsFixture } from '../../api-server/src/features/delivery/push/testing/apnsServer.ts';
import { apnsKey } from '../../api-server/src/features/delivery/push/testing/keys.ts';
import { PUSH_SENDS_IN_FLIGHT, SENDS_IN_FLIGHT } from '../../api-server/src/features/delivery/send.ts';
import { PUSH_MAX_CONNECTIONS } from '../../api-server/src/features/delivery/push/http2Endpoint.ts';

const PEOPLE = 1000;
let world: DeliveryWorld;
let api: TestApi;
let sink: SmtpSink;
let apns: ApnsFixture;
let caFile: string;
const apnsKeys = apnsKey();
const workers: ChildProcess[] = [];

beforeAll(async () => {
  sink = await startSmtpSink();
  // 20 streams a connection: the worker's pool of PUSH_MAX_CONNECTIONS then has at most 240 notifications at the server at once.
  apns = await startApnsServer({ teamId: 'TEAM000001', keyId: 'KEY0000001', publicKey: apnsKeys.publicKey, bundleId: 'com.example.crash', maxConcurrentStreams: 20 });
  // The worker processes trust the loopback APNs server's certificate as an operator's extra CA.
  caFile = `${await mkdtemp(`${tmpdir()}/gd-crash-ca-`)}/apns.pem`;
  await writeFile(caFile, apns.ca);
  world = await startApiWithSync({ OUTGOING_ALLOW_LOOPBACK: '127.0.0.1', DELIVERY_IN_PROCESS: 'off' });
  api = world.api;
});
afterAll(async () => {
  for (const w of workers) if (w.exitCode === null) w.kill('SIGKILL');
  await world.stop();
  await sink.close();
  await apns.close();
});

/** A delivery-only worker process on the test database, with a short lease so a dead worker's rows come back soon. */
function startWorker(): ChildProcess {
  const child = spawn(process.execPath, [path.join(ROOT, 'api-server/src/worker.ts')], {
    cwd: ROOT,
    env: {
      ...process.env, DATABASE_URL: inject('databaseUrl'), JWT_SECRET: api.deps.config.JWT_SECRET, WORKER_ONLY: 'delivery',
      DELIVERY_LEASE_SECONDS: '2', OUTGOING_ALLOW_LOOPBACK: '127.0.0.1', OUTGOING_EXTRA_CA_FILE: caFile, LOG_LEVEL: 'silent', DATA_DIR: '/tmp/gd-it',
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

  // The SMTP server takes 15 ms per message: with 20 connections busy, about 1,300 a second.
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
  expect(mine().length - PEOPLE).toBeLessThanOrEqual(SENDS_IN_FLIGHT);
  const rows = await api.db.query<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM message_outbox WHERE message_id = $1 GROUP BY status', [message.id]);
  expect(rows.rows).toEqual([{ status: 'sent', n: PEOPLE }]);
});

it('a worker killed in the middle of a 1,000-device APNs send: after another takes over, each device has the notification exactly once', { timeout: 120_000 }, async () => {
  const owner = await registerAccount(api);
  await owner.client.ok('updateApprovalPolicy', { required: 1, authorsMayApprove: true });
  const { app } = await owner.client.ok<{ app: { id: string } }>('createApp', { name: 'Crash push', os: 'iOS' });
  const appId = app.id;
  expect(await savePushCredentials(api.db, api.deps.secret, appId, {
    provider: 'apns', privateKeyPem: apnsKeys.privateKeyPem,
    settings: { keyId: 'KEY0000001', teamId: 'TEAM000001', bundleId: 'com.example.crash', environment: 'sandbox', endpoint: apns.url },
  })).toMatchObject({ ok: true });
  // 1,000 people, each with an iPhone whose token is 64 hex digits.
  const { audienceId, personIds } = await audienceOf(api, appId, Array.from({ length: PEOPLE }, () => ({})), 'Phones');
  const tokenOf = (i: number) => `a${i.toString(16).padStart(63, '0')}`;
  await api.db.query(
    `INSERT INTO devices (app_id, device_key, person_id, push_token, push_enabled, os) SELECT $1, 'crash-' || t, p, t, true, 'iOS' FROM unnest($2::bigint[], $3::text[]) AS x(p, t)`,
    [appId, personIds, personIds.map((_, i) => tokenOf(i))]);
  const message = await approvedMessage(owner.client, world, { appId, type: 'push', name: 'Crash push', audienceId, content: { title: 'Sale', message: 'Now', life: 3600 } });
  const ids = { appId, messageId: message.id };

  // 200 ms per notification: with at most 240 at the server at once (20 streams on each of PUSH_MAX_CONNECTIONS connections), about 1,200 a second.
  apns.delayMs = 200;
  const first = startWorker();
  await owner.client.ok('transitionMessage', { action: 'play' }, ids);
  await until(() => apns.accepted.length >= 250, 'the first 250 notifications', 60_000);
  first.kill('SIGKILL');
  await new Promise<void>((resolve) => first.once('exit', () => resolve()));
  expect(apns.accepted.length).toBeLessThan(PEOPLE);

  startWorker();
  await until(async () => (await statusOf(owner.client, appId, message)) === 'Finished', 'the push send to finish after the takeover', 60_000);
  const byDevice = new Map<string, Set<string>>();
  for (const n of apns.accepted) byDevice.set(n.deviceToken, (byDevice.get(n.deviceToken) ?? new Set()).add(n.collapseId ?? n.apnsId));
  expect(byDevice.size).toBe(PEOPLE);
  expect([...byDevice.values()].every((collapse) => collapse.size === 1)).toBe(true);
  // Copies: only notifications the server had accepted but the killed worker had not marked, at most what the server held at once.
  expect(apns.accepted.length - PEOPLE).toBeLessThanOrEqual(Math.min(PUSH_SENDS_IN_FLIGHT, PUSH_MAX_CONNECTIONS * 20));
  const rows = await api.db.query<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM message_outbox WHERE message_id = $1 GROUP BY status', [message.id]);
  expect(rows.rows).toEqual([{ status: 'sent', n: PEOPLE }]);
});
