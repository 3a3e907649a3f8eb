/**
 * Integrations against real Postgres and a loopback OAuth 2 server (tests/support/oauthServer.ts):
 * the authorization-code flow with state and PKCE (state unknown, reused, expired or another
 * user's, an expired code, a verifier of another authorization: 10009 and the browser sent back),
 * token refresh before expiry (on use and by the refresher) and its failure (status error), the
 * connection test's codes (13, 10024, 10047), validation refusals, the adobe import through an
 * experience-platform integration, and sealed credentials never answered by any GET route.
 */
import { createHash, randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, endpoints, fillPath, type EndpointName, type Integration } from '@gd/shared';
import { createConnectedIntegration } from '../../api-server/src/features/integrations/testing.ts';
import { refreshExpiring } from '../../api-server/src/features/integrations/refresher.ts';
import { addMember, registerAccount, startTestApi, type TestApi, type TestClient } from '../../api-server/src/testing/harness.ts';
import { startOAuthServer, type OAuthServer } from '../support/oauthServer.ts';

let api: TestApi;
let oauth: OAuthServer;
let owner: Awaited<ReturnType<typeof registerAccount>>;
let appId: string;

beforeAll(async () => {
  api = await startTestApi({ OUTGOING_ALLOW_LOOPBACK: '127.0.0.1' });
  oauth = await startOAuthServer({ accounts: ['1234567890', '555'], basicUsers: { analyst: 'basic-pass-known' }, segments: {}, pageSize: 2 });
  owner = await registerAccount(api);
  appId = (await owner.client.ok<{ app: { id: string } }>('createApp', { name: 'Integrations', os: 'iOS' })).app.id;
});
afterAll(async () => {
  await oauth.close();
  await api.stop();
});

const p = (extra: Record<string, string> = {}) => ({ appId, ...extra });
const oauthConfig = (extra: Record<string, unknown> = {}) => ({
  baseUrl: oauth.url, authorizeUrl: `${oauth.url}/authorize`, tokenUrl: `${oauth.url}/token`, clientId: oauth.clientId, scopes: ['ads_read', 'ads_management'], ...extra,
});
async function create(service: string, config: Record<string, unknown>, secrets: Record<string, string> = { clientSecret: oauth.clientSecret }, client: TestClient = owner.client): Promise<Integration> {
  return (await client.ok<{ integration: Integration }>('createIntegration', { name: `${service} ${randomUUID().slice(0, 8)}`, service, config, secrets }, p())).integration;
}
const get = async (id: string) => (await owner.client.ok<{ integration: Integration }>('integration', undefined, p({ integrationId: id }))).integration;

/** The browser's part: start, open the authorize page, press Allow; answers the callback URL the provider redirects to. */
async function authorize(client: TestClient, id: string, decision: 'allow' | 'deny' = 'allow') {
  const { authorizeUrl } = await client.ok<{ authorizeUrl: string }>('startIntegrationOAuth', {}, p({ integrationId: id }));
  const page = await fetch(authorizeUrl);
  expect(page.status).toBe(200);
  const q = new URL(authorizeUrl).searchParams;
  const form = new URLSearchParams({ redirect_uri: q.get('redirect_uri') ?? '', state: q.get('state') ?? '', code_challenge: q.get('code_challenge') ?? '', scope: q.get('scope') ?? '', client_id: q.get('client_id') ?? '', decision });
  const res = await fetch(`${oauth.url}/authorize/decision`, { method: 'POST', body: form, redirect: 'manual' });
  return { authorizeUrl: new URL(authorizeUrl), callback: new URL(res.headers.get('location') ?? '') };
}

