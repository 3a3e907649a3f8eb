/**
 * The metrics of messages and their variants, computed in SQL from the outbox (sents, delivered,
 * fails), the interactions (impressions, opens, clicks), the redemptions and the events
 * (conversions and revenue). Definitions: shared schemas/messageAnalytics.ts and
 * message/conversion.ts. Test sends never count (outbox `test`; the e-mail tracking records
 * nothing for them). Live while sending: every call reads the tables as they are.
 *
 * Test devices never count either: interactions and redemptions of a person whose only outbox rows
 * for the message are test rows are left out (whatever the SDK or the tracking reported).
 *
 * Per person and message, every delivery and interaction of the range is a moment they were
 * reached, every open and click one they engaged (a recurring message or a re-send reaches them
 * again). A goal or purchase event is direct when it falls within the window after one of their
 * engaged moments, else indirect when within the window after one of their reached moments. A
 * person converts once per message (direct wins); revenue adds every purchase in those windows,
 * each once.
 *
 * Reads use migration 023's indexes (the outbox by message, sent rows by time); a person's events
 * are read through events_app_person_time, bounded by their first moment and their last plus the
 * window.
 */
import { builtInEventName, conversionOf, emptyKpis, type FailReason, type MessageConversion, type MessageKpis, type MessageMetrics, type Metrics } from '@gd/shared';
import type { Queryable } from '../../db/pool.ts';
import { REASON } from '../delivery/report.ts';

/** Instants [from, to); absent means all time. */
export interface InstantRange { from: Date; to: Date }

export interface MessageRef { id: string; conversion: MessageConversion }

/** Per message: the whole message and its variants. */
export interface MessageFigures { total: Metrics; variants: Record<string, Metrics> }

const ALL_TIME = { from: '-infinity', to: 'infinity' };
const bounds = (range?: InstantRange) => (range ? { from: range.from.toISOString(), to: range.to.toISOString() } : ALL_TIME);

const emptyMetrics = (): Metrics => ({ ...emptyKpis(), failReasons: [] });
const num = (v: string | number | null | undefined) => (v === null || v === undefined ? 0 : Number(v));

/** The conversion settings of each message: its latest approved version's, else the default. */
export async function conversionsOf(db: Queryable, appId: string, messageIds: readonly string[]): Promise<Map<string, MessageConversion>> {
  const { rows } = await db.query<{ id: string; conversion: unknown }>(
    `SELECT m.id, v.definition->'conversion' AS conversion
       FROM messages m LEFT JOIN message_versions v ON v.message_id = m.id AND v.version = m.approved_version
      WHERE m.app_id = $1 AND m.id = ANY($2::uuid[])`, [appId, messageIds]);
  return new Map(rows.map((r) => [r.id, conversionOf({ conversion: r.conversion })]));
}

/**
 * The (message, person) pairs of these messages whose only outbox rows for the message are test
 * rows (test devices, test runs): their interactions and redemptions never count. Needs $1 the app
 * and $2 the message ids. The test rows are found through their runs (message_outbox_send), the
 * live rows through migration 030's message_outbox_message_person.
 */
const TEST_ONLY = `test_only AS (
       SELECT DISTINCT t.message_id, t.person_id
         FROM message_sends s JOIN message_outbox t ON t.send_id = s.id
        WHERE s.message_id = ANY($2::uuid[]) AND s.app_id = $1 AND s.kind = 'test' AND t.test
          AND NOT EXISTS (SELECT 1 FROM message_outbox l WHERE l.message_id = t.message_id AND l.person_id = t.person_id AND NOT l.test))`;

/** Rows of a grouping over (message, variant): 0 a variant, 1 a message, 3 every message; 4 the deduplicated conversions of every message. */
type Level = 0 | 1 | 3 | 4;

/** Figures of several messages, and of all of them together (`all`, the report's total). */
export interface FiguresOfMessages { byMessage: Map<string, MessageFigures>; all: Metrics }

