/**
 * Messages across services: the real API with the real sync server attached at /collab, drafts
 * edited through real providers, submit reading the live document, approvals against real
 * Postgres. What must hold: a stale submission is never approved; two approvers at once each count
 * once; an edit racing an approval never changes what is approved (always the snapshot approvers
 * saw); the policy's "authors may not approve their own"; readers change nothing; another
 * account's messages answer like ids that do not exist on every route.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import {
  ACCESS_CHANGED_PREFIX, ErrorCode, addStepAfter, applyJourneyToDoc, applyMessageDraftToDoc, journeyFromDoc, messageDraftFromDoc, updateStep,
  type JourneyStep, type MessageDraft, type MessageHistoryEntry, type MessageOrigin, type MessageSummary, type SubmissionDetail,
} from '@gd/shared';
import { createSyncServer, inProcessLiveDocs, type SyncServer } from '@gd/sync-server';
import { addMember, ingest, registerAccount, startTestApi, type TestApi, type TestClient } from '../../api-server/src/testing/harness.ts';
import { editJourneySource, openApiDoc, waitFor, type TestClient as DocClient } from '../../sync-server/src/testing/clients.ts';

let api: TestApi;
let sync: SyncServer;
let owner: Awaited<ReturnType<typeof registerAccount>>;
let appId: string;
let approvers: [TestClient & { userId: string }, TestClient & { userId: string }];
let author: TestClient & { userId: string };
let analyst: TestClient;
const docs: DocClient[] = [];

beforeAll(async () => {
  api = await startTestApi();
  sync = createSyncServer({ db: api.db, secret: api.deps.secret, debounceMs: 200, maxDebounceMs: 1000 });
  sync.attach(api.httpServer, '/collab');
  api.deps.liveDocs = inProcessLiveDocs(sync);
  owner = await registerAccount(api);
  const app = (await owner.client.ok<{ app: { id: string; appKey: string } }>('createApp', { name: 'Messages', os: 'iOS' })).app;
  appId = app.id;
  // An event in the app's catalogue, for the journeys that send messages below.
  await ingest(api, app.appKey, 'ingestBatch', { device: { id: 'messages-seed-device' }, events: [{ id: 'seed-1', name: 'purchase', time: new Date().toISOString() }] });
  approvers = [await addMember(api, owner.client, 'manager'), await addMember(api, owner.client, 'manager')];
  author = await addMember(api, owner.client, 'author');
  analyst = await addMember(api, owner.client, 'analyst');
});
afterAll(async () => {
  for (const d of docs) d.destroy();
  await sync.shutdown();
  await api.stop();
});

const ids = (m: MessageSummary) => ({ appId, messageId: m.id });
const policy = (required: number, authorsMayApprove = false) => owner.client.ok('updateApprovalPolicy', { required, authorsMayApprove });

/** A push message written through the live document until it passes every rule. */
async function readyMessage(client: TestClient, name: string, origin: MessageOrigin = 'classic'): Promise<{ message: MessageSummary; doc: DocClient }> {
  const { message } = await client.ok<{ message: MessageSummary }>('createMessage', { name, type: 'push', origin, campaignName: 'Winter' }, { appId });
  const doc = await openApiDoc(client, message.docName, docs);
  await edit(doc, (d) => ({
    ...d,
    // A journey decides who receives its messages: they have no target of their own.
    target: origin === 'classic' ? { kind: 'testDevices' } : { kind: 'none' },
    variants: d.variants.map((v) => ({ ...v, content: Object.fromEntries(Object.entries(v.content).map(([lang, c]) => [lang, { ...c, title: `${name} ${lang}`, message: `Hello {{customer_id}} (${lang})` }])) })),
  }));
  return { message, doc };
}

async function edit(doc: DocClient, change: (d: MessageDraft) => MessageDraft) {
  applyMessageDraftToDoc(doc.doc, change(messageDraftFromDoc(doc.doc)));
  await waitFor(() => !doc.provider.hasUnsyncedChanges, 'edit acknowledged');
}

