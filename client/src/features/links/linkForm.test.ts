import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@gd/shared/errors';
import type { TFunction } from '../../i18n/keys.ts';
import { ApiError } from '../../api/errors.ts';
import { linkFailure, linkFormValues, linkInput, validateLink } from './linkForm.ts';

const t: TFunction = (key, vars) => (vars ? `${key}:${JSON.stringify(vars)}` : key);
const CAMPAIGN = '6f1f7f0e-1b7c-4a53-8a3e-3f0b9b9c1a10';

describe('the link dialog', () => {
  it('sends only the fields that are filled, trimmed, and the code only when creating', () => {
    const values = { ...linkFormValues(), campaignId: CAMPAIGN, name: ' Spring ', code: ' spring-1 ', deepLink: 'shop://home' };
    values.params.sid = ' net ';
    values.ios.store = 'https://apps.apple.com/app/id1';
    values.desktopWeb = 'https://shop.example.com';
    expect(linkInput(values, 'powlink', true)).toEqual({
      campaignId: CAMPAIGN, kind: 'powlink', name: ' Spring ', code: 'spring-1', params: { sid: 'net' },
      destinations: { ios: { store: 'https://apps.apple.com/app/id1' }, desktop: { web: 'https://shop.example.com' } }, deepLink: 'shop://home', landingId: null, active: true,
    });
    expect(linkInput({ ...values, landingId: CAMPAIGN }, 'powlink', false).landingId).toBe(CAMPAIGN);
    expect(linkInput(values, 'powlink', false)).not.toHaveProperty('code');
  });

  it('puts the schema issues on the form fields', () => {
    const values = { ...linkFormValues(), name: '' };
    values.android.store = 'http://192.168.1.2/app';
    values.desktopWeb = 'not a url';
    values.params.p1 = 'x'.repeat(300);
    const errors = validateLink(values, 'tracking', true, t);
    expect(Object.keys(errors).sort()).toEqual(['android.store', 'campaignId', 'desktopWeb', 'name', 'params.p1']);
    expect(errors.campaignId).toBe('validation.required');
  });

  it("shows the API's refusals on their fields", () => {
    const taken = new ApiError(ErrorCode.NAME_DUPLICATED, 'That short code is already in use', [{ path: 'code', message: 'code_taken' }]);
    expect(linkFailure(taken, t)).toEqual({ fieldErrors: { code: 'links.issues.code_taken' }, formError: null });
    const nowhere = new ApiError(ErrorCode.MANDATORY, 'destinations: ...', [{ path: 'destinations', message: 'no_destination' }]);
    expect(linkFailure(nowhere, t).fieldErrors).toEqual({ destinations: 'links.issues.no_destination' });
    const bad = new ApiError(ErrorCode.MANDATORY, 'bad', [{ path: 'destinations.ios.web', message: 'Expected an http(s) address' }]);
    expect(linkFailure(bad, t).fieldErrors).toEqual({ 'ios.web': 'Expected an http(s) address' });
    const landing = new ApiError(ErrorCode.NOT_EXIST, 'Landing page not found', [{ path: 'landingId', message: 'landing_not_found' }]);
    expect(linkFailure(landing, t).fieldErrors).toEqual({ landingId: 'landings.issues.not_found' });
  });
});
