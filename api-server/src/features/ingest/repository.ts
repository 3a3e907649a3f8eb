/**
 * SQL of the ingestion path. A batch is one short transaction of usually three round trips
 * (BEGIN with its settings, BATCH_WRITE, COMMIT): the device and its person, the events
 * deduplicated against `event_ids`, the built-in events' effects on the person, sessions and
 * lifecycle, the daily rollup and the explore structures of migration 034 (ROLLUP_CTES), all in one
 * prepared statement. This is the hottest write path
 * of the product: every extra round trip cost ~1/3 of the throughput (docs/BENCHMARKS.md).
 *
 * A device's first and last seen are times of its activity, as the SDK stamped its events, not when
 * the data arrived (issue 11; migration 012): last seen is the latest event time the device sent,
 * never later than the arrival (`activitySpan` in prepare.ts), and only ever moves forward, so a
 * late batch of an offline SDK, or batches arriving out of order, never make it go back; first
 * seen only ever moves back. Identify and profile calls say nothing about when the person was
 * active (an SDK may send them long after the fact): they never move last seen, and a device they
 * create has none (NULL) until its first event arrives.
 */
import { builtInEventName, type DeviceContext } from '@gd/shared';
import { statement, type Queryable } from '../../db/pool.ts';
import { activitySpan, type ActivitySpan, type EventRow, type InteractionRow } from './prepare.ts';

export interface IngestApp { id: string; accountId: string; timezone: string; createdAt: Date }

export async function findAppByKey(db: Queryable, key: string): Promise<IngestApp | null> {
  const { rows } = await db.query<{ id: string; account_id: string; timezone: string; created_at: Date }>(
    statement('ingest_app_by_key_v2', 'SELECT id, account_id, timezone, created_at FROM apps WHERE app_key = $1', [key]),
  );
  const row = rows[0];
  return row ? { id: row.id, accountId: row.account_id, timezone: row.timezone, createdAt: row.created_at } : null;
}

export async function ensureMonthPartitions(db: Queryable, from: Date, to: Date): Promise<void> {
  await db.query('SELECT gd_ensure_month_partitions($1, $2)', [from, to]);
}

export interface DeviceRef { deviceId: string; personId: string; created: boolean }

/**
 * The device upsert as a CTE `d` (id, person_id, created): $1 app, $2 device key, $3–$13 the
 * device's identifiers and facts, $14 now, $22 the latest time of activity the call shows (NULL:
 * none), $23 the earliest (now for a call without events). A new device gets a new person id; the
 * person row itself is written by the statement that uses `d`. greatest/least ignore NULLs.
 */
const DEVICE_CTE = `
d AS (
  INSERT INTO devices AS dv (app_id, device_key, person_id, idfa, idfv, gaid, oaid, push_token, push_enabled,
                             os, os_version, app_version, sdk_version, model, first_seen_at, last_seen_at)
  VALUES ($1, $2, nextval('people_id_seq'), $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $23, $22)
  ON CONFLICT (app_id, device_key) DO UPDATE SET
    idfa = coalesce(excluded.idfa, dv.idfa), idfv = coalesce(excluded.idfv, dv.idfv),
    gaid = coalesce(excluded.gaid, dv.gaid), oaid = coalesce(excluded.oaid, dv.oaid),
    push_token = coalesce(excluded.push_token, dv.push_token), push_enabled = coalesce(excluded.push_enabled, dv.push_enabled),
    os = coalesce(excluded.os, dv.os), os_version = coalesce(excluded.os_version, dv.os_version),
    app_version = coalesce(excluded.app_version, dv.app_version), sdk_version = coalesce(excluded.sdk_version, dv.sdk_version),
    model = coalesce(excluded.model, dv.model), first_seen_at = least(dv.first_seen_at, excluded.first_seen_at),
    last_seen_at = greatest(dv.last_seen_at, excluded.last_seen_at)
  RETURNING id, person_id, (xmax = 0) AS created
)`;

/** The person's last-known device facts ($2, $9–$12, $15–$21) differ from the stored ones. */
const FACTS_CHANGED = `
  (people.device_id, people.os, people.os_version, people.app_version, people.sdk_version, people.carrier,
   people.country, people.state, people.city, people.latitude, people.longitude, people.ip)
  IS DISTINCT FROM ($2, coalesce($9, people.os), coalesce($10, people.os_version), coalesce($11, people.app_version),
   coalesce($12, people.sdk_version), coalesce($15, people.carrier), coalesce($16, people.country),
   coalesce($17, people.state), coalesce($18, people.city), coalesce($19, people.latitude),
   coalesce($20, people.longitude), coalesce($21::inet, people.ip))`;

