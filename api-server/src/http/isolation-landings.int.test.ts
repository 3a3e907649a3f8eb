/**
 * The tenant sweep for landing pages (issue 17, piece C), in the way of isolation-acquisition: the
 * victim's account has apps A and B; B carries an acquisition campaign with a link, and a
 * published landing of that campaign and link with a day of visits, used as the link's web
 * fallback. The caller names the victim's landing, campaign or link:
 * - in the path of the landing routes (landing, updateLanding, publish, unpublish, delete, visits);
 * - in the landings' campaign filter and the campaign and link of a new or own landing;
 * - in the landing fallback of a new or own link (createLink, updateLink `landingId`).
 * Two callers: a user of another account in their own app, and a user of the victim's account
 * through app A naming app B's children (B restricts every permission). A victim's child answers
 * exactly what an unused id answers (10 where it is looked up) and changes nothing: every row of
 * the victim's is compared with a copy taken before. These routes and fields are exempt from the
 * general sweeps with reason LANDING_SWEEP (../testing/isolationChildren.ts); the first test
 * checks this file covers every one of them.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, PERMISSION_KEYS, type EndpointName } from '@gd/shared';
import { FIELD_EXEMPT, LANDING_SWEEP, PATH_EXEMPT } from '../testing/isolationChildren.ts';
import { comparable, send, victimRows, type Probe } from '../testing/isolationSweep.ts';
import { registerAccount, startTestApi, type TestApi, type TestClient } from '../testing/harness.ts';

type Victim = 'landing' | 'acqCampaign' | 'link';
interface Own { campaignId: string; linkId: string; landingId: string }
interface Caller { client: TestClient; appId: string; otherAccount: boolean; own: Own }

let api: TestApi;
let victimAccount: string;
let appA: string;
let appB: string;
const victim = {} as Record<Victim, string>;
let intruder: Caller;
let sameAccount: Caller;

const WEB = 'https://www.example.com/get';
const COLOURS = { background: '#FFFFFF', text: '#111111', accent: '#222222' };
const BLOCKS = [{ type: 'title', id: 't', text: 'Secret offer', size: 'large', align: 'center' }];
const slug = () => `iso-${randomBytes(5).toString('hex')}`;
const landingInput = (over: Record<string, unknown> = {}) => ({ name: 'Hijacked', slug: slug(), colours: COLOURS, blocks: BLOCKS, ...over });

async function ownThings(client: TestClient, appId: string, name: string): Promise<Own> {
  const { source } = await client.ok<{ source: { id: string } }>('createSource', { name: `Source ${name}`, type: 'custom' }, { appId });
  const { campaign } = await client.ok<{ campaign: { id: string } }>('createCampaign', { name, sourceId: source.id, pricingModel: 'cpi', destinations: { desktop: { web: WEB } } }, { appId });
  const { link } = await client.ok<{ link: { id: string } }>('createLink', { campaignId: campaign.id, kind: 'powlink', name }, { appId });
  const { landing } = await client.ok<{ landing: { id: string } }>('createLanding', landingInput({ name, campaignId: campaign.id, linkId: link.id }), { appId });
  return { campaignId: campaign.id, linkId: link.id, landingId: landing.id };
}

beforeAll(async () => {
  api = await startTestApi();
  const owner = await registerAccount(api);
  victimAccount = owner.accountId;
  const client = owner.client;
  appA = (await client.ok<{ app: { id: string } }>('createApp', { name: 'App A', os: 'Android' })).app.id;
  appB = (await client.ok<{ app: { id: string } }>('createApp', { name: 'App B', os: 'iOS' })).app.id;
  const secret = await ownThings(client, appB, 'Secret');
  victim.acqCampaign = secret.campaignId;
  victim.link = secret.linkId;
  victim.landing = secret.landingId;
  await client.ok('publishLanding', undefined, { appId: appB, landingId: victim.landing });
  await client.ok('updateLink', { campaignId: victim.acqCampaign, name: 'Secret', landingId: victim.landing }, { appId: appB, linkId: victim.link });
  await api.db.query("INSERT INTO landing_visits (landing_id, app_id, day, visits, from_links) VALUES ($1, $2, current_date, 7, 3)", [victim.landing, appB]);

  sameAccount = { client, appId: appA, otherAccount: false, own: await ownThings(client, appA, 'Own A') };
  // App B now restricts every permission: the user has rights in app A only.
  await client.ok('updateApp', { name: 'App B', os: 'iOS', restricted: [...PERMISSION_KEYS] }, { appId: appB });

  const other = await registerAccount(api);
  const { app: otherApp } = await other.client.ok<{ app: { id: string } }>('createApp', { name: 'Intruder app', os: 'iOS' });
  intruder = { client: other.client, appId: otherApp.id, otherAccount: true, own: await ownThings(other.client, otherApp.id, 'Own') };
});
afterAll(async () => { await api.stop(); });

const rowsOf = (caller: Caller) => victimRows(api.db, { accountId: victimAccount, apps: caller.otherAccount ? [appA, appB] : [appB], accountRows: caller.otherAccount });

interface Case {
  /** The PATH_EXEMPT route or FIELD_EXEMPT field it sweeps. */
  covers: string;
  name: EndpointName;
  child: Victim;
  build(caller: Caller, id: string): Probe;
}
const at = (c: Caller, params: Record<string, string> = {}) => ({ appId: c.appId, ...params });
const pathCase = (name: EndpointName, body?: () => unknown): Case => ({ covers: name, name, child: 'landing', build: (c, id) => ({ params: at(c, { landingId: id }), body: body?.() }) });
const CASES: Case[] = [
  pathCase('landing'),
  pathCase('updateLanding', () => landingInput()),
  pathCase('publishLanding'),
  pathCase('unpublishLanding'),
  pathCase('deleteLanding'),
  pathCase('landingVisits'),
  { covers: 'landings query.campaignId', name: 'landings', child: 'acqCampaign', build: (c, id) => ({ params: at(c), query: { campaignId: id } }) },
  { covers: 'createLanding body.campaignId', name: 'createLanding', child: 'acqCampaign', build: (c, id) => ({ params: at(c), body: landingInput({ campaignId: id }) }) },
  { covers: 'createLanding body.linkId', name: 'createLanding', child: 'link', build: (c, id) => ({ params: at(c), body: landingInput({ linkId: id }) }) },
  { covers: 'updateLanding body.campaignId', name: 'updateLanding', child: 'acqCampaign', build: (c, id) => ({ params: at(c, { landingId: c.own.landingId }), body: landingInput({ campaignId: id }) }) },
  { covers: 'updateLanding body.linkId', name: 'updateLanding', child: 'link', build: (c, id) => ({ params: at(c, { landingId: c.own.landingId }), body: landingInput({ linkId: id }) }) },
  { covers: 'createLink body.landingId', name: 'createLink', child: 'landing', build: (c, id) => ({ params: at(c), body: { campaignId: c.own.campaignId, kind: 'powlink', name: 'Probe', landingId: id } }) },
  { covers: 'updateLink body.landingId', name: 'updateLink', child: 'landing', build: (c, id) => ({ params: at(c, { linkId: c.own.linkId }), body: { campaignId: c.own.campaignId, name: 'Own probe', landingId: id } }) },
];

