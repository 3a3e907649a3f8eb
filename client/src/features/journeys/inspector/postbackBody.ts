/** Switching a postback body between a parameter list and JSON text. Pure. */
import type { PostbackEntry } from '@gd/shared/journey/model';
import { postbackTemplateCheck } from '@gd/shared/journey/postback';

/** Parameters as a JSON object text (values kept as strings). */
export function entriesToJson(entries: readonly PostbackEntry[]): string {
  const obj: Record<string, string> = {};
  for (const e of entries) if (e.param.trim() !== '') obj[e.param] = e.value;
  return JSON.stringify(obj, null, 2);
}

/** A flat JSON object as parameters (nested values as JSON text); anything else gives no entries. */
export function jsonToEntries(text: string): PostbackEntry[] {
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return [];
    return Object.entries(parsed).map(([param, value]) => ({ param, value: typeof value === 'string' ? value : JSON.stringify(value) }));
  } catch {
    return [];
  }
}

/** Inserts `insert` into `text` at [start, end) and returns the new text and caret. */
export function insertAt(text: string, insert: string, start: number, end = start): { text: string; caret: number } {
  const a = Math.max(0, Math.min(start, text.length));
  const b = Math.max(a, Math.min(end, text.length));
  return { text: text.slice(0, a) + insert + text.slice(b), caret: a + insert.length };
}

export type BodyStatus = { kind: 'valid' } | { kind: 'invalidJson' } | { kind: 'unknown'; names: string[] };

/**
 * What the JSON body field says while typing: the same check as launch (postbackTemplateCheck),
 * so a body the field calls valid never has its launch refused.
 */
export function bodyStatus(text: string): BodyStatus {
  const check = postbackTemplateCheck(text);
  if (!check.json) return { kind: 'invalidJson' };
  return check.unknown.length > 0 ? { kind: 'unknown', names: check.unknown } : { kind: 'valid' };
}
