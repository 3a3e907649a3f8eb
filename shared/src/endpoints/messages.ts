/**
 * Messages (/communication/messaging): campaigns, messages, their submissions and approvals, and
 * the account's approval policy. Item-level rights (owner variants, the status an action needs)
 * are checked by the route with `mayAct` (message/lifecycle.ts); the keys here are the doors.
 */
import { z } from 'zod';
import { ApprovalPolicy } from '../message/lifecycle.ts';
import {
  CampaignSummary, DeliveryRun, MessageApprove, MessageAssign, MessageComment, MessageCommentCreate, MessageCreate, MessageHistoryEntry, MessageListQuery,
  MessageReject, MessageSummary, MessageTransition, SubmissionDetail,
} from '../schemas/messages.ts';
import { NamedInput } from '../schemas/common.ts';
import { ep } from './define.ts';

const VIEW = { or: ['ui:message.view', 'ui:message.view:owner', 'ui:message.read'] } as const;

export const messageEndpoints = {
  listCampaigns: ep({ method: 'GET', path: '/apps/:appId/campaigns', summary: 'Campaigns of an app with their messages (what a journey message step picks from)', auth: VIEW, response: { campaigns: z.array(CampaignSummary) } }),
  listMessages: ep({ method: 'GET', path: '/apps/:appId/messages', summary: 'Messages of an app (query: owner, scope, type, status, origin, q, categoryId)', auth: VIEW, query: MessageListQuery, response: { messages: z.array(MessageSummary) } }),
  createMessage: ep({ method: 'POST', path: '/apps/:appId/messages', summary: 'Create a message (a Draft) in a campaign', auth: 'ui:message.create', request: MessageCreate, response: { message: MessageSummary } }),
  getMessage: ep({ method: 'GET', path: '/apps/:appId/messages/:messageId', summary: 'A message with its latest submission', auth: VIEW, response: { message: MessageSummary } }),
  transitionMessage: ep({ method: 'POST', path: '/apps/:appId/messages/:messageId/transition', summary: 'Play, pause, draft, to validate, test or delete (the lifecycle table decides)', auth: VIEW, request: MessageTransition, response: { message: MessageSummary } }),
  submitMessage: ep({ method: 'POST', path: '/apps/:appId/messages/:messageId/submit', summary: 'Freeze the live draft into a snapshot and ask for approval', auth: { or: ['ui:message.submit', 'ui:message.submit:owner'] }, response: { message: MessageSummary } }),
  approveMessage: ep({ method: 'POST', path: '/apps/:appId/messages/:messageId/approve', summary: 'Approve the submission reviewed; the approval that meets the policy commits it as the approved version', auth: 'ui:message.approve', request: MessageApprove, response: { message: MessageSummary } }),
  rejectMessage: ep({ method: 'POST', path: '/apps/:appId/messages/:messageId/reject', summary: 'Reject the submission reviewed, with a reason (back to Draft)', auth: 'ui:message.approve', request: MessageReject, response: { message: MessageSummary } }),
  getSubmission: ep({ method: 'GET', path: '/apps/:appId/messages/:messageId/submissions/:submissionId', summary: 'A submission as approvers review it: the frozen draft, decisions and comments', auth: VIEW, response: { submission: SubmissionDetail } }),
  commentSubmission: ep({ method: 'POST', path: '/apps/:appId/messages/:messageId/submissions/:submissionId/comments', summary: 'Comment on a submission, pinned to a field or a variant', auth: VIEW, request: MessageCommentCreate, response: { comment: MessageComment } }),
  messageDelivery: ep({ method: 'GET', path: '/apps/:appId/messages/:messageId/delivery', summary: 'The message\'s sends (live and tests), newest first: how many went out, wait, failed and why (its interactions: messageMetrics)', auth: VIEW, response: { runs: z.array(DeliveryRun) } }),
  messageHistory: ep({ method: 'GET', path: '/apps/:appId/messages/:messageId/history', summary: 'Every version, submission, comment, decision and status change, newest first', auth: 'ui:message.history', response: { history: z.array(MessageHistoryEntry) } }),
  cloneMessage: ep({ method: 'POST', path: '/apps/:appId/messages/:messageId/clone', summary: 'A new Draft from this message\'s live draft', auth: { or: ['ui:message.clone', 'ui:message.clone:owner'] }, request: NamedInput, response: { message: MessageSummary } }),
  assignMessage: ep({ method: 'PUT', path: '/apps/:appId/messages/:messageId/owner', summary: 'Give the message to another user of the account', auth: 'ui:message.assign', request: MessageAssign, response: { message: MessageSummary } }),
  getApprovalPolicy: ep({ method: 'GET', path: '/account/approval-policy', summary: 'How many approvals a message needs, and whether authors may approve their own', auth: 'session', response: { policy: ApprovalPolicy } }),
  updateApprovalPolicy: ep({ method: 'PUT', path: '/account/approval-policy', summary: 'Change the approval policy', auth: 'api:account.edit', request: ApprovalPolicy, response: { policy: ApprovalPolicy } }),
} as const;
