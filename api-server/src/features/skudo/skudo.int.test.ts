/**
 * Skudo through the real server: the deletion guards (20001, 20002, 20003) leaving everything as
 * it was, the tracking host redirecting and counting, the one-time codes (20004, 20005, single
 * use, expiry, voided by a newer code or a suspension), the partner session kept apart from the
 * account session, permissions and refusals of bad input.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_COOKIES, ErrorCode } from '@gd/shared';
import { SKUDO_PARTNER_COOKIE } from '@gd/shared/skudo/model';
import type { SkudoAuthCode, SkudoOffer, SkudoPartner, SkudoPartnerOffer, SkudoTrackingUrl } from '@gd/shared/schemas/skudo';
import { TestClient, addMember, registerAccount, startTestApi, type TestApi } from '../../testing/harness.ts';

let api: TestApi;
let owner: TestClient;
let providerId: string;
let campaignId: string;
let partner: SkudoPartner;

const offerInput = (over: Record<string, unknown> = {}) => ({
  providerId, campaignId, title: 'Trail shoes', description: 'Spring collection', payoutModel: 'cps', payoutAmount: 12, currency: 'eur',
  destinationUrl: 'https://shop.example.com/trail?utm=skudo', status: 'active', ...over,
});
const createOffer = async (over: Record<string, unknown> = {}) => (await owner.ok<{ offer: SkudoOffer }>('createSkudoOffer', offerInput(over))).offer;
const createUrl = async (offerId: string, body: Record<string, unknown>) => (await owner.ok<{ url: SkudoTrackingUrl }>('createSkudoTrackingUrl', body, { offerId })).url;
const offers = async () => (await owner.ok<{ offers: SkudoOffer[] }>('skudoOffers')).offers;
const click = (url: string, init: RequestInit = {}) => {
  const path = new URL(url).pathname;
  return fetch(`${api.url}${path}`, { redirect: 'manual', headers: { 'user-agent': 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15' }, ...init });
};
const newCode = async (id = partner.id) => owner.ok<SkudoAuthCode>('createSkudoAuthCode', undefined, { partnerId: id });

beforeAll(async () => {
  api = await startTestApi();
  ({ client: owner } = await registerAccount(api));
  providerId = (await owner.ok<{ provider: { id: string } }>('createSkudoProvider', { name: 'Nordic Outdoor', website: 'https://nordic.example.com', contactEmail: '' })).provider.id;
  campaignId = (await owner.ok<{ campaign: { id: string } }>('createSkudoCampaign', { name: 'Spring', startsOn: '2026-01-01', endsOn: null, status: 'active' })).campaign.id;
  partner = (await owner.ok<{ partner: SkudoPartner }>('createSkudoPartner', { name: 'Trail Blog', email: 'Blog@Example.com' })).partner;
});
afterAll(async () => { await api.stop(); });

describe('offers, campaigns and providers', () => {
  it('answers an offer with its provider, campaign and normalised currency', async () => {
    const offer = await createOffer();
    expect(offer).toMatchObject({ providerName: 'Nordic Outdoor', campaignId, campaignName: 'Spring', currency: 'EUR', payoutAmount: 12, urls: [], clicks: 0 });
    expect(partner.email).toBe('blog@example.com');
  });

  it('refuses to delete an offer with active URLs (20001), a campaign with active offers (20002), a provider with active URLs (20003); nothing changes', async () => {
    const offer = await createOffer({ title: 'Guarded' });
    const url = await createUrl(offer.id, { partnerId: partner.id });
    expect(url).toMatchObject({ partnerName: 'Trail Blog', label: 'Trail Blog', active: true, live: true, clicks: 0 });
    expect(url.url).toMatch(/\/s\/[A-Za-z0-9]{8}$/);
    const before = await offers();

    expect((await owner.call('deleteSkudoOffer', undefined, { offerId: offer.id })).body).toMatchObject({ status: 'KO', code: ErrorCode.SKUDO_OFFER_HAS_ACTIVE_URLS });
    expect((await owner.call('deleteSkudoCampaign', undefined, { skudoCampaignId: campaignId })).body).toMatchObject({ status: 'KO', code: ErrorCode.CAMPAIGN_HAS_ACTIVE_OFFERS });
    expect((await owner.call('deleteSkudoProvider', undefined, { skudoProviderId: providerId })).body).toMatchObject({ status: 'KO', code: ErrorCode.PROVIDER_HAS_ACTIVE_URLS });
    expect(await offers()).toEqual(before);

    // Deactivated, the URL no longer holds its offer back; its inactive URLs go with it.
    await owner.ok('updateSkudoTrackingUrl', { label: 'Trail Blog', active: false }, { trackingUrlId: url.id });
    await owner.ok('deleteSkudoOffer', undefined, { offerId: offer.id });
    expect((await offers()).map((o) => o.id)).not.toContain(offer.id);
    expect((await api.db.query('SELECT 1 FROM skudo_tracking_urls WHERE id = $1', [url.id])).rowCount).toBe(0);
  });

  it('deletes a campaign whose offers are not active, leaving them ungrouped', async () => {
    const { campaign } = await owner.ok<{ campaign: { id: string } }>('createSkudoCampaign', { name: 'Short', startsOn: '2026-02-01', endsOn: '2026-02-10' });
    const offer = await createOffer({ title: 'Paused one', campaignId: campaign.id, status: 'paused' });
    expect((await owner.ok<{ campaigns: { id: string; offers: number; activeOffers: number }[] }>('skudoCampaigns')).campaigns.find((c) => c.id === campaign.id))
      .toMatchObject({ offers: 1, activeOffers: 0 });
    await owner.ok('deleteSkudoCampaign', undefined, { skudoCampaignId: campaign.id });
    expect((await offers()).find((o) => o.id === offer.id)).toMatchObject({ campaignId: null, campaignName: null });
  });

  it('deletes a provider without active URLs together with its offers', async () => {
    const { provider } = await owner.ok<{ provider: { id: string } }>('createSkudoProvider', { name: 'Short-lived' });
    const offer = await createOffer({ providerId: provider.id, campaignId: null, title: 'Gone with it' });
    await createUrl(offer.id, { label: 'Newsletter' }).then((u) => owner.ok('updateSkudoTrackingUrl', { label: 'Newsletter', active: false }, { trackingUrlId: u.id }));
    await owner.ok('deleteSkudoProvider', undefined, { skudoProviderId: provider.id });
    expect((await offers()).map((o) => o.id)).not.toContain(offer.id);
  });

  it('refuses bad input with 10001 and its field, a taken name with 30, an unknown provider or campaign with 10', async () => {
    const bad = await owner.call('createSkudoOffer', offerInput({ destinationUrl: 'http://127.0.0.1/admin', payoutAmount: -1 }));
    expect(bad.body).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY });
    expect((bad.body.details as { path: string }[]).map((d) => d.path).sort()).toEqual(['destinationUrl', 'payoutAmount']);
    const percent = await owner.call('createSkudoOffer', offerInput({ payoutAmount: 150 }));
    expect(percent.body).toMatchObject({ code: ErrorCode.MANDATORY, details: [expect.objectContaining({ path: 'payoutAmount' })] });
    const days = await owner.call('createSkudoCampaign', { name: 'Backwards', startsOn: '2026-03-10', endsOn: '2026-03-01' });
    expect(days.body).toMatchObject({ code: ErrorCode.MANDATORY, details: [expect.objectContaining({ path: 'endsOn' })] });
    expect((await owner.call('createSkudoProvider', { name: 'nordic outdoor' })).body).toMatchObject({ code: ErrorCode.NAME_DUPLICATED });
    expect((await owner.call('createSkudoPartner', { name: 'Again', email: 'blog@example.com' })).body).toMatchObject({ code: ErrorCode.NAME_DUPLICATED });
    const count = (await offers()).length;
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await owner.call('createSkudoOffer', offerInput({ providerId: unknown }))).body).toMatchObject({ code: ErrorCode.NOT_EXIST, details: [{ path: 'providerId' }] });
    expect((await owner.call('createSkudoOffer', offerInput({ campaignId: unknown }))).body).toMatchObject({ code: ErrorCode.NOT_EXIST, details: [{ path: 'campaignId' }] });
    expect((await owner.call('deleteSkudoOffer', undefined, { offerId: unknown })).body).toMatchObject({ code: ErrorCode.NOT_EXIST });
    expect((await offers()).length).toBe(count);
  });

  it('lets an analyst read the marketplace but change nothing (10004)', async () => {
    const analyst = await addMember(api, owner, 'analyst');
    expect((await analyst.ok<{ offers: unknown[] }>('skudoOffers')).offers.length).toBeGreaterThan(0);
    expect((await analyst.call('createSkudoProvider', { name: 'Sneaky' })).body).toMatchObject({ code: ErrorCode.NO_PERMISSION });
    expect((await analyst.call('createSkudoAuthCode', undefined, { partnerId: partner.id })).body).toMatchObject({ code: ErrorCode.NO_PERMISSION });
  });
});

describe('the tracking host', () => {
  it('redirects a live URL with the click id and counts the click; bots are stored but not counted', async () => {
    const offer = await createOffer({ title: 'Clicked', destinationUrl: 'https://shop.example.com/p?sub={click_id}' });
    const url = await createUrl(offer.id, { label: 'Instagram' });
    const res = await click(url.url);
    expect(res.status).toBe(302);
    const location = res.headers.get('location') ?? '';
    const clickId = decodeURIComponent(/sub=([^&]+)/.exec(location)?.[1] ?? '');
    expect(location.startsWith('https://shop.example.com/p?sub=')).toBe(true);
    expect((await api.db.query('SELECT bot FROM skudo_clicks WHERE id = $1 AND url_id = $2', [clickId, url.id])).rows).toEqual([{ bot: false }]);

    expect((await click(url.url, { method: 'HEAD' })).status).toBe(302);
    expect((await click(url.url, { headers: { 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' } })).status).toBe(302);
    const after = (await offers()).find((o) => o.id === offer.id)!;
    expect(after.urls[0]).toMatchObject({ clicks: 1, live: true });
    expect(after.urls[0]!.lastClickAt).not.toBeNull();
    expect((await api.db.query('SELECT count(*)::int AS n FROM skudo_clicks WHERE url_id = $1', [url.id])).rows[0]).toEqual({ n: 3 });
  });

  it('adds skudo_click when the destination has no placeholder', async () => {
    const offer = await createOffer({ title: 'Plain destination' });
    const url = await createUrl(offer.id, { label: 'Mail' });
    expect((await click(url.url)).headers.get('location')).toMatch(/^https:\/\/shop\.example\.com\/trail\?utm=skudo&skudo_click=[0-9a-f-]{36}$/);
  });

  it('answers 404 (10026 for JSON) for an inactive URL, a paused offer, a campaign out of its days, or an unknown code, and counts nothing', async () => {
    const { campaign } = await owner.ok<{ campaign: { id: string } }>('createSkudoCampaign', { name: 'Later', startsOn: '2099-01-01' });
    const later = await createOffer({ title: 'Not yet', campaignId: campaign.id });
    const offer = await createOffer({ title: 'Switching' });
    const url = await createUrl(offer.id, { label: 'Off' });
    const early = await createUrl(later.id, { label: 'Early' });
    expect(early.live).toBe(false);
    expect((await click(early.url)).status).toBe(404);

    await owner.ok('updateSkudoOffer', offerInput({ title: 'Switching', status: 'paused' }), { offerId: offer.id });
    expect((await click(url.url)).status).toBe(404);
    await owner.ok('updateSkudoOffer', offerInput({ title: 'Switching', status: 'active' }), { offerId: offer.id });
    await owner.ok('updateSkudoTrackingUrl', { label: 'Off', active: false }, { trackingUrlId: url.id });
    const json = await click(url.url, { headers: { accept: 'application/json' } });
    expect(json.status).toBe(404);
    expect(await json.json()).toMatchObject({ status: 'KO', code: ErrorCode.SHORT_LINK_NOT_FOUND });
    expect((await fetch(`${api.url}/s/ZZZZZZZZ`, { redirect: 'manual' })).status).toBe(404);
    expect((await api.db.query('SELECT count(*)::int AS n FROM skudo_clicks WHERE url_id = ANY($1)', [[url.id, early.id]])).rows[0]).toEqual({ n: 0 });
  });
});

describe('authorization codes and the partner session', () => {
  let code: SkudoAuthCode;
  let partnerClient: TestClient;

  beforeAll(async () => {
    partnerClient = new TestClient(api.url);
    // The partner's offers: an active one with their URL and a channel URL, and a draft with their URL (hidden).
    const shown = await createOffer({ title: 'Partner offer' });
    await createUrl(shown.id, { partnerId: partner.id });
    await createUrl(shown.id, { label: 'Our newsletter' });
    const draft = await createOffer({ title: 'Draft offer', status: 'draft' });
    await createUrl(draft.id, { partnerId: partner.id });
    code = await newCode();
  });

  it('generates a code valid for 30 minutes, shown as XXXX-XXXX-XXXX, stored only as a hash', async () => {
    expect(code.code).toMatch(/^[2-9A-HJKMNP-TV-Z]{4}-[2-9A-HJKMNP-TV-Z]{4}-[2-9A-HJKMNP-TV-Z]{4}$/);
    const minutes = (Date.parse(code.expiresAt) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(28);
    expect(minutes).toBeLessThanOrEqual(30);
    expect(code.loginUrl).toContain(`/skudo/login?code=${encodeURIComponent(code.code)}`);
    const stored = await api.db.query<{ code_hash: Buffer }>('SELECT code_hash FROM skudo_auth_codes WHERE partner_id = $1', [partner.id]);
    expect(JSON.stringify(stored.rows)).not.toContain(code.code.replaceAll('-', ''));
  });

  it('refuses garbage and unknown codes with 20004, without a session', async () => {
    expect((await partnerClient.call('skudoPartnerLogin', { code: 'nonsense' })).body).toMatchObject({ status: 'KO', code: ErrorCode.SKUDO_AUTH_CODE_INVALID });
    expect((await partnerClient.call('skudoPartnerLogin', { code: 'ABCD-EFGH-JKMN' })).body).toMatchObject({ status: 'KO', code: ErrorCode.SKUDO_AUTH_CODE_INVALID });
    expect(partnerClient.cookies.has(SKUDO_PARTNER_COOKIE)).toBe(false);
    expect((await partnerClient.call('skudoPartnerOffers')).body).toMatchObject({ status: 'KO', code: ErrorCode.ACCESS_TOKEN_INVALID });
  });

  it('signs the partner in once (typed in lower case, without dashes) and shows only their offers and URLs', async () => {
    const signedIn = await partnerClient.call('skudoPartnerLogin', { code: code.code.replaceAll('-', '').toLowerCase() });
    expect(signedIn.body).toMatchObject({ status: 'OK', partner: { name: 'Trail Blog', email: 'blog@example.com' } });
    expect(partnerClient.cookies.has(SKUDO_PARTNER_COOKIE)).toBe(true);
    expect(partnerClient.cookies.has(AUTH_COOKIES.access)).toBe(false);
    const view = await partnerClient.ok<{ offers: SkudoPartnerOffer[] }>('skudoPartnerOffers');
    expect(view.offers.map((o) => o.title)).toEqual(['Partner offer']);
    expect(view.offers[0]!.urls).toEqual([expect.objectContaining({ label: 'Trail Blog', active: true, live: true, clicks: 0 })]);
    expect(JSON.stringify(view)).not.toContain('Our newsletter');

    // Used once: a second sign-in with it is refused.
    expect((await new TestClient(api.url).call('skudoPartnerLogin', { code: code.code })).body).toMatchObject({ code: ErrorCode.SKUDO_AUTH_CODE_INVALID });
    expect((await partner_()).lastSignInAt).not.toBeNull();
  });

  it('keeps the partner session apart from account sessions', async () => {
    // The partner cookie opens no account route...
    expect((await partnerClient.call('skudoOffers')).body).toMatchObject({ code: ErrorCode.ACCESS_TOKEN_MISSING });
    // ...and an account session opens no partner page.
    expect((await owner.call('skudoPartnerOffers')).body).toMatchObject({ code: ErrorCode.ACCESS_TOKEN_INVALID });
  });

  it('refuses an expired code with 20005', async () => {
    const fresh = await newCode();
    await api.db.query("UPDATE skudo_auth_codes SET expires_at = now() - interval '1 second' WHERE partner_id = $1 AND used_at IS NULL", [partner.id]);
    expect((await new TestClient(api.url).call('skudoPartnerLogin', { code: fresh.code })).body).toMatchObject({ status: 'KO', code: ErrorCode.SKUDO_AUTH_CODE_EXPIRED });
  });

  it('voids a code when a newer one is generated', async () => {
    const first = await newCode();
    const second = await newCode();
    expect((await new TestClient(api.url).call('skudoPartnerLogin', { code: first.code })).body).toMatchObject({ code: ErrorCode.SKUDO_AUTH_CODE_INVALID });
    expect((await new TestClient(api.url).call('skudoPartnerLogin', { code: second.code })).body).toMatchObject({ status: 'OK' });
  });

  it('ends the session on sign-out, and every session and code when the partner is suspended', async () => {
    const other = new TestClient(api.url);
    await other.ok('skudoPartnerLogin', { code: (await newCode()).code });
    await other.ok('skudoPartnerLogout');
    expect((await other.call('skudoPartnerOffers')).body).toMatchObject({ code: ErrorCode.ACCESS_TOKEN_INVALID });

    const pending = await newCode();
    await owner.ok('updateSkudoPartner', { name: 'Trail Blog', email: 'blog@example.com', status: 'suspended' }, { partnerId: partner.id });
    expect((await partnerClient.call('skudoPartnerOffers')).body).toMatchObject({ code: ErrorCode.ACCESS_TOKEN_INVALID });
    expect((await new TestClient(api.url).call('skudoPartnerLogin', { code: pending.code })).body).toMatchObject({ code: ErrorCode.SKUDO_AUTH_CODE_INVALID });
    expect((await owner.call('createSkudoAuthCode', undefined, { partnerId: partner.id })).body).toMatchObject({ code: ErrorCode.MANDATORY });
    await owner.ok('updateSkudoPartner', { name: 'Trail Blog', email: 'blog@example.com', status: 'active' }, { partnerId: partner.id });
  });

  it('mails an invitation with a code that signs the partner in', async () => {
    const { partner: invited } = await owner.ok<{ partner: SkudoPartner }>('createSkudoPartner', { name: 'Deals Weekly', email: 'deals@example.com', invite: true });
    const mail = await api.waitForMail('deals@example.com', /skudo\/login\?code=/);
    const mailed = /\n {4}([2-9A-Z]{4}-[2-9A-Z]{4}-[2-9A-Z]{4})\n/.exec(mail.text)?.[1] ?? '';
    const minutes = (await api.db.query<{ m: number }>('SELECT extract(epoch FROM expires_at - created_at) / 60 AS m FROM skudo_auth_codes WHERE partner_id = $1', [invited.id])).rows[0]!.m;
    expect(Number(minutes)).toBe(72 * 60);
    expect((await new TestClient(api.url).call('skudoPartnerLogin', { code: mailed })).body).toMatchObject({ status: 'OK', partner: { name: 'Deals Weekly' } });
  });

  it('deleting a partner ends their session and keeps their URLs, deactivated', async () => {
    const { partner: gone } = await owner.ok<{ partner: SkudoPartner }>('createSkudoPartner', { name: 'Leaving Partner', email: 'leaving@example.com' });
    const offer = await createOffer({ title: 'Kept URL' });
    const url = await createUrl(offer.id, { partnerId: gone.id });
    const session = new TestClient(api.url);
    await session.ok('skudoPartnerLogin', { code: (await newCode(gone.id)).code });
    await owner.ok('deleteSkudoPartner', undefined, { partnerId: gone.id });
    expect((await session.call('skudoPartnerOffers')).body).toMatchObject({ code: ErrorCode.ACCESS_TOKEN_INVALID });
    expect((await offers()).find((o) => o.id === offer.id)!.urls).toEqual([expect.objectContaining({ id: url.id, partnerId: null, label: 'Leaving Partner', active: false })]);
  });
});

async function partner_(): Promise<SkudoPartner> {
  return (await owner.ok<{ partners: SkudoPartner[] }>('skudoPartners')).partners.find((p) => p.id === partner.id)!;
}
