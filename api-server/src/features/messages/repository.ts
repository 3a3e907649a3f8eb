/** SQL of messages (migration 014): campaigns, messages, submissions, decisions, comments, versions, history. */
import { communicationGroup } from '@gd/shared';
import type {
  ApprovalPolicy, CampaignSummary, CommunicationStatus, CommunicationType, MessageComment, MessageHistoryEntry, MessageListQuery,
  MessageOrigin, MessageSummary, SubmissionDecision, SubmissionOutcome, SubmissionSummary,
} from '@gd/shared';
import type { Queryable } from '../../db/pool.ts';
import { categoryFilterSql } from '../categories/repository.ts';

/** The one row a statement returns (INSERT ... RETURNING, an aggregate). */
function only<T>(rows: T[]): T {
  const [row] = rows;
  if (row === undefined) throw new Error('the statement returned no row');
  return row;
}

export interface MessageRow {
  id: string;
  account_id: string;
  app_id: string;
  campaign_id: string;
  campaign_name: string;
  name: string;
  type: CommunicationType;
  origin: MessageOrigin;
  status: CommunicationStatus;
  doc_name: string;
  created_by: string | null;
  owner_id: string | null;
  owner_name: string | null;
  approved_version: number | null;
  created_at: Date;
  updated_at: Date;
  status_changed_at: Date;
}

/**
 * A submission without its snapshot's bulk (the definition and Yjs state can be megabytes): what
 * lists, checks and decisions need. `submissionDefinition` reads the definition where it is shown;
 * copies of the snapshot (a version, a resubmission for review) are made inside Postgres.
 */
export interface SubmissionRow {
  id: string;
  message_id: string;
  number: number;
  state_vector: Buffer;
  sha256: string;
  submitted_by: string | null;
  submitted_by_name: string | null;
  submitted_at: Date;
  outcome: SubmissionOutcome;
}

const MESSAGE_SELECT = `
  SELECT m.id, m.account_id, m.app_id, m.campaign_id, c.name AS campaign_name, m.name, m.type, m.origin, m.status, m.doc_name,
         m.created_by, m.owner_id, u.name AS owner_name, m.approved_version, m.created_at, m.updated_at, m.status_changed_at
    FROM messages m
    JOIN campaigns c ON c.id = m.campaign_id
    LEFT JOIN users u ON u.id = m.owner_id`;

/** A message of the app that is not deleted (or also a deleted one: what a delete answers). */
export async function findMessage(db: Queryable, appId: string, id: string, forUpdate = false, withDeleted = false): Promise<MessageRow | undefined> {
  const lock = forUpdate ? ' FOR UPDATE OF m' : '';
  const live = withDeleted ? '' : ' AND m.deleted_at IS NULL';
  return (await db.query<MessageRow>(
    `${MESSAGE_SELECT} WHERE m.id = $1 AND m.app_id = $2${live}${lock}`, [id, appId])).rows[0];
}

