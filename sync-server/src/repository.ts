/**
 * The sync server's SQL, all of it: who is connecting (users, apps, the edited entity), the signing
 * secret, and the `documents` table. Rows never leave this module unmapped.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { DOC_ENTITY_TABLES, type DocNameParts } from '@gd/shared';

export type Db = Pick<pg.Pool, 'query'>;

export function createPool(connectionString: string, max = 10): pg.Pool {
  const pool = new pg.Pool({ connectionString, max, idleTimeoutMillis: 30_000 });
  // A dropped idle connection must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  return pool;
}

export interface ConnectingUser {
  id: string; accountId: string; name: string; active: boolean; grants: string[];
  /** Read in the same statement as the grants, so they name exactly this state (see AccessFence). */
  userVersion: string; accountVersion: string;
}

export async function findUser(db: Db, id: string): Promise<ConnectingUser | undefined> {
  const { rows } = await db.query<ConnectingUser>(
    `SELECT u.id, u.account_id AS "accountId", u.name, u.active, r.grants,
       u.meta_version AS "userVersion", a.meta_version AS "accountVersion"
     FROM users u JOIN user_roles r ON r.account_id = u.account_id AND r.id = u.role_id JOIN accounts a ON a.id = u.account_id WHERE u.id = $1`,
    [id],
  );
  return rows[0];
}

/** The app's own disallowed list, if the app belongs to the account. */
export async function findAppRestrictions(db: Db, accountId: string, appId: string): Promise<string[] | undefined> {
  const { rows } = await db.query<{ restricted: string[] }>(
    'SELECT restricted FROM apps WHERE id = $1 AND account_id = $2',
    [appId, accountId],
  );
  return rows[0]?.restricted;
}

export type EntityLookup = { found: true; createdBy: string | null } | { found: false; reason: string };

export async function findEntity(db: Db, doc: DocNameParts): Promise<EntityLookup> {
  const entity = DOC_ENTITY_TABLES[doc.kind];
  if (!entity) return { found: false, reason: `${doc.kind} documents are not served yet` };
  const { rows } = await db.query<{ created_by: string | null }>(
    `SELECT ${entity.owner} AS created_by FROM ${entity.table} WHERE id = $1 AND app_id = $2 AND account_id = $3 AND deleted_at IS NULL`,
    [doc.id, doc.appId, doc.accountId],
  );
  const row = rows[0];
  return row ? { found: true, createdBy: row.created_by } : { found: false, reason: `${doc.kind} not found` };
}

/** Same contract as the API's loadSigningSecret: the configured secret, else the shared one in the database. */
export async function loadSigningSecret(db: Db, configured?: string): Promise<string> {
  if (configured) return configured;
  await db.query(
    `INSERT INTO server_secrets (name, value) VALUES ('jwt', $1) ON CONFLICT (name) DO NOTHING`,
    [randomBytes(48).toString('base64url')],
  );
  const { rows } = await db.query<{ value: string }>(`SELECT value FROM server_secrets WHERE name = 'jwt'`);
  const secret = rows[0]?.value;
  if (!secret) throw new Error('signing secret missing');
  return secret;
}

const bytes = (u: Uint8Array) => Buffer.from(u.buffer, u.byteOffset, u.byteLength);

/** A document's stored full state, its store count (the optimistic lock of full-state writes) and its logged updates. */
export interface StoredDocument { state: Uint8Array; storeCount: number; log: { id: string; update: Uint8Array }[] }

export async function loadDocument(db: Db, name: string): Promise<StoredDocument | undefined> {
  const { rows } = await db.query<{ state: Buffer; store_count: string }>('SELECT state, store_count FROM documents WHERE name = $1', [name]);
  const row = rows[0];
  if (!row) return undefined;
  return { state: row.state, storeCount: Number(row.store_count), log: await loggedUpdates(db, name) };
}

export async function loggedUpdates(db: Db, name: string): Promise<{ id: string; update: Uint8Array }[]> {
  const { rows } = await db.query<{ id: string; update: Buffer }>(
    'SELECT id, "update" FROM document_updates WHERE name = $1 ORDER BY id', [name]);
  return rows;
}

