/** The message settings dialogs' pure checks: bodies as the API takes them, errors on the right fields. */
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@gd/shared/errors';
import { ApiError } from '../../api/errors.ts';
import type { TFunction } from '../../i18n/keys.ts';
import { initialParameterValues, parameterBody, parameterFailure, validateParameter } from './parameterForm.ts';
import { initialTemplateValues, newTemplateField, templateBody, templateFailure, validateTemplate } from './templateForm.ts';

const t = ((key: string) => key) as TFunction;

describe('communication parameter form', () => {
  it('sends the full name, trimmed texts, and no values for open text', () => {
    expect(parameterBody({ name: ' tier ', label: ' Tier ', type: 'valueSelection', values: ['gold', ' silver ', ''] })).toEqual({
      name: 'communicationParameter__tier', label: 'Tier', type: 'valueSelection', values: ['gold', 'silver'],
    });
    expect(parameterBody({ name: 'code', label: 'Code', type: 'openText', values: ['left over'] }).values).toEqual([]);
    expect(initialParameterValues({ id: 'x', name: 'communicationParameter__tier', label: 'Tier', type: 'openText', values: [], createdAt: '', updatedAt: '' }).name).toBe('tier');
  });

  it('says what is wrong on the field it concerns', () => {
    expect(validateParameter({ name: 'tier', label: 'Tier', type: 'valueSelection', values: ['a'] }, t)).toEqual({});
    expect(validateParameter({ name: '', label: '', type: 'valueSelection', values: [] }, t)).toEqual({
      name: 'validation.required', label: 'validation.required', values: 'messageSettings.parameters.valuesRequired',
    });
    expect(validateParameter({ name: 'Tier-1', label: 'x', type: 'valueSelection', values: ['a', 'a'] }, t)).toEqual({
      name: 'messageSettings.parameters.nameFormat', values: 'messageSettings.parameters.valuesUnique',
    });
    expect(parameterFailure(new ApiError(ErrorCode.NAME_DUPLICATED, 'taken', [{ path: 'name', message: 'name_taken' }]), t)).toEqual({
      fieldErrors: { name: 'messageSettings.parameters.nameTaken' }, formError: null,
    });
  });
});

describe('native ad template form', () => {
  it('sends a length only for text fields that have one', () => {
    const values = { name: ' Card ', isDefault: false, fields: [
      { key: 'title', label: 'Title', kind: 'text' as const, required: true, maxLength: 40 },
      { key: 'body', label: 'Body', kind: 'text' as const, required: false, maxLength: '' },
      { key: 'img', label: 'Image', kind: 'image' as const, required: true, maxLength: 12 },
    ] };
    expect(templateBody(values)).toEqual({ name: 'Card', isDefault: false, fields: [
      { key: 'title', label: 'Title', kind: 'text', required: true, maxLength: 40 },
      { key: 'body', label: 'Body', kind: 'text', required: false },
      { key: 'img', label: 'Image', kind: 'image', required: true },
    ] });
    expect(validateTemplate(values, t)).toEqual({});
    expect(initialTemplateValues().fields).toHaveLength(1);
  });

  it('puts errors on the field row they concern', () => {
    const errors = validateTemplate({ name: '', isDefault: false, fields: [
      { ...newTemplateField(), key: 'title', label: 'Title' },
      { ...newTemplateField(), key: 'title', label: 'Again' },
      { ...newTemplateField(), key: 'Bad Key', label: '' },
    ] }, t);
    expect(errors).toEqual({
      name: 'validation.required',
      'fields.1.key': 'messageSettings.templates.keyUnique',
      'fields.2.key': 'messageSettings.templates.keyFormat',
      'fields.2.label': 'validation.required',
    });
    expect(validateTemplate({ name: 'x', isDefault: false, fields: [] }, t)).toEqual({ fields: 'messageSettings.templates.fieldsRequired' });
    expect(templateFailure(new ApiError(ErrorCode.NATIVE_AD_TEMPLATE_DUPLICATED, 'taken'), t).fieldErrors).toEqual({ name: 'messageSettings.templates.nameTaken' });
    expect(templateFailure(new ApiError(ErrorCode.NATIVE_AD_TEMPLATE_DEFAULT, 'kept'), t).fieldErrors).toEqual({ isDefault: 'messageSettings.templates.defaultKept' });
  });
});
