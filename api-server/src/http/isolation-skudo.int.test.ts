/**
 * The tenant sweep for skudo (issue 17, piece F), in the way of isolation-acquisition: the victim's
 * account has a skudo provider, a campaign, an active offer with a partner's tracking URL (clicked
 * once) and a partner with a sign-in code. Skudo is account-wide, so the caller is a user of
 * another account (with a marketplace of their own), naming the victim's children:
 * - in the path of every skudo route with a child parameter;
 * - in the body fields that name one (an offer's provider and campaign, a tracking URL's partner),
 *   on new things and on the caller's own.
 * A victim's child answers exactly what an unused id answers (10) and changes nothing: every row of
 * the victim's is compared with a copy taken before. The skudo routes and fields are exempt from
 * the general sweeps with reason SKUDO_SWEEP (../testing/isolationChildren.ts); the first test
 * checks this file covers every one of them. Last, the caller's lists and a partner session of the
 * caller's account show nothing of the victim's.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, type EndpointName } from '@gd/shared';
import { FIELD_EXEMPT, PATH_EXEMPT, SKUDO_SWEEP } from '../testing/isolationChildren.ts';
import { comparable, send, victimRows, type Probe } from '../testing/isolationSweep.ts';
import { TestClient, registerAccount, startTestApi, type TestApi } from '../testing/harness.ts';

type Victim = 'provider' | 'campaign' | 'offer' | 'url' | 'partner';
interface Own { provider: string; campaign: string; offer: string; url: string; partner: string }

let api: TestApi;
let victimAccount: string;
let victimOwner: TestClient;
const victim = {} as Record<Victim, string>;
let intruder: TestClient;
let own: Own;

const offerBody = (providerId: string, campaignId: string | null, title = 'Probe offer') => ({
  providerId, campaignId, title, payoutModel: 'cpa', payoutAmount: 3, destinationUrl: 'https://www.example.com/probe', status: 'active',
});

/** A marketplace: provider, campaign, active offer with a partner's tracking URL. */
async function marketplace(client: TestClient, tag: string): Promise<Own> {
  const provider = (await client.ok<{ provider: { id: string } }>('createSkudoProvider', { name: `${tag} advertiser` })).provider.id;
  const campaign = (await client.ok<{ campaign: { id: string } }>('createSkudoCampaign', { name: `${tag} push`, startsOn: '2026-01-01' })).campaign.id;
  const partner = (await client.ok<{ partner: { id: string } }>('createSkudoPartner', { name: `${tag} publisher`, email: `${tag.toLowerCase()}.${randomUUID().slice(0, 8)}@it.example.com` })).partner.id;
  const offer = (await client.ok<{ offer: { id: string } }>('createSkudoOffer', offerBody(provider, campaign, `${tag} offer`))).offer.id;
  const url = (await client.ok<{ url: { id: string } }>('createSkudoTrackingUrl', { partnerId: partner }, { offerId: offer })).url.id;
  return { provider, campaign, offer, url, partner };
}