const SET_FACTS = `device_id = $2, os = coalesce($9, people.os), os_version = coalesce($10, people.os_version),
  app_version = coalesce($11, people.app_version), sdk_version = coalesce($12, people.sdk_version),
  carrier = coalesce($15, people.carrier), country = coalesce($16, people.country), state = coalesce($17, people.state),
  city = coalesce($18, people.city), latitude = coalesce($19, people.latitude), longitude = coalesce($20, people.longitude),
  ip = coalesce($21::inet, people.ip), updated_at = $14`;

const NEW_PERSON_COLUMNS = `app_id, id, device_id, os, os_version, app_version, sdk_version, carrier, country, state, city,
  latitude, longitude, ip, created_at, updated_at`;
const NEW_PERSON_VALUES = `$1, d.person_id, $2, $9, $10, $11, $12, $15, $16, $17, $18, $19, $20, $21::inet, $14, $14`;

const DEVICE_UPSERT = `
WITH ${DEVICE_CTE}, p AS (
  INSERT INTO people (${NEW_PERSON_COLUMNS}) SELECT ${NEW_PERSON_VALUES} FROM d WHERE d.created
), u AS (
  UPDATE people SET ${SET_FACTS} FROM d
   WHERE NOT d.created AND people.app_id = $1 AND people.id = d.person_id AND ${FACTS_CHANGED}
)
SELECT id::text AS device_id, person_id::text AS person_id, created FROM d`;

const deviceParams = (appId: string, device: DeviceContext, ip: string | null, now: Date, seen: ActivitySpan | null): unknown[] => [
  appId, device.id, device.idfa ?? null, device.idfv ?? null, device.gaid ?? null, device.oaid ?? null,
  device.pushToken ?? null, device.pushEnabled ?? null, device.os ?? null, device.osVersion ?? null,
  device.appVersion ?? null, device.sdkVersion ?? null, device.model ?? null, now, device.carrier ?? null,
  device.country ?? null, device.state ?? null, device.city ?? null, device.latitude ?? null, device.longitude ?? null, ip,
  seen?.last ?? null, seen?.first ?? now,
];

/**
 * Upserts the device and keeps its person's last-known device facts; creates both the first time.
 * For identify and profile calls: they carry no event, so the device's last seen stays as it was.
 */
export async function upsertDevice(db: Queryable, appId: string, device: DeviceContext, ip: string | null, now: Date): Promise<DeviceRef> {
  const { rows } = await db.query<{ device_id: string; person_id: string; created: boolean }>(
    statement('ingest_device_v3', DEVICE_UPSERT, deviceParams(appId, device, ip, now, null)),
  );
  const row = rows[0];
  if (!row) throw new Error('device upsert returned no row');
  return { deviceId: row.device_id, personId: row.person_id, created: row.created };
}

const q = (key: Parameters<typeof builtInEventName>[0]) => `'${builtInEventName(key)}'`;
const [INSTALL, REINSTALL, UNINSTALL, REGISTER, LOGIN, LOGIN2, START, END, TRANSACTION] =
  (['install', 'reinstall', 'uninstall', 'register', 'login', 'login2', 'start_session', 'end_session', 'transaction'] as const).map(q);
const AFFECTS_PERSON = [INSTALL, REINSTALL, UNINSTALL, REGISTER, LOGIN, LOGIN2, START, END, TRANSACTION].join(', ');

/**
 * The explore structures of migration 034, kept with the events (CTEs of BATCH_WRITE, after `f`,
 * `d` and `ru`): the person's month bitmaps per event and for any event (name ''), distinct people
 * per day counted from the bits this batch turned on (`added`, read back from the upsert: exact
 * however batches of one person interleave, since ON CONFLICT updates the latest locked row), and
 * the property breakdown rollup for the app's marked properties, counting batches received at or
 * after the mark's cut-over (`since`; the backfill job counts the earlier ones). Each upsert is
 * ordered by its key so that concurrent batches lock rows in the same order.
 */
