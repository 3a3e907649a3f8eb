/**
 * A/B tests with a hold-out and their winner (issue 13) against real Postgres, the sync server and
 * a loopback SMTP server: an A/B e-mail test sent first to half its audience writes only that half;
 * opens and clicks through the e-mails' own links make variant B win; "send the winner to the rest"
 * sends B exactly to the other half, once, and a second call sends nothing more; an analyst
 * without the play key is refused. The performance histograms count sends and opens by the hour on
 * each person's clock and the time to the first open and click.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  applyMessageDraftToDoc, createMessageContent, ErrorCode, messageDraftFromDoc, type MessageDraft, type MessageSummary,
} from '@gd/shared';
import type { AbAnalysis, WinnerRun } from '@gd/shared/schemas/abAnalysis';
import type { registerAccount} from '../../api-server/src/testing/harness.ts';
import { addMember, type TestApi, type TestClient } from '../../api-server/src/testing/harness.ts';
import { startSmtpSink, type SmtpSink } from '../../api-server/src/features/delivery/testing/smtpSink.ts';
import { inTestPortion } from '../../api-server/src/features/delivery/plan.ts';
import { openApiDoc, waitFor } from '../../sync-server/src/testing/clients.ts';
import { audienceOf, startApiWithSync, statusOf, until, type DeliveryWorld, emailAccount } from '../support/delivery.ts';

let world: DeliveryWorld;
let api: TestApi;
let sink: SmtpSink;
let owner: Awaited<ReturnType<typeof registerAccount>>;
let analyst: TestClient;
let appId: string;

beforeAll(async () => {
  sink = await startSmtpSink();
  world = await startApiWithSync({ OUTGOING_ALLOW_LOOPBACK: '127.0.0.1', DELIVERY_IN_PROCESS: 'on' });
  api = world.api;
  ({ owner, appId } = await emailAccount(api, sink.port, { name: 'A/B', timezone: 'Europe/Madrid' }));
  analyst = await addMember(api, owner.client, 'analyst');
});
afterAll(async () => {
  await world.stop();
  await sink.close();
});

const ids = (m: MessageSummary) => ({ appId, messageId: m.id });

/** An A/B e-mail test (variants A and B, 50/50) to the audience, sent first to `testPercent`%, submitted and approved. */
async function approvedAbTest(client: TestClient, name: string, audienceId: string, testPercent: number): Promise<MessageSummary> {
  const { message } = await client.ok<{ message: MessageSummary }>('createMessage', { name, type: 'test_ab', campaignName: name }, { appId });
  const doc = await openApiDoc(client, message.docName, world.docs);
  const draft = messageDraftFromDoc(doc.doc);
  const email = (variant: string) => ({
    ...createMessageContent('email'), sender_name: 'Team', sender_email: 'news@example.com', subject: `${name} ${variant}`,
    html_body: `<html><body><p>Variant ${variant}</p><p><a href="https://shop.example.com/${variant}">Shop</a></p></body></html>`,
  });
  const written: MessageDraft = {
    ...draft,
    target: { kind: 'audience', id: audienceId },
    abTest: { testPercent },
    variants: draft.variants.map((v) => ({ ...v, content: Object.fromEntries(Object.keys(v.content).map((lang) => [lang, email(v.name)])) })),
  };
  applyMessageDraftToDoc(doc.doc, written);
  await waitFor(() => !doc.provider.hasUnsyncedChanges, 'draft written');
  const { message: submitted } = await client.ok<{ message: MessageSummary }>('submitMessage', undefined, ids(message));
  if (!submitted.submission) throw new Error(`not submitted: ${JSON.stringify(submitted)}`);
  await client.ok('approveMessage', { submissionId: submitted.submission.id }, ids(message));
  return message;
}

/** The e-mail's open pixel and click link. */
function links(raw: string): { pixel: string; click: string } {
  const html = raw.replace(/=\r\n/g, '').replace(/=3D/g, '=');
  const click = /href="(http:\/\/127\.0\.0\.1:\d+\/api\/email\/click\/[^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, '&');
  const pixel = /src="(http:\/\/127\.0\.0\.1:\d+\/api\/email\/open\/[^"]+\.gif)"/.exec(html)?.[1];
  if (!click || !pixel) throw new Error('no tracking links');
  return { pixel, click };
}

const analysisOf = async (client: TestClient, message: MessageSummary) =>
  (await client.ok<{ analysis: AbAnalysis }>('abAnalysis', undefined, { appId }, { messageId: message.id, metric: 'click' })).analysis;

