/**
 * The message lifecycle (SPEC.md section 4, "Communication statuses") as pure functions: which
 * action moves which status where, and which permission key it needs. The API applies it to every
 * status change, the web app uses it to show only the buttons that will work, and the delivery
 * pipeline ([4/8]) feeds it the system events.
 *
 * SPEC names the statuses and the actions (the `message` permission keys) but not the transitions.
 * Our decisions, as Braze and Airship users expect them:
 *
 * - **Draft** is where every message starts (create, clone). Its live document is always the
 *   draft; what runs is only ever an approved, immutable version.
 * - **Testing** is a draft whose test sends (to the app's test devices) are on their way: `test`
 *   from Draft, back to Draft when they are done (`testDone`). It edits and submits like a draft.
 *   A test of a message further on (To validate, Approved, Scheduled, Paused) sends to the test
 *   devices and leaves its status alone.
 * - **submit** freezes the live draft into a snapshot and asks for approval: Draft or Testing to
 *   To validate. Resubmitting a stale submission (the draft changed since) is a submit from To
 *   validate: a new snapshot, approvals start over.
 * - **approve** records one approval; the approval that meets the account's policy (`approvalOutcome`)
 *   commits the snapshot as the approved version and moves To validate to Approved. **reject**
 *   (an approver's "no", with a reason; needs the approve key) sends it back to Draft.
 * - **toValidate** sends an approved message back to review (Approved to To validate), e.g. when an
 *   approver wants another look: its approvals no longer count.
 * - **draft** reopens a message for changes: withdraws a submission (To validate), or takes an
 *   approved or paused message back to Draft so its changes can be submitted. A message that is
 *   running (Scheduled to Active) is paused first.
 * - **play** starts an approved or paused message: to Scheduled when its first send is in the
 *   future, else Processing (its audience is being resolved into the outbox). Resuming a paused
 *   message continues where it stopped (the outbox is idempotent). **pause** stops any running
 *   status (Scheduled, Processing, Ready, Sending, Active).
 * - The pipeline then moves it by itself (`SystemEvent`): Scheduled reaches its time, Processing
 *   fills the outbox and is Ready (waiting for a send window: quiet hours, local-time waves),
 *   Sending while workers send, then Finished, or Active when it stays live between sends
 *   (recurring schedules and in-app messages) until it ends.
 *   An A/B test that held people back runs once more when its winner is sent to them (`winnerSent`:
 *   Finished to Processing, then the same moves to Finished).
 * - **delete** keeps the message for history (status Deleted); a running message is paused first.
 *   Nothing leaves Deleted: no action applies to it (its history stays readable).
 * - **clone** (a new Draft from this one) and **assign** (change the owner) leave the status as it
 *   is; **edit** (the live draft) is open in every status but Deleted, and an edit after submission
 *   makes the submission stale rather than moving the status.
 */
import { z } from 'zod';
import { can, type PermissionSubject } from '../permissions/can.ts';
import type { PermissionKey } from '../permissions/keys.ts';

export const CommunicationStatus = z.enum([
  'Active', 'Approved', 'Deleted', 'Draft', 'Finished', 'Paused', 'Processing', 'Ready', 'Scheduled', 'Testing', 'To validate', 'Sending',
]);
export type CommunicationStatus = z.infer<typeof CommunicationStatus>;
export const COMMUNICATION_STATUSES = CommunicationStatus.options;

/** What a person does to a message (the `message` permission keys of SPEC section 3, plus reject). */
export const MessageAction = z.enum(['draft', 'submit', 'toValidate', 'approve', 'reject', 'play', 'pause', 'test', 'delete', 'clone', 'assign', 'edit']);
export type MessageAction = z.infer<typeof MessageAction>;
export const MESSAGE_ACTIONS = MessageAction.options;

/** What the delivery pipeline reports. */
export const SystemEvent = z.enum(['scheduleReached', 'processed', 'sendStarted', 'sendDone', 'nextOccurrence', 'ended', 'testDone', 'winnerSent']);
export type SystemEvent = z.infer<typeof SystemEvent>;

