/**
 * SQL of /behavior/people: search, profile and timeline of one person of an app.
 *
 * Ids: people and devices ids are bigints, selected as text (the pool parses int8 as numbers,
 * which would round ids past 2^53). Merged people (merged_into set) are never listed; asking for
 * one resolves to the person it merged into, following the chain (at most a few hops: only
 * anonymous people merge, into known ones, so in practice one).
 *
 * "Last seen" of a person is the latest `last_seen_at` of their devices: the latest event time the
 * SDK sent, never the time data arrived (migration 012). Null for a person with no event yet (only
 * identified or given a profile): such people come after everyone seen, in any order by last seen.
 *
 * Names: lists (search, recent people, segment and audience samples) carry the person's name,
 * computed here with shared `personName` from only the attribute keys it reads
 * (`nameAttributesSql`), so a list never ships or parses anyone's whole attributes.
 */
import {
  NAME_ATTRIBUTE_KEYS, PEOPLE_LIMITS, builtInEventName, maskPushToken, personName, type PeopleMatch, type PersonDevice, type PersonEventName, type PersonMessage,
  type PersonProfile, type PersonSummary, type PersonSummaryCounts, type PersonTag, type TimelineEvent,
} from '@gd/shared';
import type { Queryable } from '../../db/pool.ts';
import { singleCurrency } from '../analytics/currency.ts';

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** A text as an SQL string literal (for the constant attribute keys below, never for input). */
const sqlText = (text: string): string => `'${text.replace(/'/g, "''")}'`;

/**
 * The attributes shared `personName` reads, of the `people` row aliased `alias`: a small jsonb
 * object of at most NAME_ATTRIBUTE_KEYS (keys the person lacks left out). Select it `AS
 * name_attributes` and read the name with `personName`.
 */
export const nameAttributesSql = (alias: string): string =>
  `jsonb_strip_nulls(jsonb_build_object(${NAME_ATTRIBUTE_KEYS.map((key) => `${sqlText(key)}, ${alias}.attributes -> ${sqlText(key)}`).join(', ')}))`;

interface SummaryRow {
  id: string; customer_id: string | null; email: string | null; device_id: string | null; os: string | null;
  country: string | null; city: string | null; name_attributes: Record<string, unknown> | null; last_seen_at: Date | null;
  match: PeopleMatch;
}

const toSummary = (r: SummaryRow): PersonSummary => ({
  id: r.id, customerId: r.customer_id, email: r.email, name: personName(r.name_attributes), deviceId: r.device_id, os: r.os,
  country: r.country, city: r.city, lastSeenAt: iso(r.last_seen_at), match: r.match,
});

/**
 * The person's latest device activity ("last seen"). No fallback to the row's dates: `updated_at`
 * is when a profile call arrived, not when the person did anything.
 */
const LAST_SEEN = `(SELECT max(d.last_seen_at) FROM devices d WHERE d.app_id = p.app_id AND d.person_id = p.id)`;

