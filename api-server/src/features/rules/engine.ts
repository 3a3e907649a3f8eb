/**
 * What automatic rules do (rules/model.ts says what each kind means). Three kinds of work, each a
 * short transaction on locked rows, so any number of processes share them and a process that dies
 * mid-way loses nothing and sends nothing twice:
 *
 * - `runDailyRules`: time-based rules whose send hour has come today (the app's clock) and whose
 *   day is not done. A day's run is a `rule_occurrences` row: each page of matching people is
 *   queued in the transaction that moves its cursor, under the row's lock (SKIP LOCKED: one
 *   process per rule and day), and the last page marks it finished. Keys
 *   `r:<ruleId>:<personId>:<YYYY-MM-DD>` make even a repeated page harmless.
 * - `consumeInbox`: the `trigger_inbox` rows of consumer `rules` that ingestion wrote; leased
 *   (FOR UPDATE SKIP LOCKED), acted on and deleted in one transaction. Keys
 *   `r:<ruleId>:<personId>:<clientId of the event>`.
 * - `consumeRedemptions`: coupon rules read the app's coupon redemptions after their cursor
 *   (redemptions come through the SDK's redeem call, not ingestion). Keys use the redemption's
 *   client id.
 *
 * Nothing here reads a clock: `now` is passed in (the loop's injectable clock).
 */
import { eventMatches, isTimeRule, numberOf, ruleSendKey, PURCHASE_EVENT, type RuleTrigger, type TagOperator } from '@gd/shared/rules/model';
import type { TagValueType } from '@gd/shared/schemas/tags';
import { tx, type Db, type DbClient, type Queryable } from '../../db/pool.ts';
import { enqueueSends, type SendRequest, type SendResult } from '../delivery/enqueue.ts';

/** People queued per transaction of a daily run. */
export const PAGE = 500;
/** Inbox rows acted on per transaction. */
export const INBOX_BATCH = 200;

interface RunningRule { id: string; app_id: string; account_id: string; trigger: RuleTrigger; message_id: string; activated_at: Date | null }

/** Records the queued sends of a rule and its last run, in the caller's transaction. */
async function recordSends(client: DbClient, rule: RunningRule, sent: { personId: string; occasion: string }[], now: Date): Promise<void> {
  if (sent.length) {
    await client.query(
      `INSERT INTO rule_sends (rule_id, app_id, person_id, occasion, at)
       SELECT $1, $2, x.person_id, x.occasion, $5 FROM unnest($3::bigint[], $4::text[]) AS x(person_id, occasion)
       ON CONFLICT DO NOTHING`,
      [rule.id, rule.app_id, sent.map((s) => s.personId), sent.map((s) => s.occasion), now]);
  }
  await client.query('UPDATE rules SET last_run_at = $2, sends = sends + $3 WHERE id = $1', [rule.id, now, sent.length]);
}

const request = (rule: RunningRule, personId: string, occasion: string): SendRequest => ({
  appId: rule.app_id, accountId: rule.account_id, messageId: rule.message_id, personId, origin: 'automaticRule',
  idempotencyKey: ruleSendKey(rule.id, personId, occasion),
});

const queuedOf = (requests: readonly { personId: string; occasion: string }[], results: readonly SendResult[]) =>
  requests.filter((_, i) => results[i]?.status === 'queued');

// ---------------------------------------------------------------------------------------------
// Time-based rules, once a day at the send hour.

interface DueRule extends RunningRule { time_zone: string; day: string }

/** Active time-based rules whose send hour has come today on their app's clock, that were active then, and whose day is not done. */
export async function dueDailyRules(db: Queryable, now: Date): Promise<DueRule[]> {
  const { rows } = await db.query<DueRule>(
    `WITH c AS (
       SELECT r.id, r.app_id, r.account_id, r.trigger, r.message_id, r.activated_at, r.send_hour, a.timezone AS time_zone,
              ($1::timestamptz AT TIME ZONE a.timezone) AS local
         FROM rules r JOIN apps a ON a.id = r.app_id
        WHERE r.status = 'active' AND r.deleted_at IS NULL AND r.send_hour IS NOT NULL)
     SELECT id, app_id, account_id, trigger, message_id, activated_at, time_zone, to_char(local, 'YYYY-MM-DD') AS day
       FROM c
      WHERE local::time >= make_time(send_hour, 0, 0)
        AND activated_at <= ((local::date + make_time(send_hour, 0, 0)) AT TIME ZONE time_zone)
        AND NOT EXISTS (SELECT 1 FROM rule_occurrences o WHERE o.rule_id = c.id AND o.day = c.local::date AND o.finished_at IS NOT NULL)
      ORDER BY id`,
    [now]);
  return rows;
}

