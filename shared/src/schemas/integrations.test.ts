/** The integration input: one variant per service, its own settings and secrets, formats refused. */
import { describe, expect, it } from 'vitest';
import { INTEGRATION_SERVICES, IntegrationService } from '../integrations/model.ts';
import { APP_PATH, IntegrationInput, REQUIRED_SECRETS, SERVICE_CONFIG, SERVICE_DEFAULTS, serviceUrlProblem } from './integrations.ts';

describe('integration input', () => {
  it('has settings and defaults for every service, and secrets for every sign-in', () => {
    for (const s of IntegrationService.options) {
      expect(SERVICE_CONFIG[s]).toBeDefined();
      expect(serviceUrlProblem(SERVICE_DEFAULTS[s].baseUrl)).toBeNull();
      if (INTEGRATION_SERVICES[s].auth[0] === 'oauth2') {
        expect(SERVICE_DEFAULTS[s].authorizeUrl).toMatch(/^https:\/\//);
        expect(SERVICE_DEFAULTS[s].tokenUrl).toMatch(/^https:\/\//);
      }
      expect(REQUIRED_SECRETS[INTEGRATION_SERVICES[s].auth[0]].length).toBeGreaterThan(0);
    }
  });

  it('takes the experience platform\'s settings and the retail regions and event types of SPEC §3', () => {
    const aep = IntegrationInput.parse({
      name: 'AEP', service: 'adobe_experience_platform', secrets: { clientSecret: 's' },
      config: { clientId: 'c', techId: 'T@techacct.adobe.com', imsOrgId: 'O@AdobeOrg', imsHost: 'ims-na1.adobelogin.com', metaScopes: ['ent_dataservices_sdk'] },
    });
    expect(aep.config).toMatchObject({ techId: 'T@techacct.adobe.com', imsOrgId: 'O@AdobeOrg', imsHost: 'ims-na1.adobelogin.com', metaScopes: ['ent_dataservices_sdk'], scopes: [] });
    const retail = { name: 'R', service: 'amazon_dsp', config: { clientId: 'c', region: 'AsiaPacific', eventTypes: ['OFF_AMAZON_PURCHASES', 'SIGN_UP'], advertiserId: 'A' } };
    expect(IntegrationInput.safeParse(retail).success).toBe(true);
    expect(IntegrationInput.safeParse({ ...retail, config: { ...retail.config, region: 'Africa' } }).success).toBe(false);
    expect(IntegrationInput.safeParse({ ...retail, config: { ...retail.config, eventTypes: ['PURCHASE'] } }).success).toBe(false);
    expect(IntegrationInput.safeParse({ ...retail, config: { ...retail.config, eventTypes: [] } }).success).toBe(false);
  });

  it('refuses addresses that are not http(s), carry credentials, or hosts with a scheme', () => {
    const base = { name: 'A', service: 'amplitude', secrets: {} };
    expect(IntegrationInput.safeParse({ ...base, config: { baseUrl: 'https://amplitude.com/api/2' } }).success).toBe(true);
    expect(IntegrationInput.safeParse({ ...base, config: { baseUrl: 'ftp://amplitude.com' } }).success).toBe(false);
    expect(IntegrationInput.safeParse({ ...base, config: { baseUrl: 'https://user:pw@amplitude.com' } }).success).toBe(false);
    expect(IntegrationInput.safeParse({ name: 'X', service: 'adobe_experience_platform', config: { clientId: 'c', techId: 't', imsOrgId: 'o', imsHost: 'https://ims.example.com' } }).success).toBe(false);
    expect(IntegrationInput.safeParse({ ...base, service: 'nope', config: {} }).success).toBe(false);
  });
});

describe('the OAuth return path', () => {
  it('is a path of this app, never another site', () => {
    for (const ok of ['/manage/integrations', '/es/manage/integrations', '/']) expect(APP_PATH.test(ok), ok).toBe(true);
    for (const bad of ['//evil', '//evil.example.com/x', 'https://evil.example.com', '/a?b=c', '/a/../b', '\\\\evil', '']) expect(APP_PATH.test(bad), bad).toBe(false);
  });
});
