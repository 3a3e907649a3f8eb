/**
 * The tenant sweep for integrations (issue 17, piece A), in the way of isolation-acquisition: the
 * victim's account has apps A and B; B has an OAuth 2 integration (connected, with sealed tokens)
 * and an experience-platform integration. The caller names the victim's integration:
 * - in the path of every integration route (read, edit, delete, test, OAuth start, disconnect);
 * - as the adobe import's `adobeId`, on a new import and on the caller's own adobe import.
 * Two callers: a user of another account in their own app, and a user of the victim's account
 * through app A naming app B's integrations (B restricts every permission). A victim's integration
 * answers exactly what an unused id answers (10 on the routes, the same 10001 on the import) and
 * changes nothing: every row of the victim's is compared with a copy taken before. These routes and
 * fields are exempt from the general sweeps with reason INTEGRATION_SWEEP
 * (../testing/isolationChildren.ts); the first test checks this file covers every one of them.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, PERMISSION_KEYS, type EndpointName } from '@gd/shared';
import { createConnectedIntegration } from '../features/integrations/testing.ts';
import { FIELD_EXEMPT, INTEGRATION_SWEEP, PATH_EXEMPT } from '../testing/isolationChildren.ts';
import { comparable, send, victimRows, type Probe } from '../testing/isolationSweep.ts';
import { registerAccount, startTestApi, type TestApi, type TestClient } from '../testing/harness.ts';

interface Caller { client: TestClient; appId: string; otherAccount: boolean; ownPlatform: string; ownTask: string }

let api: TestApi;
let victimAccount: string;
let appA: string;
let appB: string;
let victimOAuth: string;
let victimPlatform: string;
let intruder: Caller;
let sameAccount: Caller;

const oauthConfig = { baseUrl: 'https://203.0.114.20/api', authorizeUrl: 'https://203.0.114.20/authorize', tokenUrl: 'https://203.0.114.20/token', clientId: 'client', scopes: ['read'] };
const platformConfig = { ...oauthConfig, techId: 'T@techacct.adobe.com', imsOrgId: 'O@AdobeOrg', imsHost: 'ims-na1.adobelogin.com', metaScopes: [] };
const adobe = (adobeId: string) => ({ type: 'adobe', adobeId, adobeSegmentId: 'seg-1', adobeIdType: 'customerId' });

async function ownThings(client: TestClient, appId: string): Promise<{ ownPlatform: string; ownTask: string }> {
  const { integration } = await client.ok<{ integration: { id: string } }>('createIntegration', {
    name: `Own AEP ${randomUUID().slice(0, 6)}`, service: 'adobe_experience_platform', config: platformConfig, secrets: { clientSecret: 'own' },
  }, { appId });
  const { task } = await client.ok<{ task: { id: string } }>('createImportTask', { name: `Own adobe ${randomUUID().slice(0, 6)}`, source: adobe(integration.id) }, { appId });
  // The own import fails at once (its integration was never authorised): wait until it is not running, so an edit is allowed.
  for (let i = 0; i < 200; i++) {
    const { task: now } = await client.ok<{ task: { status: string } }>('getImportTask', undefined, { appId, taskId: task.id });
    if (now.status === 'error' || now.status === 'ready') break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return { ownPlatform: integration.id, ownTask: task.id };
}

beforeAll(async () => {
  api = await startTestApi();
  const owner = await registerAccount(api);
  victimAccount = owner.accountId;
  const client = owner.client;
  appA = (await client.ok<{ app: { id: string } }>('createApp', { name: 'App A', os: 'Android' })).app.id;
  appB = (await client.ok<{ app: { id: string } }>('createApp', { name: 'App B', os: 'iOS' })).app.id;
  victimOAuth = await createConnectedIntegration(api.db, api.deps.secret, {
    accountId: victimAccount, appId: appB, service: 'meta_ads', name: 'Secret ads', config: { ...oauthConfig, adAccountId: '42' },
    secrets: { clientSecret: 'victim-secret', accessToken: 'victim-token', refreshToken: 'victim-refresh' },
  });
  victimPlatform = (await client.ok<{ integration: { id: string } }>('createIntegration', {
    name: 'Secret AEP', service: 'adobe_experience_platform', config: platformConfig, secrets: { clientSecret: 'victim-aep' },
  }, { appId: appB })).integration.id;
  sameAccount = { client, appId: appA, otherAccount: false, ...(await ownThings(client, appA)) };
  // App B now restricts every permission: the user has rights in app A only.
  await client.ok('updateApp', { name: 'App B', os: 'iOS', restricted: [...PERMISSION_KEYS] }, { appId: appB });
  const other = await registerAccount(api);
  const { app } = await other.client.ok<{ app: { id: string } }>('createApp', { name: 'Intruder app', os: 'iOS' });
  intruder = { client: other.client, appId: app.id, otherAccount: true, ...(await ownThings(other.client, app.id)) };
});
afterAll(async () => { await api.stop(); });

const PATH_CASES: Partial<Record<EndpointName, unknown>> = {
  integration: undefined,
  updateIntegration: { name: 'Hijacked', service: 'meta_ads', config: { ...oauthConfig, adAccountId: '1' }, secrets: {} },
  deleteIntegration: undefined,
  testIntegration: {},
  startIntegrationOAuth: {},
  disconnectIntegration: {},
};
const FIELD_CASES: Record<string, (c: Caller, id: string) => Probe> = {
  'createImportTask body.source.adobeId': (c, id) => ({ params: { appId: c.appId }, body: { name: `Probe ${id}`, source: adobe(id) } }),
  'updateImportTask body.source.adobeId': (c, id) => ({ params: { appId: c.appId, taskId: c.ownTask }, body: { source: adobe(id) } }),
};

describe('the sweep covers every integration route and field', () => {
  it('every entry exempt with INTEGRATION_SWEEP is swept here', () => {
    expect(Object.keys(PATH_EXEMPT).filter((n) => PATH_EXEMPT[n as EndpointName] === INTEGRATION_SWEEP).sort()).toEqual(Object.keys(PATH_CASES).sort());
    expect(Object.keys(FIELD_EXEMPT).filter((f) => FIELD_EXEMPT[f] === INTEGRATION_SWEEP).sort()).toEqual(Object.keys(FIELD_CASES).sort());
  });
});

describe.each([
  ['a user of another account in their own app', () => intruder],
  ['a user of the account through app A, with integrations of app B', () => sameAccount],
] as const)('%s', (_label, callerOf) => {
  let before: Record<string, string[]>;
  const rowsOf = (caller: Caller) => victimRows(api.db, { accountId: victimAccount, apps: caller.otherAccount ? [appA, appB] : [appB], accountRows: caller.otherAccount });
  beforeAll(async () => {
    before = await rowsOf(callerOf());
  });

  it.each(Object.keys(PATH_CASES).map((n) => [n as EndpointName] as const))('%s with the victim\'s integration answers as with an unused id (10)', async (name) => {
    const caller = callerOf();
    const unused = randomUUID();
    for (const victim of [victimOAuth, victimPlatform]) {
      const probe = (id: string): Probe => ({ params: { appId: caller.appId, integrationId: id }, body: PATH_CASES[name] });
      const foreign = await send(caller.client, name, probe(victim));
      const none = await send(caller.client, name, probe(unused));
      expect(none.body).toMatchObject({ status: 'KO', code: ErrorCode.NOT_EXIST });
      expect(comparable(foreign, [victim, unused])).toEqual(comparable(none, [victim, unused]));
    }
  });

  it.each(Object.keys(FIELD_CASES).map((f) => [f] as const))('%s naming the victim\'s experience platform answers as naming an unused one', async (field) => {
    const caller = callerOf();
    const unused = randomUUID();
    const name = field.split(' ')[0] as EndpointName;
    const foreign = await send(caller.client, name, FIELD_CASES[field]!(caller, victimPlatform));
    const none = await send(caller.client, name, FIELD_CASES[field]!(caller, unused));
    expect(none.body).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY, details: [{ path: 'source.adobeId' }] });
    expect(comparable(foreign, [victimPlatform, unused])).toEqual(comparable(none, [victimPlatform, unused]));
    // The caller's own experience platform is taken (the field is checked, not refused whatever it says).
    const own = await send(caller.client, name, FIELD_CASES[field]!(caller, caller.ownPlatform));
    expect(own.body.status).toBe('OK');
  });

  it('left every row of the victim\'s as it was', async () => {
    expect(await rowsOf(callerOf())).toEqual(before);
  });
});
