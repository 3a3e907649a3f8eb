/**
 * SQL of the A/B analysis and the winner run (migration 024). The analysis reads an A/B test's
 * live run (the test): its sent outbox rows, one per person, and the opens, clicks and conversions
 * of those people (interactions naming their variant, text-keyed by message: `message_id::text`).
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

export interface VariantCountRow { variant_id: string; sends: number; opens: number; clicks: number; conversions: number }

/**
 * Per variant of a live run, over one population (the run's sent people, one outbox row each):
 * people sent, those of them who opened and clicked their variant since the run started, and those
 * who converted: a goal event (`goal`, the run's own definition) within `windowDays` after their
 * send or one of those opens and clicks. Interactions are read in one pass (app, message, kind,
 * event_time from the run's start: partitions before it are pruned), grouped per person and
 * semi-joined to the sent people; events per person through events_app_person_time, bounded by
 * the last of their moments plus the window.
 */
export async function variantCounts(db: Queryable, p: { appId: string; messageId: string; sendId: string; goal: string; windowDays: number }): Promise<VariantCountRow[]> {
  const { rows } = await db.query<VariantCountRow>(
    `WITH run AS (SELECT created_at FROM message_sends WHERE id = $3),
     sent AS (SELECT DISTINCT ON (o.person_id) o.person_id, o.variant_id, o.sent_at FROM message_outbox o
               WHERE o.send_id = $3 AND o.status = 'sent' ORDER BY o.person_id, o.id),
     acts AS (
       SELECT i.person_id, i.variant_id, bool_or(i.kind = 'open') AS opened, bool_or(i.kind = 'click') AS clicked, array_agg(i.event_time) AS moments
         FROM message_interactions i, run r
        WHERE i.app_id = $1 AND i.message_id = $2::text AND i.kind IN ('open', 'click') AND i.event_time >= r.created_at
          AND i.person_id IN (SELECT person_id FROM sent)
        GROUP BY i.person_id, i.variant_id),
     people AS (
       SELECT s.person_id, s.variant_id, coalesce(a.opened, false) AS opened, coalesce(a.clicked, false) AS clicked,
              s.sent_at || coalesce(a.moments, '{}') AS moments
         FROM sent s LEFT JOIN acts a ON a.person_id = s.person_id AND a.variant_id = s.variant_id)
     SELECT p.variant_id, count(*)::int AS sends, count(*) FILTER (WHERE p.opened)::int AS opens, count(*) FILTER (WHERE p.clicked)::int AS clicks,
            count(*) FILTER (WHERE EXISTS (
              SELECT 1 FROM events e
               WHERE e.app_id = $1 AND e.person_id = p.person_id AND e.name = $4
                 AND e.event_time >= (SELECT min(t) FROM unnest(p.moments) t)
                 AND e.event_time < (SELECT max(t) FROM unnest(p.moments) t) + make_interval(days => $5)
                 AND EXISTS (SELECT 1 FROM unnest(p.moments) t WHERE t <= e.event_time AND e.event_time < t + make_interval(days => $5))))::int AS conversions
       FROM people p GROUP BY p.variant_id`,
    [p.appId, p.messageId, p.sendId, p.goal, p.windowDays]);
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
