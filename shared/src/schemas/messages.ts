/**
 * Messages (/communication/messaging) as lists, review screens and history show them, and the
 * requests that manage them. The draft itself lives in a Yjs document (docs/messageDoc.ts); what
 * Postgres holds is the lifecycle (message/lifecycle.ts): submissions (frozen snapshots), approvals,
 * rejections, comments, approved versions and the history of every change.
 */
import { z } from 'zod';
import { CampaignScope, OwnershipFilter } from '../enums.ts';
import { CommunicationStatus } from '../message/lifecycle.ts';
import { MessageDraft, MessageOrigin } from '../message/draft.ts';
import { CommunicationType } from '../message/model.ts';
import { Name } from './common.ts';

const Uuid = z.string().uuid();
const Time = z.string();

/** One person's answer on a submission. */
export const SubmissionDecision = z.object({
  userId: Uuid.nullable(),
  name: z.string().nullable(),
  decision: z.enum(['approve', 'reject']),
  reason: z.string().nullable(),
  at: Time,
});
export type SubmissionDecision = z.infer<typeof SubmissionDecision>;

/** How a submission ended (open while it waits for approvals). */
export const SubmissionOutcome = z.enum(['open', 'approved', 'rejected', 'withdrawn', 'superseded']);
export type SubmissionOutcome = z.infer<typeof SubmissionOutcome>;

export const SubmissionSummary = z.object({
  id: Uuid,
  /** 1 for the message's first submission, then 2, 3... */
  number: z.number().int(),
  submittedBy: Uuid.nullable(),
  submittedByName: z.string().nullable(),
  submittedAt: Time,
  /** The snapshot's Yjs state vector (base64): an open screen compares its live draft with it ("changed since submission"). */
  stateVector: z.string(),
  sha256: z.string(),
  outcome: SubmissionOutcome,
  decisions: z.array(SubmissionDecision),
  /** Approvals the account's policy asks for. */
  required: z.number().int(),
});
export type SubmissionSummary = z.infer<typeof SubmissionSummary>;

export const MessageComment = z.object({
  id: z.string(),
  submissionId: Uuid,
  authorId: Uuid.nullable(),
  authorName: z.string().nullable(),
  /** The field it is pinned to (`variants.A.content.en.title`, `schedule`...), or '' for the whole message. */
  path: z.string(),
  variantId: z.string().nullable(),
  body: z.string(),
  at: Time,
});
export type MessageComment = z.infer<typeof MessageComment>;

export const SubmissionDetail = SubmissionSummary.extend({
  /** The draft as submitted (what approvers review and what approval commits). */
  definition: MessageDraft,
  comments: z.array(MessageComment),
});
export type SubmissionDetail = z.infer<typeof SubmissionDetail>;

export const MessageSummary = z.object({
  id: Uuid,
  appId: Uuid,
  campaignId: Uuid,
  campaignName: z.string(),
  name: z.string(),
  type: CommunicationType,
  origin: MessageOrigin,
  status: CommunicationStatus,
  docName: z.string(),
  /** Who the message belongs to (its creator until assigned): owner-only permissions follow it. */
  ownerId: Uuid.nullable(),
  ownerName: z.string().nullable(),
  createdBy: Uuid.nullable(),
  approvedVersion: z.number().int().nullable(),
  /** The latest submission (open or how it ended), null before the first. */
  submission: SubmissionSummary.nullable(),
  createdAt: Time,
  updatedAt: Time,
  statusChangedAt: Time,
});
export type MessageSummary = z.infer<typeof MessageSummary>;

export const MessageListQuery = z.object({
  owner: OwnershipFilter.default('all'),
  /** current: not Deleted nor Finished; all: everything but Deleted. */
  scope: CampaignScope.default('current'),
  type: CommunicationType.optional(),
  status: CommunicationStatus.optional(),
  origin: MessageOrigin.optional(),
  q: z.string().trim().max(200).optional(),
  /** Only the messages with this category, or whose campaign has it (schemas/categories.ts). */
  categoryId: Uuid.optional(),
});
export type MessageListQuery = z.infer<typeof MessageListQuery>;

