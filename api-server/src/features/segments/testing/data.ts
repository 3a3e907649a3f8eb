/**
 * Test data for the segment engine's integration tests: rows written straight into people,
 * devices, events, sessions, lifecycle events, interactions, tags and audiences of one app, and
 * the people a segment selects at a fixed "now".
 */
import { createConditionNode, createGroupNode, type Segment, type SegmentCondition } from '@gd/shared';
import type { Db } from '../../../db/pool.ts';
import { compileFor } from '../definition.ts';

export interface PersonFields {
  customer_id: string; email: string | null; country: string | null; state: string | null; city: string | null;
  app_version: string | null; os_version: string | null; sdk_version: string | null; from_source: string | null;
  from_campaign: string | null; install_at: string | null; registered_at: string | null; first_login_at: string | null;
  last_login_at: string | null; last_session_at: string | null; first_purchase_at: string | null; last_purchase_at: string | null;
  revenue: number; conversions: number; birthday: string | null; merged_into: string | null;
}
const PERSON_COLUMNS = [
  'customer_id', 'email', 'country', 'state', 'city', 'app_version', 'os_version', 'sdk_version', 'from_source', 'from_campaign',
  'install_at', 'registered_at', 'first_login_at', 'last_login_at', 'last_session_at', 'first_purchase_at', 'last_purchase_at',
  'revenue', 'conversions', 'birthday', 'merged_into',
] as const satisfies readonly (keyof PersonFields)[];

export function seeder(db: Db, appId: string) {
  return {
    async person(fields: Partial<PersonFields> & { customer_id: string }): Promise<string> {
      const values = PERSON_COLUMNS.map((c) => fields[c] ?? (c === 'revenue' || c === 'conversions' ? 0 : null));
      const { rows } = await db.query<{ id: string }>(
        `INSERT INTO people (app_id, ${PERSON_COLUMNS.join(', ')}) VALUES ($1, ${PERSON_COLUMNS.map((_, i) => `$${i + 2}`).join(', ')}) RETURNING id::text`,
        [appId, ...values],
      );
      return rows[0]!.id;
    },
    async device(personId: string, d: { key: string; os?: string | null; os_version?: string | null; model?: string | null; push_token?: string | null; push_enabled?: boolean | null; last_seen_at?: string }) {
      await db.query(
        `INSERT INTO devices (app_id, device_key, person_id, os, os_version, model, push_token, push_enabled, last_seen_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, coalesce($9::timestamptz, now()))`,
        [appId, d.key, personId, d.os ?? null, d.os_version ?? null, d.model ?? null, d.push_token ?? null, d.push_enabled ?? null, d.last_seen_at ?? null],
      );
    },
    async event(personId: string, name: string, time: string, properties: Record<string, unknown> = {}, revenue: number | null = null) {
      await db.query(
        `INSERT INTO events (app_id, event_time, received_at, client_id, person_id, device_id, name, properties, revenue)
         VALUES ($1, $2, $2, gen_random_uuid()::text, $3, 0, $4, $5, $6)`,
        [appId, time, personId, name, JSON.stringify(properties), revenue],
      );
      // What ingestion keeps beside the events (the person-month day bitmaps event conditions read).
      await db.query('SELECT gd_rebuild_event_rollup($1)', [appId]);
    },
    async session(personId: string, startedAt: string) {
      await db.query(`INSERT INTO sessions (app_id, started_at, session_id, person_id, device_id) VALUES ($1, $2, gen_random_uuid()::text, $3, 0)`, [appId, startedAt, personId]);
    },
    async lifecycle(personId: string, kind: 'install' | 'reinstall' | 'uninstall', time: string, source: string | null, campaign: string | null) {
      await db.query(
        `INSERT INTO lifecycle_events (app_id, event_time, kind, person_id, device_id, source, campaign) VALUES ($1, $2, $3, $4, 0, $5, $6)`,
        [appId, time, kind, personId, source, campaign],
      );
    },
    async interaction(personId: string, channel: string, kind: string, time: string, ids: { campaign?: string; message?: string; journey?: string } = {}) {
      await db.query(
        `INSERT INTO message_interactions (app_id, event_time, client_id, person_id, device_id, channel, kind, campaign_id, message_id, journey_id)
         VALUES ($1, $2, gen_random_uuid()::text, $3, 0, $4, $5, $6, $7, $8)`,
        [appId, time, personId, channel, kind, ids.campaign ?? null, ids.message ?? null, ids.journey ?? null],
      );
    },
    async tag(name: string, valueType: 'text' | 'number' | 'date'): Promise<string> {
      const { rows } = await db.query<{ id: string }>(`INSERT INTO tags (app_id, name, kind, value_type) VALUES ($1, $2, 'user_tag', $3) RETURNING id`, [appId, name, valueType]);
      return rows[0]!.id;
    },
    async tagValue(personId: string, tagId: string, value: { text?: string | null; number?: number | null; date?: string | null }, updatedAt: string) {
      await db.query(
        `INSERT INTO person_tags (app_id, person_id, tag_id, value_text, value_number, value_date, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [appId, personId, tagId, value.text ?? null, value.number ?? null, value.date ?? null, updatedAt],
      );
    },
    async audience(accountId: string, name: string, members: readonly string[]): Promise<string> {
      const { rows } = await db.query<{ id: string }>(
        `INSERT INTO audiences (account_id, app_id, name, status, source_type, person_count) VALUES ($1, $2, $3, 'ready', 'csv', $4) RETURNING id`,
        [accountId, appId, name, members.length],
      );
      const id = rows[0]!.id;
      for (const person of members) await db.query('INSERT INTO audience_members (app_id, audience_id, person_id) VALUES ($1, $2, $3)', [appId, id, person]);
      return id;
    },
  };
}

/** A segment of one condition under an `and` root. */
export function single(condition: Partial<SegmentCondition>): Segment {
  const root = createGroupNode('root');
  root.children.push('c1');
  return { rootKey: 'root', nodes: [root, createConditionNode('c1', condition)] };
}

/** The customer ids a segment selects at `now`, sorted; throws with the problems when it does not compile. */
export async function selected(db: Db, appId: string, segment: Segment, now: Date): Promise<string[]> {
  const compiled = await compileFor(db, segment, { appId, now, requireConditions: false });
  if (!compiled.ok) throw new Error(`does not compile: ${JSON.stringify(compiled.problems)}`);
  const { rows } = await db.query<{ customer_id: string }>(
    `SELECT p.customer_id FROM people p WHERE ${compiled.value.where} ORDER BY p.customer_id`,
    compiled.value.params,
  );
  return rows.map((r) => r.customer_id);
}
