/**
 * The editor's edits of a message draft, pure: each takes a draft and returns the next one (or the
 * same object when nothing changes). `rebaseDraft` puts one edit, made on the draft a form rendered,
 * onto the document's current draft, so a co-editor's change that arrived in between is kept.
 */
import { jsonEqual } from '@gd/shared/journey/json';
import {
  MAX_AB_VARIANTS,
  MAX_MESSAGE_LANGUAGES,
  evenShares,
  type MessageDraft,
  type MessageVariant,
} from '@gd/shared/message/draft';
import { createMessageContent, type CommunicationType, type MessageContent } from '@gd/shared/message/model';

/** The content type of a variant: its contents' (they share one), else the draft's. */
export function variantTypeOf(draft: MessageDraft, variant: MessageVariant | undefined): CommunicationType {
  const first = variant ? Object.values(variant.content)[0] : undefined;
  if (first) return first.type;
  return draft.type === 'test_ab' ? 'push' : draft.type;
}

export function updateVariant(draft: MessageDraft, id: string, change: (v: MessageVariant) => MessageVariant): MessageDraft {
  let changed = false;
  const variants = draft.variants.map((v) => {
    if (v.id !== id) return v;
    const next = change(v);
    changed ||= next !== v;
    return next;
  });
  return changed ? { ...draft, variants } : draft;
}

/** One field of one variant's content in one language (the content is made when missing). */
export function setContentField<K extends keyof MessageContent>(draft: MessageDraft, variantId: string, lang: string, field: K, value: MessageContent[K]): MessageDraft {
  return updateVariant(draft, variantId, (v) => {
    const current = v.content[lang] ?? createMessageContent(variantTypeOf(draft, v));
    if (jsonEqual(current[field], value)) return v;
    return { ...v, content: { ...v.content, [lang]: { ...current, [field]: value } } };
  });
}

/** The next unused variant letter (A, B, C...), or a numbered id past Z. */
function nextVariantId(draft: MessageDraft): string {
  const used = new Set(draft.variants.map((v) => v.id));
  for (let i = 0; i < 26; i++) {
    const id = String.fromCharCode(65 + i);
    if (!used.has(id)) return id;
  }
  let n = draft.variants.length + 1;
  while (used.has(`V${n}`)) n++;
  return `V${n}`;
}

const withEvenShares = (variants: MessageVariant[]): MessageVariant[] => {
  const shares = evenShares(variants.length);
  return variants.map((v, i) => ({ ...v, share: shares[i] ?? 0 }));
};

/** A new variant (the last one's content type, empty content in every language); shares split evenly again. */
export function addVariant(draft: MessageDraft): MessageDraft {
  if (draft.variants.length >= MAX_AB_VARIANTS) return draft;
  const id = nextVariantId(draft);
  const type = variantTypeOf(draft, draft.variants[draft.variants.length - 1]);
  const content = Object.fromEntries(draft.languages.map((lang) => [lang, createMessageContent(type)]));
  return { ...draft, variants: withEvenShares([...draft.variants, { id, name: id, share: 0, content }]) };
}

/** Removes a variant (never the last one); the shares are split evenly again. */
export function removeVariant(draft: MessageDraft, id: string): MessageDraft {
  if (draft.variants.length <= 1 || !draft.variants.some((v) => v.id === id)) return draft;
  return { ...draft, variants: withEvenShares(draft.variants.filter((v) => v.id !== id)) };
}

export function evenVariantShares(draft: MessageDraft): MessageDraft {
  const next = withEvenShares(draft.variants);
  return jsonEqual(next, draft.variants) ? draft : { ...draft, variants: next };
}

/** Fields kept when a variant changes type (what the new type has in common with the old one). */
const KEPT_ON_TYPE_CHANGE = ['title', 'message', 'subject', 'html_body', 'image_url', 'target_url', 'buttons', 'life'] as const;

/** A variant of an A/B test takes another content type in every language, keeping the texts it had. */
export function setVariantType(draft: MessageDraft, id: string, type: CommunicationType): MessageDraft {
  return updateVariant(draft, id, (v) => {
    if (variantTypeOf(draft, v) === type) return v;
    const content = Object.fromEntries(
      draft.languages.map((lang) => {
        const old = v.content[lang];
        const fresh = createMessageContent(type);
        if (old) for (const field of KEPT_ON_TYPE_CHANGE) (fresh as Record<string, unknown>)[field] = old[field];
        return [lang, fresh];
      }),
    );
    return { ...v, content };
  });
}