describe('the sweep covers every landing route and field', () => {
  it('every route and field exempt from the general sweeps for this file has a case here', () => {
    const exempt = [...Object.entries(PATH_EXEMPT), ...Object.entries(FIELD_EXEMPT)].filter(([, reason]) => reason === LANDING_SWEEP).map(([k]) => k).sort();
    expect([...new Set(CASES.map((c) => c.covers))].sort()).toEqual(exempt);
    expect(exempt.length).toBeGreaterThan(0);
  });
});

describe.each([
  ['a user of another account in their own app', true, () => intruder],
  ['a user of the account through app A, with children of app B', false, () => sameAccount],
] as const)('%s', (_label, _otherAccount, callerOf) => {
  let before: Record<string, string[]>;
  beforeAll(async () => {
    before = await rowsOf(callerOf());
  });

  it.each(CASES.map((c) => [c.covers, c.child, c] as const))('%s naming the victim\'s %s answers as naming an unused one', async (_covers, child, c) => {
    const caller = callerOf();
    const mine = randomUUID();
    const foreign = await send(caller.client, c.name, c.build(caller, victim[child]));
    const none = await send(caller.client, c.name, c.build(caller, mine));
    const ids = [victim[child], mine];
    expect(comparable(foreign, ids)).toEqual(comparable(none, ids));
    // Routes that look the id up say it is not there; the filter answers its (empty) list.
    if (c.name === 'landings') {
      expect(none.body).toMatchObject({ status: 'OK', landings: [] });
    } else {
      expect(none.body).toMatchObject({ status: 'KO', code: ErrorCode.NOT_EXIST });
    }
    expect(JSON.stringify(foreign.body)).not.toContain('Secret');
  });

  it('left every row of the victim\'s as it was, and its page still answers', async () => {
    expect(await rowsOf(callerOf())).toEqual(before);
    const { rows } = await api.db.query<{ slug: string }>('SELECT slug FROM landings WHERE id = $1', [victim.landing]);
    const page = await fetch(`${api.url}/p/${rows[0]!.slug}`, { method: 'HEAD' });
    expect(page.status).toBe(200);
  });
});
