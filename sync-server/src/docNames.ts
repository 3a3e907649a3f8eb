/**
 * TEMPORARY fallback for the document helpers that `@gd/shared` is about to export (shared/src/docs).
 * Same names and signatures; delete this file and import from `@gd/shared` once
 * `grep -r parseDocName shared/src` finds them.
 */
import * as Y from 'yjs';
import type { DocKind } from '@gd/shared';

export interface DocNameParts { accountId: string; appId: string; kind: DocKind; id: string }

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const KINDS: readonly DocKind[] = ['journey', 'segment', 'message'];

export const docName = (accountId: string, appId: string, kind: DocKind, id: string) => `${accountId}/${appId}/${kind}/${id}`;

export function parseDocName(name: string): DocNameParts | null {
  const [accountId, appId, kind, id, ...rest] = name.split('/');
  if (rest.length || !accountId || !appId || !id || !KINDS.includes(kind as DocKind)) return null;
  if (![accountId, appId, id].every((part) => UUID.test(part))) return null;
  return { accountId, appId, kind: kind as DocKind, id };
}

export const DOC_ROOTS: Record<DocKind, readonly string[]> = {
  journey: ['meta', 'steps', 'layout'],
  segment: ['meta', 'rules'],
  message: ['meta', 'content'],
};

export const MAX_UPDATE_BYTES = 512 * 1024;

/** Reason to reject an update whose top-level structures are not this kind's roots, else null. */
export function checkUpdateShape(update: Uint8Array, kind: DocKind): string | null {
  const roots = new Set(DOC_ROOTS[kind]);
  for (const struct of Y.decodeUpdate(update).structs) {
    // Decoded items name their root type as a string parent (the typings omit this case).
    const parent: unknown = struct instanceof Y.Item ? struct.parent : null;
    if (typeof parent === 'string' && !roots.has(parent)) return `unknown root "${parent}"`;
  }
  return null;
}

const initMeta = (doc: Y.Doc) => doc.getMap('meta').set('schemaVersion', 1);
export const initJourneyDoc = (doc: Y.Doc, _name: string) => initMeta(doc);
export const initSegmentDoc = (doc: Y.Doc, _name: string) => initMeta(doc);
export const initMessageDoc = (doc: Y.Doc, _name: string) => initMeta(doc);
export const migrateDoc = (_doc: Y.Doc) => undefined;
