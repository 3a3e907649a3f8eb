/**
 * Two delivery workers on one outbox (issue 13), against real Postgres and a real SMTP server on
 * loopback: a batch whose sends outlast its lease keeps its rows (the lease is renewed while it
 * sends), so a second worker never sends them again; a frequency cap holds across workers: while
 * one worker is sending a person their last allowed message, another worker's row for that person
 * waits and is decided on what the first send became; a paused message's waiting rows are not
 * leased, and its sends continue when it plays again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessageSummary } from '@gd/shared';
import type { TestApi } from '../../api-server/src/testing/harness.ts';
import { startSmtpSink, type SmtpSink } from '../../api-server/src/features/delivery/testing/smtpSink.ts';
import { resolveNextPage } from '../../api-server/src/features/delivery/resolve.ts';
import { SenderCache, leaseDue, sendDueBatch } from '../../api-server/src/features/delivery/send.ts';
import { netPolicy } from '../../api-server/src/net/index.ts';
import { approvedMessage, audienceOf, emailAccount, startApiWithSync, until, type DeliveryWorld } from '../support/delivery.ts';

let world: DeliveryWorld;
let api: TestApi;
let sink: SmtpSink;
let owner: Awaited<ReturnType<typeof emailAccount>>['owner'];
let appId: string;

beforeAll(async () => {
  sink = await startSmtpSink();
  world = await startApiWithSync({ OUTGOING_ALLOW_LOOPBACK: '127.0.0.1' });
  api = world.api;
  ({ owner, appId } = await emailAccount(api, sink.port, { name: 'Workers', timezone: 'UTC' }));
});
afterAll(async () => {
  await world.stop();
  await sink.close();
});

/**
 * The workers' clock runs ten years ahead of the real one and the messages are scheduled then, so
 * no other test file's in-process worker (on the real clock) takes these runs or rows.
 */
const AHEAD_MS = 3650 * 86_400_000;
const aheadNow = () => new Date(Date.now() + AHEAD_MS);
const START = new Date(Date.now() + AHEAD_MS - 60_000).toISOString().slice(0, 16);

const deps = () => ({ db: api.db, secret: api.deps.secret, baseUrl: api.url, log: api.deps.log, liveDocs: api.deps.liveDocs, netPolicy: netPolicy(api.deps.config) });
const content = { sender_name: 'Team', sender_email: 'news@example.com', subject: 'Hello', html_body: '<p>Hello</p>' };

async function played(name: string, to: string[] | { audienceId: string }, cap: number | null = null): Promise<MessageSummary> {
  const { audienceId } = Array.isArray(to) ? await audienceOf(api, appId, to.map((email) => ({ email })), name) : to;
  const message = await approvedMessage(owner.client, world, {
    appId, type: 'email', name, audienceId, content,
    change: (d) => ({ ...d, schedule: { kind: 'at', at: START, basis: 'userTimezone' }, delivery: { frequencyCap: cap, quietHours: null } }),
  });
  await owner.client.ok('transitionMessage', { action: 'play' }, { appId, messageId: message.id });
  await until(async () => !(await resolveNextPage(deps(), 'resolver', { now: aheadNow })), `${name} resolved`);
  return message;
}

describe('workers sharing the outbox', () => {
  it('renews the lease of a batch whose sends outlast it, so another worker never sends its rows again', async () => {
    const emails = Array.from({ length: 4 }, (_, i) => `slow-${i}@example.com`);
    const message = await played('Slow server', emails);
    // Each e-mail takes 2.5 s at the server; the lease is 1 s (renewed every third of it).
    sink.delayMs = 2500;
    const first = new SenderCache();
    const second = new SenderCache();
    try {
      const sending = sendDueBatch(deps(), first, 'worker-a', { leaseSeconds: 1, now: aheadNow, appIds: [appId] });
      await new Promise((r) => setTimeout(r, 1600));
      // Past the first lease: without its renewal, these rows would be leased and sent again here.
      expect(await sendDueBatch(deps(), second, 'worker-b', { leaseSeconds: 1, now: aheadNow, appIds: [appId] })).toBe(0);
      expect(await sending).toBe(4);
    } finally {
      sink.delayMs = 0;
      first.close();
      second.close();
    }
    for (const email of emails) expect(sink.to(email)).toHaveLength(1);
    const rows = await api.db.query<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM message_outbox WHERE message_id = $1 GROUP BY 1', [message.id]);
    expect(rows.rows).toEqual([{ status: 'sent', n: 4 }]);
  });

  it('holds a frequency cap across workers: a row waits while another worker sends the person their last allowed message', async () => {
    const email = 'capped-across@example.com';
    // One person, two messages to them.
    const person = await audienceOf(api, appId, [{ email }], 'Capped person');
    const first = await played('Cap first', person, 1);
    const second = await played('Cap second', person, 1);
    const cache = new SenderCache();
    try {
      // Worker A holds the first message's row (leased, not sent yet).
      const held = await leaseDue(api.db, 'worker-a', 1, aheadNow(), 60, [appId]);
      expect(held.map((r) => r.message_id)).toEqual([first.id]);
      // Worker B gets the second message's row: the person is at the cap with A's send in flight, so it waits.
      expect(await sendDueBatch(deps(), cache, 'worker-b', { now: aheadNow, appIds: [appId] })).toBe(0);
      expect(sink.to(email)).toHaveLength(0);
      const waiting = await api.db.query<{ status: string; attempts: number; due: boolean }>(
        `SELECT status, attempts, run_at > $2 AS due FROM message_outbox WHERE message_id = $1`, [second.id, aheadNow()]);
      expect(waiting.rows).toEqual([{ status: 'queued', attempts: 0, due: true }]);
      // A's send fails for good: B's row, decided again, goes out (nobody was skipped for a send that never happened).
      await api.db.query(`UPDATE message_outbox SET status = 'failed', error = 'test: refused', locked_by = NULL, locked_until = NULL WHERE id = $1`, [held[0]!.id]);
      const later = new Date(Date.now() + AHEAD_MS + 6_000);
      expect(await sendDueBatch(deps(), cache, 'worker-b', { now: () => later, appIds: [appId] })).toBe(1);
      expect(sink.to(email)).toHaveLength(1);
      expect(sink.to(email)[0]!.headers.get('subject')).toBe('Hello');
    } finally {
      cache.close();
    }
  });

  it('leaves a paused message\'s rows alone and sends them when it plays again', async () => {
    const emails = Array.from({ length: 3 }, (_, i) => `paused-rows-${i}@example.com`);
    const message = await played('Paused rows', emails);
    const ids = { appId, messageId: message.id };
    await owner.client.ok('transitionMessage', { action: 'pause' }, ids);
    const cache = new SenderCache();
    try {
      expect(await leaseDue(api.db, 'worker-a', 200, aheadNow(), 60, [appId])).toEqual([]);
      await owner.client.ok('transitionMessage', { action: 'play' }, ids);
      expect(await sendDueBatch(deps(), cache, 'worker-a', { now: aheadNow, appIds: [appId] })).toBe(3);
    } finally {
      cache.close();
    }
    for (const email of emails) expect(sink.to(email)).toHaveLength(1);
  });
});