const isLeap = (year: number) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);

const TAG_COLUMN: Record<TagValueType, { column: string; cast: string }> = {
  text: { column: 'pt.value_text', cast: 'text' },
  number: { column: 'pt.value_number', cast: 'numeric' },
  date: { column: 'pt.value_date', cast: 'date' },
};
const TAG_COMPARE: Record<TagOperator, (column: string, value: string) => string> = {
  equals: (c, v) => `${c} = ${v}`,
  not_equals: (c, v) => `${c} <> ${v}`,
  contains: (c, v) => `strpos(lower(${c}), lower(${v})) > 0`,
  greater_than: (c, v) => `${c} > ${v}`,
  less_than: (c, v) => `${c} < ${v}`,
};

/** The next page of people of the rule's day after `cursor`, by id. */
async function dayPage(client: Queryable, rule: DueRule, cursor: string): Promise<string[]> {
  const t = rule.trigger;
  const base = [rule.app_id, cursor, PAGE];
  const live = 'p.app_id = $1 AND p.id > $2 AND p.merged_into IS NULL';
  let sql: string;
  let values: unknown[];
  switch (t.kind) {
    case 'birthday': {
      // Today's month and day; on 28 February of a year without a 29th, the 29 February birthdays too.
      const monthDay = rule.day.slice(5);
      const leapDay = monthDay === '02-28' && !isLeap(Number(rule.day.slice(0, 4)));
      sql = `SELECT p.id::text FROM people p WHERE ${live} AND p.birthday IS NOT NULL
               AND (to_char(p.birthday, 'MM-DD') = $4 OR ($5 AND to_char(p.birthday, 'MM-DD') = '02-29')) ORDER BY p.id LIMIT $3`;
      values = [...base, monthDay, leapDay];
      break;
    }
    case 'registered_yesterday':
      sql = `SELECT p.id::text FROM people p WHERE ${live}
               AND p.registered_at >= (($4::date - 1)::timestamp AT TIME ZONE $5) AND p.registered_at < ($4::date::timestamp AT TIME ZONE $5)
             ORDER BY p.id LIMIT $3`;
      values = [...base, rule.day, rule.time_zone];
      break;
    case 'tag_value': {
      const tag = (await client.query<{ value_type: TagValueType }>(`SELECT value_type FROM tags WHERE app_id = $1 AND id = $2 AND kind = 'user_tag'`, [rule.app_id, t.tagId])).rows[0];
      if (!tag) return [];
      const { column, cast } = TAG_COLUMN[tag.value_type];
      const value = tag.value_type === 'number' ? numberOf(t.value) : String(t.value);
      if (value === null) return [];
      // Reached once per value given: not again until the tag is set again after the last send.
      sql = `SELECT p.id::text FROM people p
               JOIN person_tags pt ON pt.app_id = p.app_id AND pt.person_id = p.id AND pt.tag_id = $4
              WHERE ${live} AND ${column} IS NOT NULL AND ${TAG_COMPARE[t.operator](column, `$5::${cast}`)}
                AND NOT EXISTS (SELECT 1 FROM rule_sends s WHERE s.rule_id = $6 AND s.person_id = p.id AND s.at >= pt.updated_at)
              ORDER BY p.id LIMIT $3`;
      values = [...base, t.tagId, value, rule.id];
      break;
    }
    default:
      return [];
  }
  return (await client.query<{ id: string }>(sql, values)).rows.map((r) => r.id);
}