const ROLLUP_CTES = `pdays AS (
  SELECT DISTINCT n, (t AT TIME ZONE $25)::date AS day FROM f
), pm AS (
  INSERT INTO event_person_months AS m (app_id, name, month, person_id, days, added)
  SELECT $1, x.name, date_trunc('month', x.day)::date, d.person_id, bit_or(1 << (extract(day FROM x.day)::int - 1)),
         bit_or(1 << (extract(day FROM x.day)::int - 1))
    FROM (SELECT n AS name, day FROM pdays UNION SELECT '', day FROM pdays) x, d
   GROUP BY x.name, 3, d.person_id ORDER BY x.name, 3
  ON CONFLICT (app_id, name, month, person_id)
  DO UPDATE SET days = m.days | excluded.days, added = excluded.days & ~m.days WHERE excluded.days & ~m.days <> 0
  RETURNING name, month, added
), pdy AS (
  INSERT INTO event_people_daily AS pp (app_id, name, day, people)
  SELECT $1, pm.name, pm.month + b.i, count(*) FROM pm CROSS JOIN generate_series(0, 30) b(i)
   WHERE pm.added & (1 << b.i) <> 0 GROUP BY 2, 3 ORDER BY 2, 3
  ON CONFLICT (app_id, name, day) DO UPDATE SET people = pp.people + excluded.people
), pr AS (
  INSERT INTO event_property_daily AS pv (app_id, name, property, day, value, events, revenue)
  SELECT $1, f.n, bk.property, (f.t AT TIME ZONE $25)::date, coalesce(f.p ->> bk.property, ''), count(*), coalesce(sum(f.r), 0)
    FROM f JOIN event_breakdowns bk ON bk.app_id = $1 AND bk.name = f.n AND bk.since <= $14
   GROUP BY 2, 3, 4, 5 ORDER BY 2, 3, 4, 5
  ON CONFLICT (app_id, name, property, day, value) DO UPDATE SET events = pv.events + excluded.events, revenue = pv.revenue + excluded.revenue
)`;

/**
 * One batch of events of one device in one statement (one round trip, planned once per
 * connection): the device upsert (`d`), the ids not seen before (`fresh`, registered in
 * `event_ids`), the fresh events, the built-in events' effects on the person (`b`: install,
 * registration, logins, sessions, purchases, uninstall; attribution = source and campaign of the
 * first install or reinstall that names one), on sessions and on the lifecycle table, the
 * daily rollup and the explore structures (ROLLUP_CTES). Only fresh events count, so a resent
 * batch changes nothing but the device's facts.
 *
 * Parameters: $1–$23 as DEVICE_CTE, $24 the events as a JSON array (one JSON text instead of nine
 * arrays: cheaper to build here and to read there), $25 the app's time zone.
 *
 * Data-modifying CTEs share one snapshot and cannot see each other's rows: the person is inserted
 * (new device) or updated (known device) with the device facts and the built-in effects at once,
 * and a session started and ended in the same batch gets its end in the insert, while ends of
 * earlier sessions update the stored rows. The rollup comes last in the text but its row locks are
 * held until the commit that follows the statement, as before.
 */
