import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@gd/shared/errors';
import type { Category } from '@gd/shared/schemas/categories';
import type { TFunction } from '../../i18n/keys.ts';
import { ApiError } from '../../api/errors.ts';
import { categoryParam, pickCategories, sameIds } from '../../entities/category/categoryIds.ts';
import { categoryBody, categoryFailure, categoryFormValues, validateCategory } from './categoryForm.ts';

const t: TFunction = (key, vars) => (vars ? `${key}:${JSON.stringify(vars)}` : key);
const category = (id: string, name: string): Category => ({
  id, name, colour: '#112233', entityTypes: ['app'], counts: { app: 0, campaign: 0, message: 0 }, createdAt: '', updatedAt: '',
});

describe('the category dialog', () => {
  it('starts with a swatch and every type, or with the category edited', () => {
    expect(categoryFormValues()).toEqual({ name: '', colour: '#1C7ED6', entityTypes: ['app', 'campaign', 'message'] });
    expect(categoryFormValues({ ...category('c1', 'Retail'), colour: '#aabbcc', entityTypes: ['campaign'] })).toEqual({ name: 'Retail', colour: '#AABBCC', entityTypes: ['campaign'] });
  });

  it('says what a colour and the types must be, in the person\'s language', () => {
    expect(validateCategory({ name: 'Retail', colour: '#12345', entityTypes: ['app'] }, t)).toEqual({ colour: 'categories.colourInvalid' });
    expect(validateCategory({ name: 'Retail', colour: 'blue', entityTypes: ['app'] }, t)).toEqual({ colour: 'categories.colourInvalid' });
    expect(validateCategory({ name: 'Retail', colour: '#12345g', entityTypes: ['app'] }, t)).toEqual({ colour: 'categories.colourInvalid' });
    expect(validateCategory({ name: 'Retail', colour: '#1c7ed6', entityTypes: [] }, t)).toEqual({ entityTypes: 'categories.typesRequired' });
    expect(validateCategory({ name: '  ', colour: '#1c7ed6', entityTypes: ['app'] }, t)).toEqual({ name: 'validation.required' });
    expect(validateCategory({ name: 'x'.repeat(61), colour: '#1c7ed6', entityTypes: ['app'] }, t)).toEqual({ name: 'validation.tooLong:{"max":60}' });
    expect(validateCategory({ name: 'Retail', colour: ' #1C7ED6 ', entityTypes: ['message'] }, t)).toEqual({});
    expect(categoryBody({ name: ' Retail ', colour: ' #1C7ED6 ', entityTypes: ['app'] })).toEqual({ name: 'Retail', colour: '#1C7ED6', entityTypes: ['app'] });
  });

  it('puts the API\'s refusals on their fields', () => {
    const taken = new ApiError(ErrorCode.NAME_DUPLICATED, 'Taken', [{ path: 'name', message: 'name_taken' }]);
    expect(categoryFailure(taken, t)).toEqual({ fieldErrors: { name: 'categories.nameTaken' }, formError: null });
    const full = new ApiError(ErrorCode.MANDATORY, 'Full', [{ path: 'name', message: 'too_many_categories' }]);
    expect(categoryFailure(full, t).fieldErrors).toEqual({ name: 'categories.tooMany' });
    const other = new ApiError('network', 'offline');
    expect(categoryFailure(other, t)).toEqual({ fieldErrors: {}, formError: other });
  });
});

describe('the lists\' category helpers', () => {
  it('reads a category from the address only when it is an id', () => {
    expect(categoryParam('3F2504E0-4F89-41D3-9A0C-0305E82C3301')).toBe('3f2504e0-4f89-41d3-9a0c-0305e82c3301');
    expect(categoryParam('retail')).toBeUndefined();
    expect(categoryParam(null)).toBeUndefined();
  });

  it('picks a row\'s categories in the list\'s order and skips the ones gone', () => {
    const all = [category('a', 'Brand'), category('b', 'Retail'), category('c', 'VIP')];
    expect(pickCategories(all, ['c', 'a', 'gone']).map((c) => c.name)).toEqual(['Brand', 'VIP']);
    expect(pickCategories(all, undefined)).toEqual([]);
    expect(pickCategories(undefined, ['a'])).toEqual([]);
  });

  it('compares lists of ids whatever their order', () => {
    expect(sameIds(['a', 'b'], ['b', 'a'])).toBe(true);
    expect(sameIds(['a'], ['a', 'b'])).toBe(false);
    expect(sameIds(['a', 'b'], ['a', 'c'])).toBe(false);
  });
});