/**
 * One page of one due rule's day: claims the day (or resumes it), queues the next people, moves
 * the cursor and, on the last page, finishes the day. Answers whether there is more to do
 * (false: done, or another process holds the day, or the rule stopped being active).
 */
export async function runDayPage(db: Db, rule: DueRule, now: Date): Promise<boolean> {
  return tx(db, async (client) => {
    await client.query(
      `INSERT INTO rule_occurrences (rule_id, app_id, day, started_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`, [rule.id, rule.app_id, rule.day, now]);
    const occurrence = (await client.query<{ cursor: string; finished: boolean }>(
      `SELECT cursor::text, finished_at IS NOT NULL AS finished FROM rule_occurrences WHERE rule_id = $1 AND day = $2 FOR UPDATE SKIP LOCKED`, [rule.id, rule.day])).rows[0];
    if (!occurrence || occurrence.finished) return false;
    // Paused, deleted or turned into an event rule since it was found due: the day stops here.
    const still = (await client.query<{ trigger: RuleTrigger; message_id: string }>(
      `SELECT trigger, message_id FROM rules WHERE id = $1 AND status = 'active' AND deleted_at IS NULL AND send_hour IS NOT NULL`, [rule.id])).rows[0];
    if (!still || !isTimeRule(still.trigger.kind)) return false;
    const current: DueRule = { ...rule, trigger: still.trigger, message_id: still.message_id };
    const people = await dayPage(client, current, occurrence.cursor);
    const requests = people.map((personId) => ({ personId, occasion: rule.day }));
    const results = people.length ? await enqueueSends(client, requests.map((r) => request(current, r.personId, r.occasion)), now) : [];
    const queued = queuedOf(requests, results);
    const last = people.length < PAGE;
    await client.query(
      `UPDATE rule_occurrences SET cursor = $3, sent = sent + $4, finished_at = CASE WHEN $5 THEN $6::timestamptz END WHERE rule_id = $1 AND day = $2`,
      [rule.id, rule.day, people.at(-1) ?? occurrence.cursor, queued.length, last, now]);
    await recordSends(client, current, queued, now);
    return !last;
  });
}

/** Every due daily rule, page by page (bounded by `maxPages`); answers the pages run. */
export async function runDailyRules(db: Db, now: Date, maxPages = 50): Promise<number> {
  let pages = 0;
  for (const rule of await dueDailyRules(db, now)) {
    while (pages < maxPages) {
      pages++;
      if (!(await runDayPage(db, rule, now))) break;
    }
    if (pages >= maxPages) break;
  }
  return pages;
}

// ---------------------------------------------------------------------------------------------
// Event rules, from the trigger inbox.

interface InboxRow { id: string; app_id: string; person_id: string; kind: 'event' | 'interaction'; name: string; at: Date; properties: Record<string, unknown>; client_id: string }

async function eventRevenue(client: Queryable, row: InboxRow): Promise<number | null> {
  const given = numberOf(row.properties.revenue);
  if (given !== null) return given;
  const { rows } = await client.query<{ revenue: number | null }>(
    `SELECT revenue::float8 AS revenue FROM events WHERE app_id = $1 AND person_id = $2 AND client_id = $3 AND event_time = $4 LIMIT 1`,
    [row.app_id, row.person_id, row.client_id, row.at]);
  return rows[0]?.revenue ?? null;
}

/** The person's purchase total in the window before this purchase (the purchase itself left out). */
async function totalBefore(client: Queryable, row: InboxRow, days: number | null): Promise<number> {
  const since = days === null ? null : new Date(row.at.getTime() - days * 86_400_000);
  const { rows } = await client.query<{ total: number }>(
    `SELECT coalesce(sum(revenue), 0)::float8 AS total FROM events
      WHERE app_id = $1 AND person_id = $2 AND name = $3 AND event_time <= $4 AND ($5::timestamptz IS NULL OR event_time > $5) AND client_id <> $6`,
    [row.app_id, row.person_id, PURCHASE_EVENT, row.at, since, row.client_id]);
  return rows[0]?.total ?? 0;
}

