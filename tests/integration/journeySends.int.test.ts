/**
 * The delivery entry point of journeys and rules (issue 14; delivery/enqueue.ts) and the trigger
 * inbox (ingest/triggers.ts), against real Postgres, the real workers and a real SMTP server on
 * loopback: an approved automatic message goes to each person once per idempotency key through the
 * standing run (never played, never finished), with the journey's entry, journey and step on the
 * row; what cannot go answers why (deleted, wrong origin, no address); an exit cancels an entry's
 * queued rows; ingestion writes inbox rows only for what a consumer listens for.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessageDraft, MessageSummary } from '@gd/shared';
import { createTestApp, ingest, type TestApi } from '../../api-server/src/testing/harness.ts';
import { tx } from '../../api-server/src/db/pool.ts';
import { startSmtpSink, type SmtpSink } from '../../api-server/src/features/delivery/testing/smtpSink.ts';
import { cancelQueued, enqueueSends, type SendRequest } from '../../api-server/src/features/delivery/enqueue.ts';
import { SenderCache, sendDueBatch } from '../../api-server/src/features/delivery/send.ts';
import { finishRuns } from '../../api-server/src/features/delivery/finish.ts';
import { setInterests } from '../../api-server/src/features/ingest/triggers.ts';
import { netPolicy } from '../../api-server/src/net/index.ts';
import { approvedMessage, audienceOf, emailAccount, startApiWithSync, type DeliveryWorld } from '../support/delivery.ts';

let world: DeliveryWorld;
let api: TestApi;
let sink: SmtpSink;
let owner: Awaited<ReturnType<typeof emailAccount>>['owner'];
let appId: string;
let accountId: string;

beforeAll(async () => {
  sink = await startSmtpSink();
  world = await startApiWithSync({ OUTGOING_ALLOW_LOOPBACK: '127.0.0.1' });
  api = world.api;
  ({ owner, appId } = await emailAccount(api, sink.port, { name: 'Journey sends', timezone: 'UTC' }));
  accountId = owner.accountId;
});
afterAll(async () => {
  await world.stop();
  await sink.close();
});

/** Rows are due ten years ahead, so no other test file's in-process worker (real clock) sends them. */
const AHEAD_MS = 3650 * 86_400_000;
const ahead = () => new Date(Date.now() + AHEAD_MS);
const deps = () => ({ db: api.db, secret: api.deps.secret, baseUrl: api.url, log: api.deps.log, liveDocs: api.deps.liveDocs, netPolicy: netPolicy(api.deps.config) });
const content = { sender_name: 'Team', sender_email: 'news@example.com', subject: 'Welcome aboard', html_body: '<p>Hello</p>' };

async function automatic(name: string, origin: 'automaticJourney' | 'automaticRule' | 'classic' = 'automaticJourney', delivery?: MessageDraft['delivery']): Promise<MessageSummary> {
  const { audienceId } = await audienceOf(api, appId, [], `${name} audience`);
  return approvedMessage(owner.client, world, { appId, type: 'email', name, audienceId, content, origin, ...(delivery ? { change: (d) => ({ ...d, delivery }) } : {}) });
}

const request = (message: MessageSummary, personId: string, key: string, extra: Partial<SendRequest> = {}): SendRequest => ({
  appId, accountId, messageId: message.id, personId, origin: 'automaticJourney', idempotencyKey: key, ...extra,
});

async function drain(): Promise<void> {
  const cache = new SenderCache();
  try {
    while ((await sendDueBatch(deps(), cache, 'journey-sends', { now: ahead, appIds: [appId] })) > 0) { /* until nothing is due */ }
  } finally {
    cache.close();
  }
}

