/**
 * Messages: campaigns, list, create, the lifecycle actions (./lifecycle.ts), submissions with their
 * decisions and comments, history, clone, assign, and the account's approval policy. Drafts open
 * through features/documents like journeys. Item-level rights: the shared `mayAct` (the status
 * offers the action and the person holds its key, or its owner variant on a message they own).
 *
 * Visibility: `ui:message.view` (or `ui:message.read`, read-only) shows every message of the app;
 * `ui:message.view:owner` only one's own. Another account's or app's message, a deleted one and one
 * the person may not see all answer the same NO_PERMISSION, so ids leak nothing.
 */
import { randomUUID } from 'node:crypto';
import type { Router } from 'express';
import * as Y from 'yjs';
import {
  ACTION_PERMISSION, ErrorCode, MessageDraft, applyMessageDraftToDoc, can, conflict, createMessageDraft, docName, fail, initMessageDoc, mayAct, messageDraftFromDoc, ok,
  type MessageAction, type MessageSummary, type PermissionSubject, type Result,
} from '@gd/shared';
import { isUniqueViolation } from '../../db/errors.ts';
import { tx, type Queryable } from '../../db/pool.ts';
import type { Deps } from '../../http/context.ts';
import { route } from '../../http/endpoint.ts';
import { isUuid } from '../../http/validate.ts';
import { findUserInAccount, moveAccessVersions } from '../accounts/repository.ts';
import { readLive } from '../documents/liveDocs.ts';
import { insertDocument } from '../documents/repository.ts';
import * as lifecycle from './lifecycle.ts';
import * as repo from './repository.ts';
import { deliveryRuns } from '../delivery/report.ts';

const notFound = () => fail(ErrorCode.NO_PERMISSION, 'No permission for this message');
const nameTaken = () => fail(ErrorCode.NAME_DUPLICATED, 'A message with that name already exists in this campaign', [{ path: 'name', message: 'Name already in use' }]);

/** Whether the person sees this message at all. */
export const visible = (subject: PermissionSubject, row: Pick<repo.MessageRow, 'owner_id'>) =>
  can(subject, { or: ['ui:message.view', 'ui:message.read'] }) || can(subject, 'ui:message.view:owner', { ownerId: row.owner_id });

export async function summaries(db: Queryable, accountId: string, rows: readonly repo.MessageRow[]): Promise<MessageSummary[]> {
  const latest = await repo.latestSubmissions(db, rows.map((r) => r.id));
  const decisions = await repo.decisionsOf(db, [...latest.values()].map((s) => s.id));
  const { required } = await repo.findPolicy(db, accountId);
  return rows.map((r) => {
    const s = latest.get(r.id);
    return repo.toSummary(r, s ? repo.toSubmissionSummary(s, decisions.get(s.id) ?? [], required) : null);
  });
}

