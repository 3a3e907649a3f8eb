/** The push credentials dialogs' pure checks: bodies as the API takes them, the APNs key kept only when the environment alone changes, errors on their fields. */
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@gd/shared/errors';
import { ApiError } from '../../api/errors.ts';
import type { TFunction } from '../../i18n/keys.ts';
import {
  APNS_FIELDS, FCM_FIELDS, apnsBody, apnsKeyNeeded, fcmBody, initialApnsValues, pushFailure, validateApns, validateFcm, type ApnsCredential,
} from './pushCredentialsForm.ts';

const t = ((key: string) => key) as TFunction;
const stored: ApnsCredential = {
  provider: 'apns', settings: { keyId: 'KEY0000001', teamId: 'TEAM000001', bundleId: 'com.example.push', environment: 'production' }, ratePerSecond: null, updatedAt: '2026-01-01T00:00:00.000Z',
};
const PEM = '-----BEGIN PRIVATE KEY-----\nMIGH\n-----END PRIVATE KEY-----';

describe('APNs form', () => {
  it('starts from the stored settings with an empty key, or from the app\'s bundle id', () => {
    expect(initialApnsValues(stored, 'com.example.other')).toEqual({ ...stored.settings, privateKeyPem: '' });
    expect(initialApnsValues(undefined, 'com.example.app')).toEqual({ keyId: '', teamId: '', bundleId: 'com.example.app', environment: 'production', privateKeyPem: '' });
    expect(initialApnsValues(undefined, null).bundleId).toBe('');
  });

  it('sends trimmed, upper-cased ids and no key when the field is empty', () => {
    const values = { keyId: ' key0000001 ', teamId: 'team000001', bundleId: ' com.example.push ', environment: 'sandbox' as const, privateKeyPem: '  ' };
    expect(apnsBody(values)).toEqual({ keyId: 'KEY0000001', teamId: 'TEAM000001', bundleId: 'com.example.push', environment: 'sandbox' });
    expect(apnsBody({ ...values, privateKeyPem: `\n${PEM}\n` }).privateKeyPem).toBe(PEM);
  });

  it('keeps the stored key when only the environment changes, and asks for it otherwise', () => {
    const same = initialApnsValues(stored, null);
    expect(apnsKeyNeeded(same, stored)).toBe(false);
    expect(apnsKeyNeeded({ ...same, environment: 'sandbox' }, stored)).toBe(false);
    expect(apnsKeyNeeded({ ...same, keyId: 'key0000001' }, stored)).toBe(false);
    for (const change of [{ keyId: 'KEY0000002' }, { teamId: 'TEAM000002' }, { bundleId: 'com.example.other' }]) {
      expect(apnsKeyNeeded({ ...same, ...change }, stored)).toBe(true);
      expect(validateApns({ ...same, ...change }, t, stored)).toEqual({ privateKeyPem: 'pushCredentials.keyRequiredAgain' });
      expect(validateApns({ ...same, ...change, privateKeyPem: PEM }, t, stored)).toEqual({});
    }
    expect(validateApns({ ...same, environment: 'sandbox' }, t, stored)).toEqual({});
    expect(apnsKeyNeeded(same, undefined)).toBe(true);
  });

  it('puts each problem on its field', () => {
    expect(validateApns(initialApnsValues(undefined, null), t, undefined)).toEqual({
      keyId: 'validation.required', teamId: 'validation.required', bundleId: 'validation.required', privateKeyPem: 'validation.required',
    });
    expect(validateApns({ keyId: 'SHORT', teamId: 'TEAM-00001', bundleId: 'nodots', environment: 'production', privateKeyPem: PEM }, t, undefined)).toEqual({
      keyId: 'pushCredentials.appleId', teamId: 'pushCredentials.appleId', bundleId: 'pushCredentials.bundleIdFormat',
    });
  });
});

describe('FCM form', () => {
  const file = JSON.stringify({ type: 'service_account', project_id: 'p', client_email: 'a@p.iam.gserviceaccount.com', private_key: PEM });

  it('takes a service-account file and nothing else', () => {
    expect(validateFcm({ serviceAccount: file }, t)).toEqual({});
    expect(fcmBody({ serviceAccount: ` ${file}\n` })).toEqual({ serviceAccount: file });
    expect(validateFcm({ serviceAccount: '' }, t)).toEqual({ serviceAccount: 'validation.required' });
    expect(validateFcm({ serviceAccount: 'not json' }, t)).toEqual({ serviceAccount: 'pushCredentials.issue.not_service_account' });
    expect(validateFcm({ serviceAccount: JSON.stringify({ type: 'authorized_user', client_id: 'x' }) }, t)).toEqual({ serviceAccount: 'pushCredentials.issue.not_service_account' });
  });
});

describe('a refused save', () => {
  it('shows the route\'s reason on its field in the person\'s language', () => {
    const key = new ApiError(ErrorCode.MANDATORY, 'privateKeyPem: …', [{ path: 'privateKeyPem', message: 'invalid_key' }]);
    expect(pushFailure(key, t, APNS_FIELDS)).toEqual({ fieldErrors: { privateKeyPem: 'pushCredentials.issue.invalid_key' }, formError: null });
    const sa = new ApiError(ErrorCode.MANDATORY, 'serviceAccount: …', [{ path: 'serviceAccount', message: 'token_uri' }]);
    expect(pushFailure(sa, t, FCM_FIELDS)).toEqual({ fieldErrors: { serviceAccount: 'pushCredentials.issue.token_uri' }, formError: null });
    const other = new ApiError(ErrorCode.NO_PERMISSION, 'No permission');
    expect(pushFailure(other, t, APNS_FIELDS)).toEqual({ fieldErrors: {}, formError: other });
  });
});
