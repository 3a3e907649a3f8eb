/**
 * Schema versions, migrated on load (like tldraw's record migrations). The sync server runs
 * `migrateDoc` when it loads a document, before any client sees it, so every client reads the
 * current layout; a client that finds a newer version than it knows (`too_new`) must not write
 * and should reload to get the new code.
 *
 * A migration runs inside one transaction and must be deterministic (two servers migrating the same
 * document concurrently then write the same values). Version 0 is a document from before
 * versioning (meta without schemaVersion); v0 → v1 only stamps the version.
 */
import type * as Y from 'yjs';
import { DocumentKind } from './names.ts';
import { SCHEMA_VERSION } from './schema.ts';
import { migrateMessageAbTest, migrateMessageConversion, migrateMessageToVariants } from './messageDoc.ts';
import { migrateSegmentListsToSets } from './segmentDoc.ts';

export interface DocMigration {
  /** The version this migration produces; it runs on documents at `to - 1`. */
  to: number;
  up(doc: Y.Doc): void;
}
export type DocMigrations = Record<DocumentKind, readonly DocMigration[]>;

const stampOnly: DocMigration = { to: 1, up: () => undefined };

export const DOC_MIGRATIONS: DocMigrations = {
  journey: [stampOnly],
  segment: [stampOnly, { to: 2, up: migrateSegmentListsToSets }],
  dashboard: [stampOnly],
  message: [stampOnly, { to: 2, up: migrateMessageToVariants }, { to: 3, up: migrateMessageConversion }, { to: 4, up: migrateMessageAbTest }],
};

export type MigrateResult =
  | { status: 'uninitialized' }
  | { status: 'unknown_kind'; kind: unknown }
  | { status: 'current'; kind: DocumentKind; version: number }
  | { status: 'migrated'; kind: DocumentKind; from: number; to: number }
  | { status: 'too_new'; kind: DocumentKind; version: number; supported: number }
  | { status: 'no_path'; kind: DocumentKind; version: number; missing: number };

export interface MigrateOptions {
  migrations?: DocMigrations;
  versions?: Record<DocumentKind, number>;
  origin?: unknown;
}

export function docSchemaVersion(doc: Y.Doc): number {
  const v = doc.getMap('meta').get('schemaVersion');
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : 0;
}

export function migrateDoc(doc: Y.Doc, options: MigrateOptions = {}): MigrateResult {
  const { migrations = DOC_MIGRATIONS, versions = SCHEMA_VERSION, origin } = options;
  const meta = doc.getMap('meta');
  if (!meta.has('kind')) return { status: 'uninitialized' };
  const kindValue = meta.get('kind');
  const parsed = DocumentKind.safeParse(kindValue);
  if (!parsed.success) return { status: 'unknown_kind', kind: kindValue };
  const kind = parsed.data;
  const from = docSchemaVersion(doc);
  const target = versions[kind];
  if (from > target) return { status: 'too_new', kind, version: from, supported: target };
  if (from === target) return { status: 'current', kind, version: from };
  const steps: DocMigration[] = [];
  for (let v = from + 1; v <= target; v++) {
    const m = migrations[kind].find((x) => x.to === v);
    if (!m) return { status: 'no_path', kind, version: from, missing: v };
    steps.push(m);
  }
  doc.transact(() => {
    for (const m of steps) {
      m.up(doc);
      meta.set('schemaVersion', m.to);
    }
  }, origin);
  return { status: 'migrated', kind, from, to: target };
}