export function messageRoutes(router: Router, deps: Deps): void {
  const { db } = deps;

  /** The message of the route, when the person sees it (and may do `action` to it, when given). */
  async function load(appId: string, id: string | undefined, subject: PermissionSubject, action?: MessageAction): Promise<repo.MessageRow | undefined> {
    const row = id && isUuid(id) ? await repo.findMessage(db, appId, id) : undefined;
    if (!row || !visible(subject, row)) return undefined;
    return action === undefined || mayAct(subject, action, row.status, row.owner_id) ? row : undefined;
  }
  /** Refused: unseen (or not allowed) answers not found; seen but not in a status that offers it answers why. */
  async function refusal(appId: string, id: string | undefined, subject: PermissionSubject, action: MessageAction) {
    const row = id && isUuid(id) ? await repo.findMessage(db, appId, id) : undefined;
    if (!row || !visible(subject, row)) return notFound();
    if (!can(subject, ACTION_PERMISSION[action], { ownerId: row.owner_id })) return fail(ErrorCode.NO_PERMISSION, `No permission to ${action} this message`);
    return conflict(`A message that is ${row.status} cannot be changed that way`);
  }
  /** The message as it is after a change (a deleted one included: the answer to its delete). */
  async function answer(appId: string, accountId: string, id: string): Promise<Result<{ message: MessageSummary }>> {
    const row = await repo.findMessage(db, appId, id, false, true);
    if (!row) return notFound();
    const [message] = await summaries(db, accountId, [row]);
    return message ? ok({ message }) : notFound();
  }

  route(router, deps, 'listCampaigns', async ({ app }) => ok({ campaigns: await repo.listCampaigns(db, app.id) }));

  route(router, deps, 'listMessages', async ({ app, principal, subject, query }) => {
    const mineOnly = query.owner === 'me' || !can(subject, { or: ['ui:message.view', 'ui:message.read'] });
    const rows = await repo.listMessages(db, app.id, { ...query, ownerId: mineOnly ? principal.user.id : undefined });
    return ok({ messages: await summaries(db, principal.account.id, rows) });
  });

  route(router, deps, 'createMessage', async ({ app, principal, body }) => {
    const id = randomUUID();
    const name = docName(principal.account.id, app.id, 'message', id);
    // The document starts with the chosen type and name, written before any editor connects.
    const doc = new Y.Doc();
    initMessageDoc(doc, name, { ...createMessageDraft(body.type, body.origin), name: body.name });
    const state = Y.encodeStateAsUpdate(doc);
    doc.destroy();
    try {
      const created = await tx(db, async (client) => {
        let campaignId: string;
        if (body.campaignId) {
          const campaign = await repo.findCampaign(client, app.id, body.campaignId);
          if (!campaign) return fail(ErrorCode.NO_PERMISSION, 'No permission for this campaign', [{ path: 'campaignId', message: 'not_found' }]);
          campaignId = campaign.id;
        } else {
          campaignId = await repo.campaignNamed(client, { accountId: principal.account.id, appId: app.id, name: body.campaignName ?? body.name, userId: principal.user.id });
        }
        await repo.insertMessage(client, { id, accountId: principal.account.id, appId: app.id, campaignId, name: body.name, type: body.type, origin: body.origin, docName: name, userId: principal.user.id });
        await insertDocument(client, { name, accountId: principal.account.id, appId: app.id, kind: 'message', entityId: id, state });
        await repo.recordEvent(client, { messageId: id, kind: 'created', actorId: principal.user.id, to: 'Draft' });
        return ok(null);
      });
      if (!created.ok) return created;
    } catch (error) {
      if (isUniqueViolation(error)) return nameTaken();
      throw error;
    }
    return answer(app.id, principal.account.id, id);
  });

  route(router, deps, 'getMessage', async ({ app, principal, subject, params }) => {
    const row = await load(app.id, params.messageId, subject);
    return row ? answer(app.id, principal.account.id, row.id) : notFound();
  });

  route(router, deps, 'transitionMessage', async ({ app, principal, subject, params, body }) => {
    const row = await load(app.id, params.messageId, subject, body.action);
    if (!row) return refusal(app.id, params.messageId, subject, body.action);
    const done = await lifecycle.transition(deps, { row, action: body.action, userId: principal.user.id });
    return done.ok ? answer(app.id, principal.account.id, row.id) : done;
  });

  route(router, deps, 'submitMessage', async ({ app, principal, subject, params }) => {
    const row = await load(app.id, params.messageId, subject, 'submit');
    if (!row) return refusal(app.id, params.messageId, subject, 'submit');
    const done = await lifecycle.submit(deps, { row, userId: principal.user.id, subject });
    return done.ok ? answer(app.id, principal.account.id, row.id) : done;
  });

  route(router, deps, 'approveMessage', async ({ app, principal, subject, params, body }) => {
    const row = await load(app.id, params.messageId, subject, 'approve');
    if (!row) return refusal(app.id, params.messageId, subject, 'approve');
    const done = await lifecycle.approve(deps, { row, submissionId: body.submissionId, userId: principal.user.id });
    return done.ok ? answer(app.id, principal.account.id, row.id) : done;
  });

  route(router, deps, 'rejectMessage', async ({ app, principal, subject, params, body }) => {
    const row = await load(app.id, params.messageId, subject, 'reject');
    if (!row) return refusal(app.id, params.messageId, subject, 'reject');
    const done = await lifecycle.reject(deps, { row, submissionId: body.submissionId, userId: principal.user.id, reason: body.reason });
    return done.ok ? answer(app.id, principal.account.id, row.id) : done;
  });

  route(router, deps, 'getSubmission', async ({ app, principal, subject, params }) => {
    const row = await load(app.id, params.messageId, subject);
    const s = row && params.submissionId && isUuid(params.submissionId) ? await repo.findSubmission(db, row.id, params.submissionId) : undefined;
    if (!row || !s) return notFound();
    const [decisions, comments, policy] = await Promise.all([repo.decisionsOf(db, [s.id]), repo.commentsOf(db, s.id), repo.findPolicy(db, principal.account.id)]);
    // Stored from a validated draft at submit (the same schema): parsed, never patched up.
    const definition = MessageDraft.parse(await repo.submissionDefinition(db, s.id));
    return ok({ submission: { ...repo.toSubmissionSummary(s, decisions.get(s.id) ?? [], policy.required), definition, comments } });
  });

  route(router, deps, 'commentSubmission', async ({ app, principal, subject, params, body }) => {
    const row = await load(app.id, params.messageId, subject);
    const s = row && params.submissionId && isUuid(params.submissionId) ? await repo.findSubmission(db, row.id, params.submissionId) : undefined;
    if (!row || !s) return notFound();
    const id = await tx(db, async (client) => {
      const commentId = await repo.insertComment(client, { messageId: row.id, submissionId: s.id, userId: principal.user.id, path: body.path, variantId: body.variantId, body: body.body });
      await repo.recordEvent(client, { messageId: row.id, kind: 'commented', actorId: principal.user.id, submissionId: s.id, detail: body.path || undefined });
      return commentId;
    });
    const comment = (await repo.commentsOf(db, s.id)).find((c) => c.id === id);
    return comment ? ok({ comment }) : notFound();
  });

  route(router, deps, 'messageDelivery', async ({ app, subject, params }) => {
    const row = await load(app.id, params.messageId, subject);
    return row ? ok({ runs: await deliveryRuns(db, row.id) }) : notFound();
  });

  route(router, deps, 'messageHistory', async ({ app, subject, params }) => {
    const row = await load(app.id, params.messageId, subject);
    return row ? ok({ history: await repo.history(db, row.id) }) : notFound();
  });

  route(router, deps, 'cloneMessage', async ({ app, principal, subject, params, body }) => {
    const source = await load(app.id, params.messageId, subject, 'clone');
    if (!source) return refusal(app.id, params.messageId, subject, 'clone');
    if (!can(subject, 'ui:message.create')) return fail(ErrorCode.NO_PERMISSION, 'No permission to create messages');
    // The clone forks the live draft into a new document (named as asked); the source is untouched.
    const read = await readLive(deps.liveDocs, db, source.doc_name);
    if (!read.ok) return read;
    const doc = new Y.Doc();
    if (read.state) Y.applyUpdate(doc, read.state);
    applyMessageDraftToDoc(doc, { ...messageDraftFromDoc(doc), name: body.name });
    const state = Y.encodeStateAsUpdate(doc);
    doc.destroy();
    const id = randomUUID();
    const name = docName(principal.account.id, app.id, 'message', id);
    try {
      await tx(db, async (client) => {
        await repo.insertMessage(client, { id, accountId: principal.account.id, appId: app.id, campaignId: source.campaign_id, name: body.name, type: source.type, origin: source.origin, docName: name, userId: principal.user.id });
        await insertDocument(client, { name, accountId: principal.account.id, appId: app.id, kind: 'message', entityId: id, state });
        await repo.recordEvent(client, { messageId: id, kind: 'cloned', actorId: principal.user.id, to: 'Draft', detail: source.name });
      });
    } catch (error) {
      if (isUniqueViolation(error)) return nameTaken();
      throw error;
    }
    return answer(app.id, principal.account.id, id);
  });

  route(router, deps, 'assignMessage', async ({ app, principal, subject, params, body }) => {
    const row = await load(app.id, params.messageId, subject, 'assign');
    if (!row) return refusal(app.id, params.messageId, subject, 'assign');
    const user = await findUserInAccount(db, principal.account.id, body.userId);
    if (!user) return fail(ErrorCode.NO_PERMISSION, 'No permission for this user', [{ path: 'userId', message: 'not_found' }]);
    await tx(db, async (client) => {
      await repo.updateMessage(client, row.id, { ownerId: user.id });
      await repo.recordEvent(client, { messageId: row.id, kind: 'assigned', actorId: principal.user.id, detail: user.name });
      // The previous and the new owner's open editors are decided again (an owner-only editor loses or gains writing).
      await moveAccessVersions(client, [row.owner_id, user.id]);
    });
    return answer(app.id, principal.account.id, row.id);
  });

  route(router, deps, 'getApprovalPolicy', async ({ principal }) => ok({ policy: await repo.findPolicy(db, principal.account.id) }));
  route(router, deps, 'updateApprovalPolicy', async ({ principal, body }) => {
    await repo.updatePolicy(db, principal.account.id, body);
    return ok({ policy: await repo.findPolicy(db, principal.account.id) });
  });
}
