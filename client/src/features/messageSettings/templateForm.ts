/**
 * The native ad template dialog's checks, pure so they are tested: the shared `NativeTemplateInput`
 * in the person's language, field by field (`fields.2.key`), and the API's refusals (32: the name
 * is taken; 33: the default would be unset) on the fields they concern.
 */
import { ErrorCode } from '@gd/shared/errors';
import { NativeTemplateInput, type NativeTemplate, type NativeTemplateFieldKind } from '@gd/shared/schemas/messageSettings';
import { ApiError } from '../../api/errors.ts';
import type { TFunction } from '../../i18n/keys.ts';
import { splitFailure, validationText } from '../../ui/forms.ts';

export interface TemplateFieldValues { key: string; label: string; kind: NativeTemplateFieldKind; required: boolean; maxLength: number | string }
export interface TemplateFormValues { name: string; isDefault: boolean; fields: TemplateFieldValues[] }

export const newTemplateField = (): TemplateFieldValues => ({ key: '', label: '', kind: 'text', required: true, maxLength: '' });

export function initialTemplateValues(template?: NativeTemplate): TemplateFormValues {
  if (!template) return { name: '', isDefault: false, fields: [{ ...newTemplateField(), key: 'title', label: '' }] };
  return {
    name: template.name,
    isDefault: template.isDefault,
    fields: template.fields.map((f) => ({ key: f.key, label: f.label, kind: f.kind, required: f.required, maxLength: f.maxLength ?? '' })),
  };
}

/** The request body: a length only for text fields, and only when one was given. */
export function templateBody(values: TemplateFormValues): NativeTemplateInput {
  return {
    name: values.name.trim(),
    isDefault: values.isDefault,
    fields: values.fields.map((f) => {
      const length = typeof f.maxLength === 'number' ? f.maxLength : f.maxLength.trim() === '' ? undefined : Number(f.maxLength);
      return { key: f.key.trim(), label: f.label.trim(), kind: f.kind, required: f.required, ...(f.kind === 'text' && length !== undefined ? { maxLength: length } : {}) };
    }),
  };
}

/** Field errors by form path (`name`, `fields`, `fields.0.key`...), empty when it may be sent. */
export function validateTemplate(values: TemplateFormValues, t: TFunction): Record<string, string> {
  const parsed = NativeTemplateInput.safeParse(templateBody(values));
  if (parsed.success) return {};
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const path = issue.path.map(String).join('.');
    if (path in errors) continue;
    const rule = (issue as { params?: { rule?: string } }).params?.rule;
    if (path === 'fields') errors.fields = t('messageSettings.templates.fieldsRequired');
    else if (rule === 'key_unique') errors[path] = t('messageSettings.templates.keyUnique');
    else if (path.endsWith('.key') && issue.code === 'invalid_format') errors[path] = values.fields[Number(issue.path[1])]?.key.trim() ? t('messageSettings.templates.keyFormat') : t('validation.required');
    else errors[path] = validationText(issue as Parameters<typeof validationText>[0], t);
  }
  return errors;
}

const FIELDS = ['name', 'isDefault', 'fields'] as const;

/** A refused save as field errors and a form error. */
export function templateFailure(error: unknown, t: TFunction): { fieldErrors: Record<string, string>; formError: unknown } {
  if (error instanceof ApiError && error.code === ErrorCode.NATIVE_AD_TEMPLATE_DUPLICATED) return { fieldErrors: { name: t('messageSettings.templates.nameTaken') }, formError: null };
  if (error instanceof ApiError && error.code === ErrorCode.NATIVE_AD_TEMPLATE_DEFAULT) return { fieldErrors: { isDefault: t('messageSettings.templates.defaultKept') }, formError: null };
  const split = splitFailure(error, t, [...FIELDS, ...fieldPaths(error)]);
  return split;
}

/** Paths of the template's fields the server named (`fields.1.key`), so they land on their inputs. */
const fieldPaths = (error: unknown): string[] => (error instanceof ApiError ? error.details.map((d) => d.path).filter((p) => /^fields\.\d+\.\w+$/.test(p)) : []);

/** A delete or update refused because the template is the default (33), in the person's language. */
export function localizedDefaultRefusal(error: unknown, t: TFunction): unknown {
  if (error instanceof ApiError && error.code === ErrorCode.NATIVE_AD_TEMPLATE_DEFAULT) return new ApiError(error.code, t('messageSettings.templates.defaultKept'), error.details, error.httpStatus);
  return error;
}
