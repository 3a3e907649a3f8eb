/**
 * Identify (tie a device to a customer id) and profile updates (fields and tag values).
 *
 * Identify rules (the spec names the merge only; the rest is ours):
 * - the device's person is anonymous (no customer id) and nobody has this customer id yet: the
 *   person takes the customer id;
 * - the device's person is anonymous and another person has the customer id: the anonymous person
 *   merges into the known one: devices, events, sessions, lifecycle rows, interactions and tags
 *   move over (the known person's tag values win), the known person keeps its facts and fills the
 *   missing ones (earliest install, first source...), the anonymous row keeps `merged_into`; the
 *   explore structures follow (rollups.ts);
 * - the device's person has another customer id (someone else signs in on a shared device): the
 *   device moves to the person with this customer id (created when new); history stays with the
 *   previous person, who really did it.
 */
import { ErrorCode, fail, ok, type DeviceContext, type ProfileFields, type Result } from '@gd/shared';
import type { DbClient } from '../../db/pool.ts';
import { upsertDevice } from './repository.ts';
import { mergePersonRollups } from './rollups.ts';

interface PersonRow { id: string; customer_id: string | null }

async function personById(db: DbClient, appId: string, id: string): Promise<PersonRow> {
  const { rows } = await db.query<PersonRow>('SELECT id::text, customer_id FROM people WHERE app_id = $1 AND id = $2 FOR UPDATE', [appId, id]);
  const row = rows[0];
  if (!row) throw new Error(`person ${id} of device not found`);
  return row;
}

async function personByCustomer(db: DbClient, appId: string, customerId: string): Promise<PersonRow | null> {
  const { rows } = await db.query<PersonRow>(
    'SELECT id::text, customer_id FROM people WHERE app_id = $1 AND customer_id = $2 AND merged_into IS NULL FOR UPDATE',
    [appId, customerId],
  );
  return rows[0] ?? null;
}

/** Moves everything of `from` to `into` and marks `from` merged. */
async function mergePeople(db: DbClient, appId: string, from: string, into: string): Promise<void> {
  const moved = [appId, from, into];
  await db.query('UPDATE devices SET person_id = $3 WHERE app_id = $1 AND person_id = $2', moved);
  await mergePersonRollups(db, appId, from, into);
  await db.query('UPDATE events SET person_id = $3 WHERE app_id = $1 AND person_id = $2', moved);
  await db.query('UPDATE sessions SET person_id = $3 WHERE app_id = $1 AND person_id = $2', moved);
  await db.query('UPDATE lifecycle_events SET person_id = $3 WHERE app_id = $1 AND person_id = $2', moved);
  await db.query('UPDATE message_interactions SET person_id = $3 WHERE app_id = $1 AND person_id = $2', moved);
  await db.query(
    `INSERT INTO person_tags (app_id, person_id, tag_id, value_text, value_number, value_date, updated_at)
     SELECT app_id, $3, tag_id, value_text, value_number, value_date, updated_at FROM person_tags
      WHERE app_id = $1 AND person_id = $2 ON CONFLICT DO NOTHING`,
    moved,
  );
  await db.query('DELETE FROM person_tags WHERE app_id = $1 AND person_id = $2', [appId, from]);
  await db.query(
    `UPDATE people k SET
       email = coalesce(k.email, a.email), install_at = least(k.install_at, a.install_at),
       registered_at = least(k.registered_at, a.registered_at), first_login_at = least(k.first_login_at, a.first_login_at),
       last_login_at = greatest(k.last_login_at, a.last_login_at), last_session_at = greatest(k.last_session_at, a.last_session_at),
       first_purchase_at = least(k.first_purchase_at, a.first_purchase_at), last_purchase_at = greatest(k.last_purchase_at, a.last_purchase_at),
       conversions = k.conversions + a.conversions, revenue = k.revenue + a.revenue,
       from_source = coalesce(k.from_source, a.from_source), from_campaign = coalesce(k.from_campaign, a.from_campaign),
       country = coalesce(k.country, a.country), city = coalesce(k.city, a.city), state = coalesce(k.state, a.state),
       attributes = a.attributes || k.attributes, created_at = least(k.created_at, a.created_at), updated_at = now()
      FROM people a WHERE k.app_id = $1 AND k.id = $3 AND a.app_id = $1 AND a.id = $2`,
    moved,
  );
  await db.query('UPDATE people SET merged_into = $3, updated_at = now() WHERE app_id = $1 AND id = $2', moved);
}

export interface IdentifyOutcome { personId: string; merged: boolean }