/**
 * The figures of several messages of one app over a range (deliveries and interactions in it; their
 * conversions may fall after it, within the window), and their total. Messages with nothing get
 * zeros. Three independent statements run at once: the outbox (sends, deliveries, fails and their
 * reasons in one pass), the people (interactions and conversions) and the redemptions.
 *
 * The total adds sends, deliveries, fails, impressions, opens, clicks and redeems up over the
 * messages; conversions and revenue are counted once per person and event however many messages
 * they fall within the window of (direct when direct for one of them), in SQL.
 */
export async function figuresOfMessages(db: Queryable, appId: string, messages: readonly MessageRef[], range?: InstantRange): Promise<FiguresOfMessages> {
  const byMessage = new Map<string, MessageFigures>(messages.map((m) => [m.id, { total: emptyMetrics(), variants: {} }]));
  const all = emptyMetrics();
  if (messages.length === 0) return { byMessage, all };
  const { from, to } = bounds(range);
  const ids = messages.map((m) => m.id);
  const at = (messageId: string | null, variantId: string | null, level: Level): Metrics | undefined => {
    if (level >= 3) return all;
    const f = messageId === null ? undefined : byMessage.get(messageId);
    if (!f) return undefined;
    if (level === 1) return f.total;
    if (variantId === null) return undefined;
    return (f.variants[variantId] ??= emptyMetrics());
  };

  const [outbox, people, redeems] = await Promise.all([
    db.query<{ message_id: string; variant_id: string | null; status: 'sent' | 'failed' | 'retired'; pushed: boolean; reason: string | null; n: number }>(
      `SELECT o.message_id, o.variant_id, o.status, o.channel <> 'inApp' AS pushed, CASE WHEN o.status <> 'sent' THEN ${REASON} END AS reason, count(*)::int AS n
         FROM message_outbox o
        WHERE o.message_id = ANY($2::uuid[]) AND o.app_id = $1 AND NOT o.test AND o.status IN ('sent', 'failed', 'retired')
          AND coalesce(o.sent_at, o.created_at) >= $3::timestamptz AND coalesce(o.sent_at, o.created_at) < $4::timestamptz
        GROUP BY 1, 2, 3, 4, 5`, [appId, ids, from, to]),
    db.query<{
      message_id: string | null; variant_id: string | null; level: Level; seen: string | null; impressions: string | null; opens: string | null; clicks: string | null;
      conv_direct: string | null; conv_indirect: string | null; rev_direct: string | null; rev_indirect: string | null;
    }>(
      `WITH m AS (SELECT * FROM unnest($2::uuid[], $5::text[], $6::int[]) AS m(id, goal, days)),
       ${TEST_ONLY},
       x AS (
         SELECT o.message_id, o.person_id, o.variant_id, 'sent' AS kind, o.channel, o.sent_at AS at, true AS sent
           FROM message_outbox o
          WHERE o.message_id = ANY($2::uuid[]) AND o.app_id = $1 AND NOT o.test AND o.status = 'sent'
            AND o.sent_at >= $3::timestamptz AND o.sent_at < $4::timestamptz
         UNION ALL
         SELECT m.id, i.person_id, i.variant_id, i.kind, i.channel, i.event_time, false
           FROM m JOIN message_interactions i ON i.app_id = $1 AND i.message_id = m.id::text
          WHERE i.kind IN ('impression', 'open', 'click') AND i.event_time >= $3::timestamptz AND i.event_time < $4::timestamptz
            AND NOT EXISTS (SELECT 1 FROM test_only t WHERE t.message_id = m.id AND t.person_id = i.person_id)),
       pp AS (
         SELECT x.message_id, x.person_id,
                coalesce(min(x.variant_id) FILTER (WHERE x.sent), min(x.variant_id)) AS variant_id,
                min(x.at) AS reached_at, max(x.at) AS last_at,
                array_agg(x.at) AS reached, coalesce(array_agg(x.at) FILTER (WHERE x.kind IN ('open', 'click')), '{}') AS engaged,
                bool_or(x.kind = 'impression' AND x.channel IN ('inapp', 'native')) AS seen,
                bool_or(x.kind = 'impression') AS impressed, bool_or(x.kind = 'open') AS opened, bool_or(x.kind = 'click') AS clicked
           FROM x GROUP BY x.message_id, x.person_id),
       -- Each goal or purchase event of a person against every moment they were reached or engaged.
       ev AS (
         SELECT pp.message_id, pp.person_id, e.client_id, e.event_time, e.goal, e.purchase, e.revenue, e.direct
           FROM pp JOIN m ON m.id = pp.message_id
          CROSS JOIN LATERAL (
            SELECT ev.client_id, ev.event_time, ev.name = m.goal AS goal, ev.name = $7 AS purchase, ev.revenue,
                   EXISTS (SELECT 1 FROM unnest(pp.engaged) t WHERE t <= ev.event_time AND ev.event_time < t + make_interval(days => m.days)) AS direct,
                   EXISTS (SELECT 1 FROM unnest(pp.reached) t WHERE t <= ev.event_time AND ev.event_time < t + make_interval(days => m.days)) AS in_reach
              FROM events ev
             WHERE ev.app_id = $1 AND ev.person_id = pp.person_id AND ev.name IN (m.goal, $7)
               AND ev.event_time >= pp.reached_at AND ev.event_time < pp.last_at + make_interval(days => m.days)) e
          WHERE e.in_reach),
       conv AS (
         SELECT ev.message_id, ev.person_id,
                bool_or(ev.goal AND ev.direct) AS direct, bool_or(ev.goal AND NOT ev.direct) AS indirect,
                sum(ev.revenue) FILTER (WHERE ev.purchase AND ev.direct) AS rev_direct,
                sum(ev.revenue) FILTER (WHERE ev.purchase AND NOT ev.direct) AS rev_indirect
           FROM ev GROUP BY ev.message_id, ev.person_id),
       -- A person's conversion for a message is their first direct goal event, else their first one.
       firsts AS (
         SELECT DISTINCT ON (ev.message_id, ev.person_id) ev.person_id, ev.client_id, ev.event_time, ev.direct
           FROM ev WHERE ev.goal ORDER BY ev.message_id, ev.person_id, NOT ev.direct, ev.event_time),
       goals AS (SELECT bool_or(f.direct) AS direct FROM firsts f GROUP BY f.person_id, f.client_id, f.event_time),
       purchases AS (SELECT min(ev.revenue) AS revenue, bool_or(ev.direct) AS direct FROM ev WHERE ev.purchase GROUP BY ev.person_id, ev.client_id, ev.event_time)
       SELECT pp.message_id, pp.variant_id, grouping(pp.message_id, pp.variant_id) AS level,
              count(*) FILTER (WHERE pp.seen) AS seen, count(*) FILTER (WHERE pp.impressed) AS impressions,
              count(*) FILTER (WHERE pp.opened) AS opens, count(*) FILTER (WHERE pp.clicked) AS clicks,
              count(*) FILTER (WHERE c.direct) AS conv_direct, count(*) FILTER (WHERE c.indirect AND NOT c.direct) AS conv_indirect,
              sum(c.rev_direct) AS rev_direct, sum(c.rev_indirect) AS rev_indirect
         FROM pp LEFT JOIN conv c ON c.message_id = pp.message_id AND c.person_id = pp.person_id
        GROUP BY GROUPING SETS ((), (pp.message_id), (pp.message_id, pp.variant_id))
       UNION ALL
       SELECT NULL, NULL, 4, NULL, NULL, NULL, NULL,
              (SELECT count(*) FILTER (WHERE g.direct) FROM goals g), (SELECT count(*) FILTER (WHERE NOT g.direct) FROM goals g),
              (SELECT sum(p.revenue) FILTER (WHERE p.direct) FROM purchases p), (SELECT sum(p.revenue) FILTER (WHERE NOT p.direct) FROM purchases p)`,
      [appId, ids, from, to, messages.map((m) => m.conversion.eventName), messages.map((m) => m.conversion.windowDays), builtInEventName('transaction')]),
    db.query<{ message_id: string | null; variant_id: string | null; level: Level; redeems: string }>(
      `WITH ${TEST_ONLY}
       SELECT r.message_id, r.variant_id, grouping(r.message_id, r.variant_id) AS level, count(*) AS redeems
         FROM message_redemptions r
        WHERE r.message_id = ANY($2::uuid[]) AND r.app_id = $1 AND r.at >= $3::timestamptz AND r.at < $4::timestamptz
          AND NOT EXISTS (SELECT 1 FROM test_only t WHERE t.message_id = r.message_id AND t.person_id = r.person_id)
        GROUP BY GROUPING SETS ((), (r.message_id), (r.message_id, r.variant_id))`, [appId, ids, from, to]),
  ]);

  const reasons = new Map<Metrics, Map<string, FailReason>>();
  for (const r of outbox.rows) {
    const targets = [all, at(r.message_id, null, 1), at(r.message_id, r.variant_id, 0)];
    for (const m of targets) {
      if (!m) continue;
      if (r.status === 'sent') {
        m.sents += r.n;
        if (r.pushed) m.delivered += r.n;
        continue;
      }
      m.fails += r.n;
      const byReason = reasons.get(m) ?? new Map<string, FailReason>();
      reasons.set(m, byReason);
      const key = `${r.status}\u0000${r.reason ?? ''}`;
      const found = byReason.get(key);
      if (found) found.count += r.n;
      else byReason.set(key, { status: r.status, reason: r.reason ?? '', count: r.n });
    }
  }
  for (const [m, byReason] of reasons) {
    m.failReasons = [...byReason.values()].sort((a, b) => b.count - a.count || (a.reason < b.reason ? -1 : a.reason > b.reason ? 1 : 0)).slice(0, 10);
  }

  for (const r of people.rows) {
    const m = at(r.message_id, r.variant_id, r.level);
    if (!m) continue;
    if (r.level !== 4) {
      m.delivered += num(r.seen);
      m.impressions = num(r.impressions);
      m.opens = num(r.opens);
      m.clicks = num(r.clicks);
    }
    // The total's conversions and revenue are the deduplicated ones (level 4), not the sum over messages (level 3).
    if (r.level === 3) continue;
    m.conversionsDirect = num(r.conv_direct);
    m.conversionsIndirect = num(r.conv_indirect);
    m.revenueDirect = num(r.rev_direct);
    m.revenueIndirect = num(r.rev_indirect);
  }

  for (const r of redeems.rows) {
    const m = at(r.message_id, r.variant_id, r.level);
    if (m) m.redeems = num(r.redeems);
  }

  for (const f of byMessage.values()) for (const m of [f.total, ...Object.values(f.variants)]) m.ctr = ctrOf(m);
  all.ctr = ctrOf(all);
  return { byMessage, all };
}

/** clicks / delivered (null when nothing was delivered). */
export const ctrOf = (m: Pick<MessageKpis, 'clicks' | 'delivered'>): number | null => (m.delivered > 0 ? m.clicks / m.delivered : null);

/**
 * One message's metrics, total and per variant (what the message screen and the A/B analysis read).
 * The caller has checked the message belongs to the app and may be seen.
 */
export async function messageMetrics(db: Queryable, p: { appId: string; messageId: string; range?: InstantRange }): Promise<MessageMetrics> {
  const conversion = (await conversionsOf(db, p.appId, [p.messageId])).get(p.messageId) ?? conversionOf(undefined);
  const figures = (await figuresOfMessages(db, p.appId, [{ id: p.messageId, conversion }], p.range)).byMessage.get(p.messageId) ?? { total: emptyMetrics(), variants: {} };
  return { conversion, total: figures.total, variants: figures.variants, at: new Date().toISOString() };
}
