/**
 * The sync server's SQL, all of it: who is connecting (users, apps, the edited entity), the signing
 * secret, and the `documents` table. Rows never leave this module unmapped.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { DocKind, DocNameParts } from '@gd/shared';

export type Db = Pick<pg.Pool, 'query'>;

export function createPool(connectionString: string, max = 10): pg.Pool {
  const pool = new pg.Pool({ connectionString, max, idleTimeoutMillis: 30_000 });
  // A dropped idle connection must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  return pool;
}

export interface ConnectingUser { id: string; accountId: string; name: string; active: boolean; grants: string[] }

export async function findUser(db: Db, id: string): Promise<ConnectingUser | undefined> {
  const { rows } = await db.query<ConnectingUser>(
    `SELECT u.id, u.account_id AS "accountId", u.name, u.active, r.grants
     FROM users u JOIN user_roles r ON r.id = u.role_id WHERE u.id = $1`,
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

/**
 * The table holding each kind's entities. A kind maps to null until its table exists; adding one is
 * one line here (the table needs id, account_id, app_id, created_by and deleted_at).
 */
const ENTITY_TABLES: Record<DocKind, string | null> = {
  journey: 'journeys',
  segment: 'segments',
  message: null,
};

export type EntityLookup = { found: true; createdBy: string | null } | { found: false; reason: string };

export async function findEntity(db: Db, doc: DocNameParts): Promise<EntityLookup> {
  const table = ENTITY_TABLES[doc.kind];
  if (!table) return { found: false, reason: `${doc.kind} documents are not served yet` };
  const { rows } = await db.query<{ created_by: string | null }>(
    `SELECT created_by FROM ${table} WHERE id = $1 AND app_id = $2 AND account_id = $3 AND deleted_at IS NULL`,
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

export async function loadDocumentState(db: Db, name: string): Promise<Uint8Array | undefined> {
  const { rows } = await db.query<{ state: Buffer }>('SELECT state FROM documents WHERE name = $1', [name]);
  return rows[0]?.state;
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

/** Replace the stored state with the full encoded state. */
export async function storeDocumentState(db: Db, name: string, doc: DocNameParts, state: Uint8Array): Promise<void> {
  await db.query(
    `INSERT INTO documents (name, account_id, app_id, kind, entity_id, state, size_bytes)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (name) DO UPDATE SET state = EXCLUDED.state, size_bytes = EXCLUDED.size_bytes,
       store_count = documents.store_count + 1, updated_at = now()`,
    [name, doc.accountId, doc.appId, doc.kind, doc.id, bytes(state), state.byteLength],
  );
}