export async function identify(db: DbClient, appId: string, device: DeviceContext, customerId: string, ip: string | null, now: Date): Promise<IdentifyOutcome> {
  const ref = await upsertDevice(db, appId, device, ip, now);
  const current = await personById(db, appId, ref.personId);
  if (current.customer_id === customerId) return { personId: current.id, merged: false };
  const known = await personByCustomer(db, appId, customerId);
  if (current.customer_id === null) {
    if (!known) {
      await db.query('UPDATE people SET customer_id = $3, updated_at = $4 WHERE app_id = $1 AND id = $2', [appId, current.id, customerId, now]);
      return { personId: current.id, merged: false };
    }
    await mergePeople(db, appId, current.id, known.id);
    return { personId: known.id, merged: true };
  }
  // Another known user on this device: the device moves; the history stays.
  const target = known?.id ?? (await db.query<{ id: string }>(
    `INSERT INTO people (app_id, customer_id, device_id, os, os_version, app_version, created_at, updated_at)
     SELECT app_id, $3, device_id, os, os_version, app_version, $4, $4 FROM people WHERE app_id = $1 AND id = $2 RETURNING id::text`,
    [appId, current.id, customerId, now],
  )).rows[0]?.id;
  if (!target) throw new Error('could not create the identified person');
  await db.query('UPDATE devices SET person_id = $3 WHERE app_id = $1 AND id = $2', [appId, ref.deviceId, target]);
  return { personId: target, merged: false };
}

const FIELD_COLUMNS = {
  email: 'email', birthday: 'birthday', country: 'country', state: 'state', city: 'city', latitude: 'latitude',
  longitude: 'longitude', referrerId: 'referrer_id', inactive: 'inactive',
} as const satisfies Record<Exclude<keyof ProfileFields, 'attributes'>, string>;

/** Sets the given profile fields (null clears one) and merges the free attributes (null removes a key). */
export async function updateProfile(db: DbClient, appId: string, personId: string, profile: ProfileFields, now: Date): Promise<void> {
  const sets: string[] = [];
  const values: unknown[] = [appId, personId, now];
  for (const [field, column] of Object.entries(FIELD_COLUMNS)) {
    const value = profile[field as keyof typeof FIELD_COLUMNS];
    if (value === undefined) continue;
    values.push(value);
    sets.push(`${column} = $${values.length}`);
  }
  if (profile.attributes) {
    const removed = Object.entries(profile.attributes).filter(([, v]) => v === null).map(([k]) => k);
    const added = Object.fromEntries(Object.entries(profile.attributes).filter(([, v]) => v !== null));
    values.push(JSON.stringify(added), removed);
    sets.push(`attributes = (attributes - $${values.length}::text[]) || $${values.length - 1}::jsonb`);
  }
  if (sets.length === 0) return;
  await db.query(`UPDATE people SET ${sets.join(', ')}, updated_at = $3 WHERE app_id = $1 AND id = $2`, values);
}

type TagType = 'text' | 'number' | 'date';
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const isDate = (v: string) => DATE.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v);
/** The type a new tag gets from its first value: numbers are number tags, YYYY-MM-DD dates date tags, the rest text. */
const inferType = (v: string | number): TagType => (typeof v === 'number' ? 'number' : isDate(v) ? 'date' : 'text');

function columnValue(type: TagType, v: string | number): Result<{ text: string | null; number: number | null; date: string | null }> {
  if (type === 'number') {
    const n = typeof v === 'number' ? v : Number(v);
    return typeof v === 'string' && (v.trim() === '' || !Number.isFinite(n)) ? fail(ErrorCode.MANDATORY, 'a number tag needs a number') : ok({ text: null, number: n, date: null });
  }
  if (type === 'date') return typeof v === 'string' && isDate(v) ? ok({ text: null, number: null, date: v }) : fail(ErrorCode.MANDATORY, 'a date tag needs a YYYY-MM-DD date');
  return ok({ text: String(v), number: null, date: null });
}

/** Sets user tag values by tag name; unknown tags are created with the type of their first value. */
export async function setTags(db: DbClient, appId: string, personId: string, tags: Record<string, string | number | null>, now: Date) {
  const applied: string[] = [];
  const rejected: { name: string; reason: string }[] = [];
  for (const [name, value] of Object.entries(tags)) {
    let tag = (await db.query<{ id: string; value_type: TagType }>(
      "SELECT id, value_type FROM tags WHERE app_id = $1 AND kind = 'user_tag' AND lower(name) = lower($2)", [appId, name],
    )).rows[0];
    if (value === null) {
      if (tag) await db.query('DELETE FROM person_tags WHERE app_id = $1 AND person_id = $2 AND tag_id = $3', [appId, personId, tag.id]);
      applied.push(name);
      continue;
    }
    tag ??= (await db.query<{ id: string; value_type: TagType }>(
      `INSERT INTO tags (app_id, name, kind, value_type) VALUES ($1, $2, 'user_tag', $3)
       ON CONFLICT (app_id, kind, lower(name)) DO UPDATE SET updated_at = tags.updated_at RETURNING id, value_type`,
      [appId, name, inferType(value)],
    )).rows[0];
    if (!tag) throw new Error('tag upsert returned no row');
    const column = columnValue(tag.value_type, value);
    if (!column.ok) {
      rejected.push({ name, reason: column.message });
      continue;
    }
    await db.query(
      `INSERT INTO person_tags (app_id, person_id, tag_id, value_text, value_number, value_date, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (app_id, person_id, tag_id) DO UPDATE SET value_text = excluded.value_text,
         value_number = excluded.value_number, value_date = excluded.value_date, updated_at = excluded.updated_at`,
      [appId, personId, tag.id, column.value.text, column.value.number, column.value.date, now],
    );
    applied.push(name);
  }
  return { applied, rejected };
}
