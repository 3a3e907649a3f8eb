/**
 * The draft's problems (shared validateDraft) as the form shows them: keyed by the path of the field
 * they concern, written the way diffDrafts and review comments name fields (the variant by its id,
 * not its position): `name`, `target`, `variants.A.content.en.title`, `variants.A.content.en.buttons.0.text`.
 */
import type { English } from '@gd/shared/i18n/en';
import type { MessageDraft } from '@gd/shared/message/draft';
import type { DraftViolation } from '@gd/shared/message/validate';
import type { TFunction, TKey } from '../../../i18n/keys.ts';

/** Compile-time check: indexing fails when the catalogue lacks a text for some code. */
export type TextOfEveryCode = English['messageEditor']['problem'][DraftViolation['code']];

/** The field path of a violation, the variant named by its id. */
export function problemPath(draft: MessageDraft, path: readonly (string | number)[]): string {
  const parts = path.map((p, i) => {
    if (i === 1 && path[0] === 'variants' && typeof p === 'number') return draft.variants[p]?.id ?? String(p);
    return String(p);
  });
  return parts.join('.');
}

/** Where a content field of a variant and a language lives. */
export const contentPath = (variantId: string, lang: string, field: string) => `variants.${variantId}.content.${lang}.${field}`;

/** `TKey` strips plural-looking suffixes (`variants_too_few`), so the key is built and widened here. */
const problemKey = (code: DraftViolation['code']) => `messageEditor.problem.${code}` as TKey;

/** A violation's text, its parameters filled in (a language code shown by its name). */
export function problemText(t: TFunction, v: Pick<DraftViolation, 'code' | 'params'>, languageName: (code: string) => string = (c) => c): string {
  const params = { ...(v.params ?? {}) };
  if (params.language) params.language = languageName(params.language);
  if (params.name && v.code === 'placeholder_unknown') params.name = `{{${params.name}}}`;
  return t(problemKey(v.code), params);
}

export interface LocatedProblem {
  path: string;
  violation: DraftViolation;
  /** The variant and language it concerns, when it is about content. */
  variantId: string | null;
  language: string | null;
}

export function locateProblems(draft: MessageDraft, problems: readonly DraftViolation[]): LocatedProblem[] {
  return problems.map((violation) => {
    const inContent = violation.path[0] === 'variants' && violation.path[2] === 'content';
    return {
      path: problemPath(draft, violation.path),
      violation,
      variantId: inContent ? (draft.variants[Number(violation.path[1])]?.id ?? null) : null,
      language: inContent ? String(violation.path[3]) : null,
    };
  });
}

/** Problems by field path (several problems of one field are all kept). */
export function problemsByPath(located: readonly LocatedProblem[]): Map<string, DraftViolation[]> {
  const out = new Map<string, DraftViolation[]>();
  for (const p of located) {
    const list = out.get(p.path);
    if (list) list.push(p.violation);
    else out.set(p.path, [p.violation]);
  }
  return out;
}

/** Whether any path of `paths` is `prefix` or lies under it (`variants.A` covers `variants.A.content.en.title`). */
export function anyUnder(paths: Iterable<string> | undefined, prefix: string): boolean {
  if (!paths) return false;
  for (const p of paths) if (p === prefix || p.startsWith(`${prefix}.`)) return true;
  return false;
}
