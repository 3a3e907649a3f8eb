/**
 * Tags (SPEC.md section 3 "Tag types"): user tags carry a value per person (set by apps through
 * the ingestion API or by imports), audience tags label audiences. Each is typed text, number or
 * date. A tag's type can change only while nobody has a value for it.
 */
import { z } from 'zod';

export const TagKind = z.enum(['user_tag', 'audience_tag']);
export type TagKind = z.infer<typeof TagKind>;
export const TagValueType = z.enum(['text', 'number', 'date']);
export type TagValueType = z.infer<typeof TagValueType>;

/**
 * A tag name's characters: letters (any script), digits, spaces, underscore, dot and hyphen; what
 * an app sends as a key must also fit here. A refusal names the allowed characters (the API's
 * English text below; the client says it in the person's language with the characters it found,
 * `tagNameRefused`).
 */
const TAG_NAME_CHARACTER = /^[\p{L}\p{N}_.\- ]$/u;
export const TAG_NAME_MAX = 64;
export const TAG_NAME_CHARACTERS_TEXT = 'Use only letters, digits, spaces, underscores (_), dots (.) and hyphens (-)';

/** The characters of a name a tag name may not hold, each once, in the order they appear. */
export function tagNameRefused(name: string): string[] {
  const refused = new Set<string>();
  for (const character of name) if (!TAG_NAME_CHARACTER.test(character)) refused.add(character);
  return [...refused];
}

const TagName = z.string().trim().min(1, 'Required').max(TAG_NAME_MAX)
  .refine((name) => tagNameRefused(name).length === 0, { message: TAG_NAME_CHARACTERS_TEXT, params: { rule: 'tag_name_characters' } });

export const Tag = z.object({
  id: z.string(),
  name: z.string(),
  kind: TagKind,
  valueType: TagValueType,
  description: z.string().nullable(),
  /** User tags: people with a value. Audience tags: 0 until audiences carry them. */
  people: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Tag = z.infer<typeof Tag>;

export const TagInput = z.object({
  name: TagName,
  kind: TagKind,
  valueType: TagValueType,
  description: z.string().trim().max(300).nullable().optional(),
});
export type TagInput = z.infer<typeof TagInput>;

export const TagUpdate = TagInput.omit({ kind: true });
export type TagUpdate = z.infer<typeof TagUpdate>;