async function submitted(client: TestClient, message: MessageSummary): Promise<MessageSummary & { submission: NonNullable<MessageSummary['submission']> }> {
  const { message: after } = await client.ok<{ message: MessageSummary }>('submitMessage', undefined, ids(message));
  expect(after.status).toBe('To validate');
  if (!after.submission) throw new Error('no submission');
  return after as MessageSummary & { submission: NonNullable<MessageSummary['submission']> };
}

describe('messages', () => {
  it('a new message opens with server-made content, submit refuses its problems and freezes the live draft', async () => {
    await policy(1);
    const { message } = await owner.client.ok<{ message: MessageSummary }>('createMessage', { name: 'Hello', type: 'push' }, { appId });
    expect(message).toMatchObject({ status: 'Draft', campaignName: 'Hello', type: 'push', origin: 'classic', submission: null, approvedVersion: null });
    const doc = await openApiDoc(owner.client, message.docName, docs);
    expect(doc.access).toBe('write');
    expect(messageDraftFromDoc(doc.doc)).toMatchObject({ name: 'Hello', type: 'push', languages: ['en', 'es'] });

    const refused = await owner.client.call('submitMessage', undefined, ids(message));
    expect(refused.body).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY });
    expect((refused.body.details as { path: string; message: string }[]).map((d) => `${d.message}:${d.path}`)).toEqual([
      'target_missing:target', 'message_missing:variants.0.content.en.message', 'message_missing:variants.0.content.es.message',
    ]);
    // Nothing half-written: still a draft, no submission.
    expect((await owner.client.ok<{ message: MessageSummary }>('getMessage', undefined, ids(message))).message).toMatchObject({ status: 'Draft', submission: null });

    // The fix is live on the sync server but not stored yet: submit must still see it.
    await edit(doc, (d) => ({ ...d, target: { kind: 'testDevices' }, variants: d.variants.map((v) => ({ ...v, content: { en: { ...v.content.en!, message: 'Hi' }, es: { ...v.content.es!, message: 'Hola' } } })) }));
    const after = await submitted(owner.client, message);
    expect(after.submission).toMatchObject({ number: 1, outcome: 'open', decisions: [], required: 1 });
    const { submission } = await owner.client.ok<{ submission: SubmissionDetail }>('getSubmission', undefined, { ...ids(message), submissionId: after.submission.id });
    expect(submission.definition.variants[0]!.content.es!.message).toBe('Hola');
  });

  it('approving a stale submission is refused; the author resubmits and it is approved as resubmitted', async () => {
    await policy(1);
    const { message, doc } = await readyMessage(owner.client, 'Stale');
    const first = await submitted(owner.client, message);
    await edit(doc, (d) => ({ ...d, name: 'Stale, edited' }));
    const refused = await approvers[0].call('approveMessage', { submissionId: first.submission.id }, ids(message));
    expect(refused.httpStatus).toBe(409);
    expect(refused.body.details).toEqual([{ path: 'submission', message: 'changed_since_submission' }]);
    expect((await approvers[0].ok<{ message: MessageSummary }>('getMessage', undefined, ids(message))).message.status).toBe('To validate');

    const second = await submitted(owner.client, message);
    expect(second.submission.number).toBe(2);
    // The first submission is closed: approving it (a stale screen) is refused even now.
    const old = await approvers[0].call('approveMessage', { submissionId: first.submission.id }, ids(message));
    expect(old.body.details).toEqual([{ path: 'submission', message: 'submission_superseded' }]);
    const { message: approved } = await approvers[0].ok<{ message: MessageSummary }>('approveMessage', { submissionId: second.submission.id }, ids(message));
    expect(approved).toMatchObject({ status: 'Approved', approvedVersion: 1, name: 'Stale, edited' });
  });

  it('two approvers at the same moment each count once, and the second approval commits one version', async () => {
    await policy(2);
    const { message } = await readyMessage(owner.client, 'Together');
    const { submission } = await submitted(owner.client, message);
    // The same approver twice at once (two tabs) counts once.
    const twice = await Promise.all([approvers[0].call('approveMessage', { submissionId: submission.id }, ids(message)), approvers[0].call('approveMessage', { submissionId: submission.id }, ids(message))]);
    expect(twice.map((a) => a.body.status).sort()).toEqual(['KO', 'OK']);
    expect((await owner.client.ok<{ message: MessageSummary }>('getMessage', undefined, ids(message))).message).toMatchObject({ status: 'To validate', submission: { decisions: [{ decision: 'approve' }] } });

    // Both approvals are held at the same point (the test locks the decisions table) and released
    // together: without the message's row lock both would count one approval and neither commit.
    const { message: again } = await readyMessage(owner.client, 'Together again');
    const open = await submitted(owner.client, again);
    const blocker = await api.db.connect();
    await blocker.query('BEGIN');
    await blocker.query('LOCK TABLE message_decisions IN EXCLUSIVE MODE');
    const racing = Promise.all(approvers.map((a) => a.call('approveMessage', { submissionId: open.submission.id }, ids(again))));
    await waitFor(async () => (await api.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'
          AND (query LIKE '%INSERT INTO message_decisions%' OR query LIKE '%FOR UPDATE OF m%')`)).rows[0]!.n >= 2, 'both approvals waiting');
    await blocker.query('COMMIT');
    blocker.release();
    const both = await racing;
    expect(both.map((a) => a.body.status)).toEqual(['OK', 'OK']);
    const { rows } = await api.db.query<{ n: number }>('SELECT count(*)::int AS n FROM message_versions WHERE message_id = $1', [again.id]);
    expect(rows[0]!.n).toBe(1);
    const final = (await owner.client.ok<{ message: MessageSummary }>('getMessage', undefined, ids(again))).message;
    expect(final).toMatchObject({ status: 'Approved', approvedVersion: 1, submission: { outcome: 'approved' } });
    expect(final.submission!.decisions.map((d) => d.decision)).toEqual(['approve', 'approve']);
  });

  it('an edit racing an approval never produces an approved version other than what the approvers saw', async () => {
    await policy(1);
    for (let round = 0; round < 6; round++) {
      const { message, doc } = await readyMessage(owner.client, `Race ${round}`);
      const { submission } = await submitted(owner.client, message);
      const seen = (await approvers[0].ok<{ submission: SubmissionDetail }>('getSubmission', undefined, { ...ids(message), submissionId: submission.id })).submission;
      // The edit and the approval leave at the same moment; either may win.
      const [answer] = await Promise.all([
        approvers[0].call('approveMessage', { submissionId: submission.id }, ids(message)),
        edit(doc, (d) => ({ ...d, variants: d.variants.map((v) => ({ ...v, content: { ...v.content, en: { ...v.content.en!, title: `raced ${round}` } } })) })),
      ]);
      const { rows } = await api.db.query<{ definition: MessageDraft; sha256: string }>('SELECT definition, sha256 FROM message_versions WHERE message_id = $1', [message.id]);
      if (answer.body.status === 'OK') {
        expect(rows).toHaveLength(1);
        expect(rows[0]!.definition).toEqual(seen.definition);
        expect(rows[0]!.sha256).toBe(seen.sha256);
        expect(rows[0]!.definition.variants[0]!.content.en!.title).not.toBe(`raced ${round}`);
      } else {
        expect(answer.body.details).toEqual([{ path: 'submission', message: 'changed_since_submission' }]);
        expect(rows).toHaveLength(0);
      }
    }
  });

  it('the policy decides whether authors approve their own messages', async () => {
    await policy(1, false);
    const { message } = await readyMessage(owner.client, 'Own');
    const { submission } = await submitted(owner.client, message);
    const own = await owner.client.call('approveMessage', { submissionId: submission.id }, ids(message));
    expect(own.body).toMatchObject({ status: 'KO', code: ErrorCode.NO_PERMISSION, details: [{ path: 'submission', message: 'own_message' }] });
    await policy(1, true);
    expect((await owner.client.ok<{ message: MessageSummary }>('approveMessage', { submissionId: submission.id }, ids(message))).message.status).toBe('Approved');
  });

  it('play with the first send due now moves an approved message to Processing, recorded as the player\'s', async () => {
    await policy(1);
    const { message } = await readyMessage(author, 'Now');
    const { submission } = await submitted(author, message);
    await approvers[0].ok('approveMessage', { submissionId: submission.id }, ids(message));
    const played = (await approvers[0].ok<{ message: MessageSummary }>('transitionMessage', { action: 'play' }, ids(message))).message;
    expect(played.status).toBe('Processing');
    // Another file's delivery loop may already be moving the run on (Ready, Sending, ...): those
    // moves carry no actor and come after the player's.
    const { history } = await author.ok<{ history: MessageHistoryEntry[] }>('messageHistory', undefined, ids(message));
    const byPeople = [...history].reverse().filter((h) => h.actorId !== null);
    expect(byPeople.map((h) => (h.kind === 'status' ? `status:${h.fromStatus}>${h.toStatus}` : h.kind))).toEqual([
      'created', 'status:Draft>To validate', 'submitted', 'approved', 'versioned', 'status:To validate>Approved', 'status:Approved>Processing',
    ]);
    expect(byPeople.at(-1)?.actorId).toBe(approvers[0].userId);
  });

  it('reject sends it back to Draft with the reason; play, pause and delete follow the table; history lists it all', async () => {
    await policy(1);
    const { message, doc } = await readyMessage(author, 'Authored');
    // Sent years from now: no delivery loop (other files' servers share this database) takes the
    // run between play and pause, so the history below is exactly what people did.
    await edit(doc, (d) => ({ ...d, schedule: { kind: 'at', at: '2031-06-01T09:00', basis: 'userTimezone' } }));
    const first = await submitted(author, message);
    const bad = await approvers[0].call('rejectMessage', { submissionId: first.submission.id, reason: '' }, ids(message));
    expect(bad.body.code).toBe(ErrorCode.MANDATORY);
    const { message: rejected } = await approvers[0].ok<{ message: MessageSummary }>('rejectMessage', { submissionId: first.submission.id, reason: 'Too pushy' }, ids(message));
    expect(rejected).toMatchObject({ status: 'Draft', submission: { outcome: 'rejected', decisions: [{ decision: 'reject', reason: 'Too pushy' }] } });
    // An author may not play nor approve; play before approval is a conflict for whoever may play.
    expect((await author.call('transitionMessage', { action: 'play' }, ids(message))).body.code).toBe(ErrorCode.NO_PERMISSION);
    expect((await approvers[0].call('transitionMessage', { action: 'play' }, ids(message))).httpStatus).toBe(409);

    const second = await submitted(author, message);
    await approvers[1].ok('commentSubmission', { path: 'variants.main.content.en.title', variantId: 'main', body: 'Shorter title?' }, { ...ids(message), submissionId: second.submission.id });
    await approvers[1].ok('approveMessage', { submissionId: second.submission.id }, ids(message));
    const played = (await approvers[0].ok<{ message: MessageSummary }>('transitionMessage', { action: 'play' }, ids(message))).message;
    expect(played.status).toBe('Scheduled');
    expect((await approvers[0].ok<{ message: MessageSummary }>('transitionMessage', { action: 'pause' }, ids(message))).message.status).toBe('Paused');
    expect((await approvers[0].call('transitionMessage', { action: 'pause' }, ids(message))).httpStatus).toBe(409);

    const { history } = await author.ok<{ history: MessageHistoryEntry[] }>('messageHistory', undefined, ids(message));
    expect([...history].reverse().map((h) => (h.kind === 'status' ? `status:${h.toStatus}` : h.kind))).toEqual([
      'created', 'status:To validate', 'submitted', 'rejected', 'status:Draft', 'status:To validate', 'submitted', 'commented', 'approved', 'versioned',
      'status:Approved', 'status:Scheduled', 'status:Paused',
    ]);
    expect(history.every((h) => h.actorId !== null)).toBe(true);
    expect(history.find((h) => h.kind === 'rejected')?.detail).toBe('Too pushy');

    expect((await approvers[0].ok<{ message: MessageSummary }>('transitionMessage', { action: 'delete' }, ids(message))).message.status).toBe('Deleted');
    expect((await owner.client.call('getMessage', undefined, ids(message))).body.code).toBe(ErrorCode.NO_PERMISSION);
    const { messages } = await owner.client.ok<{ messages: MessageSummary[] }>('listMessages', undefined, { appId }, { scope: 'all' });
    expect(messages.map((m) => m.id)).not.toContain(message.id);
  });

  it('a message given to someone else: its owner-only author, editing at that moment, is turned read-only at once and their next edit is not kept', async () => {
    const { message, doc } = await readyMessage(author, 'Handed over');
    expect(doc.scope()).toBe('read-write');
    const colleague = await openApiDoc(approvers[0], message.docName, docs);
    await owner.client.ok('assignMessage', { userId: approvers[0].userId }, ids(message));
    applyMessageDraftToDoc(doc.doc, { ...messageDraftFromDoc(doc.doc), name: 'Written after the handover' });
    await waitFor(() => doc.closes.some((c) => c.reason.startsWith(ACCESS_CHANGED_PREFIX)), 'the author closed out');
    expect(doc.closes.find((c) => c.reason.startsWith(ACCESS_CHANGED_PREFIX))?.reason).toBe(`${ACCESS_CHANGED_PREFIX}read`);
    expect(messageDraftFromDoc(colleague.doc).name).toBe('Handed over');
    expect((await openApiDoc(author, message.docName, docs)).access).toBe('read');
  });

  it('a reader changes nothing; the list filters by owner, type, status and search', async () => {
    const { message } = await readyMessage(author, 'Readable');
    const doc = await openApiDoc(analyst, message.docName, docs);
    expect(doc.access).toBe('read');
    for (const [name, body] of [['submitMessage', undefined], ['transitionMessage', { action: 'delete' }], ['cloneMessage', { name: 'Copy' }], ['assignMessage', { userId: author.userId }]] as const) {
      expect((await analyst.call(name, body, ids(message))).body.code, name).toBe(ErrorCode.NO_PERMISSION);
    }
    expect((await analyst.call('createMessage', { name: 'Nope', type: 'push' }, { appId })).body.code).toBe(ErrorCode.NO_PERMISSION);

    const mine = await author.ok<{ messages: MessageSummary[] }>('listMessages', undefined, { appId }, { owner: 'me' });
    expect(mine.messages.length).toBeGreaterThan(0);
    expect(mine.messages.every((m) => m.ownerId === author.userId)).toBe(true);
    const search = await owner.client.ok<{ messages: MessageSummary[] }>('listMessages', undefined, { appId }, { q: 'readab', type: 'push', status: 'Draft' });
    expect(search.messages.map((m) => m.name)).toEqual(['Readable']);
    expect((await owner.client.call('listMessages', undefined, { appId }, { status: 'Nonsense' })).body.status).toBe('KO');
    const { campaigns } = await owner.client.ok<{ campaigns: { name: string; messages: { name: string }[] }[] }>('listCampaigns', undefined, { appId });
    expect(campaigns.find((c) => c.name === 'Winter')?.messages.map((m) => m.name)).toContain('Readable');
  });

  it('another account sees none of it: every route answers as for an id that does not exist', async () => {
    const { message } = await readyMessage(owner.client, 'Secret');
    const { submission } = await submitted(owner.client, message);
    const intruder = await registerAccount(api);
    const theirApp = (await intruder.client.ok<{ app: { id: string } }>('createApp', { name: 'Theirs', os: 'iOS' })).app.id;
    const calls = [
      ['getMessage', undefined], ['transitionMessage', { action: 'pause' }], ['submitMessage', undefined], ['approveMessage', { submissionId: submission.id }],
      ['rejectMessage', { submissionId: submission.id, reason: 'x' }], ['messageHistory', undefined], ['cloneMessage', { name: 'Stolen' }],
      ['assignMessage', { userId: intruder.userId }],
    ] as const;
    for (const app of [appId, theirApp]) {
      for (const [name, body] of calls) {
        expect((await intruder.client.call(name, body, { appId: app, messageId: message.id })).body.code, `${name} in ${app === appId ? 'their' : 'own'} app`).toBe(ErrorCode.NO_PERMISSION);
      }
      for (const name of ['getSubmission', 'commentSubmission'] as const) {
        expect((await intruder.client.call(name, { body: 'hi' }, { appId: app, messageId: message.id, submissionId: submission.id })).body.code).toBe(ErrorCode.NO_PERMISSION);
      }
    }
    expect((await intruder.client.ok<{ messages: unknown[] }>('listMessages', undefined, { appId: theirApp })).messages).toEqual([]);
    expect((await intruder.client.ok<{ campaigns: unknown[] }>('listCampaigns', undefined, { appId: theirApp })).campaigns).toEqual([]);
    expect((await intruder.client.call('docToken', { name: message.docName })).body.code).toBe(ErrorCode.NO_PERMISSION);
    // And the owner's message is untouched.
    expect((await owner.client.ok<{ message: MessageSummary }>('getMessage', undefined, ids(message))).message).toMatchObject({ status: 'To validate', name: 'Secret' });
  });

  it('a journey\'s message step names a real journey message of its channel: launch refuses a missing, deleted, classic or other-channel one', async () => {
    const { message: push } = await readyMessage(owner.client, 'For journeys', 'automaticJourney');
    const { message: byHand } = await readyMessage(owner.client, 'Sent by hand');
    const { message: email } = await owner.client.ok<{ message: MessageSummary }>('createMessage', { name: 'Journey mail', type: 'email', origin: 'automaticJourney', campaignName: 'Winter' }, { appId });
    // A journey message submits without a target of its own; a classic one may not.
    expect((await owner.client.call('submitMessage', undefined, ids(push))).body.status).toBe('OK');
    const campaigns = await owner.client.ok<{ campaigns: { messages: { id: string; origin: string }[] }[] }>('listCampaigns', undefined, { appId });
    expect(campaigns.campaigns.flatMap((c) => c.messages).find((m) => m.id === push.id)?.origin).toBe('automaticJourney');
    const { journey } = await owner.client.ok<{ journey: { id: string; docName: string } }>('createJourney', { name: 'Sends a push' }, { appId });
    const doc = await openApiDoc(owner.client, journey.docName, docs);
    await editJourneySource(doc, (s) => ({ ...s, eventIds: ['purchase'] } as JourneyStep));
    const stepId = randomUUID();
    const point = async (campaignId: string, messageId: string) => {
      let j = journeyFromDoc(doc.doc);
      if (!j.steps.some((s) => s.id === stepId)) j = addStepAfter(j, j.entryId!, null, 'actionMessagePush', stepId);
      const step = j.steps.find((s) => s.id === stepId) as Extract<JourneyStep, { type: 'actionMessagePush' }>;
      applyJourneyToDoc(doc.doc, updateStep(j, { ...step, campaignId, messageId }));
      await waitFor(() => !doc.provider.hasUnsyncedChanges, 'step acknowledged');
    };
    const launch = () => owner.client.call('launchJourney', undefined, { appId, journeyId: journey.id });
    const refusal = [{ path: `steps.${stepId}.messageId`, message: 'message_not_found' }];

    await point(push.campaignId, randomUUID());
    expect((await launch()).body.details).toEqual(refusal);
    await point(email.campaignId, email.id);
    expect((await launch()).body.details).toEqual(refusal);
    await point(byHand.campaignId, byHand.id);
    expect((await launch()).body.details).toEqual(refusal);
    await point(push.campaignId, push.id);
    expect((await launch()).body).toMatchObject({ status: 'OK', version: 1 });
    await owner.client.ok('transitionMessage', { action: 'delete' }, ids(push));
    expect((await launch()).body.details).toEqual(refusal);
  });
});