const BATCH_WRITE = `
WITH input AS (
  SELECT * FROM json_to_recordset($24::json)
    AS t(c text, t timestamptz, n text, p jsonb, r numeric, cu text, s text, ca text, si text, o int)
), fresh AS (
  INSERT INTO event_ids (app_id, client_id, received_at)
  SELECT $1, c, $14 FROM input ORDER BY c
  ON CONFLICT DO NOTHING RETURNING client_id
), f AS (
  SELECT i.* FROM input i JOIN fresh ON fresh.client_id = i.c
), b AS (
  SELECT min(t) FILTER (WHERE n = ${INSTALL}) AS install_at,
         min(t) FILTER (WHERE n = ${REGISTER}) AS registered_at,
         min(t) FILTER (WHERE n IN (${LOGIN}, ${LOGIN2})) AS first_login_at,
         max(t) FILTER (WHERE n IN (${LOGIN}, ${LOGIN2})) AS last_login_at,
         max(t) FILTER (WHERE n = ${START}) AS last_session_at,
         min(t) FILTER (WHERE n = ${TRANSACTION}) AS first_purchase_at,
         max(t) FILTER (WHERE n = ${TRANSACTION}) AS last_purchase_at,
         count(*) FILTER (WHERE n = ${TRANSACTION})::int AS conversions,
         coalesce(sum(r) FILTER (WHERE n = ${TRANSACTION}), 0) AS revenue,
         max(t) FILTER (WHERE n = ${UNINSTALL}) AS uninstalled,
         max(t) FILTER (WHERE n IN (${INSTALL}, ${REINSTALL})) AS reinstalled,
         (array_agg(s ORDER BY t, o) FILTER (WHERE n IN (${INSTALL}, ${REINSTALL}) AND s IS NOT NULL))[1] AS from_source,
         (array_agg(ca ORDER BY t, o) FILTER (WHERE n IN (${INSTALL}, ${REINSTALL}) AND s IS NOT NULL))[1] AS from_campaign,
         count(*) FILTER (WHERE n IN (${AFFECTS_PERSON})) > 0 AS affects
    FROM f
), ${DEVICE_CTE}, p AS (
  INSERT INTO people (${NEW_PERSON_COLUMNS}, install_at, registered_at, first_login_at, last_login_at, last_session_at,
                      first_purchase_at, last_purchase_at, conversions, revenue, uninstall_at, from_source, from_campaign)
  SELECT ${NEW_PERSON_VALUES}, b.install_at, b.registered_at, b.first_login_at, b.last_login_at, b.last_session_at,
         b.first_purchase_at, b.last_purchase_at, b.conversions, b.revenue,
         CASE WHEN b.reinstalled > b.uninstalled THEN NULL ELSE b.uninstalled END, b.from_source, b.from_campaign
    FROM d, b WHERE d.created
), u AS (
  UPDATE people SET ${SET_FACTS},
         install_at = least(people.install_at, b.install_at), registered_at = least(people.registered_at, b.registered_at),
         first_login_at = least(people.first_login_at, b.first_login_at), last_login_at = greatest(people.last_login_at, b.last_login_at),
         last_session_at = greatest(people.last_session_at, b.last_session_at),
         first_purchase_at = least(people.first_purchase_at, b.first_purchase_at),
         last_purchase_at = greatest(people.last_purchase_at, b.last_purchase_at),
         conversions = people.conversions + b.conversions, revenue = people.revenue + b.revenue,
         uninstall_at = CASE
           WHEN greatest(people.uninstall_at, b.uninstalled) IS NULL THEN NULL
           WHEN b.reinstalled > greatest(people.uninstall_at, b.uninstalled) THEN NULL
           ELSE greatest(people.uninstall_at, b.uninstalled) END,
         from_source = coalesce(people.from_source, b.from_source), from_campaign = coalesce(people.from_campaign, b.from_campaign)
    FROM d, b
   WHERE NOT d.created AND people.app_id = $1 AND people.id = d.person_id AND (b.affects OR ${FACTS_CHANGED})
), ev AS (
  INSERT INTO events (app_id, event_time, received_at, client_id, person_id, device_id, name, properties, revenue,
                      currency, source, campaign, session_id, country, os, app_version)
  SELECT $1, f.t, $14, f.c, d.person_id, d.id, f.n, coalesce(f.p, '{}'), f.r, f.cu, f.s, f.ca, f.si, $16, $9, $11
    FROM f, d
), lc AS (
  INSERT INTO lifecycle_events (app_id, event_time, kind, person_id, device_id, source, campaign, country, os)
  SELECT $1, f.t, substr(f.n, 4), d.person_id, d.id, f.s, f.ca, $16, $9
    FROM f, d WHERE f.n IN (${INSTALL}, ${REINSTALL}, ${UNINSTALL})
), ends AS (
  SELECT si, t FROM f WHERE n = ${END} AND si IS NOT NULL
), ss AS (
  INSERT INTO sessions (app_id, started_at, session_id, person_id, device_id, ended_at)
  SELECT $1, f.t, coalesce(f.si, f.c), d.person_id, d.id,
         (SELECT max(e.t) FROM ends e WHERE e.si = coalesce(f.si, f.c) AND f.t BETWEEN e.t - interval '1 day' AND e.t)
    FROM f, d WHERE f.n = ${START}
  ON CONFLICT DO NOTHING
), se AS (
  UPDATE sessions s SET ended_at = greatest(s.ended_at, e.t)
    FROM ends e
   WHERE s.app_id = $1 AND s.session_id = e.si AND s.started_at BETWEEN e.t - interval '1 day' AND e.t
), ru AS (
  INSERT INTO event_daily AS ed (app_id, day, name, source, country, os, app_version, events, revenue)
  SELECT $1, (f.t AT TIME ZONE $25)::date AS day, f.n, coalesce(f.s, ''), coalesce($16, ''), coalesce($9, ''), coalesce($11, ''),
         count(*), coalesce(sum(f.r), 0)
    FROM f GROUP BY 2, 3, 4 ORDER BY 3, 2, 4
  ON CONFLICT (app_id, name, day, source, country, os, app_version)
  DO UPDATE SET events = ed.events + excluded.events, revenue = ed.revenue + excluded.revenue
), ${ROLLUP_CTES}
SELECT d.id::text AS device_id, d.person_id::text AS person_id, d.created,
       ARRAY(SELECT c FROM input EXCEPT ALL SELECT client_id FROM fresh) AS seen
  FROM d`;

