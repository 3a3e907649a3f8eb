/**
 * The sync server's per-message guard (sync-layer.md §4): decode an incoming Yjs update without
 * applying it and reject what no editor of this code writes. Cheap (no document, no zod).
 *
 * What the update alone can show: an item that starts a root-level entry names its root (items
 * placed after an existing one carry only an origin id and are not checked here). So it catches a
 * new top-level type outside DOC_ROOTS, a root used as an array or text, an unknown meta key, and a
 * root entry of the wrong content (a nested map where JSON belongs, or the reverse). Invariants
 * beyond that are enforced by normalization and at approval.
 */
import * as Y from 'yjs';
import type { DocumentKind } from './names.ts';
import { DOC_ROOTS, DOC_ROOT_VALUES, MAX_UPDATE_BYTES, META_KEYS } from './schema.ts';

export type UpdateShapeProblem =
  | { code: 'empty' }
  | { code: 'too_large'; bytes: number; limit: number }
  | { code: 'malformed' }
  | { code: 'unknown_root'; root: string }
  | { code: 'root_not_map'; root: string }
  | { code: 'unknown_meta_key'; key: string }
  | { code: 'root_value'; root: string; key: string };

function contentKind(content: Y.Item['content']): 'map' | 'json' | 'deleted' | 'other' {
  if (content instanceof Y.ContentDeleted) return 'deleted';
  if (content instanceof Y.ContentAny) return 'json';
  if (content instanceof Y.ContentType) return content.type instanceof Y.Map ? 'map' : 'other';
  return 'other';
}

/** Null when the update may be applied, else why not. */
export function updateShapeProblem(update: Uint8Array, kind: DocumentKind, limit = MAX_UPDATE_BYTES): UpdateShapeProblem | null {
  if (update.byteLength === 0) return { code: 'empty' };
  if (update.byteLength > limit) return { code: 'too_large', bytes: update.byteLength, limit };
  let structs: ReturnType<typeof Y.decodeUpdate>['structs'];
  try {
    structs = Y.decodeUpdate(update).structs;
  } catch {
    return { code: 'malformed' };
  }
  const roots: readonly string[] = DOC_ROOTS[kind];
  const values: Record<string, 'map' | 'json'> = DOC_ROOT_VALUES[kind];
  const metaKeys: readonly string[] = META_KEYS[kind];
  for (const struct of structs) {
    if (!(struct instanceof Y.Item)) continue;
    // Decoded items name their root as a string (typed as a parent type by yjs).
    const parent: unknown = struct.parent;
    if (typeof parent !== 'string') continue;
    if (!roots.includes(parent)) return { code: 'unknown_root', root: parent };
    const key = struct.parentSub;
    if (key === null) return { code: 'root_not_map', root: parent };
    if (parent === 'meta' && !metaKeys.includes(key)) return { code: 'unknown_meta_key', key };
    const got = contentKind(struct.content);
    if (got !== 'deleted' && got !== values[parent]) return { code: 'root_value', root: parent, key };
  }
  return null;
}

/** The problem as one reason string (`code` or `code:detail`), or null: what the sync server logs and sends. */
export function checkUpdateShape(update: Uint8Array, kind: DocumentKind, limit = MAX_UPDATE_BYTES): string | null {
  const p = updateShapeProblem(update, kind, limit);
  if (p === null) return null;
  switch (p.code) {
    case 'empty':
    case 'malformed':
      return p.code;
    case 'too_large':
      return `${p.code}:${p.bytes}>${p.limit}`;
    case 'unknown_root':
    case 'root_not_map':
      return `${p.code}:${p.root}`;
    case 'unknown_meta_key':
      return `${p.code}:${p.key}`;
    case 'root_value':
      return `${p.code}:${p.root}.${p.key}`;
    default: {
      const never: never = p;
      throw new Error(`unknown problem ${JSON.stringify(never)}`);
    }
  }
}
