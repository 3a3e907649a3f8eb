/**
 * The send pipeline (issue 13) against real Postgres, the real sync server and a real SMTP server
 * on loopback: an approved e-mail message played reaches every person of its audience exactly
 * once; pause stops it and play resumes it where it stopped; the unsubscribe link, the open pixel
 * and click redirects work; a 5xx for a mailbox retires the address, a 4xx is retried; frequency
 * caps count across messages per local day; quiet hours and "09:00 device local time" waves follow
 * a controlled clock.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DeliveryRun, MessageDraft, MessageSummary } from '@gd/shared';
import type { registerAccount} from '../../api-server/src/testing/harness.ts';
import { type TestApi, type TestClient } from '../../api-server/src/testing/harness.ts';
import { startSmtpSink, type SmtpSink } from '../../api-server/src/features/delivery/testing/smtpSink.ts';
import { resolveNextPage } from '../../api-server/src/features/delivery/resolve.ts';
import { SenderCache, sendDueBatch } from '../../api-server/src/features/delivery/send.ts';
import { netPolicy } from '../../api-server/src/net/index.ts';
import { approvedMessage, audienceOf as peopleInAudience, startApiWithSync, until, statusOf as statusAs, type DeliveryWorld, emailAccount } from '../support/delivery.ts';

let world: DeliveryWorld;
let api: TestApi;
let sink: SmtpSink;
let owner: Awaited<ReturnType<typeof registerAccount>>;
let appId: string;

beforeAll(async () => {
  sink = await startSmtpSink();
  world = await startApiWithSync({ OUTGOING_ALLOW_LOOPBACK: '127.0.0.1', DELIVERY_IN_PROCESS: 'on' });
  api = world.api;
  ({ owner, appId } = await emailAccount(api, sink.port, { name: 'Delivery', timezone: 'Europe/Madrid' }));
});
afterAll(async () => {
  await world.stop();
  await sink.close();
});
beforeEach(() => {
  sink.delayMs = 0;
});

let batch = 0;
/** `n` people with e-mails (and zones when given), in a new audience; answers the audience and the addresses. */
async function audienceOf(n: number, zoneOf: (i: number) => string | null = () => null): Promise<{ audienceId: string; emails: string[] }> {
  batch += 1;
  const emails = Array.from({ length: n }, (_, i) => `p${batch}-${i}@example.com`);
  const { audienceId } = await peopleInAudience(api, appId, emails.map((email, i) => ({ email, zone: zoneOf(i) })), `Audience ${batch}`);
  return { audienceId, emails };
}

const ids = (m: MessageSummary) => ({ appId, messageId: m.id });

/** An e-mail message to the audience, written in its live document, submitted and approved. */
const approvedEmail = (client: TestClient, name: string, audienceId: string, change?: (d: MessageDraft) => MessageDraft) => approvedMessage(client, world, {
  appId, type: 'email', name, audienceId, ...(change ? { change } : {}),
  content: {
    sender_name: 'Winter team', sender_email: 'news@example.com', subject: `${name} for {{customer_id}}`,
    html_body: '<html><body><p>Hello {{customer_id}}</p><p><a href="https://shop.example.com/sale?x=1&amp;y=2">See the sale</a></p></body></html>',
  },
});

const statusOf = (message: MessageSummary) => statusAs(owner.client, appId, message);

const outbox = async (messageId: string) =>
  (await api.db.query<{ status: string; n: number }>(`SELECT status, count(*)::int AS n FROM message_outbox WHERE message_id = $1 GROUP BY status ORDER BY status`, [messageId])).rows;

