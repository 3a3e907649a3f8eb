/** Message draft ⇄ Yjs: one `content` map key per field (plain values, last writer wins per field). */
import type * as Y from 'yjs';
import { CommunicationType, MessageContent, createMessageContent } from '../message/model.ts';
import { parseDocName } from './names.ts';
import { SCHEMA_VERSION } from './schema.ts';
import { lenientParse, patchMap, plain } from './ymap.ts';

export function messageFromDoc(doc: Y.Doc): MessageContent {
  const raw: Record<string, unknown> = {};
  for (const [key, value] of doc.getMap('content').entries()) raw[key] = plain(value);
  const type = CommunicationType.safeParse(raw.type);
  const defaults = createMessageContent(type.success ? type.data : 'push');
  return lenientParse(MessageContent, defaults, { ...raw, type: defaults.type });
}

export function applyMessageToDoc(doc: Y.Doc, content: MessageContent, origin?: unknown) {
  doc.transact(() => patchMap(doc.getMap('content'), content), origin);
}

/** Server side only: meta and empty content of `type`, unless the document already has a kind. */
export function initMessageDoc(doc: Y.Doc, name: string, type: CommunicationType = 'push'): boolean {
  if (parseDocName(name)?.kind !== 'message') throw new Error(`not a message document name: ${name}`);
  const meta = doc.getMap('meta');
  if (meta.has('kind')) return false;
  doc.transact(() => {
    meta.set('schemaVersion', SCHEMA_VERSION.message);
    meta.set('kind', 'message');
    applyMessageToDoc(doc, createMessageContent(type));
  });
  return true;
}
