/**
 * The tag dialog's checks, pure so they are tested: the shared `TagInput` schema in the person's
 * language. A name with characters a tag name may not hold says which are allowed (letters,
 * digits, spaces, _ . -) and which it found, rather than "not a valid value"; the API's own
 * refusal of a name (10001 on `name`, a build whose rules differ) gets the same text.
 */
import { ErrorCode } from '@gd/shared/errors';
import { TagInput, tagNameRefused } from '@gd/shared/schemas/tags';
import { ApiError } from '../../api/errors.ts';
import type { TFunction } from '../../i18n/keys.ts';
import { schemaValidator, splitFailure } from '../../ui/forms.ts';

export interface TagFormValues { name: string; kind: string; valueType: string; description: string }

const FIELDS = ['name', 'kind', 'valueType', 'description'] as const;

/** A character as a person can read it in a message: itself, or its code point when it is invisible. */
const visible = (character: string): string => (/^[\p{L}\p{N}\p{P}\p{S}]$/u.test(character) ? character : `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`);

/** The name's error when it holds characters a tag name may not, else null. */
export function tagNameCharactersError(name: string, t: TFunction): string | null {
  const refused = tagNameRefused(name.trim());
  return refused.length ? t('tags.nameCharacters', { characters: refused.map(visible).join(' ') }) : null;
}

export function validateTag(values: TagFormValues, t: TFunction): Record<string, string> {
  const errors = schemaValidator(TagInput, t)(values);
  const characters = tagNameCharactersError(values.name, t);
  if (characters) errors.name = characters;
  return errors;
}

/** A refused save as field errors and a form error. */
export function tagFailure(error: unknown, values: TagFormValues, t: TFunction): { fieldErrors: Record<string, string>; formError: unknown } {
  const split = splitFailure(error, t, FIELDS);
  const characters = tagNameCharactersError(values.name, t);
  if (error instanceof ApiError && error.code === ErrorCode.MANDATORY && split.fieldErrors.name && characters) {
    return { ...split, fieldErrors: { ...split.fieldErrors, name: characters } };
  }
  return split;
}
