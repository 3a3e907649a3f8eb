/**
 * The metrics of messages and their variants, computed in SQL from the outbox (sents, delivered,
 * fails), the interactions (impressions, opens, clicks), the redemptions and the events
 * (conversions and revenue). Definitions: shared schemas/messageAnalytics.ts and
 * message/conversion.ts. Test sends never count (outbox `test`; the e-mail tracking records
 * nothing for them). Live while sending: every call reads the tables as they are.
 *
 * Per person and message: `reached_at` is their first delivery or interaction, `engaged_at` their
 * first open or click. A goal or purchase event is direct when it falls within the window after
 * `engaged_at`, else indirect when within the window after `reached_at`. A person converts once
 * (direct wins); revenue adds every purchase in those windows, each once.
 *
 * Reads use migration 023's indexes (the outbox by message, sent rows by time); a person's events
 * are read through events_app_person_time, bounded by their window.
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
 * The figures of several messages of one app over a range (deliveries and interactions in it; their
 * conversions may fall after it, within the window). Messages with nothing get zeros.
 */
export async function figuresOf(db: Queryable, appId: string, messages: readonly MessageRef[], range?: InstantRange): Promise<Map<string, MessageFigures>> {
  const out = new Map<string, MessageFigures>(messages.map((m) => [m.id, { total: emptyMetrics(), variants: {} }]));
  if (messages.length === 0) return out;
  const { from, to } = bounds(range);
  const ids = messages.map((m) => m.id);
  const at = (messageId: string, variantId: string | null, whole: boolean): Metrics | undefined => {
    const f = out.get(messageId);
    if (!f) return undefined;
    if (whole) return f.total;
    if (variantId === null) return undefined;
    return (f.variants[variantId] ??= emptyMetrics());
  };

  const sends = await db.query<{ message_id: string; variant_id: string | null; whole: number; sents: string; delivered: string; fails: string }>(
    `SELECT o.message_id, o.variant_id, grouping(o.variant_id) AS whole,
            count(*) FILTER (WHERE o.status = 'sent') AS sents,
            count(*) FILTER (WHERE o.status = 'sent' AND o.channel <> 'inApp') AS delivered,
            count(*) FILTER (WHERE o.status IN ('failed', 'retired')) AS fails
       FROM message_outbox o
      WHERE o.message_id = ANY($2::uuid[]) AND o.app_id = $1 AND NOT o.test AND o.status IN ('sent', 'failed', 'retired')
        AND coalesce(o.sent_at, o.created_at) >= $3::timestamptz AND coalesce(o.sent_at, o.created_at) < $4::timestamptz
      GROUP BY GROUPING SETS ((o.message_id), (o.message_id, o.variant_id))`, [appId, ids, from, to]);
  for (const r of sends.rows) {
    const m = at(r.message_id, r.variant_id, r.whole === 1);
    if (!m) continue;
    m.sents = num(r.sents);
    m.delivered += num(r.delivered);
    m.fails = num(r.fails);
  }

  const reasons = await db.query<{ message_id: string; variant_id: string | null; whole: number; status: FailReason['status']; reason: string; count: number }>(
    `SELECT f.message_id, f.variant_id, grouping(f.variant_id) AS whole, f.status, f.reason, count(*)::int AS count
       FROM (SELECT o.message_id, o.variant_id, o.status, ${REASON} AS reason
               FROM message_outbox o
              WHERE o.message_id = ANY($2::uuid[]) AND o.app_id = $1 AND NOT o.test AND o.status IN ('failed', 'retired')
                AND coalesce(o.sent_at, o.created_at) >= $3::timestamptz AND coalesce(o.sent_at, o.created_at) < $4::timestamptz) f
      GROUP BY GROUPING SETS ((f.message_id, f.status, f.reason), (f.message_id, f.variant_id, f.status, f.reason))
      ORDER BY count DESC, f.reason`, [appId, ids, from, to]);
  for (const r of reasons.rows) {
    const m = at(r.message_id, r.variant_id, r.whole === 1);
    if (m && m.failReasons.length < 10) m.failReasons.push({ status: r.status, reason: r.reason, count: r.count });
  }

  const people = await db.query<{
    message_id: string; variant_id: string | null; whole: number; seen: string; impressions: string; opens: string; clicks: string;
    conv_direct: string; conv_indirect: string; rev_direct: string | null; rev_indirect: string | null;
  }>(
    `WITH m AS (SELECT * FROM unnest($2::uuid[], $5::text[], $6::int[]) AS m(id, goal, days)),
     x AS (
       SELECT o.message_id, o.person_id, o.variant_id, 'sent' AS kind, o.channel, o.sent_at AS at, true AS sent
         FROM message_outbox o
        WHERE o.message_id = ANY($2::uuid[]) AND o.app_id = $1 AND NOT o.test AND o.status = 'sent'
          AND o.sent_at >= $3::timestamptz AND o.sent_at < $4::timestamptz
       UNION ALL
       SELECT m.id, i.person_id, i.variant_id, i.kind, i.channel, i.event_time, false
         FROM m JOIN message_interactions i ON i.app_id = $1 AND i.message_id = m.id::text
        WHERE i.kind IN ('impression', 'open', 'click') AND i.event_time >= $3::timestamptz AND i.event_time < $4::timestamptz),
     pp AS (
       SELECT x.message_id, x.person_id,
              coalesce(min(x.variant_id) FILTER (WHERE x.sent), min(x.variant_id)) AS variant_id,
              min(x.at) AS reached_at, min(x.at) FILTER (WHERE x.kind IN ('open', 'click')) AS engaged_at,
              bool_or(x.kind = 'impression' AND x.channel IN ('inapp', 'native')) AS seen,
              bool_or(x.kind = 'impression') AS impressed, bool_or(x.kind = 'open') AS opened, bool_or(x.kind = 'click') AS clicked
         FROM x GROUP BY x.message_id, x.person_id),
     conv AS (
       SELECT pp.message_id, pp.person_id,
              bool_or(e.name = m.goal AND e.direct) AS direct, bool_or(e.name = m.goal AND NOT e.direct) AS indirect,
              sum(e.revenue) FILTER (WHERE e.name = $7 AND e.direct) AS rev_direct,
              sum(e.revenue) FILTER (WHERE e.name = $7 AND NOT e.direct) AS rev_indirect
         FROM pp JOIN m ON m.id = pp.message_id
        CROSS JOIN LATERAL (
          SELECT ev.name, ev.revenue,
                 (pp.engaged_at IS NOT NULL AND ev.event_time >= pp.engaged_at AND ev.event_time < pp.engaged_at + make_interval(days => m.days)) AS direct,
                 ev.event_time < pp.reached_at + make_interval(days => m.days) AS in_reach
            FROM events ev
           WHERE ev.app_id = $1 AND ev.person_id = pp.person_id AND ev.name IN (m.goal, $7)
             AND ev.event_time >= pp.reached_at
             AND ev.event_time < coalesce(pp.engaged_at, pp.reached_at) + make_interval(days => m.days)) e
        WHERE e.direct OR e.in_reach
        GROUP BY pp.message_id, pp.person_id)
     SELECT pp.message_id, pp.variant_id, grouping(pp.variant_id) AS whole,
            count(*) FILTER (WHERE pp.seen) AS seen, count(*) FILTER (WHERE pp.impressed) AS impressions,
            count(*) FILTER (WHERE pp.opened) AS opens, count(*) FILTER (WHERE pp.clicked) AS clicks,
            count(*) FILTER (WHERE c.direct) AS conv_direct, count(*) FILTER (WHERE c.indirect AND NOT c.direct) AS conv_indirect,
            sum(c.rev_direct) AS rev_direct, sum(c.rev_indirect) AS rev_indirect
       FROM pp LEFT JOIN conv c ON c.message_id = pp.message_id AND c.person_id = pp.person_id
      GROUP BY GROUPING SETS ((pp.message_id), (pp.message_id, pp.variant_id))`,
    [appId, ids, from, to, messages.map((m) => m.conversion.eventName), messages.map((m) => m.conversion.windowDays), builtInEventName('transaction')]);
  for (const r of people.rows) {
    const m = at(r.message_id, r.variant_id, r.whole === 1);
    if (!m) continue;
    m.delivered += num(r.seen);
    m.impressions = num(r.impressions);
    m.opens = num(r.opens);
    m.clicks = num(r.clicks);
    m.conversionsDirect = num(r.conv_direct);
    m.conversionsIndirect = num(r.conv_indirect);
    m.revenueDirect = num(r.rev_direct);
    m.revenueIndirect = num(r.rev_indirect);
  }

  const redeems = await db.query<{ message_id: string; variant_id: string | null; whole: number; redeems: string }>(
    `SELECT r.message_id, r.variant_id, grouping(r.variant_id) AS whole, count(*) AS redeems
       FROM message_redemptions r
      WHERE r.message_id = ANY($2::uuid[]) AND r.app_id = $1 AND r.at >= $3::timestamptz AND r.at < $4::timestamptz
      GROUP BY GROUPING SETS ((r.message_id), (r.message_id, r.variant_id))`, [appId, ids, from, to]);
  for (const r of redeems.rows) {
    const m = at(r.message_id, r.variant_id, r.whole === 1);
    if (m) m.redeems = num(r.redeems);
  }

  for (const f of out.values()) for (const m of [f.total, ...Object.values(f.variants)]) m.ctr = ctrOf(m);
  return out;
}

/** clicks / delivered (null when nothing was delivered). */
export const ctrOf = (m: Pick<MessageKpis, 'clicks' | 'delivered'>): number | null => (m.delivered > 0 ? m.clicks / m.delivered : null);

/**
 * One message's metrics, total and per variant (what the message screen and the A/B analysis read).
 * The caller has checked the message belongs to the app and may be seen.
 */
export async function messageMetrics(db: Queryable, p: { appId: string; messageId: string; range?: InstantRange }): Promise<MessageMetrics> {
  const conversion = (await conversionsOf(db, p.appId, [p.messageId])).get(p.messageId) ?? conversionOf(undefined);
  const figures = (await figuresOf(db, p.appId, [{ id: p.messageId, conversion }], p.range)).get(p.messageId) ?? { total: emptyMetrics(), variants: {} };
  return { conversion, total: figures.total, variants: figures.variants, at: new Date().toISOString() };
}
