/**
 * Form validation with the shared zod schemas, messages localized on the client (the schema's
 * own messages are English), and server failures mapped onto fields.
 */
import type { z } from 'zod';
import type { ValidationIssue } from '@gd/shared/errors';
import type { TFunction, TKey } from '../i18n/keys.ts';
import { ApiError } from '../api/errors.ts';
import { hasKey } from '../i18n/i18n.ts';

/**
 * What was wrong with a value, localized: a zod issue of the client's own check, or the issue the
 * server sent with a field detail (`FieldIssue.issue`, the same shape), so both say the same.
 */
export function validationText(issue: ValidationIssue, t: TFunction): string {
  switch (issue.code) {
    case 'too_small':
      return issue.origin === 'string' && Number(issue.minimum) <= 1 ? t('validation.required') : t('validation.tooShort', { min: Number(issue.minimum) });
    case 'too_big':
      return t('validation.tooLong', { max: Number(issue.maximum) });
    case 'invalid_format':
      return issue.format === 'email' ? t('validation.email') : t('validation.format');
    case 'invalid_type':
    case 'invalid_value':
    case 'invalid_union':
      return t('validation.required');
    default:
      return t('validation.invalid');
  }
}

/**
 * A Mantine form `validate` function from a schema. `messages` overrides the text per field
 * (for refinements, whose generic text would say little).
 */
export function schemaValidator<V>(schema: z.ZodType, t: TFunction, messages: Partial<Record<string, TKey>> = {}, prepare?: (values: V) => unknown) {
  return (values: V): Record<string, string> => {
    const result = schema.safeParse(prepare ? prepare(values) : values);
    if (result.success) return {};
    const errors: Record<string, string> = {};
    for (const issue of result.error.issues) {
      const path = issue.path.map(String).join('.');
      if (path in errors) continue;
      const override = messages[path];
      errors[path] = override ? t(override) : validationText(issue as ValidationIssue, t);
    }
    return errors;
  };
}

/**
 * Split a failure into field errors (for fields the form has) and a form-level error. A field's
 * text is, in order: the route's reason code as the form translates it (`issueText`), the schema
 * issue the server sent (too long, not an e-mail...), the catalogue's text of the code for a
 * single detail, else the server's message.
 */
export function splitFailure(error: unknown, t: TFunction, fields: readonly string[], issueText?: (message: string) => string | undefined): { fieldErrors: Record<string, string>; formError: unknown } {
  if (!(error instanceof ApiError) || error.details.length === 0) return { fieldErrors: {}, formError: error };
  const known = error.details.filter((d) => fields.includes(d.path));
  if (known.length === 0) return { fieldErrors: {}, formError: error };
  const key = `errors.${String(error.code)}`;
  const single = known.length === 1 && error.details.length === 1 && hasKey(key);
  const fieldErrors: Record<string, string> = {};
  // The field's own reason first (a code the form translates), then the code's catalogue text.
  for (const d of known) fieldErrors[d.path] ??= issueText?.(d.message) ?? (d.issue ? validationText(d.issue, t) : single ? t(key as TKey) : d.message);
  return { fieldErrors, formError: known.length === error.details.length ? null : error };
}
