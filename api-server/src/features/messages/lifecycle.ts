/**
 * The message lifecycle on the server: submit freezes the live draft, approvers decide on that
 * frozen snapshot, and the approval that meets the account's policy commits the snapshot (never
 * the live draft) as the next immutable version. Every status change goes through the shared
 * transition table (message/lifecycle.ts) inside a transaction holding the message's row lock, so
 * two approvers at the same moment, or an approval racing a rejection, are decided one after the
 * other and each person counts once.
 *
 * Why an edit racing an approval cannot change what is approved: the version is copied from the
 * submission row (immutable, migration 014), which is exactly what approvers were shown. The live
 * draft is read only to refuse approving a submission that is already stale (the team changed the
 * draft since; approvals given so far then no longer count and the author resubmits).
 */
import * as Y from 'yjs';
import { hasEditsBeyond } from '@gd/shared/docs/stateVector';
import {
  ErrorCode, approvalOutcome, can, conflict, fail, messageDraftFromDoc, nextStatus, unavailable, validateDraft,
  type CommunicationStatus, type DraftViolation, type Failure, type MessageAction, type MessageDraft, type PermissionSubject,
} from '@gd/shared';
import { tx, type Queryable } from '../../db/pool.ts';
import type { Deps } from '../../http/context.ts';
import { readLive } from '../documents/liveDocs.ts';
import { freeze } from '../documents/versions.ts';
import { parameterDefinitions } from '../commParameters/repository.ts';
import { listTags } from '../tags/repository.ts';
import * as repo from './repository.ts';
import { startLiveRun, startTestRun } from '../delivery/resolve.ts';

type Outcome = { ok: true } | Failure;
const done: Outcome = { ok: true };

const pathOf = (v: DraftViolation) => v.path.join('.');

/** The live draft as the sync server holds it now, with its Yjs document (the caller destroys it). */
async function liveDraft(deps: Deps, row: repo.MessageRow): Promise<{ ok: true; doc: Y.Doc; draft: MessageDraft } | Failure> {
  if (!deps.liveDocs) return unavailable('The sync server is not reachable; try again');
  const read = await readLive(deps.liveDocs, deps.db, row.doc_name);
  if (!read.ok) return read;
  const doc = new Y.Doc();
  if (read.state) Y.applyUpdate(doc, read.state);
  return { ok: true, doc, draft: messageDraftFromDoc(doc) };
}

/**
 * What refuses a submission beyond the draft's own rules: a target other than test devices needs
 * "select non-test audience or segment" (SPEC §3), and the audience or segment must exist in the app.
 */
async function targetProblems(db: Queryable, appId: string, draft: MessageDraft, subject: PermissionSubject): Promise<DraftViolation[]> {
  const { target } = draft;
  if (target.kind !== 'audience' && target.kind !== 'segment') return [];
  if (!can(subject, 'ui:audienceSelection.nonTest')) return [{ path: ['target'], code: 'target_missing', params: { reason: 'test_only' } }];
  const table = target.kind === 'audience' ? 'audiences' : 'segments';
  const { rowCount } = await db.query(`SELECT 1 FROM ${table} WHERE id::text = $1 AND app_id = $2 AND deleted_at IS NULL`, [target.id, appId]);
  return rowCount ? [] : [{ path: ['target'], code: 'target_missing', params: { reason: 'not_found' } }];
}

/** Moves the message from `from` by `action` (the table decides), recording the change in history. */
async function move(db: Queryable, row: repo.MessageRow, action: MessageAction, actorId: string, ctx: Parameters<typeof nextStatus>[2] = {}, extra: { approvedVersion?: number; submissionId?: string } = {}): Promise<CommunicationStatus | Failure> {
  const t = nextStatus(row.status, action, ctx);
  if (!t.ok) return conflict(`A message that is ${row.status} cannot be changed that way`);
  if (t.to !== row.status || extra.approvedVersion !== undefined) await repo.setStatus(db, row.id, t.to, extra.approvedVersion !== undefined ? { approvedVersion: extra.approvedVersion } : {});
  if (t.to !== row.status) await repo.recordEvent(db, { messageId: row.id, kind: 'status', actorId, from: row.status, to: t.to, submissionId: extra.submissionId, version: extra.approvedVersion });
  return t.to;
}
const isFailure = (v: unknown): v is Failure => typeof v === 'object' && v !== null && (v as { ok?: unknown }).ok === false;