/** The browser following the provider's redirect to our callback, with the client's cookies; answers where it is sent next. */
async function followCallback(client: TestClient, callback: URL): Promise<URL> {
  const local = new URL(`${callback.pathname}${callback.search}`, api.url);
  const res = await fetch(local, { redirect: 'manual', headers: { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
  expect(res.status).toBe(303);
  return new URL(res.headers.get('location') ?? '', api.url);
}

const s256 = (v: string) => createHash('sha256').update(v).digest('base64url');

describe('OAuth 2 authorization code flow with state and PKCE', () => {
  it('connects: state and an S256 challenge sent, the verifier checked by the server, tokens sealed', async () => {
    const integration = await create('meta_ads', oauthConfig({ adAccountId: '1234567890' }));
    expect(integration).toMatchObject({ status: 'pending', auth: 'oauth2', kind: 'social_ads', secretsSet: ['clientSecret'] });
    const { authorizeUrl, callback } = await authorize(owner.client, integration.id);
    expect(authorizeUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizeUrl.searchParams.get('state')).toMatch(/^[\w-]{40,}$/);
    expect(authorizeUrl.searchParams.get('redirect_uri')).toBe(`${api.url}/api/oauth/callback`);
    expect(authorizeUrl.searchParams.get('scope')).toBe('ads_read ads_management');
    expect(callback.pathname).toBe('/api/oauth/callback');
    const before = oauth.tokenRequests.length;
    const next = await followCallback(owner.client, callback);
    expect(next.pathname).toBe('/manage/integrations');
    expect(Object.fromEntries(next.searchParams)).toEqual({ oauth: 'connected', integration: integration.id });
    const exchange = oauth.tokenRequests.slice(before);
    expect(exchange.map((r) => [r.grantType, r.status])).toEqual([['authorization_code', 200]]);
    expect(s256(exchange[0]!.form.code_verifier ?? '')).toBe(authorizeUrl.searchParams.get('code_challenge'));
    expect(exchange[0]!.authorization).toMatch(/^Basic /);
    const after = await get(integration.id);
    expect(after).toMatchObject({ status: 'connected', statusCode: null });
    expect(after.secretsSet.sort()).toEqual(['accessToken', 'clientSecret', 'refreshToken']);
    expect(new Date(after.tokenExpiresAt ?? 0).getTime()).toBeGreaterThan(Date.now());
    // The token works: the connection test sees the ad account.
    const test = await owner.client.ok<{ result: { accounts: string[] } }>('testIntegration', {}, p({ integrationId: integration.id }));
    expect(test.result.accounts).toEqual(['1234567890', '555']);
    // The state is used once: the same callback again is refused.
    const again = await followCallback(owner.client, callback);
    expect(Object.fromEntries(again.searchParams)).toEqual({ oauth: 'error', code: '10009', integration: integration.id });
  });

  it('refuses an unknown state (state mismatch) with 10009', async () => {
    const integration = await create('hubspot', oauthConfig());
    const { callback } = await authorize(owner.client, integration.id);
    callback.searchParams.set('state', 'forged-state-value-0123456789');
    const next = await followCallback(owner.client, callback);
    expect(next.pathname).toBe('/manage/integrations');
    expect(Object.fromEntries(next.searchParams)).toEqual({ oauth: 'error', code: '10009' });
    expect((await get(integration.id)).status).toBe('pending');
  });

  it('refuses another user\'s state, and a state past its time', async () => {
    const integration = await create('salesforce', oauthConfig());
    const colleague = await addMember(api, owner.client, 'admin');
    const { callback } = await authorize(owner.client, integration.id);
    expect(Object.fromEntries((await followCallback(colleague, callback)).searchParams)).toEqual({ oauth: 'error', code: '10009' });
    // Not consumed by the other user; but once expired, its owner is refused too.
    await api.db.query(`UPDATE integration_oauth_states SET expires_at = now() - interval '1 second' WHERE integration_id = $1`, [integration.id]);
    expect(Object.fromEntries((await followCallback(owner.client, callback)).searchParams)).toMatchObject({ oauth: 'error', code: '10009' });
    expect((await get(integration.id)).status).toBe('pending');
  });

  it('an expired authorization code ends with 10009 and the integration in error', async () => {
    const integration = await create('google_tag_manager', oauthConfig());
    const { callback } = await authorize(owner.client, integration.id);
    oauth.expireCodes();
    const next = await followCallback(owner.client, callback);
    expect(Object.fromEntries(next.searchParams)).toEqual({ oauth: 'error', code: '10009', integration: integration.id });
    const after = await get(integration.id);
    expect(after).toMatchObject({ status: 'error', statusCode: ErrorCode.OAUTH_ERROR });
    expect(after.statusMessage).toContain('invalid_grant');
    expect(after.secretsSet).toEqual(['clientSecret']);
  });

  it('the server checks the PKCE verifier: a code issued for another authorization\'s challenge is refused', async () => {
    const integration = await create('amazon_dsp', oauthConfig({ region: 'Europe', eventTypes: ['CHECKOUT', 'PAGE_VIEW'], advertiserId: 'ADV-1' }));
    const first = await authorize(owner.client, integration.id);
    const second = await authorize(owner.client, integration.id);
    const mixed = new URL(second.callback);
    mixed.searchParams.set('code', first.callback.searchParams.get('code') ?? '');
    const before = oauth.tokenRequests.length;
    const next = await followCallback(owner.client, mixed);
    expect(Object.fromEntries(next.searchParams)).toMatchObject({ oauth: 'error', code: '10009' });
    expect(oauth.tokenRequests.slice(before).map((r) => r.status)).toEqual([400]);
    expect((await get(integration.id)).statusMessage).toContain('PKCE');
  });

  it('the provider\'s refusal (access_denied) ends with 10009', async () => {
    const integration = await create('hubspot', oauthConfig());
    const { callback } = await authorize(owner.client, integration.id, 'deny');
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(Object.fromEntries((await followCallback(owner.client, callback)).searchParams)).toMatchObject({ oauth: 'error', code: '10009' });
    expect((await get(integration.id)).statusMessage).toContain('access_denied');
  });

  it('a callback without a session is refused', async () => {
    const res = await fetch(`${api.url}/api/oauth/callback?code=x&state=y`, { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/manage/integrations?oauth=error&code=10009');
  });
});

describe('token refresh', () => {
  const connected = async (service: 'meta_ads' | 'google_ads' | 'tiktok_ads', expiresInSeconds: number, extra: Record<string, unknown> = {}) => {
    const tokens = oauth.issueTokens();
    return createConnectedIntegration(api.db, api.deps.secret, {
      accountId: owner.accountId, appId, service, config: oauthConfig({ adAccountId: '1234567890', ...extra }),
      secrets: { clientSecret: oauth.clientSecret, ...tokens }, tokenExpiresAt: new Date(Date.now() + expiresInSeconds * 1000),
    });
  };

  it('refreshes a token about to expire before using it, once', async () => {
    const id = await connected('meta_ads', 60);
    const before = oauth.tokenRequests.length;
    const expiresBefore = (await get(id)).tokenExpiresAt;
    await owner.client.ok('testIntegration', {}, p({ integrationId: id }));
    expect(oauth.tokenRequests.slice(before).map((r) => [r.grantType, r.status])).toEqual([['refresh_token', 200]]);
    const after = await get(id);
    expect(new Date(after.tokenExpiresAt ?? 0).getTime()).toBeGreaterThan(new Date(expiresBefore ?? 0).getTime());
    expect(after.lastRefreshedAt).not.toBeNull();
    // Fresh now: the next use does not refresh.
    await owner.client.ok('testIntegration', {}, p({ integrationId: id }));
    expect(oauth.tokenRequests.length).toBe(before + 1);
  });

  it('the refresher renews tokens that expire soon and leaves the others', async () => {
    const soon = await connected('meta_ads', 400);
    const later = await connected('meta_ads', 3000);
    const expires = async (id: string) => (await get(id)).tokenExpiresAt;
    const laterBefore = await expires(later);
    const soonBefore = await expires(soon);
    await refreshExpiring({ db: api.db, log: pino({ level: 'silent' }), secret: api.deps.secret, config: api.deps.config });
    expect(await expires(later)).toBe(laterBefore);
    expect(new Date((await expires(soon)) ?? 0).getTime()).toBeGreaterThan(new Date(soonBefore ?? 0).getTime());
  });

  it('a refused refresh sets the integration in error with the service\'s code', async () => {
    const id = await connected('meta_ads', -10);
    oauth.refuseRefresh = true;
    try {
      const answer = await owner.client.call('testIntegration', {}, p({ integrationId: id }));
      expect(answer.body).toMatchObject({ status: 'KO', code: ErrorCode.OAUTH_ERROR });
    } finally {
      oauth.refuseRefresh = false;
    }
    const after = await get(id);
    expect(after).toMatchObject({ status: 'error', statusCode: ErrorCode.OAUTH_ERROR });
    expect(after.statusMessage).toContain('invalid_grant');
  });

  describe('connection test codes', () => {
    it('13 when the ad account is not among the accounts the token sees', async () => {
      const id = await connected('meta_ads', 3600, { adAccountId: '999' });
      expect((await owner.client.call('testIntegration', {}, p({ integrationId: id }))).body).toMatchObject({ status: 'KO', code: ErrorCode.AD_ACCOUNT_NOT_EXIST });
      expect(await get(id)).toMatchObject({ status: 'error', statusCode: ErrorCode.AD_ACCOUNT_NOT_EXIST });
    });

    it('10024 for the search-ad platform, and back to connected once it works', async () => {
      const id = await connected('google_ads', 3600, { adAccountId: '123-456-7890' });
      oauth.resourceStatus = 503;
      try {
        expect((await owner.client.call('testIntegration', {}, p({ integrationId: id }))).body).toMatchObject({ status: 'KO', code: ErrorCode.SEARCH_AD_CONNECTION_FAIL });
      } finally {
        oauth.resourceStatus = null;
      }
      expect(await get(id)).toMatchObject({ status: 'error', statusCode: ErrorCode.SEARCH_AD_CONNECTION_FAIL });
      await owner.client.ok('testIntegration', {}, p({ integrationId: id }));
      expect(await get(id)).toMatchObject({ status: 'connected', statusCode: null, statusMessage: null });
    });

    it('10047 for the short-video ad platform when its token is refused', async () => {
      const id = await connected('tiktok_ads', 3600);
      oauth.expireTokens();
      expect((await owner.client.call('testIntegration', {}, p({ integrationId: id }))).body).toMatchObject({ status: 'KO', code: ErrorCode.SHORT_VIDEO_ADS_CONNECTION_FAIL });
      expect(await get(id)).toMatchObject({ status: 'error', statusCode: ErrorCode.SHORT_VIDEO_ADS_CONNECTION_FAIL });
    });

    it('basic sign-in: the password is sent as HTTP Basic', async () => {
      const good = await create('amplitude', { baseUrl: oauth.url }, { username: 'analyst', password: 'basic-pass-known' });
      await owner.client.ok('testIntegration', {}, p({ integrationId: good.id }));
      const bad = await create('mixpanel', { baseUrl: oauth.url }, { username: 'analyst', password: 'wrong' });
      expect((await owner.client.call('testIntegration', {}, p({ integrationId: bad.id }))).body).toMatchObject({ status: 'KO', code: ErrorCode.OAUTH_ERROR });
    });
  });
});

describe('refusals', () => {
  it('checks fields, secrets, addresses and names, and writes nothing refused', async () => {
    const count = async () => (await api.db.query<{ n: number }>('SELECT count(*)::int AS n FROM integrations WHERE app_id = $1', [appId])).rows[0]!.n;
    const before = await count();
    const call = (body: unknown) => owner.client.call('createIntegration', body, p());
    const noSecret = await call({ name: 'No secret', service: 'hubspot', config: oauthConfig(), secrets: {} });
    expect(noSecret.body).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY, details: [{ path: 'secrets.clientSecret', message: 'secret_required' }] });
    const privateAddress = await call({ name: 'Private', service: 'amplitude', config: { baseUrl: 'http://10.1.2.3/api' }, secrets: { username: 'u', password: 'p' } });
    expect(privateAddress.body).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY, details: [{ path: 'config.baseUrl', message: 'private_address' }] });
    const badRegion = await call({ name: 'Retail', service: 'amazon_dsp', config: oauthConfig({ region: 'Mars', eventTypes: ['CHECKOUT'], advertiserId: 'a' }), secrets: { clientSecret: 's' } });
    expect(badRegion.body).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY });
    const badEvent = await call({ name: 'Retail', service: 'amazon_dsp', config: oauthConfig({ region: 'Europe', eventTypes: ['BUY_NOW'], advertiserId: 'a' }), secrets: { clientSecret: 's' } });
    expect(badEvent.body).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY });
    const noAep = await call({ name: 'AEP', service: 'adobe_experience_platform', config: oauthConfig({ techId: 'T', imsHost: 'ims-na1.adobelogin.com', metaScopes: [] }), secrets: { clientSecret: 's' } });
    expect(noAep.body).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY });
    expect(JSON.stringify(noAep.body.details)).toContain('config.imsOrgId');
    expect(await count()).toBe(before);
    const first = await create('amplitude', { baseUrl: oauth.url }, { username: 'u', password: 'p' });
    const dup = await call({ name: first.name.toUpperCase(), service: 'mixpanel', config: {}, secrets: { username: 'u', password: 'p' } });
    expect(dup.body).toMatchObject({ status: 'KO', code: ErrorCode.NAME_DUPLICATED });
    const otherService = await owner.client.call('updateIntegration', { name: first.name, service: 'mixpanel', config: {}, secrets: {} }, p({ integrationId: first.id }));
    expect(otherService.body).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY });
    const unknown = await owner.client.call('integration', undefined, p({ integrationId: randomUUID() }));
    expect(unknown.body).toMatchObject({ status: 'KO', code: ErrorCode.NOT_EXIST });
  });

  it('an edit keeps stored secrets; changing the OAuth client drops the tokens', async () => {
    const tokens = oauth.issueTokens();
    const id = await createConnectedIntegration(api.db, api.deps.secret, {
      accountId: owner.accountId, appId, service: 'hubspot', config: oauthConfig(), secrets: { clientSecret: oauth.clientSecret, ...tokens },
    });
    const current = await get(id);
    const renamed = await owner.client.ok<{ integration: Integration }>('updateIntegration', { name: `${current.name} renamed`, service: 'hubspot', config: oauthConfig(), secrets: {} }, p({ integrationId: id }));
    expect(renamed.integration).toMatchObject({ status: 'connected' });
    expect(renamed.integration.secretsSet.sort()).toEqual(['accessToken', 'clientSecret', 'refreshToken']);
    const moved = await owner.client.ok<{ integration: Integration }>('updateIntegration', { name: current.name, service: 'hubspot', config: oauthConfig({ clientId: 'another-client' }), secrets: {} }, p({ integrationId: id }));
    expect(moved.integration).toMatchObject({ status: 'pending', tokenExpiresAt: null, secretsSet: ['clientSecret'] });
    const disconnected = await owner.client.ok<{ integration: Integration }>('disconnectIntegration', {}, p({ integrationId: id }));
    expect(disconnected.integration).toMatchObject({ status: 'disconnected', secretsSet: ['clientSecret'] });
    expect((await owner.client.call('testIntegration', {}, p({ integrationId: id }))).body).toMatchObject({ status: 'KO', code: ErrorCode.OAUTH_ERROR });
  });

  it('an agency user reads integrations but may not change them', async () => {
    const agency = await addMember(api, owner.client, 'agency');
    await agency.ok('integrations', undefined, p());
    const refused = await agency.call('createIntegration', { name: 'Agency', service: 'amplitude', config: {}, secrets: { username: 'u', password: 'p' } }, p());
    expect(refused.body).toMatchObject({ status: 'KO', code: ErrorCode.NO_PERMISSION });
  });
});

