/**
 * The category dialog's checks, pure so they are tested: the shared `CategoryInput` schema in the
 * person's language (a colour not #RRGGBB and no entity type say what is expected), and the API's
 * refusals (30 a name in use, 10001 too many categories) on their fields.
 */
import { ErrorCode } from '@gd/shared/errors';
import { CategoryInput, type Category, type CategoryEntityType } from '@gd/shared/schemas/categories';
import { ApiError } from '../../api/errors.ts';
import type { TFunction } from '../../i18n/keys.ts';
import { schemaValidator, splitFailure } from '../../ui/forms.ts';

export interface CategoryFormValues { name: string; colour: string; entityTypes: CategoryEntityType[] }

const FIELDS = ['name', 'colour', 'entityTypes'] as const;

/** The colours the dialog offers as swatches (any #RRGGBB may be typed). */
export const SWATCHES = ['#1C7ED6', '#0CA678', '#F59F00', '#E8590C', '#E03131', '#C2255C', '#7048E8', '#495057'] as const;

export function categoryFormValues(category?: Category): CategoryFormValues {
  return category
    ? { name: category.name, colour: category.colour.toUpperCase(), entityTypes: [...category.entityTypes] }
    : { name: '', colour: SWATCHES[0], entityTypes: ['app', 'campaign', 'message'] };
}

export function categoryBody(values: CategoryFormValues) {
  return { name: values.name.trim(), colour: values.colour.trim(), entityTypes: values.entityTypes };
}

export function validateCategory(values: CategoryFormValues, t: TFunction): Record<string, string> {
  return schemaValidator(CategoryInput, t, { colour: 'categories.colourInvalid', entityTypes: 'categories.typesRequired' }, categoryBody)(values);
}

/** A refused save as field errors and a form error. */
export function categoryFailure(error: unknown, t: TFunction): { fieldErrors: Record<string, string>; formError: unknown } {
  return splitFailure(error, t, FIELDS, (message) => {
    if (message === 'name_taken' || (error instanceof ApiError && error.code === ErrorCode.NAME_DUPLICATED)) return t('categories.nameTaken');
    if (message === 'too_many_categories') return t('categories.tooMany');
    return undefined;
  });
}
