/**
 * Every route of the endpoint table: refused without a session (10005), and refused (10004) to a
 * user of another account for anything of the first account, which stays unchanged.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, endpoints, type EndpointName } from '@gd/shared';
import { skudoEndpoints } from '@gd/shared/endpoints/skudo';
import { TestClient, ingest, registerAccount, startTestApi, uniqueEmail, type TestApi } from '../testing/harness.ts';
import { apnsKey, serviceAccountKey } from '../features/delivery/push/testing/keys.ts';

let api: TestApi;
let owner: Awaited<ReturnType<typeof registerAccount>>;
let intruder: Awaited<ReturnType<typeof registerAccount>>;
const ids: Record<string, string> = {};
const spyApns = { keyId: 'SPY0000001', teamId: 'SPY0000001', bundleId: 'com.example.spy', environment: 'sandbox', privateKeyPem: apnsKey().privateKeyPem };
const spyServiceAccount = { serviceAccount: JSON.stringify({ project_id: 'spy', client_email: 'spy@spy.iam.gserviceaccount.com', private_key: serviceAccountKey().privateKeyPem }) };

const SAMPLE_BODIES: Partial<Record<EndpointName, unknown>> = {
  updateSkudoProvider: { name: 'Hijacked' },
  updateSkudoCampaign: { name: 'Hijacked', startsOn: '2026-01-01' },
  updateSkudoOffer: { providerId: '00000000-0000-4000-8000-000000000000', title: 'Hijacked', payoutModel: 'cpc', payoutAmount: 1, destinationUrl: 'https://www.example.com/hijacked' },
  createSkudoTrackingUrl: { label: 'Hijacked' },
  updateSkudoTrackingUrl: { label: 'Hijacked', active: false },
  updateSkudoPartner: { name: 'Hijacked', email: 'hijacked@it.example.com', status: 'suspended' },
  updateApp: { name: 'Hijacked', os: 'Android' },
  addTestDevice: { name: 'Spy phone', idType: 'idfa', deviceId: '6D92078A-8246-4BA4-AE5B-76104861E7DC' },
  updateTestDevice: { name: 'Spy phone', idType: 'idfa', deviceId: '6D92078A-8246-4BA4-AE5B-76104861E7DC' },
  updateUser: { name: 'Hijacked', active: false },
  putRole: { name: 'Hijacked', userType: 79, grants: [] },
  addUser: { name: 'Mole', email: 'mole@it.example.com', roleId: '' },
  renameJourney: { name: 'Hijacked' },
  assignJourney: { userId: null },
  cloneJourney: { name: 'Stolen copy' },
  updateTag: { name: 'Hijacked', valueType: 'text' },
  updateCategory: { name: 'Hijacked', colour: '#000000', entityTypes: ['app'] },
  updateEventDefinition: { label: 'Hijacked' },
  setEventBreakdowns: { properties: ['hijacked'] },
  transitionMessage: { action: 'pause' },
  approveMessage: { submissionId: '00000000-0000-4000-8000-000000000000' },
  rejectMessage: { submissionId: '00000000-0000-4000-8000-000000000000', reason: 'Hijacked' },
  commentSubmission: { body: 'Hijacked' },
  cloneMessage: { name: 'Stolen copy' },
  assignMessage: { userId: '00000000-0000-4000-8000-000000000000' },
  createCommunicationParameter: { name: 'communicationParameter__spy', label: 'Spy', type: 'openText', values: [] },
  updateCommunicationParameter: { name: 'communicationParameter__spy', label: 'Hijacked', type: 'openText', values: [] },
  createNativeTemplate: { name: 'Spy', fields: [{ key: 'spy', label: 'Spy', kind: 'url', required: true }] },
  updateNativeTemplate: { name: 'Hijacked', fields: [{ key: 'spy', label: 'Spy', kind: 'url', required: true }], isDefault: true },
  createPlatformNativeTemplate: { name: 'Spy', fields: [{ key: 'spy', label: 'Spy', kind: 'url', required: true }] },
  updatePlatformNativeTemplate: { name: 'Hijacked', fields: [{ key: 'spy', label: 'Spy', kind: 'url', required: true }], isDefault: true },
  updateMailProvider: { name: 'Hijacked', host: '203.0.114.11', port: 465, tls: 'tls', username: 'spy', password: 'spy-password', senderName: 'Spy', senderEmail: 'spy@example.com' },
  putApnsCredentials: spyApns,
  putFcmCredentials: spyServiceAccount,
  updateAccountProvider: { name: 'Hijacked', kind: 'other' },
};

beforeAll(async () => {
  api = await startTestApi();
  owner = await registerAccount(api);
  intruder = await registerAccount(api);
  const { app } = await owner.client.ok<{ app: { id: string; appKey: string } }>('createApp', { name: 'Secret app', os: 'iOS' });
  ids.appId = app.id;
  // Behaviour data of the app: a person with a custom event, and a tag.
  const sent = await ingest(api, app.appKey, 'ingestIdentify', { device: { id: 'secret-device-0001' }, customerId: 'secret-customer' });
  ids.personId = String(sent.body.personId);
  await ingest(api, app.appKey, 'ingestBatch', { device: { id: 'secret-device-0001' }, events: [{ id: 'e-1', name: 'secret_event', time: new Date().toISOString() }] });
  ids.eventName = 'secret_event';
  const { tag } = await owner.client.ok<{ tag: { id: string } }>('createTag', { name: 'secret_tag', kind: 'user_tag', valueType: 'text' }, { appId: app.id });
  ids.tagId = tag.id;
  const { device } = await owner.client.ok<{ device: { id: string } }>('addTestDevice', { name: 'Phone', idType: 'gaid', deviceId: '38400000-8cf0-11bd-b23e-10b96e40000d' }, { appId: app.id });
  ids.deviceId = device.id;
  const { roles } = await owner.client.ok<{ roles: { id: string; builtIn: string | null }[] }>('listRoles');
  ids.roleId = roles.find((r) => r.builtIn === 'analyst')!.id;
  const { user } = await owner.client.ok<{ user: { id: string } }>('addUser', { name: 'Colleague', email: uniqueEmail('colleague'), roleId: ids.roleId });
  ids.userId = user.id;
  const { journey } = await owner.client.ok<{ journey: { id: string } }>('createJourney', { name: 'Secret journey' }, { appId: app.id });
  ids.journeyId = journey.id;
  ids.version = '1';
  const { segment } = await owner.client.ok<{ segment: { id: string } }>('createSegment', { name: 'Secret segment' }, { appId: app.id });
  ids.segmentId = segment.id;
  const { audience } = await owner.client.ok<{ audience: { id: string } }>('createAudience', { name: 'Secret audience', source: { from: 'rules', rules: [{ kind: 'registered_yesterday' }] } }, { appId: app.id });
  ids.audienceId = audience.id;
  // Import tasks, storage integrations and audience exports (features/imports, features/exports).
  const { task } = await owner.client.ok<{ task: { id: string } }>('createImportTask', { name: 'Secret import', source: { type: 'csv', csvContent: 'customer_id\nc-1\n' } }, { appId: app.id });
  ids.taskId = task.id;
  const { integration } = await owner.client.ok<{ integration: { id: string } }>('createStorageIntegration', {
    name: 'Secret bucket', endpoint: 'https://203.0.114.10', region: 'eu-west-1', bucket: 'secret', accessKeyId: 'AKID', secretAccessKey: 'secret-key',
  }, { appId: app.id });
  ids.integrationId = integration.id;
  const { export: exported } = await owner.client.ok<{ export: { id: string } }>('createAudienceExport', { format: 'csv' }, { appId: app.id, audienceId: audience.id });
  ids.exportId = exported.id;
  // A message and its submission (written as submit writes it: this file runs no sync server).
  const { message } = await owner.client.ok<{ message: { id: string } }>('createMessage', { name: 'Secret message', type: 'push' }, { appId: app.id });
  ids.messageId = message.id;
  ids.submissionId = (await api.db.query<{ id: string }>(
    `INSERT INTO message_submissions (message_id, number, definition, yjs_state, state_vector, sha256)
     SELECT $1, 1, '{}'::jsonb, d.state, '\\x00'::bytea, 'secret' FROM documents d WHERE d.entity_id = $1 RETURNING id`, [message.id])).rows[0]!.id;
  // Message settings: a communication parameter and the app's native ad template (its default).
  const { parameter } = await owner.client.ok<{ parameter: { id: string } }>('createCommunicationParameter', { name: 'communicationParameter__secret', label: 'Secret', type: 'openText', values: [] }, { appId: app.id });
  ids.parameterId = parameter.id;
  const { template } = await owner.client.ok<{ template: { id: string } }>('createNativeTemplate', { name: 'Secret template', fields: [{ key: 'title', label: 'Title', kind: 'text', required: true }] }, { appId: app.id });
  ids.templateId = template.id;
  // A mail provider of the account (a public address literal: nothing connects to it here).
  const { provider } = await owner.client.ok<{ provider: { id: string } }>('createMailProvider', {
    name: 'Secret relay', host: '203.0.114.10', port: 587, tls: 'starttls', username: 'secret', password: 'secret-password', senderName: 'Secret', senderEmail: 'secret@example.com',
  });
  ids.providerId = provider.id;
  // An automatic rule of the app (written as the API writes it: its message would need an approved version).
  ids.ruleId = (await api.db.query<{ id: string }>(
    `INSERT INTO rules (account_id, app_id, name, kind, trigger, message_id, status) VALUES ($1, $2, 'Secret rule', 'event_made', '{"kind":"event_made","eventId":"secret"}', $3, 'paused') RETURNING id`,
    [owner.accountId, app.id, message.id])).rows[0]!.id;
  // A scheduled report of the app (paused: it never runs here) and a finished run of it, written as a run leaves it.
  ids.reportId = (await owner.client.ok<{ report: { id: string } }>('createReport', {
    name: 'Secret report', kind: 'explore', query: { event: 'secret_event' }, schedule: { frequency: 'daily' }, active: false,
    target: { type: 'email', mailProviderId: provider.id, recipients: ['secret@example.com'] },
  }, { appId: app.id })).report.id;
  ids.runId = (await api.db.query<{ id: string }>(
    `INSERT INTO report_runs (account_id, app_id, report_id, trigger, start_day, end_day, status, row_count, byte_size, file_name)
     VALUES ($1, $2, $3, 'manual', '2026-01-01', '2026-01-07', 'ready', 0, 0, 'secret.csv') RETURNING id`,
    [owner.accountId, app.id, ids.reportId])).rows[0]!.id;
  // A dashboard of the app.
  ids.dashboardId = (await owner.client.ok<{ dashboard: { id: string } }>('createDashboard', { name: 'Secret dashboard', window: 'week' }, { appId: app.id })).dashboard.id;
  // Acquisition (issue 16): a provider of the account, and the app's source, channel, campaign, link and tracker.
  const p = { appId: app.id };
  ids.accountProviderId = (await owner.client.ok<{ provider: { id: string } }>('createAccountProvider', { name: 'Secret network', kind: 'social', eventPostbackUrl: 'https://203.0.114.10/postback' })).provider.id;
  ids.sourceId = (await owner.client.ok<{ source: { id: string } }>('createSource', { name: 'Secret source', type: 'adnetwork', accountProviderId: ids.accountProviderId }, p)).source.id;
  ids.channelId = (await owner.client.ok<{ channel: { id: string } }>('createChannel', { name: 'Secret channel' }, p)).channel.id;
  ids.campaignId = (await owner.client.ok<{ campaign: { id: string } }>('createCampaign', {
    name: 'Secret campaign', sourceId: ids.sourceId, channelId: ids.channelId, pricingModel: 'cpi', destinations: { desktop: { web: 'https://www.example.com/get' } },
  }, p)).campaign.id;
  ids.linkId = (await owner.client.ok<{ link: { id: string } }>('createLink', { campaignId: ids.campaignId, kind: 'tracking', name: 'Secret link' }, p)).link.id;
  // A landing page of the app (issue 17).
  ids.landingId = (await owner.client.ok<{ landing: { id: string } }>('createLanding', {
    name: 'Secret landing', slug: `secret-${ids.linkId}`, colours: { background: '#FFFFFF', text: '#111111', accent: '#222222' }, blocks: [],
  }, p)).landing.id;
  ids.trackerId = (await owner.client.ok<{ tracker: { id: string } }>('createTracker', { name: 'Secret tracker', event: 'secret_event', accountProviderId: ids.accountProviderId }, p)).tracker.id;
  // An entry of the platform's ad provider catalogue (nobody's: its routes are the platform administrators').
  ids.adProviderId = (await owner.client.ok<{ providers: { id: string }[] }>('adProviderCatalogue')).providers[0]!.id;
  // Push credentials of the app (APNs; `provider` names the one to delete).
  await owner.client.ok('putApnsCredentials', { ...spyApns, keyId: 'SECRET0001', teamId: 'SECRET0001', bundleId: 'com.example.secret' }, { appId: app.id });
  ids.provider = 'apns';
  // A category of the account (issue 17), on the app.
  ids.categoryId = (await owner.client.ok<{ category: { id: string } }>('createCategory', { name: 'Secret category', colour: '#123456', entityTypes: ['app'] })).category.id;
  await owner.client.ok('setCategoryAssignments', { entityType: 'app', entityId: app.id, categoryIds: [ids.categoryId] }, { appId: app.id });
  // The skudo marketplace of the account (issue 17): a provider, a campaign, an offer with a partner's tracking URL.
  ids.skudoProviderId = (await owner.client.ok<{ provider: { id: string } }>('createSkudoProvider', { name: 'Secret advertiser' })).provider.id;
  ids.skudoCampaignId = (await owner.client.ok<{ campaign: { id: string } }>('createSkudoCampaign', { name: 'Secret push', startsOn: '2026-01-01' })).campaign.id;
  ids.partnerId = (await owner.client.ok<{ partner: { id: string } }>('createSkudoPartner', { name: 'Secret publisher', email: 'publisher@it.example.com' })).partner.id;
  ids.offerId = (await owner.client.ok<{ offer: { id: string } }>('createSkudoOffer', {
    providerId: ids.skudoProviderId, campaignId: ids.skudoCampaignId, title: 'Secret offer', payoutModel: 'cpc', payoutAmount: 1, destinationUrl: 'https://www.example.com/offer', status: 'active',
  })).offer.id;
  ids.trackingUrlId = (await owner.client.ok<{ url: { id: string } }>('createSkudoTrackingUrl', { partnerId: ids.partnerId }, { offerId: ids.offerId })).url.id;
  // A wallet design with a pass, and an audience share (issue 17): the routes naming them are refused
  // on the app before any child is looked up (their children's own sweeps are isolation-wallet and
  // isolation-audienceShare), so ids of nothing stand in for them here.
  ids.designId = randomUUID();
  ids.passId = randomUUID();
  ids.shareId = randomUUID();
  (SAMPLE_BODIES.addUser as { roleId: string }).roleId = ids.roleId;
});
afterAll(async () => { await api.stop(); });

// The ingestion endpoints take an app key, not a session: features/ingest tests their keys.
const protectedEndpoints = (Object.keys(endpoints) as EndpointName[]).filter((n) => endpoints[n].auth !== 'public' && endpoints[n].auth !== 'appKey');
// Role ids are scoped by account (migration 011): a PUT or DELETE naming another account's role id
// acts on the caller's own account, exactly as for an unused id (tested at the end).
// deleteWalletSigning names a wallet (apple | google) of the caller's own account, not a child.
const ACCOUNT_SCOPED_IDS = new Set<EndpointName>(['putRole', 'deleteRole', 'deleteWalletSigning']);
// The account's providers (under /account, no app to refuse first) answer 10 for an id of nothing
// or of another account (docs/design/acquisition.md): exactly as for an unused id, tested below.
const NOT_FOUND_10 = new Set<EndpointName>(['updateAccountProvider', 'deleteAccountProvider', 'updateCategory', 'deleteCategory',
  // The skudo routes (account-wide, like the account's providers: 10 for an unknown id).
  ...(Object.keys(skudoEndpoints) as EndpointName[]).filter((n) => skudoEndpoints[n as keyof typeof skudoEndpoints].path.includes(':'))]);
const withIds = protectedEndpoints.filter((n) => (endpoints[n].path.includes(':') || n === 'addUser') && !ACCOUNT_SCOPED_IDS.has(n) && !NOT_FOUND_10.has(n));
/** The path parameters of a route: `providerId` is a mail provider's, except on the account provider routes. */
const paramsOf = (name: EndpointName) => (NOT_FOUND_10.has(name) ? { ...ids, providerId: ids.accountProviderId! } : ids);
// The document token names its document in the body.
const docTokenBody = () => ({ name: `${owner.accountId}/${ids.appId}/journey/${ids.journeyId}` });

