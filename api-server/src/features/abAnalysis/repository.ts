/**
 * SQL of the A/B analysis and the winner run (migration 024). The analysis reads an A/B test's
 * live run (the test): its sent outbox rows, one per person, and the opens and clicks of those
 * people naming their variant (interactions are text-keyed by message: `message_id::text`).
 */
import type { MessageDraft } from '@gd/shared';
import type { CommunicationStatus } from '@gd/shared/message/lifecycle';
import type { Queryable } from '../../db/pool.ts';

export interface AbTestRow {
  id: string; name: string; status: CommunicationStatus; owner_id: string | null;
  send_id: string; version: number; definition: MessageDraft; state: 'resolving' | 'sending' | 'finished';
  held_back: number; created_at: Date; finished_at: Date | null;
}

const TEST_SELECT = `SELECT DISTINCT ON (m.id) m.id, m.name, m.status, m.owner_id, s.id AS send_id, s.version, s.definition, s.state, s.held_back, s.created_at, s.finished_at
   FROM message_sends s JOIN messages m ON m.id = s.message_id
  WHERE s.app_id = $1 AND s.kind = 'live' AND m.type = 'test_ab' AND m.deleted_at IS NULL`;

/** The app's A/B tests that were played (each with its latest live run), newest first. */
export async function listAbTests(db: Queryable, appId: string): Promise<AbTestRow[]> {
  const { rows } = await db.query<AbTestRow>(`SELECT * FROM (${TEST_SELECT} ORDER BY m.id, s.created_at DESC) t ORDER BY t.created_at DESC LIMIT 200`, [appId]);
  return rows;
}

/** One A/B test of the app with its latest live run (undefined: not one, or never played). */
export async function findAbTest(db: Queryable, appId: string, messageId: string): Promise<AbTestRow | undefined> {
  const { rows } = await db.query<AbTestRow>(`${TEST_SELECT} AND m.id = $2 ORDER BY m.id, s.created_at DESC`, [appId, messageId]);
  return rows[0];
}

export interface VariantCountRow { variant_id: string; sends: number; opens: number; clicks: number }

/** Per variant of a live run: people sent, and those of them who opened and clicked it. */
export async function variantCounts(db: Queryable, appId: string, messageId: string, sendId: string): Promise<VariantCountRow[]> {
  const { rows } = await db.query<VariantCountRow>(
    `WITH sent AS (SELECT DISTINCT ON (o.person_id) o.person_id, o.variant_id FROM message_outbox o
                    WHERE o.send_id = $3 AND o.status = 'sent' ORDER BY o.person_id, o.id)
     SELECT s.variant_id, count(*)::int AS sends,
            count(*) FILTER (WHERE EXISTS (SELECT 1 FROM message_interactions i WHERE i.app_id = $1 AND i.person_id = s.person_id
                                             AND i.message_id = $2::text AND i.variant_id = s.variant_id AND i.kind = 'open'))::int AS opens,
            count(*) FILTER (WHERE EXISTS (SELECT 1 FROM message_interactions i WHERE i.app_id = $1 AND i.person_id = s.person_id
                                             AND i.message_id = $2::text AND i.variant_id = s.variant_id AND i.kind = 'click'))::int AS clicks
       FROM sent s GROUP BY s.variant_id`,
    [appId, messageId, sendId]);
  return rows;
}

export interface WinnerRunRow { id: string; variant_id: string; state: 'resolving' | 'sending' | 'finished'; resolved: number; sent: number; created_at: Date }

const WINNER_SELECT = `SELECT s.id, s.variant_id, s.state, s.resolved, s.created_at,
        (SELECT count(*)::int FROM message_outbox o WHERE o.send_id = s.id AND o.status = 'sent') AS sent
   FROM message_sends s WHERE s.parent_id = $1 AND s.kind = 'winner'`;

export async function findWinnerRun(db: Queryable, liveSendId: string): Promise<WinnerRunRow | undefined> {
  return (await db.query<WinnerRunRow>(WINNER_SELECT, [liveSendId])).rows[0];
}

/**
 * The winner run of a live run, once: its definition is the live run's with only the winning
 * variant (every person of it gets that one); a second call inserts nothing (unique index on
 * parent_id) and answers false.
 */
export async function insertWinnerRun(db: Queryable, r: { accountId: string; appId: string; messageId: string; live: AbTestRow; variantId: string; userId: string }): Promise<boolean> {
  const winner = r.live.definition.variants.find((v) => v.id === r.variantId);
  if (!winner) throw new Error(`variant ${r.variantId} is not in version ${r.live.version}`);
  const definition: MessageDraft = { ...r.live.definition, variants: [{ ...winner, share: 100 }] };
  const { rowCount } = await db.query(
    `INSERT INTO message_sends (account_id, app_id, message_id, version, definition, kind, origin, created_by, parent_id, variant_id)
     SELECT $1, $2, $3, s.version, $5, 'winner', s.origin, $6, s.id, $7 FROM message_sends s WHERE s.id = $4
     ON CONFLICT (parent_id) WHERE kind = 'winner' DO NOTHING`,
    [r.accountId, r.appId, r.messageId, r.live.send_id, definition, r.userId, r.variantId]);
  return rowCount === 1;
}
