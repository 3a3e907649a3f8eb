/**
 * The tenant sweep with the caller's own app (isolation-child.int.test.ts) for the acquisition
 * routes (issue 16: campaigns, sources, channels, the account's providers, links, trackers and
 * postbacks, SKAdNetwork settings), in a world of acquisition children: the victim's app B has a
 * source of the account's provider (whose member is a colleague), a channel, a campaign with a
 * link, a click and a postback call, a tracker and an SKAdNetwork mapping. The caller names an app
 * they may use and the victim's children:
 * - in the path of every acquisition route that has a child parameter;
 * - in every body or query field of those routes that names a child (../testing/isolationChildren.ts).
 * Two callers, as there: a user of another account in their own app, and a user of the victim's
 * account through app A with children of app B (which restricts every permission).
 *
 * The rule (api-server CONTEXT.md, docs/design/acquisition.md): a child of another app or account
 * answers exactly what an unused id answers (here 10, the acquisition routes' not-found) and
 * changes nothing: afterwards every row of the victim's is compared with a copy taken before.
 */
import { randomInt, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, PERMISSION_KEYS, endpoints, type EndpointName } from '@gd/shared';
import {
  ACCOUNT_CHILDREN, FIELD_EXEMPT, pathParams, pathChild, childParams, pathSwept, referenceFields, isAcquisition, endpointOf, type Child,
} from '../testing/isolationChildren.ts';
import { comparable, send, victimRows, type Probe } from '../testing/isolationSweep.ts';
import { registerAccount, startTestApi, uniqueEmail, type TestApi, type TestClient } from '../testing/harness.ts';

// ---------------------------------------------------------------------------------------------
// The world: the victim's account (apps A and B, B holding every kind of acquisition child) and an intruder.

interface Own { providerId: string; sourceId: string; campaignId: string; linkId: string; trackerId: string }
interface Caller { client: TestClient; appId: string; otherAccount: boolean; own: Own }

let api: TestApi;
let victimAccount: string;
let appA: string;
let appB: string;
const victim = {} as Record<Child, string>;
let intruder: Caller;
let sameAccount: Caller;

const WEB = 'https://www.example.com/get';
const POSTBACK = 'https://203.0.114.10/postback?click={click_id}';
const RANGE = { startDay: '2026-01-01', endDay: '2026-01-31' };

const campaignInput = (name: string, sourceId: string, channelId: string | null = null) => ({
  name, sourceId, channelId, pricingModel: 'cpi', costValue: 1, destinations: { desktop: { web: WEB } },
});
const linkInput = (name: string, campaignId: string) => ({ campaignId, kind: 'tracking', name });
const trackerInput = (name: string, accountProviderId: string, campaignId: string | null = null) => ({ name, event: 'secret_event', accountProviderId, campaignId, postbackUrl: POSTBACK });

/** The caller's own provider, source, campaign, link and tracker (in `appId`), that reference cases act on. */
async function ownThings(client: TestClient, appId: string): Promise<Own> {
  const name = `Own ${randomUUID()}`;
  const { provider } = await client.ok<{ provider: { id: string } }>('createAccountProvider', { name, kind: 'social' });
  const { source } = await client.ok<{ source: { id: string } }>('createSource', { name, type: 'adnetwork', accountProviderId: provider.id }, { appId });
  const { campaign } = await client.ok<{ campaign: { id: string } }>('createCampaign', campaignInput(name, source.id), { appId });
  const { link } = await client.ok<{ link: { id: string } }>('createLink', linkInput(name, campaign.id), { appId });
  const { tracker } = await client.ok<{ tracker: { id: string } }>('createTracker', trackerInput(name, provider.id), { appId });
  return { providerId: provider.id, sourceId: source.id, campaignId: campaign.id, linkId: link.id, trackerId: tracker.id };
}

