/** The mail provider dialog's pure checks: the body as the API takes it, the password left unchanged or asked again, errors on their fields. */
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@gd/shared/errors';
import type { MailProvider } from '@gd/shared/schemas/mailProviders';
import { ApiError } from '../../api/errors.ts';
import type { TFunction } from '../../i18n/keys.ts';
import { initialProviderValues, portForMode, providerBody, providerFailure, validateProvider } from './providerForm.ts';

const t = ((key: string) => key) as TFunction;
const stored: MailProvider = {
  id: 'p1', name: 'Relay', host: 'smtp.example.com', port: 587, tls: 'starttls', username: 'user', hasPassword: true,
  senderName: 'Acme', senderEmail: 'news@acme.example.com', ratePerSecond: null, active: true, createdAt: '', updatedAt: '',
};

describe('mail provider form', () => {
  it('sends trimmed texts, a numeric port, and no password when the field is left empty', () => {
    const values = { ...initialProviderValues(stored), name: ' Relay 2 ', host: ' smtp.example.com ' };
    expect(values.password).toBe('');
    expect(providerBody(values)).toEqual({
      name: 'Relay 2', host: 'smtp.example.com', port: 587, tls: 'starttls', username: 'user', senderName: 'Acme', senderEmail: 'news@acme.example.com',
      ratePerSecond: null,
    });
    // A sending limit is a whole number of e-mails a second; an empty field is no limit.
    expect(providerBody({ ...values, ratePerSecond: 50 }).ratePerSecond).toBe(50);
    for (const bad of [0, -5, 1.5, 200_000, '-']) {
      expect(validateProvider({ ...values, ratePerSecond: bad }, t, stored)).toEqual({ ratePerSecond: 'mailProviders.rateInvalid' });
    }
    expect(validateProvider({ ...values, ratePerSecond: 100_000 }, t, stored)).toEqual({});
    expect(providerBody({ ...values, password: 'new-secret' }).password).toBe('new-secret');
    // Without a username there is no login: no password either.
    expect(providerBody({ ...values, username: ' ', password: 'x' })).not.toHaveProperty('password');
  });

  it('keeps the stored password unless the host or the security mode changes', () => {
    expect(validateProvider(initialProviderValues(stored), t, stored)).toEqual({});
    expect(validateProvider({ ...initialProviderValues(stored), host: 'smtp.other.example.com' }, t, stored)).toEqual({ password: 'mailProviders.passwordAgain' });
    expect(validateProvider({ ...initialProviderValues(stored), tls: 'none' }, t, stored)).toEqual({ password: 'mailProviders.passwordAgain' });
    expect(validateProvider({ ...initialProviderValues(stored), tls: 'none', password: 'again' }, t, stored)).toEqual({});
  });

  it('says what is wrong on the field it concerns', () => {
    expect(validateProvider(initialProviderValues(), t)).toEqual({
      name: 'validation.required', host: 'validation.required', senderName: 'validation.required', senderEmail: 'validation.email',
    });
    expect(validateProvider({ ...initialProviderValues(stored), port: '', host: 'smtp://x', username: 'u' }, t)).toMatchObject({
      port: 'validation.required', host: 'validation.invalid', password: 'mailProviders.passwordRequired',
    });
    expect(providerFailure(new ApiError(ErrorCode.MANDATORY, 'host: private', [{ path: 'host', message: 'private_address' }]), t)).toEqual({
      fieldErrors: { host: 'mailProviders.issue.private_address' }, formError: null,
    });
    expect(providerFailure(new ApiError(ErrorCode.NAME_DUPLICATED, 'taken', [{ path: 'name', message: 'name_taken' }]), t)).toEqual({
      fieldErrors: { name: 'mailProviders.nameTaken' }, formError: null,
    });
  });

  it('proposes the usual port of a security mode unless another port was typed', () => {
    expect(portForMode({ port: 587, tls: 'starttls' }, 'tls')).toBe(465);
    expect(portForMode({ port: 2525, tls: 'starttls' }, 'tls')).toBe(2525);
  });
});