/** A new message: in an existing campaign of the app, or in a new campaign named `campaignName` (else the message's name). */
export const MessageCreate = z.object({
  name: Name,
  type: CommunicationType,
  origin: MessageOrigin.default('classic'),
  campaignId: Uuid.optional(),
  campaignName: Name.optional(),
});
export type MessageCreate = z.input<typeof MessageCreate>;

/** The status actions that have no body of their own (submit, approve, reject, clone and assign have theirs). */
export const MessageStatusAction = z.enum(['play', 'pause', 'draft', 'toValidate', 'test', 'delete']);
export type MessageStatusAction = z.infer<typeof MessageStatusAction>;
export const MessageTransition = z.object({ action: MessageStatusAction });

/** Approve or reject names the submission the person reviewed: a newer one is never approved by mistake. */
export const MessageApprove = z.object({ submissionId: Uuid });
export const MessageReject = z.object({ submissionId: Uuid, reason: z.string().trim().min(1, 'Required').max(1000) });
export const MessageCommentCreate = z.object({
  path: z.string().max(300).default(''),
  variantId: z.string().max(40).nullable().default(null),
  body: z.string().trim().min(1, 'Required').max(2000),
});
export const MessageAssign = z.object({ userId: Uuid });

export const MessageHistoryKind = z.enum(['created', 'status', 'submitted', 'approved', 'rejected', 'commented', 'versioned', 'assigned', 'cloned', 'renamed']);
export const MessageHistoryEntry = z.object({
  id: z.string(),
  kind: MessageHistoryKind,
  actorId: Uuid.nullable(),
  actorName: z.string().nullable(),
  fromStatus: CommunicationStatus.nullable(),
  toStatus: CommunicationStatus.nullable(),
  submissionNumber: z.number().int().nullable(),
  version: z.number().int().nullable(),
  detail: z.string().nullable(),
  at: Time,
});
export type MessageHistoryEntry = z.infer<typeof MessageHistoryEntry>;

export const CampaignSummary = z.object({
  id: Uuid,
  name: z.string(),
  messages: z.array(z.object({ id: Uuid, name: z.string(), type: CommunicationType, origin: MessageOrigin, status: CommunicationStatus })),
});
export type CampaignSummary = z.infer<typeof CampaignSummary>;


/** What became of the rows of one run (delivery/send.ts names the statuses). */
export const DeliveryCounts = z.object({
  /** Waiting for their time (quiet hours, a local-time wave), a retry, or a paused message. */
  queued: z.number().int(),
  sent: z.number().int(),
  /** This message could not go out to them (after retries, or a permanent error). */
  failed: z.number().int(),
  /** The address is gone: unsubscribed, unknown mailbox, unregistered token. */
  retired: z.number().int(),
  /** Not sent by rule (frequency cap). */
  skipped: z.number().int(),
});
export type DeliveryCounts = z.infer<typeof DeliveryCounts>;

/** One run of a message: the live send of an approved version, a test send to the test devices, or an A/B test's winner sent to the people its test held back. */
export const DeliveryRun = z.object({
  id: Uuid,
  kind: z.enum(['live', 'test', 'winner', 'journey', 'rule']),
  /** resolving: people are still being added to the outbox; sending: all are in; finished: nothing is waiting. */
  state: z.enum(['resolving', 'sending', 'finished']),
  version: z.number().int().nullable(),
  /** Rows written so far: one per person and address (a person with two devices counts twice). */
  recipients: z.number().int(),
  counts: DeliveryCounts,
  /** Why rows did not go out (or are being retried), most frequent first. */
  problems: z.array(z.object({ status: z.enum(['queued', 'failed', 'retired', 'skipped']), reason: z.string(), count: z.number().int() })),
  /** When the next waiting row is due (null: none waits). */
  nextAt: Time.nullable(),
  /** A recurring schedule's occurrence (0: the first; every other run is 0). */
  occurrence: z.number().int(),
  /** When the run starts resolving its audience (its schedule's first send in the earliest zone). */
  startsAt: Time,
  createdAt: Time,
  finishedAt: Time.nullable(),
});
export type DeliveryRun = z.infer<typeof DeliveryRun>;