beforeAll(async () => {
  api = await startTestApi();
  const owner = await registerAccount(api);
  victimAccount = owner.accountId;
  const client = owner.client;
  appA = (await client.ok<{ app: { id: string } }>('createApp', { name: 'App A', os: 'Android' })).app.id;
  appB = (await client.ok<{ app: { id: string } }>('createApp', { name: 'App B', os: 'iOS' })).app.id;
  const p = { appId: appB };

  const { roles } = await client.ok<{ roles: { id: string; builtIn: string | null }[] }>('listRoles');
  victim.user = (await client.ok<{ user: { id: string } }>('addUser', { name: 'Colleague', email: uniqueEmail('colleague'), roleId: roles.find((r) => r.builtIn === 'analyst')!.id })).user.id;
  victim.accountProvider = (await client.ok<{ provider: { id: string } }>('createAccountProvider', {
    name: 'Secret network', kind: 'social', installPostbackUrl: POSTBACK, eventPostbackUrl: POSTBACK, memberIds: [victim.user],
  })).provider.id;
  victim.acqSource = (await client.ok<{ source: { id: string } }>('createSource', { name: 'Secret source', type: 'adnetwork', accountProviderId: victim.accountProvider }, p)).source.id;
  victim.acqChannel = (await client.ok<{ channel: { id: string } }>('createChannel', { name: 'Secret channel' }, p)).channel.id;
  victim.acqCampaign = (await client.ok<{ campaign: { id: string } }>('createCampaign', campaignInput('Secret campaign', victim.acqSource, victim.acqChannel), p)).campaign.id;
  victim.link = (await client.ok<{ link: { id: string } }>('createLink', linkInput('Secret link', victim.acqCampaign), p)).link.id;
  victim.tracker = (await client.ok<{ tracker: { id: string } }>('createTracker', trackerInput('Secret tracker', victim.accountProvider, victim.acqCampaign), p)).tracker.id;
  // App Store ids are unique on the platform (and test files share the database): a random one.
  await client.ok('updateSkanSettings', { appStoreId: String(randomInt(1e9, 2e9)), mappings: [{ adNetworkId: 'secret.skadnetwork', sourceIdentifier: '1234', campaignId: victim.acqCampaign }] }, p);
  // A click of the link and a postback call of the campaign, written as the link host and attribution leave them.
  await api.db.query(
    `INSERT INTO acq_clicks (app_id, clicked_at, id, link_id, campaign_id, source_id, platform, ip) VALUES ($1, now(), gen_random_uuid(), $2, $3, $4, 'desktop', '203.0.113.7')`,
    [appB, victim.link, victim.acqCampaign, victim.acqSource]);
  await api.db.query(
    `INSERT INTO acq_postbacks (app_id, campaign_id, account_provider_id, kind, dedup_key, attribution_id, method, url, status, attempts)
     VALUES ($1, $2, $3, 'install', 'install:1', 1, 'POST', 'https://203.0.114.10/postback?click=secret', 'ok', 1)`,
    [appB, victim.acqCampaign, victim.accountProvider]);

  sameAccount = { client, appId: appA, otherAccount: false, own: await ownThings(client, appA) };
  // App B now restricts every permission: the user has rights in app A only.
  await client.ok('updateApp', { name: 'App B', os: 'iOS', restricted: [...PERMISSION_KEYS] }, p);

  const other = await registerAccount(api);
  const { app: otherApp } = await other.client.ok<{ app: { id: string } }>('createApp', { name: 'Intruder app', os: 'iOS' });
  intruder = { client: other.client, appId: otherApp.id, otherAccount: true, own: await ownThings(other.client, otherApp.id) };
});
afterAll(async () => { await api.stop(); });

/** The victim's rows the caller must leave as they were: for another account's caller, all of the account's; for a caller of the account, app B's. */
const rowsOf = (caller: Caller) => victimRows(api.db, { accountId: victimAccount, apps: caller.otherAccount ? [appA, appB] : [appB], accountRows: caller.otherAccount });

/** Calls with the victim's child and with an unused id; both answers, comparable. */
async function both(caller: Caller, name: EndpointName, child: Child, build: (id: string) => Probe) {
  const mine = randomUUID();
  const foreign = await send(caller.client, name, build(victim[child]));
  const none = await send(caller.client, name, build(mine));
  return { foreign, none, ids: [victim[child], mine] };
}