beforeAll(async () => {
  api = await startTestApi();
  const owner = await registerAccount(api);
  victimAccount = owner.accountId;
  victimOwner = owner.client;
  const v = await marketplace(owner.client, 'Secret');
  Object.assign(victim, { provider: v.provider, campaign: v.campaign, offer: v.offer, url: v.url, partner: v.partner });
  // A click on the victim's URL and a code handed to the victim's partner.
  const { offers } = await owner.client.ok<{ offers: { urls: { url: string }[] }[] }>('skudoOffers');
  await fetch(`${api.url}${new URL(offers[0]!.urls[0]!.url).pathname}`, { redirect: 'manual', headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/126.0' } });
  await owner.client.ok('createSkudoAuthCode', undefined, { partnerId: victim.partner });

  const other = await registerAccount(api);
  intruder = other.client;
  own = await marketplace(intruder, 'Own');
});
afterAll(async () => { await api.stop(); });

const rowsOf = () => victimRows(api.db, { accountId: victimAccount, apps: [], accountRows: true });

interface Case {
  /** The PATH_EXEMPT route or FIELD_EXEMPT field it sweeps. */
  covers: string;
  name: EndpointName;
  child: Victim;
  build(id: string): Probe;
}
const CASES: Case[] = [
  { covers: 'updateSkudoProvider', name: 'updateSkudoProvider', child: 'provider', build: (id) => ({ params: { skudoProviderId: id }, body: { name: 'Hijacked' } }) },
  { covers: 'deleteSkudoProvider', name: 'deleteSkudoProvider', child: 'provider', build: (id) => ({ params: { skudoProviderId: id } }) },
  { covers: 'updateSkudoCampaign', name: 'updateSkudoCampaign', child: 'campaign', build: (id) => ({ params: { skudoCampaignId: id }, body: { name: 'Hijacked', startsOn: '2026-01-01', status: 'ended' } }) },
  { covers: 'deleteSkudoCampaign', name: 'deleteSkudoCampaign', child: 'campaign', build: (id) => ({ params: { skudoCampaignId: id } }) },
  { covers: 'updateSkudoOffer', name: 'updateSkudoOffer', child: 'offer', build: (id) => ({ params: { offerId: id }, body: offerBody(own.provider, null, 'Hijacked') }) },
  { covers: 'deleteSkudoOffer', name: 'deleteSkudoOffer', child: 'offer', build: (id) => ({ params: { offerId: id } }) },
  { covers: 'createSkudoTrackingUrl', name: 'createSkudoTrackingUrl', child: 'offer', build: (id) => ({ params: { offerId: id }, body: { label: 'Hijacked' } }) },
  { covers: 'updateSkudoTrackingUrl', name: 'updateSkudoTrackingUrl', child: 'url', build: (id) => ({ params: { trackingUrlId: id }, body: { label: 'Hijacked', active: false } }) },
  { covers: 'deleteSkudoTrackingUrl', name: 'deleteSkudoTrackingUrl', child: 'url', build: (id) => ({ params: { trackingUrlId: id } }) },
  { covers: 'updateSkudoPartner', name: 'updateSkudoPartner', child: 'partner', build: (id) => ({ params: { partnerId: id }, body: { name: 'Hijacked', email: 'hijacked@it.example.com', status: 'suspended' } }) },
  { covers: 'deleteSkudoPartner', name: 'deleteSkudoPartner', child: 'partner', build: (id) => ({ params: { partnerId: id } }) },
  { covers: 'createSkudoAuthCode', name: 'createSkudoAuthCode', child: 'partner', build: (id) => ({ params: { partnerId: id } }) },
  { covers: 'inviteSkudoPartner', name: 'inviteSkudoPartner', child: 'partner', build: (id) => ({ params: { partnerId: id } }) },
  // Body fields, on a new offer and on the caller's own.
  { covers: 'createSkudoOffer body.providerId', name: 'createSkudoOffer', child: 'provider', build: (id) => ({ body: offerBody(id, null) }) },
  { covers: 'createSkudoOffer body.campaignId', name: 'createSkudoOffer', child: 'campaign', build: (id) => ({ body: offerBody(own.provider, id) }) },
  { covers: 'updateSkudoOffer body.providerId', name: 'updateSkudoOffer', child: 'provider', build: (id) => ({ params: { offerId: own.offer }, body: offerBody(id, null, 'Own probe') }) },
  { covers: 'updateSkudoOffer body.campaignId', name: 'updateSkudoOffer', child: 'campaign', build: (id) => ({ params: { offerId: own.offer }, body: offerBody(own.provider, id, 'Own probe') }) },
  { covers: 'createSkudoTrackingUrl body.partnerId', name: 'createSkudoTrackingUrl', child: 'partner', build: (id) => ({ params: { offerId: own.offer }, body: { partnerId: id } }) },
];

describe('the sweep covers every skudo route and field', () => {
  it('every route and field exempt from the general sweeps for this file has a case here', () => {
    const exempt = [...Object.entries(PATH_EXEMPT), ...Object.entries(FIELD_EXEMPT)].filter(([, reason]) => reason === SKUDO_SWEEP).map(([k]) => k).sort();
    expect([...new Set(CASES.map((c) => c.covers))].sort()).toEqual(exempt);
    expect(exempt.length).toBeGreaterThan(0);
  });
});

describe('a user of another account', () => {
  let before: Record<string, string[]>;
  beforeAll(async () => {
    before = await rowsOf();
  });

  it.each(CASES.map((c) => [c.covers, c.child, c] as const))('%s naming the victim\'s %s answers as an unused id (10)', async (_covers, child, c) => {
    const mine = randomUUID();
    const foreign = await send(intruder, c.name, c.build(victim[child]));
    const none = await send(intruder, c.name, c.build(mine));
    const ids = [victim[child], mine];
    expect(none.body).toMatchObject({ status: 'KO', code: ErrorCode.NOT_EXIST });
    expect(comparable(foreign, ids)).toEqual(comparable(none, ids));
  });

  it('sees nothing of the victim\'s in the lists, nor through a partner session of their own account', async () => {
    const lists = JSON.stringify(await Promise.all((['skudoProviders', 'skudoCampaigns', 'skudoOffers', 'skudoPartners'] as const).map((n) => intruder.ok(n))));
    for (const id of Object.values(victim)) expect(lists).not.toContain(id);
    expect(lists).not.toContain('Secret');
    const partner = new TestClient(api.url);
    const { code } = await intruder.ok<{ code: string }>('createSkudoAuthCode', undefined, { partnerId: own.partner });
    await partner.ok('skudoPartnerLogin', { code });
    const view = JSON.stringify(await partner.ok('skudoPartnerOffers'));
    expect(view).toContain('Own offer');
    expect(view).not.toContain('Secret');
  });

  it('left every row of the victim\'s as it was', async () => {
    expect(await rowsOf()).toEqual(before);
    // And the victim's marketplace still works: the URL's click is counted, the partner is active.
    const { offers } = await victimOwner.ok<{ offers: { urls: { clicks: number; active: boolean }[] }[] }>('skudoOffers');
    expect(offers[0]!.urls[0]).toMatchObject({ clicks: 1, active: true });
  });
});
