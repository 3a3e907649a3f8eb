/**
 * The tenant sweep for categories (issue 17, piece D), in the way of isolation-acquisition: the
 * victim's account has apps A and B; B carries categories on itself, an apptracker campaign, a
 * message campaign and a message. The caller names the victim's category or entity:
 * - in the path of the category routes (updateCategory, deleteCategory);
 * - in `setCategoryAssignments` (the entity, and the categories, on the caller's own app);
 * - in the lists' category filter (`categoryId` of listApps, campaigns, campaignsDownload, listMessages).
 * Two callers: a user of another account in their own app, and a user of the victim's account
 * through app A naming app B's entities (B restricts every permission). A victim's child answers
 * exactly what an unused id answers and changes nothing: every row of the victim's is compared
 * with a copy taken before. The category routes and filters are exempt from the general sweeps
 * with reason CATEGORY_SWEEP (../testing/isolationChildren.ts); the first test checks this file
 * covers every one of them.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, PERMISSION_KEYS, type EndpointName } from '@gd/shared';
import { CATEGORY_SWEEP, FIELD_EXEMPT, PATH_EXEMPT } from '../testing/isolationChildren.ts';
import { comparable, send, victimRows, type Probe } from '../testing/isolationSweep.ts';
import { registerAccount, startTestApi, type TestApi, type TestClient } from '../testing/harness.ts';

type Victim = 'category' | 'app' | 'acqCampaign' | 'campaign' | 'message';
interface Caller { client: TestClient; appId: string; otherAccount: boolean; ownCategory: string; ownCampaign: string }

let api: TestApi;
let victimAccount: string;
let appA: string;
let appB: string;
const victim = {} as Record<Victim, string>;
let intruder: Caller;
let sameAccount: Caller;

async function acqCampaign(client: TestClient, appId: string, name: string): Promise<string> {
  const { source } = await client.ok<{ source: { id: string } }>('createSource', { name: `Source ${name}`, type: 'custom' }, { appId });
  return (await client.ok<{ campaign: { id: string } }>('createCampaign', { name, sourceId: source.id, pricingModel: 'cpi', destinations: { desktop: { web: 'https://www.example.com/get' } } }, { appId })).campaign.id;
}
const category = async (client: TestClient, name: string) =>
  (await client.ok<{ category: { id: string } }>('createCategory', { name, colour: '#224466', entityTypes: ['app', 'campaign', 'message'] })).category.id;

beforeAll(async () => {
  api = await startTestApi();
  const owner = await registerAccount(api);
  victimAccount = owner.accountId;
  const client = owner.client;
  appA = (await client.ok<{ app: { id: string } }>('createApp', { name: 'App A', os: 'Android' })).app.id;
  appB = (await client.ok<{ app: { id: string } }>('createApp', { name: 'App B', os: 'iOS' })).app.id;
  const p = { appId: appB };
  victim.category = await category(client, 'Secret category');
  victim.app = appB;
  victim.acqCampaign = await acqCampaign(client, appB, 'Secret campaign');
  const { message } = await client.ok<{ message: { id: string; campaignId: string } }>('createMessage', { name: 'Secret message', type: 'push' }, p);
  victim.message = message.id;
  victim.campaign = message.campaignId;
  for (const [entityType, entityId] of [['app', appB], ['campaign', victim.acqCampaign], ['campaign', victim.campaign], ['message', victim.message]] as const) {
    await client.ok('setCategoryAssignments', { entityType, entityId, categoryIds: [victim.category] }, p);
  }
  // The account's own category and campaign in app A, which the same-account caller acts on.
  sameAccount = { client, appId: appA, otherAccount: false, ownCategory: await category(client, 'Own A'), ownCampaign: await acqCampaign(client, appA, 'Own A') };
  // App B now restricts every permission: the user has rights in app A only.
  await client.ok('updateApp', { name: 'App B', os: 'iOS', restricted: [...PERMISSION_KEYS] }, p);

  const other = await registerAccount(api);
  const { app: otherApp } = await other.client.ok<{ app: { id: string } }>('createApp', { name: 'Intruder app', os: 'iOS' });
  intruder = { client: other.client, appId: otherApp.id, otherAccount: true, ownCategory: await category(other.client, 'Own'), ownCampaign: await acqCampaign(other.client, otherApp.id, 'Own') };
});
afterAll(async () => { await api.stop(); });

const rowsOf = (caller: Caller) => victimRows(api.db, { accountId: victimAccount, apps: caller.otherAccount ? [appA, appB] : [appB], accountRows: caller.otherAccount });

interface Case {
  /** The PATH_EXEMPT route or FIELD_EXEMPT field it sweeps. */
  covers: string;
  name: EndpointName;
  child: Victim;
  /** Only another account's caller (the category is the account's own for the other caller). */
  accountChild?: boolean;
  build(caller: Caller, id: string): Probe;
}
const body = { name: 'Hijacked', colour: '#000000', entityTypes: ['app'] };
const at = (c: Caller) => ({ appId: c.appId });
const CASES: Case[] = [
  { covers: 'updateCategory', name: 'updateCategory', child: 'category', accountChild: true, build: (_c, id) => ({ params: { categoryId: id }, body }) },
  { covers: 'deleteCategory', name: 'deleteCategory', child: 'category', accountChild: true, build: (_c, id) => ({ params: { categoryId: id } }) },
  ...(['app', 'acqCampaign', 'campaign', 'message'] as const).map((child): Case => ({
    covers: 'setCategoryAssignments body.entityId', name: 'setCategoryAssignments', child,
    build: (c, id) => ({ params: at(c), body: { entityType: child === 'acqCampaign' ? 'campaign' : child, entityId: id, categoryIds: [c.ownCategory] } }),
  })),
  {
    covers: 'setCategoryAssignments body.categoryIds', name: 'setCategoryAssignments', child: 'category', accountChild: true,
    build: (c, id) => ({ params: at(c), body: { entityType: 'campaign', entityId: c.ownCampaign, categoryIds: [id] } }),
  },
  { covers: 'listApps query.categoryId', name: 'listApps', child: 'category', accountChild: true, build: (_c, id) => ({ query: { categoryId: id } }) },
  { covers: 'campaigns query.categoryId', name: 'campaigns', child: 'category', accountChild: true, build: (c, id) => ({ params: at(c), query: { scope: 'all', categoryId: id } }) },
  { covers: 'campaignsDownload query.categoryId', name: 'campaignsDownload', child: 'category', accountChild: true, build: (c, id) => ({ params: at(c), query: { scope: 'all', categoryId: id } }) },
  { covers: 'listMessages query.categoryId', name: 'listMessages', child: 'category', accountChild: true, build: (c, id) => ({ params: at(c), query: { scope: 'all', categoryId: id } }) },
];

