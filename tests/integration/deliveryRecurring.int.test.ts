/**
 * Recurring messages (issue 13) against real Postgres and a real SMTP server on loopback: each
 * occurrence of a daily schedule is its own run; when one finishes the message is Active and the
 * next occurrence's run waits for its day; when that day comes (a worker's controlled clock) it
 * sends again to everyone, once, and the one after is planned; pausing between occurrences and
 * playing again keeps the next occurrence's time; an ended schedule finishes the message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryRun, MessageSummary } from '@gd/shared';
import type { registerAccount} from '../../api-server/src/testing/harness.ts';
import { type TestApi } from '../../api-server/src/testing/harness.ts';
import { startSmtpSink, type SmtpSink } from '../../api-server/src/features/delivery/testing/smtpSink.ts';
import { resolveNextPage } from '../../api-server/src/features/delivery/resolve.ts';
import { SenderCache, finishRuns, sendDueBatch } from '../../api-server/src/features/delivery/send.ts';
import { netPolicy } from '../../api-server/src/net/index.ts';
import { approvedMessage, audienceOf, startApiWithSync, statusOf, type DeliveryWorld, emailAccount } from '../support/delivery.ts';

let world: DeliveryWorld;
let api: TestApi;
let sink: SmtpSink;
let owner: Awaited<ReturnType<typeof registerAccount>>;
let appId: string;

beforeAll(async () => {
  sink = await startSmtpSink();
  world = await startApiWithSync({ OUTGOING_ALLOW_LOOPBACK: '127.0.0.1' });
  api = world.api;
  ({ owner, appId } = await emailAccount(api, sink.port, { name: 'Recurring', timezone: 'UTC' }));
});
afterAll(async () => {
  await world.stop();
  await sink.close();
});

/**
 * The test's clock runs ten years ahead of the real one, so no other test file's in-process worker
 * (on the real clock) ever finds these runs due: only this file's controlled workers send them.
 */
const AHEAD_MS = 3650 * 86_400_000;
const aheadNow = () => new Date(Date.now() + AHEAD_MS);
const day = (offset: number) => new Date(Date.now() + AHEAD_MS + offset * 86_400_000).toISOString().slice(0, 10);

/** Runs the pipeline on `clock` until nothing is left to resolve or send, then finishes runs (on the real clock, as the loop does). */
async function work(clock: Date): Promise<void> {
  const deps = { db: api.db, secret: api.deps.secret, baseUrl: api.url, log: api.deps.log, liveDocs: api.deps.liveDocs, netPolicy: netPolicy(api.deps.config) };
  const cache = new SenderCache();
  try {
    for (let i = 0; i < 50; i++) {
      const resolved = await resolveNextPage(deps, 'recurring-worker', { now: () => clock });
      const sent = await sendDueBatch(deps, cache, 'recurring-worker', { now: () => clock, appIds: [appId] });
      if (!resolved && sent === 0) break;
    }
    await finishRuns(api.db, api.deps.log, () => clock);
  } finally {
    cache.close();
  }
}

describe('recurring messages', () => {
  it('sends each occurrence as its own run, stays Active between them, and plans the next one', async () => {
    const emails = ['daily-a@example.com', 'daily-b@example.com', 'daily-c@example.com'];
    const { audienceId } = await audienceOf(api, appId, emails.map((email) => ({ email })), 'Daily');
    // Daily at 00:00 UTC since yesterday (on the test's clock): the first occurrence's time has passed, so it goes at once.
    const message: MessageSummary = await approvedMessage(owner.client, world, {
      appId, type: 'email', name: 'Daily digest', audienceId,
      content: { sender_name: 'Team', sender_email: 'news@example.com', subject: 'Your digest', html_body: '<p>Today</p>' },
      change: (d) => ({ ...d, schedule: { kind: 'recurring', startsAt: `${day(-1)}T00:00`, basis: 'userTimezone', frequency: 'daily', endsAt: null } }),
    });
    const ids = { appId, messageId: message.id };
    await owner.client.ok('transitionMessage', { action: 'play' }, ids);
    await work(aheadNow());
    for (const email of emails) expect(sink.to(email)).toHaveLength(1);
    expect(await statusOf(owner.client, appId, message)).toBe('Active');

    const runs = async () => (await owner.client.ok<{ runs: DeliveryRun[] }>('messageDelivery', undefined, ids)).runs;
    const [upcoming, first] = await runs();
    expect(first).toMatchObject({ kind: 'live', state: 'finished', occurrence: 0, counts: expect.objectContaining({ sent: 3 }) as unknown });
    // The next occurrence is tomorrow's 00:00 UTC (occurrence 2 counted from yesterday's start).
    expect(upcoming).toMatchObject({ kind: 'live', state: 'resolving', occurrence: 2, recipients: 0, startsAt: `${day(1)}T00:00:00.000Z` });

    // Paused between occurrences and played again: it waits for the same next occurrence.
    await owner.client.ok('transitionMessage', { action: 'pause' }, ids);
    await owner.client.ok('transitionMessage', { action: 'play' }, ids);
    expect(await statusOf(owner.client, appId, message)).toBe('Scheduled');
    await work(aheadNow());
    for (const email of emails) expect(sink.to(email)).toHaveLength(1);

    // Tomorrow at 00:00 UTC: everyone gets the second digest, once; the third is planned.
    await work(new Date(`${day(1)}T00:00:05.000Z`));
    for (const email of emails) expect(sink.to(email)).toHaveLength(2);
    expect(await statusOf(owner.client, appId, message)).toBe('Active');
    const after = await runs();
    expect(after.map((r) => [r.occurrence, r.state])).toEqual([[3, 'resolving'], [2, 'finished'], [0, 'finished']]);
    // Each occurrence's copy is its own e-mail (its own Message-ID), not a repeat of the first.
    expect(new Set(sink.to(emails[0]!).map((m) => m.headers.get('message-id'))).size).toBe(2);
  });

  it('finishes the message after the last occurrence of a schedule that ends', async () => {
    const { audienceId } = await audienceOf(api, appId, [{ email: 'ending@example.com' }], 'Ending');
    const message = await approvedMessage(owner.client, world, {
      appId, type: 'email', name: 'Last call', audienceId,
      content: { sender_name: 'Team', sender_email: 'news@example.com', subject: 'Last call', html_body: '<p>Bye</p>' },
      change: (d) => ({ ...d, schedule: { kind: 'recurring', startsAt: `${day(-3)}T00:00`, basis: 'userTimezone', frequency: 'weekly', endsAt: `${day(-2)}T00:00` } }),
    });
    await owner.client.ok('transitionMessage', { action: 'play' }, { appId, messageId: message.id });
    await work(aheadNow());
    expect(sink.to('ending@example.com')).toHaveLength(1);
    expect(await statusOf(owner.client, appId, message)).toBe('Finished');
  });
});