/**
 * The audience. The hold-out and the A/B split hang on the run's random id, so the test portion's
 * size and each variant's share vary from run to run. With 80 people a variant could get too few
 * sends for the z-test (AB_STATS: at least 10 sends and 5 expected successes and failures each),
 * and the analysis then rightly declared no winner. With 200, about 100 are in the portion and a
 * variant gets fewer than 23 (the least the rule needs here) about never.
 */
const PEOPLE = 200;

describe('an A/B test with a hold-out', () => {
  const zones = ['Europe/Madrid', 'America/New_York', 'Asia/Tokyo', null];
  let message: MessageSummary;
  let emails: string[];
  let personIds: string[];

  it('sends only the test portion, and the analysis declares the variant that was clicked more', async () => {
    emails = Array.from({ length: PEOPLE }, (_, i) => `ab-${i}@example.com`);
    const audience = await audienceOf(api, appId, emails.map((email, i) => ({ email, zone: zones[i % zones.length] ?? null })), 'A/B people');
    personIds = audience.personIds;
    message = await approvedAbTest(owner.client, 'Spring test', audience.audienceId, 50);
    await owner.client.ok('transitionMessage', { action: 'play' }, ids(message));
    await until(async () => (await statusOf(owner.client, appId, message)) === 'Finished', 'the test to finish');

    const live = (await api.db.query<{ id: string; held_back: number }>(`SELECT id, held_back FROM message_sends WHERE message_id = $1 AND kind = 'live'`, [message.id])).rows[0]!;
    const inPortion = personIds.filter((id) => inTestPortion(live.id, id, 50));
    expect(inPortion.length).toBeGreaterThan(70);
    expect(inPortion.length).toBeLessThan(130);
    const written = await api.db.query<{ person_id: string }>('SELECT person_id::text FROM message_outbox WHERE send_id = $1 ORDER BY person_id', [live.id]);
    expect(written.rows.map((r) => r.person_id).sort()).toEqual([...inPortion].sort());
    expect(live.held_back).toBe(PEOPLE - inPortion.length);
    const reached = emails.filter((e) => sink.to(e).length > 0);
    expect(reached).toHaveLength(inPortion.length);

    // Every B recipient opens and clicks; A's recipients do nothing.
    const bMails = reached.map((e) => sink.to(e)[0]!).filter((m) => m.headers.get('subject') === 'Spring test B');
    expect(bMails.length).toBeGreaterThan(5);
    for (const mail of bMails) {
      const { pixel, click } = links(mail.raw);
      expect((await fetch(pixel)).status).toBe(200);
      expect((await fetch(click, { redirect: 'manual' })).status).toBe(302);
    }

    const analysis = await analysisOf(owner.client, message);
    expect(analysis.testPercent).toBe(50);
    expect(analysis.heldBack).toBe(PEOPLE - inPortion.length);
    expect(analysis.variants.map((v) => v.id)).toEqual(['A', 'B']);
    const [a, b] = analysis.variants;
    expect(a!.sends + b!.sends).toBe(inPortion.length);
    expect(b).toMatchObject({ sends: bMails.length, opens: bMails.length, clicks: bMails.length });
    expect(a).toMatchObject({ opens: 0, clicks: 0, vsControl: null });
    expect(b!.rates.click.rate).toBe(1);
    expect(b!.rates.click.low).toBeGreaterThan(0.5);
    expect(b!.vsControl!.pValue).toBeLessThan(0.05);
    expect(analysis.decision).toMatchObject({ winnerId: 'B', bestId: 'B', reason: 'significant' });
    expect(analysis.primaryMetric).toBe('click');
    // Another metric only changes the comparisons shown: the winner stays the one of the primary metric (nobody converted).
    const onConversions = (await owner.client.ok<{ analysis: AbAnalysis }>('abAnalysis', undefined, { appId }, { messageId: message.id, metric: 'conversion' })).analysis;
    expect(onConversions).toMatchObject({ metric: 'conversion', primaryMetric: 'click', decision: { winnerId: 'B', bestId: 'B', reason: 'significant' } });
    expect(analysis.sendBlock).toBeNull();
    expect(analysis.winnerRun).toBeNull();
  });

  it('an analyst sees the analysis but may not send the winner', async () => {
    expect((await analysisOf(analyst, message)).decision.winnerId).toBe('B');
    const refused = await analyst.call('sendAbWinner', { variantId: 'B' }, ids(message));
    expect(refused.body.code).toBe(ErrorCode.NO_PERMISSION);
    expect((await api.db.query(`SELECT 1 FROM message_sends WHERE message_id = $1 AND kind = 'winner'`, [message.id])).rowCount).toBe(0);
  });

  it('refuses a variant the analysis does not declare the winner', async () => {
    const answer = await owner.client.call('sendAbWinner', { variantId: 'A' }, ids(message));
    expect(answer.httpStatus).toBe(409);
  });

  it('sends the winner to exactly the people held back, once, however often it is asked', async () => {
    const before = sink.received.length;
    const live = (await api.db.query<{ id: string }>(`SELECT id FROM message_sends WHERE message_id = $1 AND kind = 'live'`, [message.id])).rows[0]!;
    const rest = new Set(personIds.filter((id) => !inTestPortion(live.id, id, 50)));
    // Two at once: one run.
    const [first, second] = await Promise.all([
      owner.client.ok<{ run: WinnerRun; created: boolean }>('sendAbWinner', { variantId: 'B' }, ids(message)),
      owner.client.ok<{ run: WinnerRun; created: boolean }>('sendAbWinner', { variantId: 'B' }, ids(message)),
    ]);
    expect([first.created, second.created].sort()).toEqual([false, true]);
    expect(first.run.sendId).toBe(second.run.sendId);
    await until(async () => (await statusOf(owner.client, appId, message)) === 'Finished', 'the winner run to finish');
    const rows = await api.db.query<{ person_id: string; variant_id: string; status: string }>(
      'SELECT person_id::text, variant_id, status FROM message_outbox WHERE send_id = $1', [first.run.sendId]);
    expect(new Set(rows.rows.map((r) => r.person_id))).toEqual(rest);
    expect(rows.rows.every((r) => r.variant_id === 'B' && r.status === 'sent')).toBe(true);
    // Every person got exactly one e-mail of this test, the held-back ones B.
    for (const email of emails) expect(sink.to(email).filter((m) => m.headers.get('subject')?.startsWith('Spring test'))).toHaveLength(1);
    expect(sink.received.length - before).toBe(rest.size);

    // Asked again: the same run, nothing more sent.
    const again = await owner.client.ok<{ run: WinnerRun; created: boolean }>('sendAbWinner', { variantId: 'B' }, ids(message));
    expect(again).toMatchObject({ created: false, run: { sendId: first.run.sendId, variantId: 'B', state: 'finished', sent: rest.size } });
    await new Promise((r) => setTimeout(r, 500));
    expect(sink.received.length - before).toBe(rest.size);
    const after = await analysisOf(owner.client, message);
    expect(after).toMatchObject({ sendBlock: 'alreadySent', winnerRun: { sendId: first.run.sendId, recipients: rest.size } });
    // The analysis still reads the test: the winner run's sends do not count in it.
    expect(after.variants[0]!.sends + after.variants[1]!.sends).toBe(PEOPLE - rest.size);
    // Conversions are counted over the same people: a test person of B who buys counts, the winner run's people buying do not.
    const purchase = (person: string) => api.db.query(
      `INSERT INTO events (app_id, event_time, received_at, client_id, person_id, device_id, name, revenue, currency)
       VALUES ($1, now() + interval '1 minute', now(), gen_random_uuid()::text, $2, 0, 'gd_transaction', 10, 'EUR')`, [appId, person]);
    const tested = (await api.db.query<{ person_id: string }>(`SELECT person_id::text FROM message_outbox WHERE send_id = $1 AND variant_id = 'B' LIMIT 1`, [live.id])).rows[0]!.person_id;
    await purchase(tested);
    const converted = await analysisOf(owner.client, message);
    const b = converted.variants[1]!;
    expect(b.conversions).toBe(1);
    expect(b.rates.conversion.rate).toBeCloseTo(1 / b.sends, 10);
    for (const person of rest) await purchase(person);
    const later = await analysisOf(owner.client, message);
    expect(later.variants.map((v) => ({ sends: v.sends, conversions: v.conversions, rate: v.rates.conversion }))).toEqual(
      converted.variants.map((v) => ({ sends: v.sends, conversions: v.conversions, rate: v.rates.conversion })));
  });

  it('an A/B test without a hold-out has nobody to send the winner to', async () => {
    const audience = await audienceOf(api, appId, [{ email: 'solo-1@example.com' }, { email: 'solo-2@example.com' }], 'Everyone');
    const everyone = await approvedAbTest(owner.client, 'Whole test', audience.audienceId, 100);
    await owner.client.ok('transitionMessage', { action: 'play' }, ids(everyone));
    await until(async () => (await statusOf(owner.client, appId, everyone)) === 'Finished', 'the test to finish');
    expect(sink.to('solo-1@example.com')).toHaveLength(1);
    expect(sink.to('solo-2@example.com')).toHaveLength(1);
    const analysis = await analysisOf(owner.client, everyone);
    expect(analysis).toMatchObject({ testPercent: 100, heldBack: 0, sendBlock: 'noHoldOut' });
    expect((await owner.client.call('sendAbWinner', { variantId: 'A' }, ids(everyone))).httpStatus).toBe(409);
  });
});