/** Valid bodies for the acquisition routes with a child parameter (a body refused by its schema would prove nothing). */
const VALID_BODIES: Partial<Record<EndpointName, unknown>> = {
  updateCampaign: campaignInput('Hijacked', randomUUID()),
  cloneCampaign: { name: 'Stolen copy' },
  updateSource: { name: 'Hijacked', type: 'custom' },
  updateChannel: { name: 'Hijacked' },
  updateAccountProvider: { name: 'Hijacked', kind: 'other' },
  updateLink: linkInput('Hijacked', randomUUID()),
  updateTracker: trackerInput('Hijacked', randomUUID()),
};

// ---------------------------------------------------------------------------------------------
// Request and query fields naming a child: how to name one, per field.

interface FieldCase { field: string; children: Child[]; build(caller: Caller, id: string): Probe }

const at = (c: Caller, params: Record<string, string> = {}) => ({ appId: c.appId, ...params });

const FIELD_CASES: FieldCase[] = [
  // The campaign list, its CSV and the fraud export, narrowed to a provider or a campaign.
  { field: 'campaigns query.accountProviderId', children: ['accountProvider'], build: (c, id) => ({ params: at(c), query: { scope: 'all', accountProviderId: id } }) },
  { field: 'campaignsDownload query.accountProviderId', children: ['accountProvider'], build: (c, id) => ({ params: at(c), query: { scope: 'all', accountProviderId: id, ...RANGE } }) },
  { field: 'fraudExport query.accountProviderId', children: ['accountProvider'], build: (c, id) => ({ params: at(c), query: { ...RANGE, accountProviderId: id } }) },
  { field: 'fraudExport query.campaignId', children: ['acqCampaign'], build: (c, id) => ({ params: at(c), query: { ...RANGE, campaignId: id } }) },
  // The account's providers: members (users of the account), on a new provider and on the caller's own.
  { field: 'createAccountProvider body.memberIds', children: ['user'], build: (_c, id) => ({ body: { name: `Probe ${id}`, kind: 'other', memberIds: [id] } }) },
  { field: 'updateAccountProvider body.memberIds', children: ['user'], build: (c, id) => ({ params: { providerId: c.own.providerId }, body: { name: 'Own probe', kind: 'other', memberIds: [id] } }) },
  // Sources, campaigns, links and trackers, new and the caller's own.
  { field: 'createSource body.accountProviderId', children: ['accountProvider'], build: (c, id) => ({ params: at(c), body: { name: `Probe ${id}`, type: 'adnetwork', accountProviderId: id } }) },
  { field: 'updateSource body.accountProviderId', children: ['accountProvider'], build: (c, id) => ({ params: at(c, { sourceId: c.own.sourceId }), body: { name: 'Own probe', type: 'adnetwork', accountProviderId: id } }) },
  { field: 'createCampaign body.sourceId', children: ['acqSource'], build: (c, id) => ({ params: at(c), body: campaignInput(`Probe ${id}`, id) }) },
  { field: 'createCampaign body.channelId', children: ['acqChannel'], build: (c, id) => ({ params: at(c), body: campaignInput(`Probe ${id}`, c.own.sourceId, id) }) },
  { field: 'updateCampaign body.sourceId', children: ['acqSource'], build: (c, id) => ({ params: at(c, { campaignId: c.own.campaignId }), body: campaignInput('Own probe', id) }) },
  { field: 'updateCampaign body.channelId', children: ['acqChannel'], build: (c, id) => ({ params: at(c, { campaignId: c.own.campaignId }), body: campaignInput('Own probe', c.own.sourceId, id) }) },
  { field: 'createLink body.campaignId', children: ['acqCampaign'], build: (c, id) => ({ params: at(c), body: linkInput(`Probe ${id}`, id) }) },
  { field: 'updateLink body.campaignId', children: ['acqCampaign'], build: (c, id) => ({ params: at(c, { linkId: c.own.linkId }), body: linkInput('Own probe', id) }) },
  { field: 'links query.campaignId', children: ['acqCampaign'], build: (c, id) => ({ params: at(c), query: { campaignId: id } }) },
  { field: 'createTracker body.accountProviderId', children: ['accountProvider'], build: (c, id) => ({ params: at(c), body: trackerInput(`Probe ${id}`, id) }) },
  { field: 'createTracker body.campaignId', children: ['acqCampaign'], build: (c, id) => ({ params: at(c), body: trackerInput(`Probe ${id}`, c.own.providerId, id) }) },
  { field: 'updateTracker body.accountProviderId', children: ['accountProvider'], build: (c, id) => ({ params: at(c, { trackerId: c.own.trackerId }), body: trackerInput('Own probe', id) }) },
  { field: 'updateTracker body.campaignId', children: ['acqCampaign'], build: (c, id) => ({ params: at(c, { trackerId: c.own.trackerId }), body: trackerInput('Own probe', c.own.providerId, id) }) },
  // SKAdNetwork: a source identifier mapped to the campaign named.
  {
    field: 'updateSkanSettings body.mappings[].campaignId', children: ['acqCampaign'],
    build: (c, id) => ({ params: at(c), body: { appStoreId: null, mappings: [{ adNetworkId: 'probe.skadnetwork', sourceIdentifier: '1', campaignId: id }] } }),
  },
];

