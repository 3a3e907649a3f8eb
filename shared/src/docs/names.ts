/**
 * Document names: `<accountId>/<appId>/<kind>/<id>`, the ids lower-case uuids (the `documents`
 * table keys them as uuid; lower case only, so one entity never has two names).
 * `DocumentKind` is the same union as the permissions' `DocKind` type, as a schema.
 */
import { z } from 'zod';

export const DocumentKind = z.enum(['journey', 'segment', 'message', 'dashboard']);
export type DocumentKind = z.infer<typeof DocumentKind>;
export const DOC_KINDS = DocumentKind.options;

/**
 * The table holding each kind's entities, for whoever checks a document name against its entity
 * (the API's document token route, the sync server on connect), and the column naming the person
 * whose owner-only rights apply (the creator, or a message's current owner). A kind maps to null
 * until its table exists; adding one is one line here (the table needs id, account_id, app_id,
 * doc_name, deleted_at and the owner column).
 */
export const DOC_ENTITY_TABLES: Readonly<Record<DocumentKind, { table: string; owner: string } | null>> = {
  journey: { table: 'journeys', owner: 'created_by' },
  segment: { table: 'segments', owner: 'created_by' },
  message: { table: 'messages', owner: 'owner_id' },
  dashboard: { table: 'dashboards', owner: 'created_by' },
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface DocNameParts {
  accountId: string;
  appId: string;
  kind: DocumentKind;
  id: string;
}

export function parseDocName(name: string): DocNameParts | null {
  const parts = name.split('/');
  if (parts.length !== 4) return null;
  const [accountId, appId, kind, id] = parts as [string, string, string, string];
  if (![accountId, appId, id].every((p) => UUID.test(p))) return null;
  const k = DocumentKind.safeParse(kind);
  return k.success ? { accountId, appId, kind: k.data, id } : null;
}

/** Builds a name; throws on an id that could not be parsed back (a bug in the caller). */
export function docName(accountId: string, appId: string, kind: DocumentKind, id: string): string {
  for (const p of [accountId, appId, id]) if (!UUID.test(p)) throw new Error(`invalid document id: ${p}`);
  return `${accountId}/${appId}/${kind}/${id}`;
}
