/**
 * SQL of automatic rules (migration 033): the rules, what their form picks from, and the
 * interests they register for ingestion (trigger_interests, consumer `rules`). Every query is
 * scoped by the app as well as the rule id. The engine's SQL is in engine.ts's companion
 * engineRepository.ts.
 */
import type { CommunicationType, MessageOrigin } from '@gd/shared';
import type { RuleChoices, Rule } from '@gd/shared/schemas/rules';
import { triggerEvents, type RuleInput, type RuleStatus, type RuleTrigger } from '@gd/shared/rules/model';
import type { TagValueType } from '@gd/shared/schemas/tags';
import type { Queryable } from '../../db/pool.ts';
import { setInterests } from '../ingest/triggers.ts';

interface RuleRow {
  id: string; app_id: string; name: string; trigger: RuleTrigger; message_id: string; message_name: string | null; message_type: CommunicationType | null;
  send_hour: number | null; status: RuleStatus; created_by: string | null; owner_name: string | null; created_at: Date; updated_at: Date;
  last_run_at: Date | null; sends: number;
}

const SELECT = `
  SELECT r.id, r.app_id, r.name, r.trigger, r.message_id, m.name AS message_name, m.type AS message_type, r.send_hour, r.status,
         r.created_by, u.name AS owner_name, r.created_at, r.updated_at, r.last_run_at, r.sends
    FROM rules r
    LEFT JOIN messages m ON m.id = r.message_id AND m.deleted_at IS NULL
    LEFT JOIN users u ON u.id = r.created_by`;

const toRule = (r: RuleRow): Rule => ({
  id: r.id, appId: r.app_id, name: r.name, trigger: r.trigger, messageId: r.message_id, messageName: r.message_name, messageType: r.message_type,
  sendHour: r.send_hour, status: r.status, ownerId: r.created_by, ownerName: r.owner_name, createdAt: r.created_at.toISOString(),
  updatedAt: r.updated_at.toISOString(), lastRunAt: r.last_run_at?.toISOString() ?? null, sends: r.sends,
});

export async function listRules(db: Queryable, appId: string): Promise<Rule[]> {
  const { rows } = await db.query<RuleRow>(`${SELECT} WHERE r.app_id = $1 AND r.deleted_at IS NULL ORDER BY r.created_at DESC, r.id LIMIT 1000`, [appId]);
  return rows.map(toRule);
}

export async function findRule(db: Queryable, appId: string, id: string, forUpdate = false): Promise<Rule | undefined> {
  const { rows } = await db.query<RuleRow>(`${SELECT} WHERE r.app_id = $1 AND r.id = $2 AND r.deleted_at IS NULL${forUpdate ? ' FOR UPDATE OF r' : ''}`, [appId, id]);
  return rows[0] && toRule(rows[0]);
}

export async function insertRule(db: Queryable, r: { id: string; accountId: string; appId: string; userId: string; input: RuleInput; status: RuleStatus }): Promise<void> {
  await db.query(
    `INSERT INTO rules (id, account_id, app_id, name, kind, trigger, message_id, send_hour, status, activated_at, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, CASE WHEN $9 = 'active' THEN now() END, $10)`,
    [r.id, r.accountId, r.appId, r.input.name, r.input.trigger.kind, JSON.stringify(r.input.trigger), r.input.messageId, r.input.sendHour, r.status, r.userId]);
}

export async function updateRule(db: Queryable, appId: string, id: string, input: RuleInput): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE rules SET name = $3, kind = $4, trigger = $5, message_id = $6, send_hour = $7, updated_at = now()
      WHERE app_id = $1 AND id = $2 AND deleted_at IS NULL`,
    [appId, id, input.name, input.trigger.kind, JSON.stringify(input.trigger), input.messageId, input.sendHour]);
  return (rowCount ?? 0) > 0;
}

export async function setStatus(db: Queryable, appId: string, id: string, status: RuleStatus): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE rules SET status = $3, updated_at = CASE WHEN status = $3 THEN updated_at ELSE now() END,
            activated_at = CASE WHEN $3 = 'active' AND status <> 'active' THEN now() ELSE activated_at END
      WHERE app_id = $1 AND id = $2 AND deleted_at IS NULL`,
    [appId, id, status]);
  return (rowCount ?? 0) > 0;
}

export async function softDelete(db: Queryable, appId: string, id: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE rules SET deleted_at = now(), status = 'paused', updated_at = now() WHERE app_id = $1 AND id = $2 AND deleted_at IS NULL`, [appId, id]);
  return (rowCount ?? 0) > 0;
}

/**
 * Rewrites the app's `rules` interests from its active rules (in the caller's transaction, after
 * the rule's change): the events ingestion must put in the inbox for them. The app's rules are
 * locked first, so two saves at once write their interests one after the other.
 */
export async function rewriteInterests(db: Queryable, appId: string): Promise<string[]> {
  await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`rules:${appId}`]);
  const { rows } = await db.query<{ trigger: RuleTrigger }>(
    `SELECT trigger FROM rules WHERE app_id = $1 AND status = 'active' AND deleted_at IS NULL`, [appId]);
  const names = [...new Set(rows.flatMap((r) => triggerEvents(r.trigger)))].sort();
  await setInterests(db, appId, 'rules', names);
  return names;
}

/** The facts rules/validate.ts checks: the message, the tag's type, the coupon (null: the app has none). */
export async function referenceFacts(db: Queryable, appId: string, input: RuleInput) {
  const message = (await db.query<{ origin: MessageOrigin; approved: boolean }>(
    `SELECT origin, approved_version IS NOT NULL AS approved FROM messages WHERE app_id = $1 AND id = $2 AND deleted_at IS NULL`, [appId, input.messageId])).rows[0] ?? null;
  const t = input.trigger;
  const tagType = t.kind === 'tag_value'
    ? (await db.query<{ value_type: TagValueType }>(`SELECT value_type FROM tags WHERE app_id = $1 AND id = $2 AND kind = 'user_tag'`, [appId, t.tagId])).rows[0]?.value_type ?? null
    : undefined;
  const coupon = t.kind === 'coupon_redeemed' && t.messageId !== null
    ? (await db.query<{ type: CommunicationType }>(`SELECT type FROM messages WHERE app_id = $1 AND id = $2 AND deleted_at IS NULL`, [appId, t.messageId])).rows[0] ?? null
    : undefined;
  return { message, ...(tagType !== undefined ? { tagType } : {}), ...(coupon !== undefined ? { coupon } : {}) };
}

export async function ruleChoices(db: Queryable, appId: string): Promise<RuleChoices> {
  const [messages, coupons, tags] = await Promise.all([
    db.query<RuleChoices['messages'][number]>(
      `SELECT id, name, type, status, approved_version IS NOT NULL AS approved FROM messages
        WHERE app_id = $1 AND deleted_at IS NULL AND origin = 'automaticRule' ORDER BY lower(name), id LIMIT 1000`, [appId]),
    db.query<RuleChoices['coupons'][number]>(
      `SELECT id, name FROM messages WHERE app_id = $1 AND deleted_at IS NULL AND type = 'coupon' ORDER BY lower(name), id LIMIT 1000`, [appId]),
    db.query<RuleChoices['tags'][number]>(
      `SELECT id, name, value_type AS "valueType" FROM tags WHERE app_id = $1 AND kind = 'user_tag' ORDER BY lower(name), id LIMIT 1000`, [appId]),
  ]);
  return { messages: messages.rows, coupons: coupons.rows, tags: tags.rows };
}
