/**
 * SQL of the ingestion path. A batch is one short transaction: the device (and, the first time,
 * its person) upserted, the events deduplicated against `event_ids` and inserted with their daily
 * rollup in one statement, then the built-in events' effects on the person, sessions and
 * lifecycle. Keep it to a handful of round trips: this is the hottest write path of the product.
 */
import { builtInEventName, type DeviceContext } from '@gd/shared';
import { statement, type DbClient, type Queryable } from '../../db/pool.ts';
import type { EventRow, InteractionRow } from './prepare.ts';

export interface IngestApp { id: string; accountId: string; timezone: string }

export async function findAppByKey(db: Queryable, key: string): Promise<IngestApp | null> {
  const { rows } = await db.query<{ id: string; account_id: string; timezone: string }>(
    statement('ingest_app_by_key', 'SELECT id, account_id, timezone FROM apps WHERE app_key = $1', [key]),
  );
  const row = rows[0];
  return row ? { id: row.id, accountId: row.account_id, timezone: row.timezone } : null;
}

export async function ensureMonthPartitions(db: Queryable, from: Date, to: Date): Promise<void> {
  await db.query('SELECT gd_ensure_month_partitions($1, $2)', [from, to]);
}

export interface DeviceRef { deviceId: string; personId: string; created: boolean }

const DEVICE_UPSERT = `
WITH d AS (
  INSERT INTO devices AS dv (app_id, device_key, person_id, idfa, idfv, gaid, oaid, push_token, push_enabled,
                             os, os_version, app_version, sdk_version, model, first_seen_at, last_seen_at)
  VALUES ($1, $2, nextval('people_id_seq'), $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $22, $22)
  ON CONFLICT (app_id, device_key) DO UPDATE SET
    idfa = coalesce(excluded.idfa, dv.idfa), idfv = coalesce(excluded.idfv, dv.idfv),
    gaid = coalesce(excluded.gaid, dv.gaid), oaid = coalesce(excluded.oaid, dv.oaid),
    push_token = coalesce(excluded.push_token, dv.push_token), push_enabled = coalesce(excluded.push_enabled, dv.push_enabled),
    os = coalesce(excluded.os, dv.os), os_version = coalesce(excluded.os_version, dv.os_version),
    app_version = coalesce(excluded.app_version, dv.app_version), sdk_version = coalesce(excluded.sdk_version, dv.sdk_version),
    model = coalesce(excluded.model, dv.model), last_seen_at = greatest(dv.last_seen_at, excluded.last_seen_at)
  RETURNING id, person_id, (xmax = 0) AS created
), p AS (
  INSERT INTO people (app_id, id, device_id, os, os_version, app_version, sdk_version, carrier, country, state, city,
                      latitude, longitude, ip, created_at, updated_at)
  SELECT $1, d.person_id, $2, $9, $10, $11, $12, $15, $16, $17, $18, $19, $20, $21::inet, $14, $14 FROM d WHERE d.created
), u AS (
  UPDATE people SET device_id = $2, os = coalesce($9, os), os_version = coalesce($10, os_version),
         app_version = coalesce($11, app_version), sdk_version = coalesce($12, sdk_version),
         carrier = coalesce($15, carrier), country = coalesce($16, country), state = coalesce($17, state),
         city = coalesce($18, city), latitude = coalesce($19, latitude), longitude = coalesce($20, longitude),
         ip = coalesce($21::inet, ip), updated_at = $14
    FROM d
   WHERE NOT d.created AND people.app_id = $1 AND people.id = d.person_id
     AND (people.device_id, people.os, people.os_version, people.app_version, people.sdk_version, people.carrier,
          people.country, people.state, people.city, people.latitude, people.longitude, people.ip)
         IS DISTINCT FROM ($2, coalesce($9, people.os), coalesce($10, people.os_version), coalesce($11, people.app_version),
          coalesce($12, people.sdk_version), coalesce($15, people.carrier), coalesce($16, people.country),
          coalesce($17, people.state), coalesce($18, people.city), coalesce($19, people.latitude),
          coalesce($20, people.longitude), coalesce($21::inet, people.ip))
)
SELECT id::text AS device_id, person_id::text AS person_id, created FROM d`;

/**
 * Upserts the device and keeps its person's last-known device facts; creates both the first time.
 * `seenAt`: when the device was last active, the latest event time of the batch (a replayed or
 * late batch does not make a person look active now); defaults to `now`.
 */
export async function upsertDevice(db: Queryable, appId: string, device: DeviceContext, ip: string | null, now: Date, seenAt: Date = now): Promise<DeviceRef> {
  const { rows } = await db.query<{ device_id: string; person_id: string; created: boolean }>(statement('ingest_device_v2', DEVICE_UPSERT, [
    appId, device.id, device.idfa ?? null, device.idfv ?? null, device.gaid ?? null, device.oaid ?? null,
    device.pushToken ?? null, device.pushEnabled ?? null, device.os ?? null, device.osVersion ?? null,
    device.appVersion ?? null, device.sdkVersion ?? null, device.model ?? null, now, device.carrier ?? null,
    device.country ?? null, device.state ?? null, device.city ?? null, device.latitude ?? null, device.longitude ?? null, ip, seenAt,
  ]));
  const row = rows[0];
  if (!row) throw new Error('device upsert returned no row');
  return { deviceId: row.device_id, personId: row.person_id, created: row.created };
}

