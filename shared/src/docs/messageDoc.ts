/**
 * Message draft ⇄ Yjs (schema version 2; see schema.ts for the roots). Built so that co-editors
 * never overwrite each other's work when they touch different things:
 * - `settings`: one key per draft setting (name, type, origin, default language, parameters,
 *   target, schedule, delivery), plain values, last writer wins per key;
 * - `languages`: language → position, a set (two people adding different languages both keep theirs);
 * - `variants`: variant id → Y.Map {name, share, order};
 * - `content`: `<variantId>/<language>` → Y.Map of that content's fields. The long texts (title,
 *   message, subject, html_body) are Y.Text, so two people typing in one e-mail body merge
 *   character by character and a keystroke in a 200 KB body sends a few bytes; the other fields
 *   are plain values, last writer wins per field.
 * A variant removed while someone edits its content loses that content with it; content whose
 * variant or language is gone is ignored when reading.
 */
import * as Y from 'yjs';
import { createMessageDraft, MessageDraft, MessageLanguage, type MessageVariant } from '../message/draft.ts';
import { CommunicationType, MessageContent, createMessageContent } from '../message/model.ts';
import { defaultConversion } from '../message/conversion.ts';
import { defaultAbTest } from '../message/abTest.ts';
import { parseDocName } from './names.ts';
import { SCHEMA_VERSION } from './schema.ts';
import { childMap, isRecord, lenientParse, patchMap, plain } from './ymap.ts';

/** Content fields held as Y.Text (merged character by character). */
export const MESSAGE_TEXT_FIELDS = ['title', 'message', 'subject', 'html_body'] as const;
const TEXT_FIELDS: ReadonlySet<string> = new Set(MESSAGE_TEXT_FIELDS);
const SETTINGS_KEYS = ['name', 'type', 'origin', 'defaultLanguage', 'parameters', 'target', 'schedule', 'delivery', 'conversion', 'abTest'] as const;

export const contentKey = (variantId: string, language: string) => `${variantId}/${language}`;

/** Changes `text` into `next` by its differing middle (common prefix and suffix kept). */
export function patchText(text: Y.Text, next: string): void {
  const cur = text.toJSON();
  if (cur === next) return;
  let start = 0;
  while (start < cur.length && start < next.length && cur[start] === next[start]) start++;
  let end = 0;
  while (end < cur.length - start && end < next.length - start && cur[cur.length - 1 - end] === next[next.length - 1 - end]) end++;
  // Never split a surrogate pair: move the cut points off the middle of one.
  const isLow = (s: string, i: number) => i > 0 && i < s.length && s.charCodeAt(i) >= 0xdc00 && s.charCodeAt(i) <= 0xdfff;
  while (start > 0 && (isLow(cur, start) || isLow(next, start))) start--;
  while (end > 0 && (isLow(cur, cur.length - end) || isLow(next, next.length - end))) end--;
  const removed = cur.length - start - end;
  if (removed > 0) text.delete(start, removed);
  const inserted = next.slice(start, next.length - end);
  if (inserted) text.insert(start, inserted);
}

function readContent(map: Y.Map<unknown>, type: CommunicationType): MessageContent {
  const raw: Record<string, unknown> = {};
  for (const [key, value] of map.entries()) raw[key] = value instanceof Y.Text ? value.toJSON() : plain(value);
  const parsedType = CommunicationType.safeParse(raw.type);
  const defaults = createMessageContent(parsedType.success ? parsedType.data : type);
  return lenientParse(MessageContent, defaults, { ...raw, type: defaults.type });
}

function writeContent(map: Y.Map<unknown>, content: MessageContent): void {
  const plainFields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(content)) {
    if (!TEXT_FIELDS.has(key)) {
      plainFields[key] = value;
      continue;
    }
    const current = map.get(key);
    if (current instanceof Y.Text) {
      patchText(current, value as string);
    } else {
      const text = new Y.Text();
      text.insert(0, value as string);
      map.set(key, text);
    }
  }
  patchMap(map, plainFields, MESSAGE_TEXT_FIELDS);
}

