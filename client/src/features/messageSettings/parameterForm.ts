/**
 * The communication parameter dialog's checks, pure so they are tested. People type the name
 * without the `communicationParameter__` prefix (the dialog shows it in front of the field); the
 * body sent is the shared `CommunicationParameterInput` with the full name.
 */
import { ErrorCode } from '@gd/shared/errors';
import { COMMUNICATION_PARAMETER_PREFIX, type CommunicationParameterType } from '@gd/shared/message/draft';
import { CommunicationParameterInput, type CommunicationParameterRecord } from '@gd/shared/schemas/messageSettings';
import { ApiError } from '../../api/errors.ts';
import type { TFunction } from '../../i18n/keys.ts';
import { splitFailure, validationText } from '../../ui/forms.ts';

export interface ParameterFormValues { name: string; label: string; type: CommunicationParameterType; values: string[] }

const FIELDS = ['name', 'label', 'type', 'values'] as const;

/** The name people type: the full name without its prefix. */
export const shortName = (name: string) => (name.startsWith(COMMUNICATION_PARAMETER_PREFIX) ? name.slice(COMMUNICATION_PARAMETER_PREFIX.length) : name);
/** How a message writes the parameter in its texts. */
export const placeholderOf = (name: string) => `{{${name}}}`;

export function initialParameterValues(parameter?: CommunicationParameterRecord): ParameterFormValues {
  return parameter
    ? { name: shortName(parameter.name), label: parameter.label, type: parameter.type, values: [...parameter.values] }
    : { name: '', label: '', type: 'valueSelection', values: [] };
}

/** The request body: the full name, trimmed texts, and no values for open text (whatever was typed before switching). */
export function parameterBody(values: ParameterFormValues): CommunicationParameterInput {
  return {
    name: `${COMMUNICATION_PARAMETER_PREFIX}${values.name.trim()}`,
    label: values.label.trim(),
    type: values.type,
    values: values.type === 'openText' ? [] : values.values.map((v) => v.trim()).filter((v) => v !== ''),
  };
}

/** Field errors of the form (empty when it may be sent). */
export function validateParameter(values: ParameterFormValues, t: TFunction): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!/^[a-z][a-z0-9_]{0,63}$/.test(values.name.trim())) errors.name = values.name.trim() === '' ? t('validation.required') : t('messageSettings.parameters.nameFormat');
  const body = parameterBody(values);
  const parsed = CommunicationParameterInput.safeParse(body);
  if (parsed.success) return errors;
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? '');
    if (field in errors || !(FIELDS as readonly string[]).includes(field)) continue;
    if (field === 'values') errors.values = body.values.length === 0 ? t('messageSettings.parameters.valuesRequired') : new Set(body.values).size < body.values.length ? t('messageSettings.parameters.valuesUnique') : validationText(issue as Parameters<typeof validationText>[0], t);
    else if (field !== 'name') errors[field] = validationText(issue as Parameters<typeof validationText>[0], t);
  }
  return errors;
}

/** A refused save as field errors and a form error: a name taken (30) says so on the name. */
export function parameterFailure(error: unknown, t: TFunction): { fieldErrors: Record<string, string>; formError: unknown } {
  if (error instanceof ApiError && error.code === ErrorCode.NAME_DUPLICATED) return { fieldErrors: { name: t('messageSettings.parameters.nameTaken') }, formError: null };
  return splitFailure(error, t, FIELDS);
}