describe('sends of journeys and rules', () => {
  it('queues each person once per key on the standing run and sends it through the workers', async () => {
    const message = await automatic('Welcome journey');
    const { personIds } = await audienceOf(api, appId, [{ email: 'ana@example.com' }, { email: 'ben@example.com' }], 'Welcome people');
    const [ana, ben] = personIds as [string, string];
    const journeyId = randomUUID();
    const items = [
      request(message, ana, `j:${journeyId}:1:send:${ana}:1`, { journeyEntryId: '101', journeyId, stepId: 'send' }),
      request(message, ben, `j:${journeyId}:1:send:${ben}:2`, { journeyEntryId: '102', journeyId, stepId: 'send' }),
    ];
    expect(await tx(api.db, (c) => enqueueSends(c, items, ahead()))).toEqual([{ status: 'queued' }, { status: 'queued' }]);
    // A retried transition writes nothing twice.
    expect(await tx(api.db, (c) => enqueueSends(c, items, ahead()))).toEqual([{ status: 'duplicate' }, { status: 'duplicate' }]);
    const runs = await api.db.query<{ kind: string; state: string; origin: string; n: number }>(
      `SELECT s.kind, s.state, s.origin, (SELECT count(*)::int FROM message_outbox o WHERE o.send_id = s.id) AS n FROM message_sends s WHERE s.message_id = $1`, [message.id]);
    expect(runs.rows).toEqual([{ kind: 'journey', state: 'sending', origin: 'automaticJourney', n: 2 }]);
    const row = await api.db.query<{ journey_entry_id: string; journey_id: string; step_id: string }>(
      `SELECT journey_entry_id::text, journey_id::text, step_id FROM message_outbox WHERE message_id = $1 AND person_id = $2`, [message.id, ana]);
    expect(row.rows).toEqual([{ journey_entry_id: '101', journey_id: journeyId, step_id: 'send' }]);

    await drain();
    expect(sink.to('ana@example.com').map((m) => m.headers.get('subject'))).toEqual(['Welcome aboard']);
    expect(sink.to('ben@example.com')).toHaveLength(1);
    // The standing run never finishes (more people come later), and the message is not moved by it.
    await finishRuns(api.db, api.deps.log, ahead);
    expect((await api.db.query<{ state: string }>(`SELECT state FROM message_sends WHERE message_id = $1`, [message.id])).rows).toEqual([{ state: 'sending' }]);
    expect((await api.db.query<{ status: string }>(`SELECT status FROM messages WHERE id = $1`, [message.id])).rows).toEqual([{ status: 'Approved' }]);
  });

  it('answers why a send cannot go: no address, a classic message, a deleted message', async () => {
    const message = await automatic('Reasons journey');
    const classic = await automatic('Classic one', 'classic');
    const { personIds } = await audienceOf(api, appId, [{ email: null }, { email: 'cara@example.com' }], 'Reasons people');
    const [nobody, cara] = personIds as [string, string];
    const results = await tx(api.db, (c) => enqueueSends(c, [
      request(message, nobody, `k:${nobody}`),
      request(classic, cara, `k:classic:${cara}`),
      request(message, '999999999999', 'k:ghost'),
    ], ahead()));
    expect(results).toEqual([
      { status: 'skipped', reason: 'no_address' },
      { status: 'skipped', reason: 'wrong_origin' },
      { status: 'skipped', reason: 'person_gone' },
    ]);
    await owner.client.ok('transitionMessage', { action: 'delete' }, { appId, messageId: message.id });
    expect(await tx(api.db, (c) => enqueueSends(c, [request(message, cara, `k:${cara}`)], ahead()))).toEqual([{ status: 'skipped', reason: 'message_gone' }]);
  });

  it('cancels an exited entry\'s queued rows and leaves the others', async () => {
    const message = await automatic('Exit journey');
    const { personIds } = await audienceOf(api, appId, [{ email: 'dan@example.com' }, { email: 'eva@example.com' }], 'Exit people');
    const [dan, eva] = personIds as [string, string];
    await tx(api.db, (c) => enqueueSends(c, [
      request(message, dan, `x:${dan}`, { journeyEntryId: '201' }),
      request(message, eva, `x:${eva}`, { journeyEntryId: '202' }),
    ], ahead()));
    expect(await cancelQueued(api.db, ['201'], 'journey_exit')).toBe(1);
    await drain();
    expect(sink.to('dan@example.com')).toHaveLength(0);
    expect(sink.to('eva@example.com')).toHaveLength(1);
    const dans = await api.db.query<{ status: string; error: string }>(`SELECT status, error FROM message_outbox WHERE message_id = $1 AND person_id = $2`, [message.id, dan]);
    expect(dans.rows).toEqual([{ status: 'skipped', error: 'journey_exit' }]);
  });
});

