/** SQL of the collaborative documents table (migrations 002 and 009), shared by every document kind. */
import * as Y from 'yjs';
import { DOC_ENTITY_TABLES, type DocNameParts } from '@gd/shared';
import type { Queryable } from '../../db/pool.ts';

/**
 * The live (not deleted) entity a document name belongs to, in its account and app, and who
 * created it; null when the kind has no table yet (shared DOC_ENTITY_TABLES, the map the sync
 * server checks connections with too), undefined when there is no such entity.
 */
export async function findDocumentEntity(db: Queryable, doc: DocNameParts, name: string): Promise<{ createdBy: string | null } | null | undefined> {
  const entity = DOC_ENTITY_TABLES[doc.kind];
  if (!entity) return null;
  const { rows } = await db.query<{ created_by: string | null }>(
    `SELECT ${entity.owner} AS created_by FROM ${entity.table} WHERE id = $1 AND app_id = $2 AND account_id = $3 AND doc_name = $4 AND deleted_at IS NULL`,
    [doc.id, doc.appId, doc.accountId, name],
  );
  return rows[0] && { createdBy: rows[0].created_by };
}

/**
 * The document as stored: the last full state merged with the updates logged after it (the sync
 * server's write-ahead log, migration 009), so an edit acknowledged just before a sync server died
 * is in it. Undefined when the document was never stored.
 */
export async function storedDocState(db: Queryable, name: string): Promise<Uint8Array | undefined> {
  const { rows } = await db.query<{ state: Buffer; updates: Buffer[] }>(
    `SELECT d.state, COALESCE(array_agg(u."update" ORDER BY u.id) FILTER (WHERE u.id IS NOT NULL), '{}') AS updates
       FROM documents d LEFT JOIN document_updates u ON u.name = d.name
      WHERE d.name = $1 GROUP BY d.name, d.state`,
    [name],
  );
  const row = rows[0];
  if (!row) return undefined;
  return row.updates.length ? Y.mergeUpdates([row.state, ...row.updates]) : row.state;
}

/** The first state of a new document (a clone, a restored version), in the caller's transaction. */
export async function insertDocument(db: Queryable, d: { name: string; accountId: string; appId: string; kind: string; entityId: string; state: Uint8Array }): Promise<void> {
  await db.query(
    `INSERT INTO documents (name, account_id, app_id, kind, entity_id, state, size_bytes) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [d.name, d.accountId, d.appId, d.kind, d.entityId, Buffer.from(d.state), d.state.byteLength],
  );
}