/** Store the first state of a document unless another process did; false when one already exists. */
export async function insertDocumentIfAbsent(db: Db, name: string, doc: DocNameParts, state: Uint8Array): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO documents (name, account_id, app_id, kind, entity_id, state, size_bytes)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (name) DO NOTHING`,
    [name, doc.accountId, doc.appId, doc.kind, doc.id, bytes(state), state.byteLength],
  );
  return rowCount === 1;
}

/**
 * Replace the stored state with the full encoded state, only over the state of `expected` store
 * count (the one this process last read or wrote). Returns the new store count, or undefined when
 * another process wrote in between (merge its state first, then try again).
 */
export async function storeDocumentState(db: Db, name: string, state: Uint8Array, expected: number): Promise<number | undefined> {
  const { rows } = await db.query<{ store_count: string }>(
    `UPDATE documents SET state = $2, size_bytes = $3, store_count = store_count + 1, updated_at = now()
     WHERE name = $1 AND store_count = $4 RETURNING store_count`,
    [name, bytes(state), state.byteLength, expected],
  );
  return rows[0] ? Number(rows[0].store_count) : undefined;
}

export async function deleteLoggedUpdates(db: Db, ids: readonly string[]): Promise<void> {
  if (ids.length) await db.query('DELETE FROM document_updates WHERE id = ANY($1::bigint[])', [ids]);
}

/** The versions of what a user may do: any write to the user, its role, account or apps changes one (migration 008). */
export interface AccessFence { userId: string; accountId: string; userVersion: string; accountVersion: string }

/** One client update to log, with the access versions its sender's rights were decided under. */
export interface LogEntry { name: string; update: Uint8Array; fence: AccessFence }

/**
 * Append client updates to their documents' logs in one statement (a group commit), each with the
 * check that its sender's access is still the one it was granted under (no write to the user, role,
 * account or apps since). Returns the positions of the entries logged; an entry missing from the
 * answer was not logged: decide access again.
 */
export async function appendUpdates(db: Db, entries: readonly LogEntry[]): Promise<Set<number>> {
  const { rows } = await db.query<{ ord: string }>(
    `WITH t AS (
       SELECT * FROM unnest($1::text[], $2::bytea[], $3::uuid[], $4::uuid[], $5::bigint[], $6::bigint[])
         WITH ORDINALITY AS t(name, upd, user_id, account_id, user_version, account_version, ord)),
     ok AS (
       SELECT t.* FROM t WHERE EXISTS (
         SELECT 1 FROM users u JOIN accounts a ON a.id = u.account_id
         WHERE u.id = t.user_id AND a.id = t.account_id AND u.meta_version = t.user_version AND a.meta_version = t.account_version)),
     logged AS (INSERT INTO document_updates (name, "update", user_id) SELECT name, upd, user_id FROM ok ORDER BY ord)
     SELECT ord FROM ok`,
    [
      entries.map((e) => e.name), entries.map((e) => bytes(e.update)), entries.map((e) => e.fence.userId),
      entries.map((e) => e.fence.accountId), entries.map((e) => e.fence.userVersion), entries.map((e) => e.fence.accountVersion),
    ],
  );
  return new Set(rows.map((r) => Number(r.ord) - 1));
}

/** Current access versions of these users; users that no longer exist are missing from the answer. */
export async function accessVersions(db: Db, userIds: readonly string[]): Promise<Map<string, { userVersion: string; accountVersion: string }>> {
  const { rows } = await db.query<{ id: string; user_version: string; account_version: string }>(
    `SELECT u.id, u.meta_version AS user_version, a.meta_version AS account_version
     FROM users u JOIN accounts a ON a.id = u.account_id WHERE u.id = ANY($1::uuid[])`,
    [userIds],
  );
  return new Map(rows.map((r) => [r.id, { userVersion: r.user_version, accountVersion: r.account_version }]));
}