/** Submit (or resubmit): validate the live draft, freeze it, and open a new submission. */
export async function submit(deps: Deps, input: { row: repo.MessageRow; userId: string; subject: PermissionSubject }): Promise<Outcome> {
  const { db } = deps;
  const live = await liveDraft(deps, input.row);
  if (!live.ok) return live;
  try {
    const tags = (await listTags(db, input.row.app_id)).map((t) => t.name);
    const problems = [...validateDraft(live.draft, { tags, parameters: await parameterDefinitions(db, input.row.app_id) }), ...(await targetProblems(db, input.row.app_id, live.draft, input.subject))];
    if (problems.length > 0) {
      return fail(ErrorCode.MANDATORY, `The message has ${problems.length} problem(s) and cannot be submitted`, problems.map((p) => ({ path: pathOf(p), message: p.code })));
    }
    const frozen = freeze(live.doc);
    return await tx(db, async (client) => {
      const row = await repo.findMessage(client, input.row.app_id, input.row.id, true);
      if (!row) return fail(ErrorCode.NO_PERMISSION, 'No permission for this message');
      const superseded = await repo.closeOpenSubmission(client, row.id, 'superseded');
      const submissionId = await repo.insertSubmission(client, { messageId: row.id, definition: live.draft, ...frozen, userId: input.userId });
      const moved = await move(client, row, 'submit', input.userId, {}, { submissionId });
      if (isFailure(moved)) throw new Refusal(moved);
      await repo.recordEvent(client, { messageId: row.id, kind: 'submitted', actorId: input.userId, submissionId, detail: superseded ? 'resubmitted' : undefined });
      if (live.draft.name.trim() && live.draft.name.trim() !== row.name) await renameQuietly(client, row.id, live.draft.name.trim());
      return done;
    }).catch(refused);
  } finally {
    live.doc.destroy();
  }
}

/** The draft's name becomes the list's name when no other message of the campaign has it (else the list keeps its own). */
async function renameQuietly(db: Queryable, id: string, name: string): Promise<void> {
  await db.query(
    `UPDATE messages m SET name = $2 WHERE id = $1 AND NOT EXISTS (
       SELECT 1 FROM messages o WHERE o.campaign_id = m.campaign_id AND o.id <> m.id AND lower(o.name) = lower($2) AND o.deleted_at IS NULL)`, [id, name]);
}

/** A failure raised inside a transaction to roll it back, answered as itself. */
class Refusal extends Error {
  readonly failure: Failure;
  constructor(failure: Failure) {
    super(failure.message);
    this.failure = failure;
  }
}
const refused = (error: unknown): Failure => {
  if (error instanceof Refusal) return error.failure;
  throw error;
};

const staleFailure = (): Failure => ({ ...conflict('The draft changed after it was submitted: the author resubmits it, then it is reviewed again'), details: [{ path: 'submission', message: 'changed_since_submission' }] });

