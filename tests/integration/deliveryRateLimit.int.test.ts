/**
 * Rate limits per provider (issue 13) against real Postgres and a real SMTP server on loopback:
 * a mail provider limited to N e-mails a second gets at most N in any second, whatever the batch
 * size; the rows it cannot take wait for the next second without counting as attempts; two workers
 * claiming at once share one window; the limit is set and shown through the mail provider API.
 * Workers run on a controlled clock (the in-process pipeline is off), so "a second" is exact.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessageSummary } from '@gd/shared';
import type { MailProvider } from '@gd/shared/schemas/mailProviders';
import { registerAccount, type TestApi } from '../../api-server/src/testing/harness.ts';
import { startSmtpSink, type SmtpSink } from '../../api-server/src/features/delivery/testing/smtpSink.ts';
import { claimSends } from '../../api-server/src/features/delivery/rateLimit.ts';
import { resolveNextPage } from '../../api-server/src/features/delivery/resolve.ts';
import { SenderCache, sendDueBatch } from '../../api-server/src/features/delivery/send.ts';
import { netPolicy } from '../../api-server/src/net/index.ts';
import { approvedMessage, audienceOf, startApiWithSync, statusOf, until, type DeliveryWorld } from '../support/delivery.ts';

let world: DeliveryWorld;
let api: TestApi;
let sink: SmtpSink;
let owner: Awaited<ReturnType<typeof registerAccount>>;
let appId: string;
let provider: MailProvider;

beforeAll(async () => {
  sink = await startSmtpSink();
  world = await startApiWithSync({ OUTGOING_ALLOW_LOOPBACK: '127.0.0.1' });
  api = world.api;
  owner = await registerAccount(api);
  await owner.client.ok('updateApprovalPolicy', { required: 1, authorsMayApprove: true });
  appId = (await owner.client.ok<{ app: { id: string } }>('createApp', { name: 'Limits', os: 'iOS', timezone: 'UTC' })).app.id;
  ({ provider } = await owner.client.ok<{ provider: MailProvider }>('createMailProvider', {
    name: 'Limited relay', host: '127.0.0.1', port: sink.port, tls: 'none', username: '', senderName: 'Growth team', senderEmail: 'team@example.com', ratePerSecond: 7,
  }));
  await owner.client.ok('activateMailProvider', undefined, { providerId: provider.id });
});
afterAll(async () => {
  await world.stop();
  await sink.close();
});

describe('rate limits per provider', () => {
  it('keeps the limit through the mail provider API, and refuses one that is not a whole number of e-mails a second', async () => {
    expect(provider.ratePerSecond).toBe(7);
    const { providers } = await owner.client.ok<{ providers: MailProvider[] }>('listMailProviders');
    expect(providers.find((p) => p.id === provider.id)?.ratePerSecond).toBe(7);
    const refused = await owner.client.call('updateMailProvider', {
      name: 'Limited relay', host: '127.0.0.1', port: sink.port, tls: 'none', username: '', senderName: 'Growth team', senderEmail: 'team@example.com', ratePerSecond: 0,
    }, { providerId: provider.id });
    expect(refused.httpStatus).toBe(400);
    expect((await owner.client.ok<{ providers: MailProvider[] }>('listMailProviders')).providers.find((p) => p.id === provider.id)?.ratePerSecond).toBe(7);
  });

  it('sends at most the limit in each second; the rest is spread over the next seconds without spending an attempt', async () => {
    const emails = Array.from({ length: 20 }, (_, i) => `limited-${i}@example.com`);
    const { audienceId } = await audienceOf(api, appId, emails.map((email) => ({ email })), 'Limited');
    const message: MessageSummary = await approvedMessage(owner.client, world, {
      appId, type: 'email', name: 'Limited', audienceId,
      content: { sender_name: 'Team', sender_email: 'news@example.com', subject: 'Hello', html_body: '<p>Hello</p>' },
      // Years ahead: no other test file's in-process worker (on the real clock) takes the run.
      change: (d) => ({ ...d, schedule: { kind: 'at', at: '2031-03-01T10:00', basis: 'userTimezone' } }),
    });
    await owner.client.ok('transitionMessage', { action: 'play' }, { appId, messageId: message.id });
    const deps = { db: api.db, secret: api.deps.secret, baseUrl: api.url, log: api.deps.log, liveDocs: api.deps.liveDocs, netPolicy: netPolicy(api.deps.config) };
    // A second of the far future, so no other test's window is shared; 400 ms into it.
    let clock = new Date('2031-03-01T10:00:00.400Z');
    const now = () => clock;
    await until(async () => !(await resolveNextPage(deps, 'limited-worker', { now })), 'the run resolved');
    const cache = new SenderCache();
    const received = () => sink.received.filter((m) => emails.includes(m.to[0] ?? '')).length;
    try {
      // One batch takes all 20 rows; 7 go; the other 13 are spread at the limit: 7 wait for 10:00:01, 6 for 10:00:02.
      expect(await sendDueBatch(deps, cache, 'limited-worker', { now, appIds: [appId] })).toBe(7);
      expect(received()).toBe(7);
      const waiting = await api.db.query<{ run_at: Date; attempts: number; n: number }>(
        `SELECT run_at, attempts, count(*)::int AS n FROM message_outbox WHERE message_id = $1 AND status = 'queued' GROUP BY 1, 2 ORDER BY 1`, [message.id]);
      expect(waiting.rows).toEqual([
        { run_at: new Date('2031-03-01T10:00:01.000Z'), attempts: 0, n: 7 },
        { run_at: new Date('2031-03-01T10:00:02.000Z'), attempts: 0, n: 6 },
      ]);
      // Later in the same second nothing is due: the window is spent.
      clock = new Date('2031-03-01T10:00:00.900Z');
      expect(await sendDueBatch(deps, cache, 'limited-worker', { now, appIds: [appId] })).toBe(0);
      // Each next second takes its share, and only its share is leased.
      clock = new Date('2031-03-01T10:00:01.000Z');
      expect(await sendDueBatch(deps, cache, 'limited-worker', { now, appIds: [appId] })).toBe(7);
      expect(received()).toBe(14);
      clock = new Date('2031-03-01T10:00:02.000Z');
      expect(await sendDueBatch(deps, cache, 'limited-worker', { now, appIds: [appId] })).toBe(6);
      expect(received()).toBe(20);
    } finally {
      cache.close();
    }
    for (const email of emails) expect(sink.to(email)).toHaveLength(1);
    const attempts = await api.db.query<{ attempts: number; n: number }>(`SELECT attempts, count(*)::int AS n FROM message_outbox WHERE message_id = $1 GROUP BY 1`, [message.id]);
    expect(attempts.rows).toEqual([{ attempts: 1, n: 20 }]);
    expect(await statusOf(owner.client, appId, message)).toBe('Sending');
  });

  it('shares one window between workers claiming at the same time', async () => {
    const at = new Date('2031-03-02T08:00:00.100Z');
    const key = `mail:concurrent-${Date.now()}`;
    const grants = await Promise.all(Array.from({ length: 6 }, () => claimSends(api.db, key, 10, 4, at)));
    expect(grants.reduce((a, b) => a + b, 0)).toBe(10);
    expect(grants.every((g) => g >= 0 && g <= 4)).toBe(true);
    // The next second is a new window.
    expect(await claimSends(api.db, key, 10, 4, new Date('2031-03-02T08:00:01.000Z'))).toBe(4);
  });
});
