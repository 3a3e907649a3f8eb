/**
 * Field-by-field differences between two message drafts: what approvers see as "changed since
 * submission" (the submitted snapshot against the live draft). Paths name the field the way the
 * editor and comments do: `name`, `schedule`, `variants.<variantId>.share`,
 * `variants.<variantId>.content.<language>.<field>`. Variants are matched by id, not position, so
 * a reordering is not a change of every variant.
 */
import { jsonEqual } from '../journey/json.ts';
import type { MessageDraft } from './draft.ts';
import type { MessageContent } from './model.ts';

export interface DraftChange {
  path: string;
  kind: 'added' | 'removed' | 'changed';
  before: unknown;
  after: unknown;
}

const SETTINGS = ['name', 'type', 'origin', 'languages', 'defaultLanguage', 'parameters', 'target', 'schedule', 'delivery', 'conversion', 'abTest'] as const;

function contentChanges(prefix: string, before: MessageContent | undefined, after: MessageContent | undefined, out: DraftChange[]): void {
  if (!before || !after) {
    if (before || after) out.push({ path: prefix, kind: before ? 'removed' : 'added', before: before ?? null, after: after ?? null });
    return;
  }
  for (const field of Object.keys(after) as (keyof MessageContent)[]) {
    if (!jsonEqual(before[field], after[field])) out.push({ path: `${prefix}.${field}`, kind: 'changed', before: before[field], after: after[field] });
  }
}

/** Every difference from `before` to `after`, settings first, then variants in `after`'s order, then removed variants. */
export function diffDrafts(before: MessageDraft, after: MessageDraft): DraftChange[] {
  const out: DraftChange[] = [];
  for (const key of SETTINGS) {
    if (!jsonEqual(before[key], after[key])) out.push({ path: key, kind: 'changed', before: before[key], after: after[key] });
  }
  const old = new Map(before.variants.map((v) => [v.id, v]));
  for (const v of after.variants) {
    const prefix = `variants.${v.id}`;
    const was = old.get(v.id);
    if (!was) {
      out.push({ path: prefix, kind: 'added', before: null, after: v });
      continue;
    }
    if (was.name !== v.name) out.push({ path: `${prefix}.name`, kind: 'changed', before: was.name, after: v.name });
    if (was.share !== v.share) out.push({ path: `${prefix}.share`, kind: 'changed', before: was.share, after: v.share });
    const languages = [...new Set([...Object.keys(was.content), ...Object.keys(v.content)])];
    for (const lang of languages) contentChanges(`${prefix}.content.${lang}`, was.content[lang], v.content[lang], out);
  }
  const kept = new Set(after.variants.map((v) => v.id));
  for (const v of before.variants) if (!kept.has(v.id)) out.push({ path: `variants.${v.id}`, kind: 'removed', before: v, after: null });
  return out;
}