export async function listMessages(db: Queryable, appId: string, q: MessageListQuery & { ownerId?: string | undefined }): Promise<MessageRow[]> {
  const where = ['m.app_id = $1', 'm.deleted_at IS NULL'];
  const values: unknown[] = [appId];
  const add = (sql: string, value: unknown) => {
    values.push(value);
    where.push(sql.replaceAll('?', `$${values.length}`));
  };
  if (q.scope === 'current') where.push(`m.status <> 'Finished'`);
  if (q.ownerId) add('m.owner_id = ?', q.ownerId);
  if (q.type) add('m.type = ?', q.type);
  if (q.status) add('m.status = ?', q.status);
  if (q.origin) add('m.origin = ?', q.origin);
  if (q.q) add('(m.name ILIKE ? OR c.name ILIKE ?)', `%${q.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  // A message matches a category when it, or its campaign, has it.
  if (q.categoryId) {
    values.push(q.categoryId);
    where.push(categoryFilterSql([['message', 'm.id'], ['campaign', 'm.campaign_id']], values.length));
  }
  return (await db.query<MessageRow>(`${MESSAGE_SELECT} WHERE ${where.join(' AND ')} ORDER BY m.updated_at DESC, m.id LIMIT 500`, values)).rows;
}

export async function findCampaign(db: Queryable, appId: string, id: string): Promise<{ id: string; name: string } | undefined> {
  return (await db.query<{ id: string; name: string }>('SELECT id, name FROM campaigns WHERE id = $1 AND app_id = $2 AND deleted_at IS NULL', [id, appId])).rows[0];
}

/** The app's campaign of that name (any case), created when missing. */
export async function campaignNamed(db: Queryable, a: { accountId: string; appId: string; name: string; userId: string }): Promise<string> {
  const found = (await db.query<{ id: string }>('SELECT id FROM campaigns WHERE app_id = $1 AND lower(name) = lower($2) AND deleted_at IS NULL', [a.appId, a.name])).rows[0];
  if (found) return found.id;
  return only((await db.query<{ id: string }>(
    'INSERT INTO campaigns (account_id, app_id, name, created_by) VALUES ($1, $2, $3, $4) RETURNING id', [a.accountId, a.appId, a.name, a.userId])).rows).id;
}

/**
 * What a journey's message steps may name: each message of the app that journeys send (origin
 * automaticJourney: a classic message is played by hand to its own target, and sending it from a
 * journey as well would reach people twice) and that is not deleted, as
 * `<campaignId>/<messageId>/<channel>` (push, email, or inApp for the in-app types; native ads and
 * A/B tests are not journey steps).
 */
export async function journeyMessageKeys(db: Queryable, appId: string): Promise<Set<string>> {
  const { rows } = await db.query<{ campaign_id: string; id: string; type: CommunicationType }>(
    `SELECT campaign_id, id, type FROM messages WHERE app_id = $1 AND deleted_at IS NULL AND origin = 'automaticJourney'`, [appId]);
  return new Set(rows.flatMap((r) => {
    const group = communicationGroup(r.type);
    const channel = group === 'message' ? r.type : group === 'inApp' ? 'inApp' : null;
    return channel ? [`${r.campaign_id}/${r.id}/${channel}`] : [];
  }));
}

export async function listCampaigns(db: Queryable, appId: string): Promise<CampaignSummary[]> {
  const { rows } = await db.query<{ id: string; name: string; messages: CampaignSummary['messages'] }>(
    `SELECT c.id, c.name,
            COALESCE(json_agg(json_build_object('id', m.id, 'name', m.name, 'type', m.type, 'origin', m.origin, 'status', m.status) ORDER BY m.name)
                     FILTER (WHERE m.id IS NOT NULL), '[]') AS messages
       FROM campaigns c
       LEFT JOIN messages m ON m.campaign_id = c.id AND m.deleted_at IS NULL
      WHERE c.app_id = $1 AND c.deleted_at IS NULL
      GROUP BY c.id ORDER BY lower(c.name)`, [appId]);
  return rows;
}

export async function insertMessage(db: Queryable, m: { id: string; accountId: string; appId: string; campaignId: string; name: string; type: CommunicationType; origin: MessageOrigin; docName: string; userId: string }): Promise<void> {
  await db.query(
    `INSERT INTO messages (id, account_id, app_id, campaign_id, name, type, origin, doc_name, created_by, owner_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)`,
    [m.id, m.accountId, m.appId, m.campaignId, m.name, m.type, m.origin, m.docName, m.userId]);
}

/** Moves the status (and stamps when), with the approved version when one is committed. */
export async function setStatus(db: Queryable, id: string, status: CommunicationStatus, patch: { approvedVersion?: number } = {}): Promise<void> {
  await db.query(
    `UPDATE messages SET status = $2, status_changed_at = CASE WHEN status = $2 THEN status_changed_at ELSE now() END,
            approved_version = COALESCE($3, approved_version), updated_at = now(),
            deleted_at = CASE WHEN $2 = 'Deleted' THEN now() ELSE deleted_at END
      WHERE id = $1`, [id, status, patch.approvedVersion ?? null]);
}

export async function updateMessage(db: Queryable, id: string, patch: { name?: string; ownerId?: string }): Promise<void> {
  await db.query('UPDATE messages SET name = COALESCE($2, name), owner_id = COALESCE($3, owner_id), updated_at = now() WHERE id = $1',
    [id, patch.name ?? null, patch.ownerId ?? null]);
}

const SUBMISSION_SELECT = `
  SELECT s.id, s.message_id, s.number, s.state_vector, s.sha256, s.submitted_by, u.name AS submitted_by_name,
         s.submitted_at, s.outcome
    FROM message_submissions s LEFT JOIN users u ON u.id = s.submitted_by`;

export async function findSubmission(db: Queryable, messageId: string, id: string): Promise<SubmissionRow | undefined> {
  return (await db.query<SubmissionRow>(
    `${SUBMISSION_SELECT} WHERE s.id = $1 AND s.message_id = $2`, [id, messageId])).rows[0];
}

/** The latest submission of each message. */
export async function latestSubmissions(db: Queryable, messageIds: readonly string[]): Promise<Map<string, SubmissionRow>> {
  if (!messageIds.length) return new Map();
  const { rows } = await db.query<SubmissionRow>(
    `SELECT DISTINCT ON (s.message_id) s.id, s.message_id, s.number, s.state_vector, s.sha256, s.submitted_by,
            u.name AS submitted_by_name, s.submitted_at, s.outcome
       FROM message_submissions s LEFT JOIN users u ON u.id = s.submitted_by
      WHERE s.message_id = ANY($1::uuid[]) ORDER BY s.message_id, s.number DESC`, [messageIds]);
  return new Map(rows.map((r) => [r.message_id, r]));
}

export async function insertSubmission(db: Queryable, s: { messageId: string; definition: unknown; state: Uint8Array; stateVector: Uint8Array; sha256: string; userId: string }): Promise<string> {
  return only((await db.query<{ id: string }>(
    `INSERT INTO message_submissions (message_id, number, definition, yjs_state, state_vector, sha256, submitted_by)
     VALUES ($1, (SELECT COALESCE(max(number), 0) + 1 FROM message_submissions WHERE message_id = $1), $2, $3, $4, $5, $6) RETURNING id`,
    [s.messageId, JSON.stringify(s.definition), Buffer.from(s.state), Buffer.from(s.stateVector), s.sha256, s.userId])).rows).id;
}

/** Ends the open submission of a message (if any) with `outcome`; answers its id. */
export async function closeOpenSubmission(db: Queryable, messageId: string, outcome: Exclude<SubmissionOutcome, 'open'>): Promise<string | undefined> {
  return (await db.query<{ id: string }>(
    `UPDATE message_submissions SET outcome = $2, closed_at = now() WHERE message_id = $1 AND outcome = 'open' RETURNING id`, [messageId, outcome])).rows[0]?.id;
}

/** Records a decision; false when this person already decided on this submission. */
export async function insertDecision(db: Queryable, d: { submissionId: string; userId: string; decision: 'approve' | 'reject'; reason: string | null }): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO message_decisions (submission_id, user_id, decision, reason) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
    [d.submissionId, d.userId, d.decision, d.reason]);
  return rowCount === 1;
}

export async function decisionsOf(db: Queryable, submissionIds: readonly string[]): Promise<Map<string, SubmissionDecision[]>> {
  const out = new Map<string, SubmissionDecision[]>();
  if (!submissionIds.length) return out;
  const { rows } = await db.query<{ submission_id: string; user_id: string; name: string | null; decision: 'approve' | 'reject'; reason: string | null; at: Date }>(
    `SELECT d.submission_id, d.user_id, u.name, d.decision, d.reason, d.at FROM message_decisions d LEFT JOIN users u ON u.id = d.user_id
      WHERE d.submission_id = ANY($1::uuid[]) ORDER BY d.at, d.user_id`, [submissionIds]);
  for (const r of rows) {
    const list = out.get(r.submission_id) ?? [];
    list.push({ userId: r.user_id, name: r.name, decision: r.decision, reason: r.reason, at: r.at.toISOString() });
    out.set(r.submission_id, list);
  }
  return out;
}

export async function nextVersion(db: Queryable, messageId: string): Promise<number> {
  return only((await db.query<{ next: number }>('SELECT COALESCE(max(version), 0) + 1 AS next FROM message_versions WHERE message_id = $1', [messageId])).rows).next;
}

/** The submission's snapshot as the message's version `version`, copied inside Postgres. */
export async function insertVersion(db: Queryable, v: { messageId: string; version: number; submissionId: string }): Promise<void> {
  await db.query(
    `INSERT INTO message_versions (message_id, version, submission_id, definition, yjs_state, state_vector, sha256)
     SELECT message_id, $2, id, definition, yjs_state, state_vector, sha256 FROM message_submissions WHERE id = $3 AND message_id = $1`,
    [v.messageId, v.version, v.submissionId]);
}

/** A new submission of an approved version's snapshot (back to review), copied inside Postgres; its id, or undefined without that version. */
export async function resubmitVersion(db: Queryable, v: { messageId: string; version: number; userId: string }): Promise<string | undefined> {
  return (await db.query<{ id: string }>(
    `INSERT INTO message_submissions (message_id, number, definition, yjs_state, state_vector, sha256, submitted_by)
     SELECT message_id, (SELECT COALESCE(max(number), 0) + 1 FROM message_submissions WHERE message_id = $1), definition, yjs_state, state_vector, sha256, $3
       FROM message_versions WHERE message_id = $1 AND version = $2
     RETURNING id`, [v.messageId, v.version, v.userId])).rows[0]?.id;
}

/** The draft a submission froze (what approvers review). */
export async function submissionDefinition(db: Queryable, submissionId: string): Promise<unknown> {
  return (await db.query<{ definition: unknown }>('SELECT definition FROM message_submissions WHERE id = $1', [submissionId])).rows[0]?.definition;
}

export async function insertComment(db: Queryable, c: { messageId: string; submissionId: string; userId: string; path: string; variantId: string | null; body: string }): Promise<string> {
  return only((await db.query<{ id: string }>(
    `INSERT INTO message_comments (message_id, submission_id, author_id, path, variant_id, body) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id::text`,
    [c.messageId, c.submissionId, c.userId, c.path, c.variantId, c.body])).rows).id;
}

export async function commentsOf(db: Queryable, submissionId: string): Promise<MessageComment[]> {
  const { rows } = await db.query<{ id: string; submission_id: string; author_id: string | null; author_name: string | null; path: string; variant_id: string | null; body: string; at: Date }>(
    `SELECT c.id::text, c.submission_id, c.author_id, u.name AS author_name, c.path, c.variant_id, c.body, c.at
       FROM message_comments c LEFT JOIN users u ON u.id = c.author_id WHERE c.submission_id = $1 ORDER BY c.at, c.id`, [submissionId]);
  return rows.map((r) => ({ id: r.id, submissionId: r.submission_id, authorId: r.author_id, authorName: r.author_name, path: r.path, variantId: r.variant_id, body: r.body, at: r.at.toISOString() }));
}

export type HistoryKind = MessageHistoryEntry['kind'];

export async function recordEvent(db: Queryable, e: {
  messageId: string; kind: HistoryKind; actorId: string | null; from?: CommunicationStatus | undefined; to?: CommunicationStatus | undefined;
  submissionId?: string | undefined; version?: number | undefined; detail?: string | undefined;
}): Promise<void> {
  await db.query(
    `INSERT INTO message_events (message_id, kind, actor_id, from_status, to_status, submission_id, version, detail) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [e.messageId, e.kind, e.actorId, e.from ?? null, e.to ?? null, e.submissionId ?? null, e.version ?? null, e.detail ?? null]);
}