const EVENTS_INSERT = `
WITH input AS (
  SELECT * FROM unnest($4::text[], $5::timestamptz[], $6::text[], $7::jsonb[], $8::numeric[], $9::text[], $10::text[], $11::text[], $12::text[])
    AS t(client_id, event_time, name, properties, revenue, currency, source, campaign, session_id)
), fresh AS (
  INSERT INTO event_ids (app_id, client_id, received_at)
  SELECT $1, client_id, $13 FROM input ORDER BY client_id
  ON CONFLICT DO NOTHING RETURNING client_id
), ins AS (
  INSERT INTO events (app_id, event_time, received_at, client_id, person_id, device_id, name, properties, revenue,
                      currency, source, campaign, session_id, country, os, app_version)
  SELECT $1, i.event_time, $13, i.client_id, $2, $3, i.name, i.properties, i.revenue, i.currency, i.source, i.campaign,
         i.session_id, $14, $15, $16
    FROM input i JOIN fresh f USING (client_id)
  RETURNING client_id
)
SELECT client_id FROM fresh`;

export interface EventContext {
  appId: string; timezone: string; personId: string; deviceId: string; receivedAt: Date;
  country: string | null; os: string | null; appVersion: string | null;
}

/** Inserts the events whose ids are new; answers the new ids (count them with addToRollup). */
export async function insertEvents(db: Queryable, ctx: EventContext, rows: readonly EventRow[]): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const { rows: fresh } = await db.query<{ client_id: string }>(statement('ingest_events_v2', EVENTS_INSERT, [
    ctx.appId, ctx.personId, ctx.deviceId,
    rows.map((r) => r.clientId), rows.map((r) => r.time), rows.map((r) => r.name),
    rows.map((r) => JSON.stringify(r.properties)), rows.map((r) => r.revenue), rows.map((r) => r.currency),
    rows.map((r) => r.source), rows.map((r) => r.campaign), rows.map((r) => r.sessionId),
    ctx.receivedAt, ctx.country, ctx.os, ctx.appVersion,
  ]));
  return new Set(fresh.map((r) => r.client_id));
}

const ROLLUP_UPSERT = `
INSERT INTO event_daily AS ed (app_id, day, name, source, country, os, app_version, events, revenue)
SELECT $1, (t AT TIME ZONE $2)::date AS day, n, coalesce(s, ''), coalesce($3, ''), coalesce($4, ''), coalesce($5, ''),
       count(*), coalesce(sum(r), 0)
  FROM unnest($6::timestamptz[], $7::text[], $8::text[], $9::numeric[]) AS x(t, n, s, r)
 GROUP BY 2, 3, 4 ORDER BY 3, 2, 4
ON CONFLICT (app_id, name, day, source, country, os, app_version)
DO UPDATE SET events = ed.events + excluded.events, revenue = ed.revenue + excluded.revenue`;

/**
 * Counts the fresh events into the daily rollup. Every concurrent batch of an app updates the
 * same few rows (today, per event and dimension), so this runs last in the batch transaction:
 * the row locks are held only until the commit that follows.
 */