describe('the adobe import', () => {
  it('reads a segment\'s members through the experience-platform integration, page by page', async () => {
    const customers = Array.from({ length: 5 }, (_, i) => `adobe-${randomUUID().slice(0, 6)}-${i}`);
    for (const c of customers) {
      await api.db.query(`INSERT INTO people (app_id, customer_id) VALUES ($1, $2)`, [appId, c]);
    }
    oauth.segments.segA = [...customers.slice(0, 4), 'nobody-here'];
    const tokens = oauth.issueTokens();
    const aep = await createConnectedIntegration(api.db, api.deps.secret, {
      accountId: owner.accountId, appId, service: 'adobe_experience_platform',
      config: oauthConfig({ techId: 'TECH@techacct.adobe.com', imsOrgId: 'ORG@AdobeOrg', imsHost: 'ims-na1.adobelogin.com', metaScopes: ['ent_dataservices_sdk'] }),
      secrets: { clientSecret: oauth.clientSecret, ...tokens },
    });
    const { task } = await owner.client.ok<{ task: { id: string } }>('createImportTask', {
      name: `Adobe ${randomUUID().slice(0, 6)}`, source: { type: 'adobe', adobeId: aep, adobeSegmentId: 'segA', adobeIdType: 'customerId' },
    }, p());
    let status = '';
    let answer: Record<string, unknown> = {};
    for (let i = 0; i < 400 && !['ready', 'error'].includes(status); i++) {
      answer = (await owner.client.ok<{ task: Record<string, unknown> }>('getImportTask', undefined, p({ taskId: task.id }))).task;
      status = String(answer.status);
      if (!['ready', 'error'].includes(status)) await new Promise((r) => setTimeout(r, 50));
    }
    expect(answer).toMatchObject({ status: 'ready', personCount: 4, progress: { rowsRead: 5, rowsMatched: 4, rowsUnmatched: 1 } });
    const pages = oauth.resourceRequests.filter((r) => r.path.includes('/audiences/segA/members'));
    expect(pages.map((r) => new URL(r.path, 'http://x').searchParams.get('start'))).toEqual([null, '2', '4']);
    expect(pages[0]!.headers['x-gw-ims-org-id']).toBe('ORG@AdobeOrg');
    expect(pages[0]!.headers['x-api-key']).toBe(oauth.clientId);
  });

  it('refuses an adobeId that is not an experience platform of the app', async () => {
    const storage = await create('s3', { endpoint: oauth.url, region: 'eu-west-1', bucket: 'bucket-a', accessKeyId: 'AKIA' }, { secretAccessKey: 'k' });
    const answer = await owner.client.call('createImportTask', { name: 'Bad adobe', source: { type: 'adobe', adobeId: storage.id, adobeSegmentId: 'segA' } }, p());
    expect(answer.body).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY, details: [{ path: 'source.adobeId' }] });
  });
});