describe('every protected route', () => {
  it.each(protectedEndpoints)('%s refuses a call without a session (10005)', async (name) => {
    const anonymous = new TestClient(api.url);
    const answer = await anonymous.call(name, SAMPLE_BODIES[name] ?? {}, paramsOf(name));
    expect(answer.body).toMatchObject({ status: 'KO', code: ErrorCode.ACCESS_TOKEN_MISSING });
  });

  it.each(withIds)('%s refuses a user of another account (10004)', async (name) => {
    const answer = await intruder.client.call(name, SAMPLE_BODIES[name] ?? {}, ids);
    expect(answer.body).toMatchObject({ status: 'KO', code: ErrorCode.NO_PERMISSION });
  });

  it.each([...NOT_FOUND_10])('%s answers a user of another account as for an unused id (10)', async (name) => {
    const answer = await intruder.client.call(name, SAMPLE_BODIES[name] ?? {}, paramsOf(name));
    const unused = await intruder.client.call(name, SAMPLE_BODIES[name] ?? {}, { ...paramsOf(name), providerId: '00000000-0000-4000-8000-000000000000', categoryId: '00000000-0000-4000-8000-000000000000',
      ...Object.fromEntries(['skudoProviderId', 'skudoCampaignId', 'offerId', 'trackingUrlId', 'partnerId'].map((k) => [k, '00000000-0000-4000-8000-000000000000'])) });
    expect(answer.body).toMatchObject({ status: 'KO', code: ErrorCode.NOT_EXIST });
    expect(answer).toEqual(unused);
  });

  it('docToken refuses a document of another account (10004)', async () => {
    const answer = await intruder.client.call('docToken', docTokenBody());
    expect(answer.body).toMatchObject({ status: 'KO', code: ErrorCode.NO_PERMISSION });
    await owner.client.ok('docToken', docTokenBody());
  });

  it('left the first account untouched and shows the intruder none of it', async () => {
    const { apps } = await owner.client.ok<{ apps: { id: string; name: string }[] }>('listApps');
    expect(apps).toEqual([expect.objectContaining({ id: ids.appId, name: 'Secret app' })]);
    const { devices } = await owner.client.ok<{ devices: { name: string }[] }>('listTestDevices', undefined, { appId: ids.appId! });
    expect(devices.map((d) => d.name)).toEqual(['Phone']);
    const { users } = await owner.client.ok<{ users: { id: string; name: string; active: boolean }[] }>('listUsers');
    expect(users.find((u) => u.id === ids.userId)).toMatchObject({ name: 'Colleague', active: true });
    const { roles } = await owner.client.ok<{ roles: { id: string; name: string }[] }>('listRoles');
    expect(roles.find((r) => r.id === ids.roleId)?.name).toBe('Analyst');
    const { journeys } = await owner.client.ok<{ journeys: { id: string; name: string }[] }>('listJourneys', undefined, { appId: ids.appId! });
    expect(journeys).toEqual([expect.objectContaining({ id: ids.journeyId, name: 'Secret journey' })]);
    const { credentials } = await owner.client.ok<{ credentials: { provider: string; settings: Record<string, unknown> }[] }>('listPushCredentials', undefined, { appId: ids.appId! });
    expect(credentials).toEqual([expect.objectContaining({ provider: 'apns', settings: expect.objectContaining({ keyId: 'SECRET0001', environment: 'sandbox' }) as unknown })]);
    const { providers } = await owner.client.ok<{ providers: { id: string; name: string }[] }>('accountProviders');
    expect(providers).toEqual([expect.objectContaining({ id: ids.accountProviderId, name: 'Secret network' })]);
    const { campaign } = await owner.client.ok<{ campaign: { name: string; activeLinks: number } }>('campaign', undefined, { appId: ids.appId!, campaignId: ids.campaignId! });
    expect(campaign).toMatchObject({ name: 'Secret campaign', activeLinks: 1 });

    const seen = JSON.stringify([
      await intruder.client.ok('meta'), await intruder.client.ok('listApps'), await intruder.client.ok('listUsers'),
      await intruder.client.ok('listRoles'), await intruder.client.ok('getAccount'), await intruder.client.ok('listMailProviders'),
      await intruder.client.ok('accountProviders'), await intruder.client.ok('adProviderCatalogue'),
      await intruder.client.ok('listCategories'), await intruder.client.ok('appCategories'),
    ]);
    // (Person ids and version numbers are small numbers that any JSON may contain as digits; the
    // routes above cover them. The catalogue entry is the platform's, every account's to read.)
    const secrets = Object.entries(ids).filter(([k]) => !['personId', 'version', 'provider', 'adProviderId'].includes(k)).map(([, v]) => v);
    for (const id of [...secrets, owner.accountId, owner.userId]) expect(seen).not.toContain(id);
  });

  it('putRole and deleteRole with another account\'s role id act on the caller\'s own account only', async () => {
    const put = await intruder.client.call('putRole', SAMPLE_BODIES.putRole, { roleId: ids.roleId! });
    expect(put.body).toMatchObject({ status: 'OK', role: { id: ids.roleId, name: 'Hijacked' } });
    await intruder.client.ok('deleteRole', undefined, { roleId: ids.roleId! });
    const { roles } = await owner.client.ok<{ roles: { id: string; name: string }[] }>('listRoles');
    expect(roles.find((r) => r.id === ids.roleId)?.name).toBe('Analyst');
    const { users } = await owner.client.ok<{ users: { id: string; roleId: string }[] }>('listUsers');
    expect(users.find((u) => u.id === ids.userId)?.roleId).toBe(ids.roleId);
  });
});