export interface StoredBatch extends DeviceRef {
  /** Ids of this batch's events that were stored before (dropped as duplicates). */
  seen: Set<string>;
}

/**
 * Writes a batch of events of one device (see BATCH_WRITE). The device's first and last seen come
 * from the events' own times (`activitySpan`), so a replayed or late batch does not make the
 * device look active now, nor move its last seen back. Run it in a transaction with whatever else
 * the batch writes (interactions, new event names).
 */
export async function writeBatch(
  db: Queryable, app: { id: string; timezone: string }, device: DeviceContext, ip: string | null, now: Date, rows: readonly EventRow[],
): Promise<StoredBatch> {
  const input = JSON.stringify(rows.map((r, o) => ({
    c: r.clientId, t: r.time, n: r.name, p: r.properties, r: r.revenue, cu: r.currency, s: r.source, ca: r.campaign, si: r.sessionId, o,
  })));
  const { rows: out } = await db.query<{ device_id: string; person_id: string; created: boolean; seen: string[] }>(
    statement('ingest_batch_v5', BATCH_WRITE, [...deviceParams(app.id, device, ip, now, activitySpan(rows, now)), input, app.timezone]),
  );
  const row = out[0];
  if (!row) throw new Error('batch write returned no row');
  return { deviceId: row.device_id, personId: row.person_id, created: row.created, seen: new Set(row.seen) };
}

export interface EventContext {
  appId: string; personId: string; deviceId: string; receivedAt: Date;
}

/** Names of custom events not yet in the catalogue get a row (first seen). */
export async function recordEventNames(db: Queryable, appId: string, names: readonly string[], now: Date): Promise<void> {
  if (names.length === 0) return;
  await db.query(
    `INSERT INTO event_definitions (app_id, name, first_seen_at, updated_at)
     SELECT $1, n, $3, $3 FROM unnest($2::text[]) AS n ON CONFLICT DO NOTHING`,
    [appId, names, now],
  );
}

const INTERACTIONS_INSERT = `
WITH input AS (
  SELECT * FROM unnest($4::text[], $5::timestamptz[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $12::text[], $13::text[])
    AS t(client_id, event_time, channel, kind, campaign_id, message_id, journey_id, variant_id, step_id)
), fresh AS (
  INSERT INTO event_ids (app_id, client_id, received_at)
  SELECT $1, 'i:' || client_id, $11 FROM input ORDER BY client_id
  ON CONFLICT DO NOTHING RETURNING substr(client_id, 3) AS client_id
), ins AS (
  INSERT INTO message_interactions (app_id, event_time, client_id, person_id, device_id, channel, kind, campaign_id, message_id, journey_id, variant_id, step_id)
  SELECT $1, i.event_time, i.client_id, $2, $3, i.channel, i.kind, i.campaign_id, i.message_id, i.journey_id, i.variant_id, i.step_id
    FROM input i JOIN fresh f USING (client_id)
)
SELECT client_id FROM fresh`;

/** Interactions share the id space check of events under an `i:` namespace. */
export async function insertInteractions(db: Queryable, ctx: EventContext, rows: readonly InteractionRow[]): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const { rows: fresh } = await db.query<{ client_id: string }>(statement('ingest_interactions', INTERACTIONS_INSERT, [
    ctx.appId, ctx.personId, ctx.deviceId, rows.map((r) => r.clientId), rows.map((r) => r.time), rows.map((r) => r.channel),
    rows.map((r) => r.kind), rows.map((r) => r.campaignId), rows.map((r) => r.messageId), rows.map((r) => r.journeyId), ctx.receivedAt,
    rows.map((r) => r.variantId), rows.map((r) => r.stepId),
  ]));
  return new Set(fresh.map((r) => r.client_id));
}