/** One approver's approval of the submission they reviewed. */
export async function approve(deps: Deps, input: { row: repo.MessageRow; submissionId: string; userId: string }): Promise<Outcome> {
  const { db } = deps;
  const submission = await repo.findSubmission(db, input.row.id, input.submissionId);
  if (!submission) return fail(ErrorCode.NO_PERMISSION, 'No permission for this submission');
  if (submission.outcome !== 'open') return { ...conflict('This submission is no longer open for approval'), details: [{ path: 'submission', message: `submission_${submission.outcome}` }] };
  // Stale: the live draft holds edits the snapshot lacks. Approving it would approve something the
  // team has moved on from. Only the state vectors are compared (no document is built).
  if (!deps.liveDocs) return unavailable('The sync server is not reachable; try again');
  const read = await readLive(deps.liveDocs, db, input.row.doc_name);
  if (!read.ok) return read;
  const liveVector = read.state ? Y.decodeStateVector(Y.encodeStateVectorFromUpdate(read.state)) : new Map<number, number>();
  if (hasEditsBeyond(liveVector, Y.decodeStateVector(submission.state_vector))) return staleFailure();
  return tx(db, async (client) => {
    const row = await repo.findMessage(client, input.row.app_id, input.row.id, true);
    const current = row && (await repo.findSubmission(client, row.id, submission.id));
    if (!row || !current) throw new Refusal(fail(ErrorCode.NO_PERMISSION, 'No permission for this message'));
    if (current.outcome !== 'open') throw new Refusal({ ...conflict('This submission is no longer open for approval'), details: [{ path: 'submission', message: `submission_${current.outcome}` }] });
    const policy = await repo.findPolicy(client, row.account_id);
    const decisions = (await repo.decisionsOf(client, [current.id])).get(current.id) ?? [];
    if (decisions.some((d) => d.userId === input.userId)) throw new Refusal({ ...conflict('You already decided on this submission'), details: [{ path: 'submission', message: 'already_decided' }] });
    const authors = [current.submitted_by, row.owner_id].filter((id): id is string => id !== null);
    const outcome = approvalOutcome(policy, { authorIds: authors, approverId: input.userId, approvedBy: decisions.filter((d) => d.decision === 'approve').flatMap((d) => (d.userId ? [d.userId] : [])) });
    if (!outcome.ok) {
      throw new Refusal(outcome.reason === 'own_message'
        ? fail(ErrorCode.NO_PERMISSION, 'The approval policy does not let authors approve their own message', [{ path: 'submission', message: 'own_message' }])
        : { ...conflict('You already approved this submission'), details: [{ path: 'submission', message: 'already_decided' }] });
    }
    await repo.insertDecision(client, { submissionId: current.id, userId: input.userId, decision: 'approve', reason: null });
    await repo.recordEvent(client, { messageId: row.id, kind: 'approved', actorId: input.userId, submissionId: current.id, detail: `${outcome.count}/${policy.required}` });
    if (!outcome.met) return done;
    // The approval that meets the policy commits the snapshot, exactly as submitted.
    const version = await repo.nextVersion(client, row.id);
    await repo.insertVersion(client, { messageId: row.id, version, submissionId: current.id });
    await repo.closeOpenSubmission(client, row.id, 'approved');
    await repo.recordEvent(client, { messageId: row.id, kind: 'versioned', actorId: input.userId, submissionId: current.id, version });
    const moved = await move(client, row, 'approve', input.userId, { policyMet: true }, { approvedVersion: version, submissionId: current.id });
    if (isFailure(moved)) throw new Refusal(moved);
    return done;
  }).catch(refused);
}

/** An approver's "no", with a reason: the submission closes and the message goes back to Draft. */
export async function reject(deps: Deps, input: { row: repo.MessageRow; submissionId: string; userId: string; reason: string }): Promise<Outcome> {
  return tx(deps.db, async (client) => {
    const row = await repo.findMessage(client, input.row.app_id, input.row.id, true);
    const current = row && (await repo.findSubmission(client, row.id, input.submissionId));
    if (!row || !current) throw new Refusal(fail(ErrorCode.NO_PERMISSION, 'No permission for this submission'));
    if (current.outcome !== 'open') throw new Refusal({ ...conflict('This submission is no longer open for approval'), details: [{ path: 'submission', message: `submission_${current.outcome}` }] });
    if (!(await repo.insertDecision(client, { submissionId: current.id, userId: input.userId, decision: 'reject', reason: input.reason }))) {
      throw new Refusal({ ...conflict('You already decided on this submission'), details: [{ path: 'submission', message: 'already_decided' }] });
    }
    await repo.closeOpenSubmission(client, row.id, 'rejected');
    await repo.recordEvent(client, { messageId: row.id, kind: 'rejected', actorId: input.userId, submissionId: current.id, detail: input.reason });
    const moved = await move(client, row, 'reject', input.userId, {}, { submissionId: current.id });
    if (isFailure(moved)) throw new Refusal(moved);
    return done;
  }).catch(refused);
}

/**
 * Whether the approved version's next send is still ahead: the start of its live run that has not
 * begun yet (a scheduled send paused, a recurring message's next occurrence: delivery/resolve.ts
 * places it in each zone), else the schedule's first send read as UTC.
 */
async function startsInFuture(db: Queryable, messageId: string, version: number | null): Promise<boolean> {
  if (version === null) return false;
  const latest = await db.query<{ ahead: boolean; started: boolean }>(
    `SELECT not_before > now() AS ahead, NOT (state = 'resolving' AND cursor = 0) AS started FROM message_sends
      WHERE message_id = $1 AND version = $2 AND kind = 'live' AND state <> 'finished' ORDER BY occurrence DESC LIMIT 1`, [messageId, version]);
  // A run that already has people in the outbox continues now; one that has not begun waits for its start.
  if (latest.rows[0]) return !latest.rows[0].started && latest.rows[0].ahead;
  const { rows } = await db.query<{ schedule: MessageDraft['schedule'] | null }>('SELECT definition->\'schedule\' AS schedule FROM message_versions WHERE message_id = $1 AND version = $2', [messageId, version]);
  const schedule = rows[0]?.schedule;
  if (!schedule || schedule.kind === 'now') return false;
  const first = schedule.kind === 'at' ? schedule.at : schedule.startsAt;
  return Date.parse(`${first}:00Z`) > Date.now();
}