/** Running statuses: the pipeline holds the message; pause stops it, delete and draft wait for that. */
export const RUNNING_STATUSES: readonly CommunicationStatus[] = ['Scheduled', 'Processing', 'Ready', 'Sending', 'Active'];
/** Running statuses in which a message reaches people (outbox rows go out, the SDK offers it): all but Scheduled. */
export const DELIVERING_STATUSES: readonly CommunicationStatus[] = RUNNING_STATUSES.filter((s) => s !== 'Scheduled');
/** Statuses in which a message's runs are resolved into the outbox: its time has come (Scheduled, Processing) or its next occurrence has (Active). */
export const RESOLVING_STATUSES: readonly CommunicationStatus[] = ['Scheduled', 'Processing', 'Active'];

/** Statuses in which an approved version exists (what play, pause and the pipeline work from). */
export const APPROVED_STATUSES: readonly CommunicationStatus[] = ['Approved', ...RUNNING_STATUSES, 'Paused', 'Finished'];

/**
 * Statuses in which an automatic message (of a journey step or a rule) goes out: it has an approved
 * version and is not paused. Such a message is never played: its journey or rule sends it, one
 * person at a time, on its standing run (api-server delivery/enqueue.ts). Pausing it holds those
 * sends (queued rows wait) until it is played again; deleting it skips them.
 */
export const STANDING_STATUSES: readonly CommunicationStatus[] = APPROVED_STATUSES.filter((s) => s !== 'Paused');

/**
 * The key each action needs. Where SPEC has an owner-only variant (`ui:message.play:owner`...), an
 * author holding only that variant may do it to their own messages (`can` resolves it).
 * Reject is the approver's other answer: the approve key.
 */
export const ACTION_PERMISSION: Readonly<Record<MessageAction, PermissionKey>> = {
  draft: 'ui:message.draft',
  submit: 'ui:message.submit',
  toValidate: 'ui:message.toValidate',
  approve: 'ui:message.approve',
  reject: 'ui:message.approve',
  play: 'ui:message.play',
  pause: 'ui:message.pause',
  test: 'ui:message.test',
  delete: 'ui:message.delete',
  clone: 'ui:message.clone',
  assign: 'ui:message.assign',
  edit: 'ui:message.edit',
};

/** What the transition of some actions depends on, beyond the status. */
export interface TransitionContext {
  /** play: the first send is in the future (a date, or a recurrence starting later). */
  startsInFuture?: boolean;
  /** approve: this approval meets the account's policy (`approvalOutcome(...).met`). */
  policyMet?: boolean;
}

export type Transition = { ok: true; to: CommunicationStatus } | { ok: false; reason: 'not_allowed_in_status' };

const ALL_BUT_DELETED = COMMUNICATION_STATUSES.filter((s) => s !== 'Deleted');
const EDITABLE_DRAFTS: readonly CommunicationStatus[] = ['Draft', 'Testing'];

/** From which statuses each action applies (its target is `nextStatus`). */
export const ACTION_FROM: Readonly<Record<MessageAction, readonly CommunicationStatus[]>> = {
  draft: ['Testing', 'To validate', 'Approved', 'Paused'],
  submit: [...EDITABLE_DRAFTS, 'To validate'],
  toValidate: ['Approved'],
  approve: ['To validate'],
  reject: ['To validate'],
  play: ['Approved', 'Paused'],
  pause: RUNNING_STATUSES,
  test: [...EDITABLE_DRAFTS, 'To validate', 'Approved', 'Scheduled', 'Paused'],
  delete: ['Draft', 'Testing', 'To validate', 'Approved', 'Paused', 'Finished'],
  clone: ALL_BUT_DELETED,
  assign: ALL_BUT_DELETED,
  edit: ALL_BUT_DELETED,
};

const ok = (to: CommunicationStatus): Transition => ({ ok: true, to });