describe('sealed credentials are never answered', () => {
  it('no GET route of the app or the account returns a stored secret', async () => {
    const known = {
      password: `pw-${randomUUID()}`, clientSecret: `cs-${randomUUID()}`, secretAccessKey: `sk-${randomUUID()}`,
      accessToken: `at-${randomUUID()}`, refreshToken: `rt-${randomUUID()}`, ftpPassword: `ftp-${randomUUID()}`,
    };
    const basic = await create('the_trade_desk', { baseUrl: oauth.url, advertiserId: 'adv' }, { username: 'desk', password: known.password });
    const keys = await create('s3', { endpoint: oauth.url, region: 'eu-west-1', bucket: 'bucket-b', accessKeyId: 'AKIA2' }, { secretAccessKey: known.secretAccessKey });
    const tokens = await createConnectedIntegration(api.db, api.deps.secret, {
      accountId: owner.accountId, appId, service: 'meta_ads', config: oauthConfig({ adAccountId: '1234567890' }),
      secrets: { clientSecret: known.clientSecret, accessToken: known.accessToken, refreshToken: known.refreshToken },
    });
    await owner.client.ok('createImportTask', {
      name: 'FTP secret', awaitUpload: false,
      source: { type: 'ftp', ftpIdType: 'customerId', ftpHost: '127.0.0.1', ftpPort: 21, ftpUsername: 'u', ftpPassword: known.ftpPassword, ftpFileRoute: '/x.csv', isSecureFtp: false },
    }, p());
    const ids: Record<string, string> = { integrationId: tokens, appId };
    const gets = (Object.keys(endpoints) as EndpointName[]).filter((n) => endpoints[n].method === 'GET' && endpoints[n].auth !== 'public' && endpoints[n].auth !== 'appKey');
    const probes: string[] = [];
    for (const name of gets) {
      const params = Object.fromEntries([...endpoints[name].path.matchAll(/:([A-Za-z]+)/g)].map((m) => [m[1]!, ids[m[1]!] ?? randomUUID()]));
      const res = await fetch(`${api.url}/api${fillPath(endpoints[name].path, params)}`, { headers: { cookie: [...owner.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
      const text = await res.text();
      probes.push(name);
      for (const [what, secret] of Object.entries(known)) expect(text, `${name} answered the ${what}`).not.toContain(secret);
    }
    expect(probes).toEqual(expect.arrayContaining(['integrations', 'integration', 'listStorageIntegrations', 'listImportTasks']));
    // And the integrations list does answer the three, with only the names of their secrets.
    const { integrations } = await owner.client.ok<{ integrations: Integration[] }>('integrations', undefined, p());
    const byId = new Map(integrations.map((i) => [i.id, i]));
    expect(byId.get(basic.id)?.secretsSet).toEqual(['username', 'password']);
    expect(byId.get(keys.id)?.secretsSet).toEqual(['secretAccessKey']);
    expect(byId.get(tokens)?.secretsSet).toEqual(['clientSecret', 'accessToken', 'refreshToken']);
    const social = await owner.client.ok<{ integrations: Integration[] }>('integrations', undefined, p(), { kind: 'social_ads' });
    expect(social.integrations.every((i) => i.kind === 'social_ads')).toBe(true);
  });
});