/** Escapes LIKE wildcards so a search text is matched literally as a prefix. */
export const likePrefix = (text: string): string => `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Search, in rank order: exact matches (customer id, e-mail case-insensitively, person id, then any
 * device id: SDK install id, IDFA, IDFV, GAID, OAID, push token), then customer ids and e-mails
 * that start with the text. A person matched several ways appears once, with their best match.
 * Device matches resolve merged people to their target (devices move on merge, so this is a
 * safety net). Ties are broken by last seen, newest first.
 *
 * Prefixes walk the (app_id, customer_id) and (app_id, lower(email)) indexes from the text on
 * (every string that starts with the text sorts at or after it) and stop at the limit; a
 * `text_pattern_ops` index would also bound the end of the walk for rare prefixes.
 */
const SEARCH = `
WITH RECURSIVE hits(person_id, match, rank) AS (
  SELECT id, 'customerId', 1 FROM people WHERE app_id = $1 AND customer_id = $2
  UNION ALL SELECT id, 'email', 2 FROM people WHERE app_id = $1 AND lower(email) = lower($2) AND email IS NOT NULL
  UNION ALL SELECT id, 'personId', 3 FROM people WHERE app_id = $1 AND $3::bigint IS NOT NULL AND id = $3::bigint
  UNION ALL SELECT person_id, 'deviceKey', 4 FROM devices WHERE app_id = $1 AND device_key = $2
  UNION ALL SELECT person_id, 'idfa', 5 FROM devices WHERE app_id = $1 AND idfa = $2
  UNION ALL SELECT person_id, 'idfv', 6 FROM devices WHERE app_id = $1 AND idfv = $2
  UNION ALL SELECT person_id, 'gaid', 7 FROM devices WHERE app_id = $1 AND gaid = $2
  UNION ALL SELECT person_id, 'oaid', 8 FROM devices WHERE app_id = $1 AND oaid = $2
  UNION ALL SELECT person_id, 'pushToken', 9 FROM devices WHERE app_id = $1 AND push_token = $2
  UNION ALL (SELECT id, 'customerIdPrefix', 10 FROM people WHERE app_id = $1 AND merged_into IS NULL
               AND customer_id >= $2 AND customer_id LIKE $4 AND customer_id <> $2 ORDER BY customer_id LIMIT $5)
  UNION ALL (SELECT id, 'emailPrefix', 11 FROM people WHERE app_id = $1 AND merged_into IS NULL
               AND lower(email) >= lower($2) AND lower(email) LIKE lower($4) AND lower(email) <> lower($2) ORDER BY lower(email) LIMIT $5)
), resolved(person_id, match, rank, hops) AS (
  SELECT person_id, match, rank, 0 FROM hits
  UNION ALL
  SELECT p.merged_into, r.match, r.rank, r.hops + 1 FROM resolved r
    JOIN people p ON p.app_id = $1 AND p.id = r.person_id
   WHERE p.merged_into IS NOT NULL AND r.hops < 5
), best AS (
  SELECT DISTINCT ON (person_id) person_id, match, rank FROM resolved ORDER BY person_id, rank
)
SELECT p.id::text, p.customer_id, p.email, p.device_id, p.os, p.country, p.city, ${nameAttributesSql('p')} AS name_attributes,
       b.match, ${LAST_SEEN} AS last_seen_at
  FROM best b JOIN people p ON p.app_id = $1 AND p.id = b.person_id AND p.merged_into IS NULL
 ORDER BY b.rank, last_seen_at DESC NULLS LAST, p.id DESC
 LIMIT $5`;

const BIGINT_MAX = 9223372036854775807n;
/** The text as a person id, when it is one (so "#123" style searches by id work too). */
function asPersonId(text: string): string | null {
  const digits = text.replace(/^#/, '');
  return /^[1-9][0-9]{0,18}$/.test(digits) && BigInt(digits) <= BIGINT_MAX ? digits : null;
}

export async function searchPeople(db: Queryable, appId: string, text: string, limit: number = PEOPLE_LIMITS.searchResults): Promise<PersonSummary[]> {
  const { rows } = await db.query<SummaryRow>(SEARCH, [appId, text, asPersonId(text), likePrefix(text), limit]);
  return rows.map(toSummary);
}

/**
 * The people seen most recently (the list shown before anything is typed). Devices carry the
 * activity time, so the latest devices are taken and folded per person; people never seen (no
 * event yet) come last. Cost: a top-N sort over the app's devices.
 */
export async function recentPeople(db: Queryable, appId: string, limit: number = PEOPLE_LIMITS.searchResults): Promise<PersonSummary[]> {
  const { rows } = await db.query<SummaryRow>(
    `WITH seen AS (
       SELECT person_id, max(last_seen_at) AS last_seen_at FROM devices WHERE app_id = $1
        GROUP BY person_id ORDER BY 2 DESC NULLS LAST, person_id DESC LIMIT $2
     )
     SELECT p.id::text, p.customer_id, p.email, p.device_id, p.os, p.country, p.city, ${nameAttributesSql('p')} AS name_attributes,
            'recent' AS match, s.last_seen_at
       FROM seen s JOIN people p ON p.app_id = $1 AND p.id = s.person_id AND p.merged_into IS NULL
      ORDER BY s.last_seen_at DESC NULLS LAST, p.id DESC`,
    [appId, limit],
  );
  return rows.map(toSummary);
}

/** The person an id stands for: itself, or the end of its merge chain. Null when not in this app. */
export async function resolvePerson(db: Queryable, appId: string, id: string): Promise<string | null> {
  const { rows } = await db.query<{ id: string }>(
    `WITH RECURSIVE chain(id, merged_into, hops) AS (
       SELECT id, merged_into, 0 FROM people WHERE app_id = $1 AND id = $2
       UNION ALL
       SELECT p.id, p.merged_into, c.hops + 1 FROM chain c JOIN people p ON p.app_id = $1 AND p.id = c.merged_into WHERE c.hops < 5
     )
     SELECT id::text FROM chain WHERE merged_into IS NULL ORDER BY hops DESC LIMIT 1`,
    [appId, id],
  );
  return rows[0]?.id ?? null;
}

interface ProfileRow {
  id: string; customer_id: string | null; email: string | null; device_id: string | null; os: string | null;
  os_version: string | null; ip: string | null; carrier: string | null; app_version: string | null; sdk_version: string | null;
  install_at: Date | null; uninstall_at: Date | null; registered_at: Date | null; first_login_at: Date | null;
  last_login_at: Date | null; last_session_at: Date | null; first_purchase_at: Date | null; last_purchase_at: Date | null;
  conversions: number; revenue: number; revenue_currencies: (string | null)[]; latitude: number | null; longitude: number | null; country: string | null;
  state: string | null; city: string | null; inactive: boolean; referrer_id: string | null; from_campaign: string | null;
  from_source: string | null; birthday: string | null; attributes: Record<string, unknown>; created_at: Date; updated_at: Date;
}

export async function findProfile(db: Queryable, appId: string, id: string): Promise<PersonProfile | null> {
  const { rows } = await db.query<ProfileRow>(
    `SELECT id::text, customer_id, email, device_id, os, os_version, host(ip) AS ip, carrier, app_version, sdk_version,
            install_at, uninstall_at, registered_at, first_login_at, last_login_at, last_session_at, first_purchase_at,
            last_purchase_at, conversions, revenue::float8 AS revenue, latitude, longitude, country, state, city, inactive,
            referrer_id, from_campaign, from_source, to_char(birthday, 'YYYY-MM-DD') AS birthday, attributes, created_at, updated_at,
            ARRAY(SELECT DISTINCT rtrim(e.currency) FROM events e
                   WHERE e.app_id = $1 AND e.person_id = people.id AND e.name = $3 AND e.revenue <> 0 LIMIT 2) AS revenue_currencies
       FROM people WHERE app_id = $1 AND id = $2`,
    // The profile's revenue adds up the person's transactions (ingestion): their currency is its currency.
    [appId, id, builtInEventName('transaction')],
  );
  const r = rows[0];
  if (!r) return null;
  return {
    id: r.id, customerId: r.customer_id, email: r.email, deviceId: r.device_id, os: r.os, osVersion: r.os_version, ip: r.ip,
    carrier: r.carrier, appVersion: r.app_version, sdkVersion: r.sdk_version, installAt: iso(r.install_at),
    uninstallAt: iso(r.uninstall_at), registeredAt: iso(r.registered_at), firstLoginAt: iso(r.first_login_at),
    lastLoginAt: iso(r.last_login_at), lastSessionAt: iso(r.last_session_at), firstPurchaseAt: iso(r.first_purchase_at),
    lastPurchaseAt: iso(r.last_purchase_at), conversions: r.conversions, revenue: r.revenue,
    revenueCurrency: singleCurrency(r.revenue_currencies), latitude: r.latitude,
    longitude: r.longitude, country: r.country, state: r.state, city: r.city, inactive: r.inactive, referrerId: r.referrer_id,
    fromCampaign: r.from_campaign, fromSource: r.from_source, birthday: r.birthday, attributes: r.attributes,
    createdAt: r.created_at.toISOString(), updatedAt: r.updated_at.toISOString(),
  };
}

export async function personTags(db: Queryable, appId: string, personId: string): Promise<PersonTag[]> {
  const { rows } = await db.query<{
    id: string; name: string; kind: PersonTag['kind']; value_type: PersonTag['valueType'];
    value_text: string | null; value_number: number | null; value_date: string | null; updated_at: Date;
  }>(
    `SELECT t.id, t.name, t.kind, t.value_type, pt.value_text, pt.value_number::float8 AS value_number,
            to_char(pt.value_date, 'YYYY-MM-DD') AS value_date, pt.updated_at
       FROM person_tags pt JOIN tags t ON t.id = pt.tag_id
      WHERE pt.app_id = $1 AND pt.person_id = $2
      ORDER BY t.kind, lower(t.name)`,
    [appId, personId],
  );
  return rows.map((r) => ({
    id: r.id, name: r.name, kind: r.kind, valueType: r.value_type,
    value: r.value_type === 'number' ? r.value_number : r.value_type === 'date' ? r.value_date : r.value_text,
    updatedAt: r.updated_at.toISOString(),
  }));
}

export async function personDevices(db: Queryable, appId: string, personId: string): Promise<PersonDevice[]> {
  const { rows } = await db.query<{
    id: string; device_key: string; idfa: string | null; idfv: string | null; gaid: string | null; oaid: string | null;
    push_token: string | null; push_enabled: boolean | null; os: string | null; os_version: string | null;
    app_version: string | null; sdk_version: string | null; model: string | null; first_seen_at: Date; last_seen_at: Date;
  }>(
    // A device with no event yet shows when it was first seen (its first identify or profile call),
    // but is listed after the devices seen (most recently first): the order reads the stored
    // column, `devices.last_seen_at` (a bare `last_seen_at` would name the shown one).
    `SELECT id::text, device_key, idfa, idfv, gaid, oaid, push_token, push_enabled, os, os_version, app_version,
            sdk_version, model, first_seen_at, coalesce(last_seen_at, first_seen_at) AS last_seen_at
       FROM devices WHERE app_id = $1 AND person_id = $2
      ORDER BY devices.last_seen_at DESC NULLS LAST, devices.first_seen_at DESC, devices.id DESC`,
    [appId, personId],
  );
  return rows.map((r) => ({
    id: r.id, deviceKey: r.device_key, idfa: r.idfa, idfv: r.idfv, gaid: r.gaid, oaid: r.oaid,
    pushToken: maskPushToken(r.push_token), pushEnabled: r.push_enabled, os: r.os, osVersion: r.os_version,
    appVersion: r.app_version, sdkVersion: r.sdk_version, model: r.model,
    firstSeenAt: r.first_seen_at.toISOString(), lastSeenAt: r.last_seen_at.toISOString(),
  }));
}

/** Interactions grouped by channel, campaign and message, the latest first. */
export async function personMessages(db: Queryable, appId: string, personId: string): Promise<PersonMessage[]> {
  const { rows } = await db.query<{
    channel: PersonMessage['channel']; campaign_id: string | null; message_id: string | null;
    impressions: number; clicks: number; opens: number; dismissed: number; last_at: Date;
  }>(
    `SELECT channel, campaign_id, message_id,
            count(*) FILTER (WHERE kind = 'impression') AS impressions, count(*) FILTER (WHERE kind = 'click') AS clicks,
            count(*) FILTER (WHERE kind = 'open') AS opens, count(*) FILTER (WHERE kind = 'dismissed_click') AS dismissed,
            max(event_time) AS last_at
       FROM message_interactions WHERE app_id = $1 AND person_id = $2
      GROUP BY channel, campaign_id, message_id
      ORDER BY last_at DESC LIMIT 500`,
    [appId, personId],
  );
  return rows.map((r) => ({
    channel: r.channel, campaignId: r.campaign_id, messageId: r.message_id, impressions: r.impressions,
    clicks: r.clicks, opens: r.opens, dismissed: r.dismissed, lastAt: r.last_at.toISOString(),
  }));
}

export async function personEventNames(db: Queryable, appId: string, personId: string): Promise<PersonEventName[]> {
  const { rows } = await db.query<{ name: string; events: number }>(
    `SELECT name, count(*) AS events FROM events WHERE app_id = $1 AND person_id = $2 GROUP BY name ORDER BY 2 DESC, 1`,
    [appId, personId],
  );
  return rows.map((r) => ({ name: r.name, events: r.events }));
}

/**
 * Sessions counted; first seen is the earliest of the person's row, install, devices and events
 * (late events can predate the first batch received); last seen is the devices' latest activity
 * (their latest event time; null before any event).
 */
export async function personCounts(db: Queryable, appId: string, personId: string, events: number): Promise<PersonSummaryCounts> {
  const { rows } = await db.query<{ sessions: number; first_seen_at: Date | null; last_seen_at: Date | null }>(
    `SELECT (SELECT count(*) FROM sessions WHERE app_id = $1 AND person_id = $2) AS sessions,
            least(p.created_at, p.install_at, (SELECT min(first_seen_at) FROM devices WHERE app_id = $1 AND person_id = $2),
                  (SELECT min(event_time) FROM events WHERE app_id = $1 AND person_id = $2)) AS first_seen_at,
            (SELECT max(last_seen_at) FROM devices WHERE app_id = $1 AND person_id = $2) AS last_seen_at
       FROM people p WHERE p.app_id = $1 AND p.id = $2`,
    [appId, personId],
  );
  const r = rows[0];
  return { events, sessions: r?.sessions ?? 0, firstSeenAt: iso(r?.first_seen_at ?? null), lastSeenAt: iso(r?.last_seen_at ?? null) };
}

interface EventRow {
  client_id: string; name: string; event_time: Date; cursor_time: string; received_at: Date; properties: Record<string, unknown>;
  revenue: number | null; currency: string | null; source: string | null; campaign: string | null; session_id: string | null;
  device_id: string; os: string | null; app_version: string | null; country: string | null;
}

export interface TimelinePage { events: TimelineEvent[]; last: { time: string; clientId: string } | null; more: boolean }

/**
 * One page of a person's events, newest first, after the keyset position (event time, client id):
 * stable under concurrent inserts of older or newer events, and each event appears exactly once.
 * The cursor time is Postgres' own text with microseconds, so no precision is lost in JavaScript.
 */
export async function timelinePage(
  db: Queryable, appId: string, personId: string, opts: { after: { time: string; clientId: string } | null; name: string | null; limit: number },
): Promise<TimelinePage> {
  const { rows } = await db.query<EventRow>(
    `SELECT client_id, name, event_time, to_char(event_time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS cursor_time,
            received_at, properties, revenue::float8 AS revenue, currency, source, campaign, session_id, device_id::text,
            os, app_version, country
       FROM events
      WHERE app_id = $1 AND person_id = $2 AND ($3::text IS NULL OR name = $3)
        AND ($4::timestamptz IS NULL OR (event_time, client_id) < ($4::timestamptz, $5::text))
      ORDER BY event_time DESC, client_id DESC
      LIMIT $6`,
    [appId, personId, opts.name, opts.after?.time ?? null, opts.after?.clientId ?? null, opts.limit + 1],
  );
  const more = rows.length > opts.limit;
  const page = more ? rows.slice(0, opts.limit) : rows;
  const tail = page.at(-1);
  return {
    events: page.map((r) => ({
      id: r.client_id, name: r.name, time: r.event_time.toISOString(), receivedAt: r.received_at.toISOString(),
      properties: r.properties, revenue: r.revenue, currency: r.currency?.trim() ?? null, source: r.source, campaign: r.campaign,
      sessionId: r.session_id, deviceId: r.device_id, os: r.os, appVersion: r.app_version, country: r.country,
    })),
    last: tail ? { time: tail.cursor_time, clientId: tail.client_id } : null,
    more,
  };
}