export async function history(db: Queryable, messageId: string): Promise<MessageHistoryEntry[]> {
  const { rows } = await db.query<{ id: string; kind: HistoryKind; actor_id: string | null; actor_name: string | null; from_status: CommunicationStatus | null; to_status: CommunicationStatus | null; number: number | null; version: number | null; detail: string | null; at: Date }>(
    `SELECT e.id::text, e.kind, e.actor_id, u.name AS actor_name, e.from_status, e.to_status, s.number, e.version, e.detail, e.at
       FROM message_events e LEFT JOIN users u ON u.id = e.actor_id LEFT JOIN message_submissions s ON s.id = e.submission_id
      WHERE e.message_id = $1 ORDER BY e.at DESC, e.id DESC LIMIT 1000`, [messageId]);
  return rows.map((r) => ({ id: r.id, kind: r.kind, actorId: r.actor_id, actorName: r.actor_name, fromStatus: r.from_status, toStatus: r.to_status, submissionNumber: r.number, version: r.version, detail: r.detail, at: r.at.toISOString() }));
}

export async function findPolicy(db: Queryable, accountId: string): Promise<ApprovalPolicy> {
  const row = (await db.query<{ approvals_required: number; authors_may_approve: boolean }>(
    'SELECT approvals_required, authors_may_approve FROM accounts WHERE id = $1', [accountId])).rows[0];
  return { required: row?.approvals_required ?? 1, authorsMayApprove: row?.authors_may_approve ?? false };
}