export function messageDraftFromDoc(doc: Y.Doc): MessageDraft {
  const settings: Record<string, unknown> = {};
  for (const [key, value] of doc.getMap('settings').entries()) settings[key] = plain(value);
  const type = CommunicationType.safeParse(settings.type);
  const defaults = createMessageDraft(type.success ? type.data : 'push');

  const languages = [...doc.getMap<number>('languages').entries()]
    .filter(([lang]) => MessageLanguage.safeParse(lang).success)
    .sort(([a, x], [b, y]) => (typeof x === 'number' ? x : 0) - (typeof y === 'number' ? y : 0) || a.localeCompare(b))
    .map(([lang]) => lang);

  const content = doc.getMap('content');
  const variantType = defaults.type === 'test_ab' ? 'push' : defaults.type;
  const variants: MessageVariant[] = [...doc.getMap('variants').entries()]
    .filter((entry): entry is [string, Y.Map<unknown>] => entry[1] instanceof Y.Map)
    .map(([id, v]) => ({ id, v: plain(v) as Record<string, unknown> }))
    .sort((a, b) => (Number(a.v.order) || 0) - (Number(b.v.order) || 0) || a.id.localeCompare(b.id))
    .map(({ id, v }) => ({
      id,
      name: typeof v.name === 'string' ? v.name : '',
      share: typeof v.share === 'number' ? v.share : 0,
      content: Object.fromEntries(languages.flatMap((lang) => {
        const m = content.get(contentKey(id, lang));
        return m instanceof Y.Map ? [[lang, readContent(m as Y.Map<unknown>, variantType)]] : [];
      })),
    }));

  const raw = { ...settings, ...(languages.length ? { languages } : {}), ...(variants.length ? { variants } : {}) };
  return lenientParse(MessageDraft, defaults, raw);
}

export function applyMessageDraftToDoc(doc: Y.Doc, draft: MessageDraft, origin?: unknown): void {
  doc.transact(() => {
    const settings = doc.getMap('settings');
    patchMap(settings, Object.fromEntries(SETTINGS_KEYS.map((k) => [k, draft[k]])));

    const languages = doc.getMap<number>('languages');
    draft.languages.forEach((lang, i) => {
      if (languages.get(lang) !== i) languages.set(lang, i);
    });
    for (const lang of [...languages.keys()]) if (!draft.languages.includes(lang)) languages.delete(lang);

    const variants = doc.getMap('variants');
    const content = doc.getMap('content');
    draft.variants.forEach((v, order) => {
      patchMap(childMap(variants, v.id), { name: v.name, share: v.share, order });
      for (const [lang, c] of Object.entries(v.content)) writeContent(childMap(content, contentKey(v.id, lang)), c);
    });
    const keep = new Set(draft.variants.flatMap((v) => Object.keys(v.content).map((lang) => contentKey(v.id, lang))));
    for (const id of [...variants.keys()]) if (!draft.variants.some((v) => v.id === id)) variants.delete(id);
    for (const key of [...content.keys()]) if (!keep.has(key)) content.delete(key);
  }, origin);
}

/** Server side only: meta and `draft` (a new push message by default), unless the document already has a kind. */
export function initMessageDoc(doc: Y.Doc, name: string, draft: MessageDraft = createMessageDraft('push')): boolean {
  if (parseDocName(name)?.kind !== 'message') throw new Error(`not a message document name: ${name}`);
  const meta = doc.getMap('meta');
  if (meta.has('kind')) return false;
  doc.transact(() => {
    meta.set('schemaVersion', SCHEMA_VERSION.message);
    meta.set('kind', 'message');
    applyMessageDraftToDoc(doc, draft);
  });
  return true;
}

/**
 * Version 1 → 2: version 1 held one content's fields as plain values in `content`. It becomes the
 * English content of the only variant of a draft of that type (Spanish starts empty).
 */
export function migrateMessageToVariants(doc: Y.Doc): void {
  const content = doc.getMap('content');
  const old: Record<string, unknown> = {};
  for (const [key, value] of content.entries()) if (!(value instanceof Y.Map)) old[key] = plain(value);
  for (const key of Object.keys(old)) content.delete(key);
  const type = CommunicationType.safeParse(old.type);
  const draft = createMessageDraft(type.success ? type.data : 'push');
  if (isRecord(old) && Object.keys(old).length) {
    const variantType = draft.type === 'test_ab' ? 'push' : draft.type;
    const first = lenientParse(MessageContent, createMessageContent(variantType), { ...old, type: variantType });
    const [main] = draft.variants;
    if (main) main.content.en = first;
  }
  applyMessageDraftToDoc(doc, draft);
}

/** Version 2 → 3: the conversion settings (message/conversion.ts) get their default, written once by the server. */
export function migrateMessageConversion(doc: Y.Doc): void {
  const settings = doc.getMap('settings');
  if (!settings.has('conversion')) settings.set('conversion', defaultConversion());
}

/** Version 3 → 4: an A/B test's test portion (message/abTest.ts) gets its default (everyone), written once by the server. */
export function migrateMessageAbTest(doc: Y.Doc): void {
  const settings = doc.getMap('settings');
  if (!settings.has('abTest')) settings.set('abTest', defaultAbTest());
}