/** play, pause, draft, toValidate, test and delete: the table decides, with what each needs besides. */
export async function transition(deps: Deps, input: { row: repo.MessageRow; action: 'play' | 'pause' | 'draft' | 'toValidate' | 'test' | 'delete'; userId: string }): Promise<Outcome> {
  // A test of a draft (or of a message with no approved version yet) sends the live draft as it is
  // now. Whether it does is decided from the locked row below; the draft is read ahead (outside the
  // lock) when the row as the route read it says so, and under the lock only if the status changed since.
  const testsDraft = (r: repo.MessageRow) => input.action === 'test' && (r.approved_version === null || r.status === 'Draft' || r.status === 'Testing');
  let readAhead: MessageDraft | undefined;
  if (testsDraft(input.row)) {
    const live = await liveDraft(deps, input.row);
    if (!live.ok) return live;
    readAhead = live.draft;
  }
  const outcome = await tx(deps.db, async (client) => {
    const row = await repo.findMessage(client, input.row.app_id, input.row.id, true);
    if (!row) throw new Refusal(fail(ErrorCode.NO_PERMISSION, 'No permission for this message'));
    let testedDraft: MessageDraft | undefined;
    if (testsDraft(row)) {
      if (!readAhead) {
        const live = await liveDraft(deps, row);
        if (!live.ok) throw new Refusal(live);
        readAhead = live.draft;
      }
      testedDraft = readAhead;
    }
    const ctx = input.action === 'play' ? { startsInFuture: await startsInFuture(client, row.id, row.approved_version) } : {};
    if (!nextStatus(row.status, input.action, ctx).ok) throw new Refusal(conflict(`A message that is ${row.status} cannot be changed that way`));
    let submissionId: string | undefined;
    if (input.action === 'draft' || input.action === 'delete') submissionId = await repo.closeOpenSubmission(client, row.id, 'withdrawn');
    if (input.action === 'toValidate') {
      // Back to review: the approved version's snapshot is submitted again; its approvals start over.
      submissionId = row.approved_version === null ? undefined : await repo.resubmitVersion(client, { messageId: row.id, version: row.approved_version, userId: input.userId });
      if (!submissionId) throw new Refusal(conflict('This message has no approved version to review again'));
      await repo.recordEvent(client, { messageId: row.id, kind: 'submitted', actorId: input.userId, submissionId, detail: 'back_to_review' });
    }
    const moved = await move(client, row, input.action, input.userId, ctx, submissionId ? { submissionId } : {});
    if (isFailure(moved)) throw new Refusal(moved);
    await startRuns(client, row, input.action, input.userId, testedDraft);
    return done;
  }).catch(refused);
  if (outcome.ok && (input.action === 'play' || input.action === 'test')) deps.notifyDelivery?.();
  return outcome;
}

/**
 * What play and test hand to the delivery pipeline, in the transaction that moves the status:
 * play starts (or, after a pause, finds) the live run of the approved version; test starts a run
 * to the app's test devices of the approved version, or of the live draft when there is none.
 */
async function startRuns(db: Queryable, row: repo.MessageRow, action: string, userId: string, testedDraft: MessageDraft | undefined): Promise<void> {
  const base = { accountId: row.account_id, appId: row.app_id, messageId: row.id, origin: row.origin, userId };
  if (action === 'play' && row.approved_version !== null) {
    const { rows } = await db.query<{ timezone: string }>('SELECT timezone FROM apps WHERE id = $1', [row.app_id]);
    await startLiveRun(db, { ...base, version: row.approved_version, appTimeZone: rows[0]?.timezone ?? 'UTC' });
  }
  if (action === 'test') {
    const version = testedDraft ? null : row.approved_version;
    const definition = testedDraft ?? (version === null
      ? undefined
      : (await db.query<{ definition: MessageDraft }>('SELECT definition FROM message_versions WHERE message_id = $1 AND version = $2', [row.id, version])).rows[0]?.definition);
    if (definition) await startTestRun(db, { ...base, version, definition });
  }
}