export async function addToRollup(db: Queryable, ctx: EventContext, fresh: readonly EventRow[]): Promise<void> {
  if (fresh.length === 0) return;
  await db.query(statement('ingest_rollup', ROLLUP_UPSERT, [
    ctx.appId, ctx.timezone, ctx.country, ctx.os, ctx.appVersion,
    fresh.map((r) => r.time), fresh.map((r) => r.name), fresh.map((r) => r.source), fresh.map((r) => r.revenue),
  ]));
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

const ev = {
  install: builtInEventName('install'), reinstall: builtInEventName('reinstall'), uninstall: builtInEventName('uninstall'),
  register: builtInEventName('register'), login: builtInEventName('login'), login2: builtInEventName('login2'),
  start: builtInEventName('start_session'), end: builtInEventName('end_session'), transaction: builtInEventName('transaction'),
};

const earliest = (rows: EventRow[]) => (rows.length ? new Date(Math.min(...rows.map((r) => r.time.getTime()))) : null);
const latest = (rows: EventRow[]) => (rows.length ? new Date(Math.max(...rows.map((r) => r.time.getTime()))) : null);

/**
 * Effects of the built-in events on the person (install, registration, logins, sessions,
 * purchases, uninstall), on sessions and on the lifecycle table. Only fresh events count, so a
 * resent batch changes nothing. Attribution: the person's source and campaign are those of their
 * first install event that names one.
 */
export async function applyBuiltInEffects(db: DbClient, ctx: EventContext, fresh: readonly EventRow[]): Promise<void> {
  const by = (name: string) => fresh.filter((r) => r.name === name);
  const installs = by(ev.install), reinstalls = by(ev.reinstall), uninstalls = by(ev.uninstall);
  const logins = [...by(ev.login), ...by(ev.login2)], starts = by(ev.start), ends = by(ev.end), sales = by(ev.transaction);
  const registers = by(ev.register);
  const lifecycle = [...installs, ...reinstalls, ...uninstalls];
  if (lifecycle.length + logins.length + starts.length + ends.length + sales.length + registers.length === 0) return;

  const attributed = [...installs, ...reinstalls].sort((a, b) => a.time.getTime() - b.time.getTime()).find((r) => r.source);
  const reinstalled = latest([...installs, ...reinstalls]);
  const uninstalled = latest(uninstalls);
  await db.query(
    `UPDATE people SET
       install_at = least(install_at, $3), registered_at = least(registered_at, $4),
       first_login_at = least(first_login_at, $5), last_login_at = greatest(last_login_at, $6),
       last_session_at = greatest(last_session_at, $7),
       first_purchase_at = least(first_purchase_at, $8), last_purchase_at = greatest(last_purchase_at, $9),
       conversions = conversions + $10, revenue = revenue + $11,
       uninstall_at = CASE
         WHEN greatest(uninstall_at, $12) IS NULL THEN NULL
         WHEN $13::timestamptz IS NOT NULL AND $13 > greatest(uninstall_at, $12) THEN NULL
         ELSE greatest(uninstall_at, $12) END,
       from_source = coalesce(from_source, $14), from_campaign = coalesce(from_campaign, $15),
       updated_at = $16
     WHERE app_id = $1 AND id = $2`,
    [
      ctx.appId, ctx.personId, earliest(installs), earliest(registers), earliest(logins), latest(logins), latest(starts),
      earliest(sales), latest(sales), sales.length, sales.reduce((s, r) => s + (r.revenue ?? 0), 0),
      uninstalled, reinstalled, attributed?.source ?? null, attributed?.campaign ?? null, ctx.receivedAt,
    ],
  );
  if (lifecycle.length) {
    await db.query(
      `INSERT INTO lifecycle_events (app_id, event_time, kind, person_id, device_id, source, campaign, country, os)
       SELECT $1, t, k, $2, $3, s, c, $7, $8 FROM unnest($4::timestamptz[], $5::text[], $6::text[], $9::text[]) AS x(t, k, s, c)`,
      [ctx.appId, ctx.personId, ctx.deviceId, lifecycle.map((r) => r.time), lifecycle.map((r) => r.name.slice(3)),
        lifecycle.map((r) => r.source), ctx.country, ctx.os, lifecycle.map((r) => r.campaign)],
    );
  }
  if (starts.length) {
    await db.query(
      `INSERT INTO sessions (app_id, started_at, session_id, person_id, device_id)
       SELECT $1, t, s, $2, $3 FROM unnest($4::timestamptz[], $5::text[]) AS x(t, s) ON CONFLICT DO NOTHING`,
      [ctx.appId, ctx.personId, ctx.deviceId, starts.map((r) => r.time), starts.map((r) => r.sessionId ?? r.clientId)],
    );
  }
  // An end closes its session (same session id, started within the day before the end).
  const ended = ends.filter((r) => r.sessionId);
  if (ended.length) {
    await db.query(
      `UPDATE sessions s SET ended_at = greatest(s.ended_at, x.t)
         FROM unnest($2::text[], $3::timestamptz[]) AS x(sid, t)
        WHERE s.app_id = $1 AND s.session_id = x.sid AND s.started_at BETWEEN x.t - interval '1 day' AND x.t`,
      [ctx.appId, ended.map((r) => r.sessionId), ended.map((r) => r.time)],
    );
  }
}

const INTERACTIONS_INSERT = `
WITH input AS (
  SELECT * FROM unnest($4::text[], $5::timestamptz[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[])
    AS t(client_id, event_time, channel, kind, campaign_id, message_id, journey_id)
), fresh AS (
  INSERT INTO event_ids (app_id, client_id, received_at)
  SELECT $1, 'i:' || client_id, $11 FROM input ORDER BY client_id
  ON CONFLICT DO NOTHING RETURNING substr(client_id, 3) AS client_id
), ins AS (
  INSERT INTO message_interactions (app_id, event_time, client_id, person_id, device_id, channel, kind, campaign_id, message_id, journey_id)
  SELECT $1, i.event_time, i.client_id, $2, $3, i.channel, i.kind, i.campaign_id, i.message_id, i.journey_id
    FROM input i JOIN fresh f USING (client_id)
)
SELECT client_id FROM fresh`;

/** Interactions share the id space check of events under an `i:` namespace. */
export async function insertInteractions(db: Queryable, ctx: EventContext, rows: readonly InteractionRow[]): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const { rows: fresh } = await db.query<{ client_id: string }>(statement('ingest_interactions', INTERACTIONS_INSERT, [
    ctx.appId, ctx.personId, ctx.deviceId, rows.map((r) => r.clientId), rows.map((r) => r.time), rows.map((r) => r.channel),
    rows.map((r) => r.kind), rows.map((r) => r.campaignId), rows.map((r) => r.messageId), rows.map((r) => r.journeyId), ctx.receivedAt,
  ]));
  return new Set(fresh.map((r) => r.client_id));
}