describe('performance histograms', () => {
  it('count sends and first opens by the hour on each person\'s clock, and the time to the first open and click', async () => {
    const audience = await audienceOf(api, appId, [
      { email: 'h-madrid@example.com', zone: 'Europe/Madrid' }, { email: 'h-tokyo@example.com', zone: 'Asia/Tokyo' }, { email: 'h-ny@example.com', zone: 'America/New_York' },
    ], 'Hours');
    const { message } = await owner.client.ok<{ message: MessageSummary }>('createMessage', { name: 'Hours', type: 'email', campaignName: 'Hours' }, { appId });
    // Sends and interactions written as the pipeline would have at known instants (2026-03-02 08:30 UTC),
    // under a run row the outbox needs; what counts is the rows (test = false: live sends).
    const run = await api.db.query<{ id: string }>(
      `INSERT INTO message_sends (account_id, app_id, message_id, version, definition, kind, origin, state)
       SELECT account_id, app_id, id, NULL, '{}'::jsonb, 'test', 'classic', 'finished' FROM messages WHERE id = $1 RETURNING id`, [message.id]);
    const runId = run.rows[0]!.id;
    const sentAt = '2026-03-02T08:30:00Z';
    const people = audience.personIds;
    await api.db.query(
      `INSERT INTO message_outbox (send_id, app_id, message_id, person_id, channel, address, variant_id, language, time_zone, test, idempotency_key, status, run_at, sent_at)
       SELECT $1::uuid, $2::uuid, $3::uuid, p.id, 'email', p.email, 'main', 'en', z.zone, false, $1::text || ':' || p.id, 'sent', $4::timestamptz, $4::timestamptz
         FROM unnest($5::bigint[], $6::text[]) AS z(person, zone) JOIN people p ON p.app_id = $2 AND p.id = z.person`,
      [runId, appId, message.id, sentAt, people, ['Europe/Madrid', 'Asia/Tokyo', 'America/New_York']]);
    const interaction = (person: string, kind: 'open' | 'click', at: string) => api.db.query(
      `INSERT INTO message_interactions (app_id, event_time, client_id, person_id, device_id, channel, kind, message_id, variant_id)
       VALUES ($1, $2, $3, $4, 0, 'email', $5, $6, 'main')`, [appId, at, `h-${person}-${kind}-${at}`, person, kind, message.id]);
    await interaction(people[0]!, 'open', '2026-03-02T08:32:00Z'); // 2 minutes: Madrid 09:32
    await interaction(people[0]!, 'open', '2026-03-02T12:00:00Z'); // a second open does not count
    await interaction(people[0]!, 'click', '2026-03-02T09:00:00Z'); // 30 minutes: the 30 min–1 h bucket
    await interaction(people[1]!, 'open', '2026-03-02T11:00:00Z'); // 2 h 30: Tokyo 20:00

    const answer = await owner.client.ok<{
      totals: { sends: number; opens: number; clicks: number }; timeToOpen: { key: string; count: number }[]; timeToClick: { key: string; count: number }[];
      byHour: { hour: number; sends: number; opens: number }[]; messages: { id: string }[];
    }>('performanceHistograms', undefined, { appId }, { startDay: '2026-03-01', endDay: '2026-03-03', messageId: message.id });
    expect(answer.totals).toEqual({ sends: 3, opens: 2, clicks: 1 });
    const nonZero = (rows: { key: string; count: number }[]) => rows.filter((r) => r.count > 0);
    expect(nonZero(answer.timeToOpen)).toEqual([{ key: 'm5', count: 1 }, { key: 'h4', count: 1 }]);
    expect(nonZero(answer.timeToClick)).toEqual([{ key: 'h1', count: 1 }]);
    expect(answer.byHour).toHaveLength(24);
    // 08:30 UTC is 09:30 in Madrid, 17:30 in Tokyo and 03:30 in New York.
    // First opens at 09:32 in Madrid and 20:00 in Tokyo.
    expect(answer.byHour.filter((h) => h.sends > 0 || h.opens > 0)).toEqual([
      { hour: 3, sends: 1, opens: 0 }, { hour: 9, sends: 1, opens: 1 }, { hour: 17, sends: 1, opens: 0 }, { hour: 20, sends: 0, opens: 1 },
    ]);
    // Outside the range, nothing.
    const empty = await owner.client.ok<{ totals: { sends: number } }>('performanceHistograms', undefined, { appId }, { startDay: '2026-03-03', endDay: '2026-03-04', messageId: message.id });
    expect(empty.totals.sends).toBe(0);
  });
});