export async function updatePolicy(db: Queryable, accountId: string, p: ApprovalPolicy): Promise<void> {
  await db.query('UPDATE accounts SET approvals_required = $2, authors_may_approve = $3 WHERE id = $1', [accountId, p.required, p.authorsMayApprove]);
}

export function toSubmissionSummary(s: SubmissionRow, decisions: SubmissionDecision[], required: number): SubmissionSummary {
  return {
    id: s.id, number: s.number, submittedBy: s.submitted_by, submittedByName: s.submitted_by_name, submittedAt: s.submitted_at.toISOString(),
    stateVector: s.state_vector.toString('base64'), sha256: s.sha256, outcome: s.outcome, decisions, required,
  };
}

export function toSummary(m: MessageRow, submission: SubmissionSummary | null): MessageSummary {
  return {
    id: m.id, appId: m.app_id, campaignId: m.campaign_id, campaignName: m.campaign_name, name: m.name, type: m.type, origin: m.origin,
    status: m.status, docName: m.doc_name, ownerId: m.owner_id, ownerName: m.owner_name, createdBy: m.created_by,
    approvedVersion: m.approved_version, submission, createdAt: m.created_at.toISOString(), updatedAt: m.updated_at.toISOString(),
    statusChangedAt: m.status_changed_at.toISOString(),
  };
}
