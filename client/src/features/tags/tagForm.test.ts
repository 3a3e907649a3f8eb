import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@gd/shared/errors';
import type { TFunction } from '../../i18n/keys.ts';
import { ApiError } from '../../api/errors.ts';
import { tagFailure, validateTag } from './tagForm.ts';

const t: TFunction = (key, vars) => (vars ? `${key}:${JSON.stringify(vars)}` : key);
const values = (name: string) => ({ name, kind: 'user_tag', valueType: 'text', description: '' });

describe('the tag dialog', () => {
  it('names the allowed characters and the ones it found when a name holds others', () => {
    expect(validateTag(values('vip#1/2#'), t)).toEqual({ name: 'tags.nameCharacters:{"characters":"# /"}' });
    expect(validateTag(values('a\tb'), t)).toEqual({ name: 'tags.nameCharacters:{"characters":"U+0009"}' });
    expect(validateTag(values(`${'x'.repeat(70)}!`), t)).toEqual({ name: 'tags.nameCharacters:{"characters":"!"}' });
  });

  it('takes letters of any script, digits, spaces and _ . -', () => {
    expect(validateTag(values('Nivel de lealtad_2.0-ñ 会员'), t)).toEqual({});
    expect(validateTag(values(''), t)).toEqual({ name: 'validation.required' });
    expect(validateTag(values('x'.repeat(65)), t)).toEqual({ name: 'validation.tooLong:{"max":64}' });
  });

  it("says the same when the API refuses the name's characters", () => {
    const refused = new ApiError(ErrorCode.MANDATORY, 'Use only letters, ...', [{ path: 'name', message: 'Use only letters, ...' }]);
    expect(tagFailure(refused, values('a@b'), t)).toEqual({ fieldErrors: { name: 'tags.nameCharacters:{"characters":"@"}' }, formError: null });
    const taken = new ApiError(ErrorCode.NAME_DUPLICATED, 'Taken', [{ path: 'name', message: 'Name already in use' }]);
    expect(tagFailure(taken, values('tier'), t).fieldErrors.name).not.toMatch(/nameCharacters/);
  });
});