/** Where `action` takes a message in `from`, or why it cannot. */
export function nextStatus(from: CommunicationStatus, action: MessageAction, ctx: TransitionContext = {}): Transition {
  if (!ACTION_FROM[action].includes(from)) return { ok: false, reason: 'not_allowed_in_status' };
  switch (action) {
    case 'draft':
    case 'reject':
      return ok('Draft');
    case 'submit':
    case 'toValidate':
      return ok('To validate');
    case 'approve':
      return ok(ctx.policyMet ? 'Approved' : 'To validate');
    case 'play':
      return ok(ctx.startsInFuture ? 'Scheduled' : 'Processing');
    case 'pause':
      return ok('Paused');
    case 'test':
      return ok(from === 'Draft' ? 'Testing' : from);
    case 'delete':
      return ok('Deleted');
    case 'clone':
    case 'assign':
    case 'edit':
      return ok(from);
  }
}

/** The pipeline's moves. `staysLive`: recurring or in-app, so it is Active between sends. */
export function afterSystemEvent(from: CommunicationStatus, event: SystemEvent, ctx: { staysLive?: boolean } = {}): CommunicationStatus | null {
  switch (event) {
    case 'scheduleReached':
      return from === 'Scheduled' ? 'Processing' : null;
    case 'processed':
      return from === 'Processing' ? 'Ready' : null;
    case 'sendStarted':
      return from === 'Ready' ? 'Sending' : null;
    case 'sendDone':
      return from === 'Sending' ? (ctx.staysLive ? 'Active' : 'Finished') : null;
    case 'nextOccurrence':
      return from === 'Active' ? 'Processing' : null;
    case 'ended':
      return from === 'Active' || from === 'Scheduled' ? 'Finished' : null;
    case 'testDone':
      return from === 'Testing' ? 'Draft' : null;
    // An A/B test's winner sent to the people its test held back (abTest.ts): a finished message
    // runs again for that one follow-up run, and finishes again when it is done.
    case 'winnerSent':
      return from === 'Finished' ? 'Processing' : null;
  }
}

/** The actions a status offers (what the web app shows as buttons, before permissions). */
export function actionsIn(status: CommunicationStatus): MessageAction[] {
  return MESSAGE_ACTIONS.filter((a) => ACTION_FROM[a].includes(status));
}

/**
 * The account's approval policy (Settings): how many distinct approvers a submission needs, and
 * whether the author of the message may be one of them.
 */
export const ApprovalPolicy = z.object({
  required: z.number().int().min(1).max(10),
  authorsMayApprove: z.boolean(),
});
export type ApprovalPolicy = z.infer<typeof ApprovalPolicy>;
export const DEFAULT_APPROVAL_POLICY: ApprovalPolicy = { required: 1, authorsMayApprove: false };

export type ApprovalRefusal = 'own_message' | 'already_approved';

/**
 * One approver's approval of a submission: refused when the policy forbids authors approving their
 * own message (its authors: who submitted it and who owns the message), or when this approver
 * already approved this submission (two clicks, two tabs: one approval). `met` when the
 * approvals, this one included, reach the policy's count.
 */
export function approvalOutcome(
  policy: ApprovalPolicy,
  input: { authorIds: readonly string[]; approverId: string; approvedBy: readonly string[] },
): { ok: true; met: boolean; count: number } | { ok: false; reason: ApprovalRefusal } {
  if (!policy.authorsMayApprove && input.authorIds.includes(input.approverId)) return { ok: false, reason: 'own_message' };
  if (input.approvedBy.includes(input.approverId)) return { ok: false, reason: 'already_approved' };
  const count = new Set([...input.approvedBy, input.approverId]).size;
  return { ok: true, met: count >= policy.required, count };
}

/**
 * May `subject` do `action` to a message in `status` created by `ownerId`: the status offers it and
 * the person holds its key (or its owner variant on their own message). The API's one check.
 */
export function mayAct(subject: PermissionSubject, action: MessageAction, status: CommunicationStatus, ownerId: string | null): boolean {
  if (!ACTION_FROM[action].includes(status)) return false;
  return can(subject, ACTION_PERMISSION[action], { ownerId });
}