/** One batch of the inbox: leased, acted on, deleted, in one transaction. Answers the rows consumed. */
export async function consumeInbox(db: Db, now: Date, limit = INBOX_BATCH): Promise<number> {
  return tx(db, async (client) => {
    const { rows } = await client.query<InboxRow>(
      `SELECT id::text, app_id, person_id::text, kind, name, at, properties, client_id FROM trigger_inbox
        WHERE consumer = 'rules' ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`, [limit]);
    if (rows.length === 0) return 0;
    const apps = [...new Set(rows.map((r) => r.app_id))];
    const { rows: rules } = await client.query<RunningRule>(
      `SELECT id, app_id, account_id, trigger, message_id, activated_at FROM rules
        WHERE app_id = ANY($1::uuid[]) AND status = 'active' AND deleted_at IS NULL AND send_hour IS NULL AND kind <> 'coupon_redeemed'
        ORDER BY id`, [apps]);
    const matched: { rule: RunningRule; personId: string; occasion: string }[] = [];
    for (const row of rows) {
      if (row.kind !== 'event') continue;
      for (const rule of rules) {
        if (rule.app_id !== row.app_id) continue;
        const t = rule.trigger;
        const revenue = t.kind === 'spent_at_least' && row.name === PURCHASE_EVENT ? await eventRevenue(client, row) : null;
        const before = t.kind === 'spent_at_least' && t.per === 'total' && row.name === PURCHASE_EVENT ? await totalBefore(client, row, t.days) : 0;
        if (eventMatches(t, { name: row.name, properties: row.properties, revenue }, before)) matched.push({ rule, personId: row.person_id, occasion: row.client_id });
      }
    }
    if (matched.length) {
      const results = await enqueueSends(client, matched.map((m) => request(m.rule, m.personId, m.occasion)), now);
      const byRule = new Map<string, { rule: RunningRule; sent: { personId: string; occasion: string }[] }>();
      matched.forEach((m, i) => {
        const entry = byRule.get(m.rule.id) ?? { rule: m.rule, sent: [] };
        if (results[i]?.status === 'queued') entry.sent.push({ personId: m.personId, occasion: m.occasion });
        byRule.set(m.rule.id, entry);
      });
      for (const { rule, sent } of byRule.values()) await recordSends(client, rule, sent, now);
    }
    await client.query('DELETE FROM trigger_inbox WHERE id = ANY($1::bigint[])', [rows.map((r) => r.id)]);
    return rows.length;
  });
}

// ---------------------------------------------------------------------------------------------
// Coupon rules, from the app's redemptions.

/** Redemptions after each active coupon rule's cursor (since it was activated); answers the redemptions looked at. */
export async function consumeRedemptions(db: Db, now: Date, limit = INBOX_BATCH): Promise<number> {
  return tx(db, async (client) => {
    const { rows: rules } = await client.query<RunningRule & { redemption_cursor: string }>(
      `SELECT id, app_id, account_id, trigger, message_id, activated_at, redemption_cursor::text FROM rules
        WHERE kind = 'coupon_redeemed' AND status = 'active' AND deleted_at IS NULL ORDER BY id LIMIT 50 FOR UPDATE SKIP LOCKED`);
    let seen = 0;
    for (const rule of rules) {
      if (rule.trigger.kind !== 'coupon_redeemed') continue;
      const { rows } = await client.query<{ id: string; person_id: string; client_id: string }>(
        `SELECT id::text, person_id::text, client_id FROM message_redemptions
          WHERE app_id = $1 AND id > $2 AND at >= $3 AND ($4::uuid IS NULL OR message_id = $4) ORDER BY id LIMIT $5`,
        [rule.app_id, rule.redemption_cursor, rule.activated_at ?? now, rule.trigger.messageId, limit]);
      if (rows.length === 0) continue;
      seen += rows.length;
      const requests = rows.map((r) => ({ personId: r.person_id, occasion: r.client_id }));
      const results = await enqueueSends(client, requests.map((r) => request(rule, r.personId, r.occasion)), now);
      await recordSends(client, rule, queuedOf(requests, results), now);
      await client.query('UPDATE rules SET redemption_cursor = $2 WHERE id = $1', [rule.id, rows.at(-1)?.id]);
    }
    return seen;
  });
}