describe('the send pipeline', () => {
  it('sends an approved e-mail message once to each person of its audience, personalised, with the unsubscribe headers, and finishes it', async () => {
    const { audienceId, emails } = await audienceOf(120);
    const message = await approvedEmail(owner.client, 'Winter sale', audienceId);
    expect(await statusOf(message)).toBe('Approved');
    await owner.client.ok('transitionMessage', { action: 'play' }, ids(message));
    await until(async () => (await statusOf(message)) === 'Finished', 'the message to finish');
    for (const email of emails) expect(sink.to(email)).toHaveLength(1);
    const mail = sink.to(emails[7]!)[0]!;
    expect(mail.headers.get('subject')).toBe(`Winter sale for c-${emails[7]}`);
    expect(mail.headers.get('from')).toBe('Winter team <news@example.com>');
    expect(mail.headers.get('list-unsubscribe')).toMatch(/^<http:\/\/127\.0\.0\.1:\d+\/api\/email\/unsubscribe\/\d+\.[\w-]{22}>$/);
    expect(mail.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(mail.raw).toContain('multipart/alternative');
    expect(new Set(emails.map((e) => sink.to(e)[0]!.headers.get('message-id'))).size).toBe(120);
    expect(await outbox(message.id)).toEqual([{ status: 'sent', n: 120 }]);
    const { runs } = await owner.client.ok<{ runs: DeliveryRun[] }>('messageDelivery', undefined, ids(message));
    expect(runs).toEqual([expect.objectContaining({ kind: 'live', state: 'finished', version: 1, recipients: 120, counts: { queued: 0, sent: 120, failed: 0, retired: 0, skipped: 0 }, problems: [], nextAt: null })]);
    // The pipeline's status moves are in the history, without an actor.
    const { history } = await owner.client.ok<{ history: { kind: string; toStatus: string | null; actorId: string | null }[] }>('messageHistory', undefined, ids(message));
    expect(history.filter((h) => h.kind === 'status' && h.actorId === null).map((h) => h.toStatus).reverse()).toEqual(['Ready', 'Sending', 'Finished']);
    // Playing a finished message is refused; nothing is sent twice.
    expect((await owner.client.call('transitionMessage', { action: 'play' }, ids(message))).httpStatus).toBe(409);
  });

  it('stops within a second of a pause and, played again, sends the rest, each person still once', async () => {
    const { audienceId, emails } = await audienceOf(300);
    const message = await approvedEmail(owner.client, 'Paused sale', audienceId);
    sink.delayMs = 60;
    await owner.client.ok('transitionMessage', { action: 'play' }, ids(message));
    await until(() => emails.filter((e) => sink.to(e).length > 0).length >= 40, 'the first sends');
    await owner.client.ok('transitionMessage', { action: 'pause' }, ids(message));
    // Sends already handed to the SMTP server end; nothing new starts a second after the pause.
    await new Promise((r) => setTimeout(r, 1000));
    const atPause = sink.received.filter((m) => emails.includes(m.to[0]!)).length;
    await new Promise((r) => setTimeout(r, 1500));
    expect(sink.received.filter((m) => emails.includes(m.to[0]!)).length).toBe(atPause);
    expect(atPause).toBeLessThan(300);
    expect(await statusOf(message)).toBe('Paused');
    sink.delayMs = 0;
    await owner.client.ok('transitionMessage', { action: 'play' }, ids(message));
    await until(async () => (await statusOf(message)) === 'Finished', 'the message to finish after resuming');
    for (const email of emails) expect(sink.to(email)).toHaveLength(1);
  });

  it('records opens and clicks, redirects only to the links it sent, and an unsubscribed address gets no more e-mail', async () => {
    const { audienceId, emails } = await audienceOf(3);
    const first = await approvedEmail(owner.client, 'Links', audienceId);
    await owner.client.ok('transitionMessage', { action: 'play' }, ids(first));
    await until(async () => (await statusOf(first)) === 'Finished', 'the first message');
    const html = sink.to(emails[0]!)[0]!.raw.replace(/=\r\n/g, '').replace(/=3D/g, '=');
    const click = /href="(http:\/\/127\.0\.0\.1:\d+\/api\/email\/click\/[^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, '&');
    const pixel = /src="(http:\/\/127\.0\.0\.1:\d+\/api\/email\/open\/[^"]+\.gif)"/.exec(html)?.[1];
    expect(click && pixel).toBeTruthy();
    const opened = await fetch(pixel!);
    expect(opened.headers.get('content-type')).toBe('image/gif');
    const clicked = await fetch(click!, { redirect: 'manual' });
    expect(clicked.status).toBe(302);
    expect(clicked.headers.get('location')).toBe('https://shop.example.com/sale?x=1&y=2');
    // The same token with another target is no redirect.
    expect((await fetch(click!.replace(/u=[^&]+/, `u=${encodeURIComponent('https://evil.example.com/')}`), { redirect: 'manual' })).status).toBe(404);
    const kinds = await api.db.query<{ kind: string; n: number }>(`SELECT kind, count(*)::int AS n FROM message_interactions WHERE app_id = $1 AND message_id = $2 GROUP BY kind ORDER BY kind`, [appId, first.id]);
    expect(kinds.rows).toEqual([{ kind: 'click', n: 1 }, { kind: 'open', n: 1 }]);

    // Unsubscribe: the page asks first (a GET changes nothing), the POST (one-click) records it.
    const unsubscribe = /^<(.+)>$/.exec(sink.to(emails[1]!)[0]!.headers.get('list-unsubscribe')!)![1]!;
    expect(await (await fetch(unsubscribe)).text()).toContain('<form method="post">');
    const suppressed = () => api.db.query('SELECT 1 FROM email_suppressions WHERE app_id = $1 AND email = $2', [appId, emails[1]]);
    expect((await suppressed()).rowCount).toBe(0);
    const posted = await fetch(unsubscribe, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    expect(await posted.text()).toContain('You are unsubscribed');
    expect((await suppressed()).rowCount).toBe(1);
    expect((await fetch(unsubscribe.replace(/\.[\w-]{22}$/, '.AAAAAAAAAAAAAAAAAAAAAA'), { method: 'POST' })).status).toBe(404);
    // The pages speak the language the person got the e-mail in (here the row says Spanish), and a
    // link that names no row the browser's.
    await api.db.query(`UPDATE message_outbox SET language = 'es' WHERE message_id = $1 AND address = $2`, [first.id, emails[2]]);
    const spanish = /^<(.+)>$/.exec(sink.to(emails[2]!)[0]!.headers.get('list-unsubscribe')!)![1]!;
    const asked = await (await fetch(spanish)).text();
    expect(asked).toContain('<html lang="es">');
    expect(asked).toContain('¿Dejar de enviar correos como este a');
    expect(asked).toContain('<button type="submit">Darme de baja</button>');
    const unknown = await fetch(spanish.replace(/\.[\w-]{22}$/, '.AAAAAAAAAAAAAAAAAAAAAA'), { headers: { 'accept-language': 'es-ES,es;q=0.9' } });
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('Enlace no válido');

    const second = await approvedEmail(owner.client, 'After unsubscribing', audienceId);
    await owner.client.ok('transitionMessage', { action: 'play' }, ids(second));
    await until(async () => (await statusOf(second)) === 'Finished', 'the second message');
    expect(sink.to(emails[0]!)).toHaveLength(2);
    expect(sink.to(emails[1]!)).toHaveLength(1);
    expect(sink.to(emails[2]!)).toHaveLength(2);
  });

  it('retires a mailbox the server refuses with 550, retries a 451, and never sends twice', async () => {
    const { audienceId, emails } = await audienceOf(4);
    sink.refuse(emails[0]!, 550, 'No such user here');
    sink.refuse(emails[1]!, 451, 'Try again later', 1);
    const message = await approvedEmail(owner.client, 'Bounces', audienceId);
    await owner.client.ok('transitionMessage', { action: 'play' }, ids(message));
    await until(async () => (await statusOf(message)) === 'Finished', 'the message to finish', 30_000);
    expect(sink.to(emails[0]!)).toHaveLength(0);
    expect(sink.to(emails[1]!)).toHaveLength(1);
    const rows = await api.db.query<{ address: string; status: string; attempts: number; error: string | null }>(
      'SELECT address, status, attempts, error FROM message_outbox WHERE message_id = $1 ORDER BY address', [message.id]);
    const byAddress = new Map(rows.rows.map((r) => [r.address, r]));
    expect(byAddress.get(emails[0]!)).toMatchObject({ status: 'retired', attempts: 1 });
    expect(byAddress.get(emails[0]!)?.error).toMatch(/^550/);
    expect(byAddress.get(emails[1]!)).toMatchObject({ status: 'sent', attempts: 2 });
    expect((await api.db.query(`SELECT reason FROM email_suppressions WHERE app_id = $1 AND email = $2`, [appId, emails[0]])).rows).toEqual([{ reason: 'bounced' }]);
    // The message screen says why, without the address.
    const { runs } = await owner.client.ok<{ runs: DeliveryRun[] }>('messageDelivery', undefined, ids(message));
    expect(runs[0]?.counts).toEqual({ queued: 0, sent: 3, failed: 0, retired: 1, skipped: 0 });
    expect(runs[0]?.problems).toHaveLength(1);
    expect(runs[0]?.problems[0]).toMatchObject({ status: 'retired', count: 1 });
    expect(runs[0]?.problems[0]?.reason).toMatch(/^550: /);
    expect(runs[0]?.problems[0]?.reason).not.toContain(emails[0]);
  });

  it('skips a person the frequency cap has reached today, across messages, and records why', async () => {
    const { audienceId, emails } = await audienceOf(2);
    const capped = (d: MessageDraft): MessageDraft => ({ ...d, delivery: { frequencyCap: 1, quietHours: null } });
    const first = await approvedEmail(owner.client, 'Cap one', audienceId, capped);
    await owner.client.ok('transitionMessage', { action: 'play' }, ids(first));
    await until(async () => (await statusOf(first)) === 'Finished', 'the first message');
    const second = await approvedEmail(owner.client, 'Cap two', audienceId, capped);
    await owner.client.ok('transitionMessage', { action: 'play' }, ids(second));
    await until(async () => (await statusOf(second)) === 'Finished', 'the second message');
    for (const email of emails) expect(sink.to(email)).toHaveLength(1);
    const skipped = await api.db.query<{ status: string; error: string }>('SELECT status, error FROM message_outbox WHERE message_id = $1', [second.id]);
    expect(skipped.rows).toEqual([{ status: 'skipped', error: 'frequency_cap: 1 per day reached' }, { status: 'skipped', error: 'frequency_cap: 1 per day reached' }]);
  });

  it('holds the cap when two capped messages to the same people are played at once and the process sends them side by side', async () => {
    // More rows than one batch (BATCH, 200), so a person's two rows can be leased by the two senders at once.
    const { audienceId, emails } = await audienceOf(300);
    const capped = (d: MessageDraft): MessageDraft => ({ ...d, delivery: { frequencyCap: 1, quietHours: null } });
    const first = await approvedEmail(owner.client, 'Together one', audienceId, capped);
    const second = await approvedEmail(owner.client, 'Together two', audienceId, capped);
    await Promise.all([first, second].map((m) => owner.client.ok('transitionMessage', { action: 'play' }, ids(m))));
    await until(async () => (await statusOf(first)) === 'Finished' && (await statusOf(second)) === 'Finished', 'both messages', 60_000);
    // Each person got one of the two, never both; the other row says why.
    for (const email of emails) expect(sink.to(email)).toHaveLength(1);
    const rows = await api.db.query<{ status: string; n: number }>(
      'SELECT status, count(*)::int AS n FROM message_outbox WHERE message_id = ANY($1::uuid[]) GROUP BY status ORDER BY status', [[first.id, second.id]]);
    expect(rows.rows).toEqual([{ status: 'sent', n: 300 }, { status: 'skipped', n: 300 }]);
  });

  it('sends "09:00 device local time" in waves as 09:00 reaches each zone, and holds sends in quiet hours (a controlled clock)', async () => {
    // Tokyo (UTC+9), Madrid (UTC+1) and New York (UTC-5) on 2026-12-01; the message's schedule is years ahead of the real clock.
    const zones = ['Asia/Tokyo', 'Europe/Madrid', 'America/New_York'];
    const { audienceId, emails } = await audienceOf(3, (i) => zones[i]!);
    const message = await approvedEmail(owner.client, 'Waves', audienceId, (d) => ({
      ...d, schedule: { kind: 'at', at: '2030-12-01T09:00', basis: 'deviceLocal' }, delivery: { frequencyCap: null, quietHours: { from: '08:30', to: '10:00' } },
    }));
    await owner.client.ok('transitionMessage', { action: 'play' }, ids(message));
    expect(await statusOf(message)).toBe('Scheduled');
    // Resolved by a worker whose clock reads the day before: the run waits for the first zone on
    // Earth to reach 09:00 (Pacific/Kiritimati, UTC+14: 19:00 UTC the day before).
    const deps = { db: api.db, secret: api.deps.secret, baseUrl: api.url, log: api.deps.log, liveDocs: api.deps.liveDocs, netPolicy: netPolicy(api.deps.config) };
    let clock = new Date('2030-11-30T18:59:00Z');
    expect(await resolveNextPage(deps, 'controlled-worker', { now: () => clock })).toBe(false);
    clock = new Date('2030-11-30T19:00:00Z');
    await until(async () => !(await resolveNextPage(deps, 'controlled-worker', { now: () => clock })), 'the run resolved');
    const runAts = await api.db.query<{ address: string; run_at: Date }>('SELECT address, run_at FROM message_outbox WHERE message_id = $1', [message.id]);
    // 09:00 falls in the 08:30–10:00 quiet hours: each copy waits until 10:00 on its clock.
    expect(Object.fromEntries(runAts.rows.map((r) => [r.address, r.run_at.toISOString()]))).toEqual({
      [emails[0]!]: '2030-12-01T01:00:00.000Z', [emails[1]!]: '2030-12-01T09:00:00.000Z', [emails[2]!]: '2030-12-01T15:00:00.000Z',
    });
    const cache = new SenderCache();
    try {
      // 10:00 in Tokyo: only Tokyo's copy goes; then Madrid's at its 10:00.
      clock = new Date('2030-12-01T01:00:00Z');
      expect(await sendDueBatch(deps, cache, 'controlled-worker', { now: () => clock, appIds: [appId] })).toBe(1);
      expect(sink.to(emails[0]!)).toHaveLength(1);
      expect(sink.to(emails[1]!)).toHaveLength(0);
      clock = new Date('2030-12-01T09:00:00Z');
      expect(await sendDueBatch(deps, cache, 'controlled-worker', { now: () => clock, appIds: [appId] })).toBe(1);
      expect(sink.to(emails[1]!)).toHaveLength(1);
      expect(sink.to(emails[2]!)).toHaveLength(0);
    } finally {
      cache.close();
    }
    await owner.client.ok('transitionMessage', { action: 'pause' }, ids(message));
  });
});