/** Account children (users, the account's providers) are foreign only to another account's caller. */
const reaches = (otherAccount: boolean, child: Child) => otherAccount || !ACCOUNT_CHILDREN.has(child);

/** The acquisition routes with a child parameter. */
const swept = pathSwept.filter(isAcquisition);

// ---------------------------------------------------------------------------------------------

describe('the sweep covers every acquisition child', () => {
  it('every acquisition route with a child parameter and a body has a valid body here', () => {
    expect(swept.filter((n) => 'request' in endpoints[n] && !(n in VALID_BODIES))).toEqual([]);
  });

  it('every request or query field of the acquisition routes that names a child is swept, or exempt with its reason', () => {
    const cases = new Set(FIELD_CASES.map((c) => c.field));
    const found = referenceFields().filter((f) => isAcquisition(endpointOf(f)));
    expect(found.filter((f) => !cases.has(f) && !(f in FIELD_EXEMPT)), 'add a FIELD_CASES entry (or a FIELD_EXEMPT reason)').toEqual([]);
    expect([...cases].filter((f) => !found.includes(f)), 'cases for fields that are gone').toEqual([]);
  });
});

describe.each([
  ['a user of another account in their own app', true, () => intruder],
  ['a user of the account through app A, with children of app B', false, () => sameAccount],
] as const)('%s', (_label, otherAccount, callerOf) => {
  let before: Record<string, string[]>;
  beforeAll(async () => {
    before = await rowsOf(callerOf());
  });

  const pathCases = swept.filter((n) => childParams(n).every((p) => reaches(otherAccount, pathChild(n, p)!))).map((n) => [n] as const);
  it.each(pathCases)('%s with the victim\'s child answers as with an unused id (10)', async (name) => {
    const caller = callerOf();
    const children = childParams(name).map((p) => pathChild(name, p)!);
    const mine = Object.fromEntries(children.map((child) => [child, randomUUID()])) as Record<Child, string>;
    const probe = (pick: (child: Child) => string): Probe => ({
      params: Object.fromEntries(pathParams(name).map((p) => [p, p === 'appId' ? caller.appId : pick(pathChild(name, p)!)])),
      body: VALID_BODIES[name],
    });
    const foreign = await send(caller.client, name, probe((child) => victim[child]));
    const none = await send(caller.client, name, probe((child) => mine[child]));
    const ids = children.flatMap((child) => [victim[child], mine[child]]);
    expect(none.body).toMatchObject({ status: 'KO', code: ErrorCode.NOT_EXIST });
    expect(comparable(foreign, ids)).toEqual(comparable(none, ids));
  });

  const fieldCases = FIELD_CASES.flatMap((c) => c.children.filter((child) => reaches(otherAccount, child)).map((child) => [c.field, child, c] as const));
  it.each(fieldCases)('%s naming the victim\'s %s answers as naming an unused one', async (_field, child, c) => {
    const caller = callerOf();
    const { foreign, none, ids } = await both(caller, endpointOf(c.field), child, (id) => c.build(caller, id));
    expect(comparable(foreign, ids)).toEqual(comparable(none, ids));
  });

  it('left every row of the victim\'s as it was', async () => {
    expect(await rowsOf(callerOf())).toEqual(before);
  });
});