describe('the sweep covers every category route and filter', () => {
  it('every route and field exempt from the general sweeps for this file has a case here', () => {
    const exempt = [...Object.entries(PATH_EXEMPT), ...Object.entries(FIELD_EXEMPT)].filter(([, reason]) => reason === CATEGORY_SWEEP).map(([k]) => k).sort();
    expect([...new Set(CASES.map((c) => c.covers))].sort()).toEqual(exempt);
    expect(exempt.length).toBeGreaterThan(0);
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

  const cases = CASES.filter((c) => otherAccount || !c.accountChild).map((c) => [c.covers, c.child, c] as const);
  it.each(cases)('%s naming the victim\'s %s answers as naming an unused one', async (_covers, child, c) => {
    const caller = callerOf();
    const mine = randomUUID();
    const foreign = await send(caller.client, c.name, c.build(caller, victim[child]));
    const none = await send(caller.client, c.name, c.build(caller, mine));
    const ids = [victim[child], mine];
    expect(comparable(foreign, ids)).toEqual(comparable(none, ids));
    // Routes that look the id up say it is not there; the filters answer their (empty) list.
    if (c.name === 'updateCategory' || c.name === 'deleteCategory' || c.name === 'setCategoryAssignments') {
      expect(none.body).toMatchObject({ status: 'KO', code: ErrorCode.NOT_EXIST });
    } else {
      expect(none.body.status).toBe('OK');
      expect(JSON.stringify(foreign.body)).not.toContain('Secret');
    }
  });

  it('the caller\'s own assignments show nothing of the victim\'s', async () => {
    const caller = callerOf();
    for (const entityType of ['app', 'campaign', 'message']) {
      const answer = await send(caller.client, 'categoryAssignments', { params: at(caller), query: { entityType } });
      expect(answer.body.status).toBe('OK');
      const text = JSON.stringify(answer.body);
      for (const id of Object.values(victim)) expect(text).not.toContain(id);
    }
    const apps = await send(caller.client, 'appCategories', {});
    if (otherAccount) for (const id of Object.values(victim)) expect(JSON.stringify(apps.body)).not.toContain(id);
  });

  it('left every row of the victim\'s as it was', async () => {
    expect(await rowsOf(callerOf())).toEqual(before);
  });
});
