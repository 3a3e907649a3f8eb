import { describe, expect, it } from 'vitest';
import { LoginRequest } from '@gd/shared/schemas/auth';
import { AppInput } from '@gd/shared/schemas/account';
import type { TFunction } from '../i18n/keys.ts';
import { ApiError } from '../api/errors.ts';
import { schemaValidator, splitFailure } from './forms.ts';

const t: TFunction = (key, vars) => (vars ? `${key}:${JSON.stringify(vars)}` : key);

describe('form validation from shared schemas', () => {
  it('localizes zod issues per field', () => {
    const validate = schemaValidator(LoginRequest, t);
    expect(validate({ email: 'nope', password: '' })).toEqual({ email: 'validation.email', password: 'validation.required' });
    expect(validate({ email: 'a@b.co', password: 'x' })).toEqual({});
  });

  it('uses per-field overrides for refinements and prepares values first', () => {
    const validate = schemaValidator<{ name: string; os: string; bundleId: string; timezone: string }>(
      AppInput,
      t,
      { bundleId: 'validation.bundleId', timezone: 'validation.timezone', os: 'validation.choose' },
      (v) => ({ ...v, bundleId: v.bundleId || null }),
    );
    expect(validate({ name: 'A', os: '', bundleId: 'bad id!', timezone: 'Mars/Base' })).toEqual({
      os: 'validation.choose', bundleId: 'validation.bundleId', timezone: 'validation.timezone',
    });
    expect(validate({ name: 'A', os: 'iOS', bundleId: '', timezone: 'UTC' })).toEqual({});
  });
});

describe('server failures on forms', () => {
  it('maps details onto the fields the form has and keeps the rest as a form error', () => {
    const error = new ApiError(10001, 'bad', [{ path: 'email', message: 'Already registered' }, { path: 'other', message: 'x' }]);
    const { fieldErrors, formError } = splitFailure(error, t, ['email']);
    expect(fieldErrors).toEqual({ email: 'Already registered' });
    expect(formError).toBe(error);
  });

  it('shows the field\'s own reason, translated, rather than the code\'s generic text (a refused private address is not "fill in the required fields")', () => {
    const error = new ApiError(10001, 'source.httpsFileUrl: the address is private', [{ path: 'source.httpsFileUrl', message: 'private_address' }]);
    const issueText = (code: string) => (code === 'private_address' ? 'imports.issue.private_address' : undefined);
    expect(splitFailure(error, t, ['source.httpsFileUrl'], issueText).fieldErrors).toEqual({ 'source.httpsFileUrl': 'imports.issue.private_address' });
  });

  it('says what the server found wrong with a value in the person\'s language, not "fill in the required fields"', () => {
    const tooLong = new ApiError(10001, 'Invalid request: name: Too big', [{ path: 'name', message: 'Too big: expected string to have <=120 characters', issue: { code: 'too_big', origin: 'string', maximum: 120 } }]);
    expect(splitFailure(tooLong, t, ['name']).fieldErrors).toEqual({ name: 'validation.tooLong:{"max":120}' });
    const notEmail = new ApiError(10001, 'bad', [{ path: 'email', message: 'Invalid email address', issue: { code: 'invalid_format', format: 'email' } }]);
    expect(splitFailure(notEmail, t, ['email']).fieldErrors).toEqual({ email: 'validation.email' });
    // Without an issue (a route's own reason the form does not translate), the server's message.
    const plain = new ApiError(10001, 'bad', [{ path: 'name', message: 'Required' }, { path: 'other', message: 'x' }]);
    expect(splitFailure(plain, t, ['name']).fieldErrors).toEqual({ name: 'Required' });
  });

  it('shows a failure without field details as a form error', () => {
    const error = new ApiError(10010, 'Wrong e-mail or password');
    expect(splitFailure(error, t, ['email'])).toEqual({ fieldErrors: {}, formError: error });
    expect(splitFailure(new Error('x'), t, ['email']).formError).toBeInstanceOf(Error);
  });

  it('has no form error when every detail found its field', () => {
    const error = new ApiError(10045, 'wrong', [{ path: 'currentPassword', message: 'Wrong password' }]);
    const { fieldErrors, formError } = splitFailure(error, t, ['currentPassword', 'newPassword']);
    expect(Object.keys(fieldErrors)).toEqual(['currentPassword']);
    expect(formError).toBeNull();
  });
});
