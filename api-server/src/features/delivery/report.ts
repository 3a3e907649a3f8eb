/** The runs of one message as the message screen shows them: counts per outcome and the reasons of the rest. */
import type { DeliveryRun } from '@gd/shared/schemas/messages';
import type { Queryable } from '../../db/pool.ts';

/** A failure's reason without what varies per row (an address, a server's queue id): "550: No such user". Message analytics words fails alike. */
export const REASON = `left(regexp_replace(coalesce(o.error, ''), '<[^>]*>|[[:alnum:]._%+-]+@[[:alnum:].-]+', '…', 'g'), 160)`;

export async function deliveryRuns(db: Queryable, messageId: string): Promise<DeliveryRun[]> {
  const { rows } = await db.query<{
    id: string; kind: DeliveryRun['kind']; state: DeliveryRun['state']; version: number | null; recipients: number; created_at: Date; finished_at: Date | null;
    counts: DeliveryRun['counts'] | null; next_at: Date | null; problems: DeliveryRun['problems'] | null; occurrence: number; not_before: Date;
  }>(
    `SELECT s.id, s.kind, s.state, s.version, s.resolved AS recipients, s.created_at, s.finished_at, s.occurrence, s.not_before,
            (SELECT json_build_object(
                      'queued', count(*) FILTER (WHERE o.status = 'queued'), 'sent', count(*) FILTER (WHERE o.status = 'sent'),
                      'failed', count(*) FILTER (WHERE o.status = 'failed'), 'retired', count(*) FILTER (WHERE o.status = 'retired'),
                      'skipped', count(*) FILTER (WHERE o.status = 'skipped'))
               FROM message_outbox o WHERE o.send_id = s.id) AS counts,
            (SELECT min(o.run_at) FROM message_outbox o WHERE o.send_id = s.id AND o.status = 'queued') AS next_at,
            (SELECT json_agg(p ORDER BY p.count DESC, p.reason) FROM (
               SELECT o.status, ${REASON} AS reason, count(*)::int AS count FROM message_outbox o
                WHERE o.send_id = s.id AND o.status <> 'sent' AND o.error IS NOT NULL GROUP BY 1, 2 ORDER BY 3 DESC LIMIT 10) p) AS problems
       FROM message_sends s WHERE s.message_id = $1 ORDER BY s.created_at DESC LIMIT 20`,
    [messageId]);
  return rows.map((r) => ({
    id: r.id, kind: r.kind, state: r.state, version: r.version, recipients: r.recipients, occurrence: r.occurrence,
    startsAt: r.not_before.toISOString(),
    counts: r.counts ?? { queued: 0, sent: 0, failed: 0, retired: 0, skipped: 0 },
    problems: r.problems ?? [],
    nextAt: r.next_at?.toISOString() ?? null,
    createdAt: r.created_at.toISOString(),
    finishedAt: r.finished_at?.toISOString() ?? null,
  }));
}