/** A language for every variant (empty content of the variant's type). */
export function addLanguage(draft: MessageDraft, lang: string): MessageDraft {
  if (draft.languages.includes(lang) || draft.languages.length >= MAX_MESSAGE_LANGUAGES) return draft;
  return {
    ...draft,
    languages: [...draft.languages, lang],
    variants: draft.variants.map((v) => ({ ...v, content: { ...v.content, [lang]: v.content[lang] ?? createMessageContent(variantTypeOf(draft, v)) } })),
  };
}

/** Removes a language (never the last one); the default moves to the first remaining when it goes. */
export function removeLanguage(draft: MessageDraft, lang: string): MessageDraft {
  if (!draft.languages.includes(lang) || draft.languages.length <= 1) return draft;
  const languages = draft.languages.filter((l) => l !== lang);
  return {
    ...draft,
    languages,
    defaultLanguage: draft.defaultLanguage === lang ? (languages[0] ?? draft.defaultLanguage) : draft.defaultLanguage,
    variants: draft.variants.map((v) => {
      const { [lang]: _removed, ...content } = v.content;
      return { ...v, content };
    }),
  };
}

// ---------------------------------------------------------------------------------------------
// Rebase: an edit made on `base` (the draft the form showed) is put onto `current` (the document
// now). Whatever the edit did not touch comes from `current`, at the finest level the document
// keeps apart (a setting, a language, a variant's name or share, one content field): a co-editor's
// change in between survives unless this edit changed the very same thing.

const SETTINGS = ['name', 'type', 'origin', 'defaultLanguage', 'parameters', 'target', 'schedule', 'delivery'] as const;

function pick<T>(base: T, next: T, current: T): T {
  return jsonEqual(base, next) ? current : next;
}

function rebaseContent(base: MessageContent | undefined, next: MessageContent, current: MessageContent | undefined): MessageContent {
  if (!base || !current || base.type !== next.type || current.type !== next.type) return base && current && jsonEqual(base, next) ? current : next;
  const out: Record<string, unknown> = { ...current };
  for (const field of Object.keys(next) as (keyof MessageContent)[]) out[field] = pick(base[field], next[field], current[field]);
  return out as MessageContent;
}

function rebaseVariant(base: MessageVariant, next: MessageVariant, current: MessageVariant): MessageVariant {
  const content: Record<string, MessageContent> = { ...current.content };
  for (const lang of Object.keys(base.content)) if (!(lang in next.content)) delete content[lang];
  for (const [lang, c] of Object.entries(next.content)) content[lang] = rebaseContent(base.content[lang], c, current.content[lang]);
  return { id: current.id, name: pick(base.name, next.name, current.name), share: pick(base.share, next.share, current.share), content };
}

export function rebaseDraft(base: MessageDraft, next: MessageDraft, current: MessageDraft): MessageDraft {
  if (jsonEqual(base, current)) return next;
  const out: MessageDraft = { ...current };
  for (const key of SETTINGS) (out as Record<string, unknown>)[key] = pick(base[key], next[key], current[key]);

  const addedLangs = next.languages.filter((l) => !base.languages.includes(l));
  const removedLangs = new Set(base.languages.filter((l) => !next.languages.includes(l)));
  out.languages = [...current.languages.filter((l) => !removedLangs.has(l)), ...addedLangs.filter((l) => !current.languages.includes(l))];

  const baseById = new Map(base.variants.map((v) => [v.id, v]));
  const nextById = new Map(next.variants.map((v) => [v.id, v]));
  const currentIds = new Set(current.variants.map((v) => v.id));
  const variants = current.variants
    .filter((v) => !(baseById.has(v.id) && !nextById.has(v.id)))
    .map((v) => {
      const b = baseById.get(v.id);
      const n = nextById.get(v.id);
      return b && n ? rebaseVariant(b, n, v) : v;
    });
  for (const v of next.variants) if (!baseById.has(v.id) && !currentIds.has(v.id)) variants.push(v);
  // A language this edit removed goes from every variant, also from one a co-editor added meanwhile.
  out.variants = removedLangs.size === 0 ? variants : variants.map((v) => ({ ...v, content: Object.fromEntries(Object.entries(v.content).filter(([lang]) => !removedLangs.has(lang))) }));
  return out;
}
