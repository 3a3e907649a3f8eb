/** The integration dialog's pure parts: fields per service, the body sent, secrets kept when editing, errors on their fields. */
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@gd/shared/errors';
import type { Integration } from '@gd/shared/schemas/integrations';
import { ApiError } from '../../api/errors.ts';
import type { TFunction } from '../../i18n/keys.ts';
import { dropsTokens, initialValues, integrationBody, integrationFailure, secretFields, serviceFields, validateIntegration } from './integrationForm.ts';

const t = ((key: string) => key) as TFunction;
const stored: Integration = {
  id: 'i1', appId: 'a1', name: 'Ads', kind: 'social_ads', service: 'meta_ads', auth: 'oauth2',
  config: { clientId: 'client-1', scopes: ['ads_read'], adAccountId: '123' }, secretsSet: ['clientSecret', 'accessToken', 'refreshToken'],
  status: 'connected', statusCode: null, statusMessage: null, tokenExpiresAt: null, connectedAt: null, lastRefreshedAt: null, createdAt: '', updatedAt: '',
};

describe('integration form', () => {
  it('asks each service for its own settings and secrets', () => {
    expect(serviceFields('adobe_experience_platform')).toEqual(['clientId', 'scopes', 'techId', 'imsOrgId', 'imsHost', 'metaScopes', 'baseUrl', 'authorizeUrl', 'tokenUrl']);
    expect(serviceFields('amazon_dsp')).toEqual(['clientId', 'scopes', 'region', 'eventTypes', 'advertiserId', 'baseUrl', 'authorizeUrl', 'tokenUrl']);
    expect(serviceFields('s3')).toEqual(['endpoint', 'region', 'bucket', 'accessKeyId']);
    expect(serviceFields('google_ads')).toContain('adAccountId');
    expect(secretFields('amplitude')).toEqual(['username', 'password']);
    expect(secretFields('s3')).toEqual(['secretAccessKey']);
  });

  it('sends only the chosen service\'s settings, trimmed, and only the secrets typed', () => {
    const values = { ...initialValues(undefined, 'retail_dsp'), name: ' Retail ', clientId: ' amzn ', region: 'Europe', eventTypes: ['CHECKOUT'], advertiserId: 'A1', bucket: 'left-over', clientSecret: 's3cret' };
    expect(integrationBody(values)).toEqual({
      name: 'Retail', service: 'amazon_dsp', config: { clientId: 'amzn', scopes: [], region: 'Europe', eventTypes: ['CHECKOUT'], advertiserId: 'A1' }, secrets: { clientSecret: 's3cret' },
    });
    expect(validateIntegration(values, t)).toEqual({});
    expect(validateIntegration({ ...values, eventTypes: [] }, t)).toEqual({ eventTypes: 'validation.required' });
    expect(validateIntegration({ ...values, clientSecret: '' }, t)).toEqual({ clientSecret: 'validation.required' });
  });

  it('keeps the stored secret when editing, and says when the tokens would be dropped', () => {
    const values = initialValues(stored);
    expect(values.clientSecret).toBe('');
    expect(integrationBody(values).secrets).toEqual({});
    expect(validateIntegration(values, t, stored)).toEqual({});
    expect(dropsTokens(values, stored)).toBe(false);
    expect(dropsTokens({ ...values, scopes: ['ads_read', 'ads_management'] }, stored)).toBe(true);
    expect(dropsTokens({ ...values, clientId: 'client-2' }, stored)).toBe(true);
  });

  it('puts refusals on their fields: a name taken, a private address, a missing secret', () => {
    expect(integrationFailure(new ApiError(ErrorCode.NAME_DUPLICATED, 'taken'), t).fieldErrors).toEqual({ name: 'integrations.nameTaken' });
    const refused = new ApiError(ErrorCode.MANDATORY, 'bad', [{ path: 'config.baseUrl', message: 'private_address' }, { path: 'secrets.password', message: 'secret_required' }]);
    expect(integrationFailure(refused, t).fieldErrors).toEqual({ baseUrl: 'integrations.issue.private_address', password: 'integrations.issue.secret_required' });
  });
});