describe('caps and quiet hours apply to journey sends as to every send', () => {
  it('skips a send over the frequency cap (recorded on the row) and sends the one within it', async () => {
    const message = await automatic('Capped journey', 'automaticJourney', { frequencyCap: 1, quietHours: null });
    const { personIds } = await audienceOf(api, appId, [{ email: 'capped-journey@example.com' }], 'Capped journey people');
    const [person] = personIds as [string];
    // Two entries of one person reach the message step the same day.
    expect(await tx(api.db, (c) => enqueueSends(c, [request(message, person, `cap:${person}:1`), request(message, person, `cap:${person}:2`)], ahead())))
      .toEqual([{ status: 'queued' }, { status: 'queued' }]);
    await drain();
    expect(sink.to('capped-journey@example.com')).toHaveLength(1);
    const rows = await api.db.query<{ status: string; error: string | null }>(
      `SELECT status, error FROM message_outbox WHERE message_id = $1 ORDER BY status`, [message.id]);
    expect(rows.rows).toEqual([{ status: 'sent', error: null }, { status: 'skipped', error: 'frequency_cap: 1 per day reached' }]);
  });

  it('holds a send that falls in quiet hours until they end, on the person\'s clock', async () => {
    const now = ahead();
    const hour = now.getUTCHours();
    const clock = (h: number) => `${String(h % 24).padStart(2, '0')}:00`;
    const message = await automatic('Quiet journey', 'automaticJourney', { frequencyCap: null, quietHours: { from: clock(hour + 23), to: clock(hour + 2) } });
    const { personIds } = await audienceOf(api, appId, [{ email: 'quiet-journey@example.com', zone: 'UTC' }], 'Quiet journey people');
    const [person] = personIds as [string];
    await tx(api.db, (c) => enqueueSends(c, [request(message, person, `quiet:${person}`)], now));
    const { rows } = await api.db.query<{ run_at: Date }>(`SELECT run_at FROM message_outbox WHERE message_id = $1`, [message.id]);
    const runAt = rows[0]!.run_at;
    expect(runAt.getTime()).toBeGreaterThan(now.getTime());
    expect([runAt.getUTCHours(), runAt.getUTCMinutes()]).toEqual([(hour + 2) % 24, 0]);
    await drain();
    expect(sink.to('quiet-journey@example.com')).toHaveLength(0);
  });
});

describe('the trigger inbox', () => {
  it('gets a row per interested consumer for the events and interactions they listen for, and nothing else', async () => {
    const app = await createTestApp(owner.client, { name: 'Trigger app' });
    await setInterests(api.db, app.id, 'journeys', ['purchase', '$interaction']);
    await setInterests(api.db, app.id, 'rules', ['purchase']);
    const device = `trigger-device-${Date.now()}`;
    const purchase = randomUUID();
    const answer = await ingest(api, app.appKey, 'ingestBatch', {
      device: { id: device, os: 'Web' },
      events: [
        { id: purchase, name: 'purchase', time: new Date().toISOString(), properties: { sku: 'A-1' } },
        { id: randomUUID(), name: 'page_view', time: new Date().toISOString() },
      ],
      interactions: [{ id: randomUUID(), time: new Date().toISOString(), channel: 'push', kind: 'click', messageId: 'm-1', journeyId: 'j-1', stepId: 's-1' }],
    });
    expect(answer.body.status).toBe('OK');
    const inbox = await api.db.query<{ consumer: string; kind: string; name: string; client_id: string; properties: unknown; step_id: string | null }>(
      `SELECT consumer, kind, name, client_id, properties, step_id FROM trigger_inbox WHERE app_id = $1 ORDER BY consumer, kind`, [app.id]);
    expect(inbox.rows).toEqual([
      { consumer: 'journeys', kind: 'event', name: 'purchase', client_id: purchase, properties: { sku: 'A-1' }, step_id: null },
      { consumer: 'journeys', kind: 'interaction', name: 'click', client_id: expect.any(String) as string, properties: {}, step_id: 's-1' },
      { consumer: 'rules', kind: 'event', name: 'purchase', client_id: purchase, properties: { sku: 'A-1' }, step_id: null },
    ]);
    // A replayed batch is a duplicate: nothing new in the inbox.
    await ingest(api, app.appKey, 'ingestBatch', { device: { id: device, os: 'Web' }, events: [{ id: purchase, name: 'purchase', time: new Date().toISOString() }] });
    expect((await api.db.query(`SELECT 1 FROM trigger_inbox WHERE app_id = $1`, [app.id])).rowCount).toBe(3);
    // Interests rewritten: the rules stop listening.
    await setInterests(api.db, app.id, 'rules', []);
    await ingest(api, app.appKey, 'ingestBatch', { device: { id: device, os: 'Web' }, events: [{ id: randomUUID(), name: 'purchase', time: new Date().toISOString() }] });
    const after = await api.db.query<{ consumer: string; n: number }>(`SELECT consumer, count(*)::int AS n FROM trigger_inbox WHERE app_id = $1 GROUP BY 1 ORDER BY 1`, [app.id]);
    expect(after.rows).toEqual([{ consumer: 'journeys', n: 3 }, { consumer: 'rules', n: 1 }]);
  });
});
