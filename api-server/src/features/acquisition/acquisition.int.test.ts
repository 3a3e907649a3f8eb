/**
 * The apptracker: campaigns, sources, channels, account providers with members (the provider
 * view's restriction), the ad provider catalogue (20003 with active links), the CSV download and
 * the fraud export against the pure rule of shared acquisition/fraud.ts.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@gd/shared';
import { flagClicks, type FraudClick } from '@gd/shared/acquisition/fraud';
import type { AccountProvider, AdProvider, Campaign, Channel, ProviderViewInfo, Source } from '@gd/shared/schemas/acquisition';
import type { CampaignFigures } from '@gd/shared/acquisition/metrics';
import { recordClicks } from '../links/clicks.ts';
import { addMember, createTestApp, registerAccount, startTestApi, type TestApi, type TestClient } from '../../testing/harness.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.stop();
});

const today = () => new Date().toISOString().slice(0, 10);
const count = async (sql: string, values: unknown[]) => Number((await api.deps.db.query<{ n: string }>(sql, values)).rows[0]?.n);

async function setup() {
  const owner = await registerAccount(api);
  const app = await createTestApp(owner.client);
  const params = { appId: app.id };
  const { source } = await owner.client.ok<{ source: Source }>('createSource', { name: 'Meta', type: 'adnetwork' }, params);
  return { ...owner, app, params, source };
}

const campaignBody = (sourceId: string, extra: Record<string, unknown> = {}) => ({ name: 'Spring', sourceId, pricingModel: 'cpi', costValue: 1.5, ...extra });

/** A live link of a campaign, written as the link feature stores it. */
async function addLink(appId: string, campaignId: string) {
  const code = randomUUID().slice(0, 10);
  const { rows } = await api.deps.db.query<{ id: string }>(
    "INSERT INTO acq_links (app_id, campaign_id, kind, name, code) VALUES ($1, $2, 'tracking', 'link', $3) RETURNING id", [appId, campaignId, code]);
  return rows[0]!.id;
}

async function csv(client: TestClient, path: string): Promise<{ status: number; type: string | null; rows: string[][] }> {
  const res = await fetch(`${api.url}/api${path}`, { headers: { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
  const text = await res.text();
  return { status: res.status, type: res.headers.get('content-type'), rows: text.trim().split('\r\n').map((l) => l.split(',')) };
}

describe('campaigns, sources and channels', () => {
  it('creates, lists with figures, edits, clones and deletes campaigns; names are unique; defaults hold', async () => {
    const { client, app, params, source } = await setup();
    expect(source).toMatchObject({ attribution: 'last_click', lookbackDays: 7, reattributionDays: 90, fingerprint: true, campaigns: 0 });
    const { channel } = await client.ok<{ channel: Channel }>('createChannel', { name: 'Paid social' }, params);
    const { campaign } = await client.ok<{ campaign: Campaign }>('createCampaign', campaignBody(source.id, { channelId: channel.id, deepLink: 'shop://spring' }), params);
    expect(campaign).toMatchObject({ name: 'Spring', sourceName: 'Meta', sourceType: 'adnetwork', channelName: 'Paid social', pricingModel: 'cpi', costValue: 1.5, currency: 'USD', status: 'active', activeLinks: 0 });
    expect((await client.call('createCampaign', campaignBody(source.id, { name: 'SPRING' }), params)).body.code).toBe(ErrorCode.NAME_DUPLICATED);
    const cpa = await client.call('createCampaign', campaignBody(source.id, { name: 'Pay per sale', pricingModel: 'cpa' }), params);
    expect(cpa.body).toMatchObject({ code: ErrorCode.MANDATORY, details: [expect.objectContaining({ path: 'costEvent' })] });

    // Clicks through the link host's writer: the list's figures count them over the range.
    const linkId = await addLink(app.id, campaign.id);
    await recordClicks(api.deps.db, [1, 2, 3].map((i) => ({ appId: app.id, linkId, campaignId: campaign.id, sourceId: source.id, platform: 'android' as const, ip: `203.0.113.${i}` })));
    const listed = await client.ok<{ campaigns: Campaign[]; figures: Record<string, CampaignFigures> }>('campaigns', undefined, params, { startDay: today(), endDay: today() });
    expect(listed.campaigns.map((c) => c.name)).toEqual(['Spring']);
    expect(listed.figures[campaign.id]).toMatchObject({ clicks: 3, installs: 0, cost: 0 });
    expect((await client.ok<{ figures: Record<string, unknown> }>('campaigns', undefined, params)).figures).toEqual({});

    const { campaign: copy } = await client.ok<{ campaign: Campaign }>('cloneCampaign', { name: 'Spring (copy)' }, { ...params, campaignId: campaign.id });
    expect(copy).toMatchObject({ name: 'Spring (copy)', sourceId: source.id, channelId: channel.id, deepLink: 'shop://spring', activeLinks: 0 });
    const { campaign: archived } = await client.ok<{ campaign: Campaign }>('updateCampaign', campaignBody(source.id, { name: 'Spring (copy)', status: 'archived', pricingModel: 'fixed', costValue: 700 }), { ...params, campaignId: copy.id });
    expect(archived).toMatchObject({ status: 'archived', pricingModel: 'fixed', costValue: 700, channelId: null });
    const names = async (scope: string) => (await client.ok<{ campaigns: Campaign[] }>('campaigns', undefined, params, { scope })).campaigns.map((c) => c.name);
    expect(await names('current')).toEqual(['Spring']);
    expect(await names('all')).toEqual(['Spring', 'Spring (copy)']);

    // The channel goes, its campaigns stay without it; a source with campaigns stays.
    await client.ok('deleteChannel', undefined, { ...params, channelId: channel.id });
    expect((await client.ok<{ campaign: Campaign }>('campaign', undefined, { ...params, campaignId: campaign.id })).campaign.channelId).toBeNull();
    const inUse = await client.call('deleteSource', undefined, { ...params, sourceId: source.id });
    expect(inUse.httpStatus).toBe(409);

    // Deleting a campaign stops its links in the same transaction.
    await client.ok('deleteCampaign', undefined, { ...params, campaignId: campaign.id });
    expect(await count('SELECT count(*) AS n FROM acq_links WHERE id = $1 AND active', [linkId])).toBe(0);
    expect((await client.call('campaign', undefined, { ...params, campaignId: campaign.id })).body.code).toBe(ErrorCode.NOT_EXIST);
  });

  it('answers ids of another app as unknown ones and changes nothing; refuses "Organic" as a source name', async () => {
    const { client, params, source, app } = await setup();
    const other = await createTestApp(client);
    const { campaign } = await client.ok<{ campaign: Campaign }>('createCampaign', campaignBody(source.id), params);
    const { source: otherSource } = await client.ok<{ source: Source }>('createSource', { name: 'Other', type: 'inbound' }, { appId: other.id });
    const onOther = { appId: other.id, campaignId: campaign.id };
    expect((await client.call('campaign', undefined, onOther)).body.code).toBe(ErrorCode.NOT_EXIST);
    expect((await client.call('updateCampaign', campaignBody(otherSource.id, { name: 'Hijack' }), onOther)).body.code).toBe(ErrorCode.NOT_EXIST);
    expect((await client.call('deleteCampaign', undefined, onOther)).body.code).toBe(ErrorCode.NOT_EXIST);
    const foreignSource = await client.call('createCampaign', campaignBody(otherSource.id, { name: 'Cross' }), params);
    expect(foreignSource.body).toMatchObject({ code: ErrorCode.NOT_EXIST, details: [{ path: 'sourceId', message: 'not_found' }] });
    expect((await client.ok<{ campaign: Campaign }>('campaign', undefined, { ...params, campaignId: campaign.id })).campaign.name).toBe('Spring');
    expect(await count('SELECT count(*) AS n FROM acq_campaigns WHERE app_id = $1', [app.id])).toBe(1);
    expect((await client.call('createSource', { name: 'organic', type: 'custom' }, params)).body.code).toBe(ErrorCode.MANDATORY);
    const stranger = await registerAccount(api);
    expect((await stranger.client.call('campaigns', undefined, params)).body.code).toBe(ErrorCode.NO_PERMISSION);
  });
});

describe('providers', () => {
  it('ties members to an account provider: they see only its campaigns; deleting it with active links gives 20003', async () => {
    const { client, params, app, accountId, source } = await setup();
    const { providers: catalogue } = await client.ok<{ providers: AdProvider[] }>('adProviderCatalogue');
    expect(new Set(catalogue.map((p) => p.kind))).toEqual(new Set(['social', 'search', 'appStoreSearch', 'shortVideo', 'dating', 'petal', 'tradeDesk', 'microsoft', 'retail', 'other']));
    const tiktok = catalogue.find((p) => p.kind === 'shortVideo')!;
    const member = await addMember(api, client, 'provider');
    const { provider } = await client.ok<{ provider: AccountProvider }>('createAccountProvider', {
      name: 'TikTok (our account)', kind: 'shortVideo', adProviderId: tiktok.id, memberIds: [member.userId],
      installPostbackUrl: 'https://ads.example.com/pb?click={click_id}&t={unix_time}',
    }, undefined);
    expect(provider).toMatchObject({ adProviderName: tiktok.name, postbackMethod: 'POST', active: true, members: [expect.objectContaining({ userId: member.userId })] });
    const privateUrl = await client.call('createAccountProvider', { name: 'Inside', kind: 'other', installPostbackUrl: 'http://10.0.0.5/pb?c={click_id}' });
    expect(privateUrl.body).toMatchObject({ code: ErrorCode.MANDATORY, details: [expect.objectContaining({ path: 'installPostbackUrl' })] });

    const { source: tiktokSource } = await client.ok<{ source: Source }>('createSource', { name: 'TikTok', type: 'adnetwork', accountProviderId: provider.id }, params);
    const { campaign: theirs } = await client.ok<{ campaign: Campaign }>('createCampaign', campaignBody(tiktokSource.id, { name: 'Videos' }), params);
    const { campaign: ours } = await client.ok<{ campaign: Campaign }>('createCampaign', campaignBody(source.id, { name: 'Own' }), params);

    const view = await member.ok<{ view: ProviderViewInfo }>('providerView', undefined, params);
    expect(view.view).toEqual({ memberOf: { id: provider.id, name: provider.name }, providers: [{ id: provider.id, name: provider.name, kind: 'shortVideo' }] });
    expect((await member.ok<{ campaigns: Campaign[] }>('campaigns', undefined, params)).campaigns.map((c) => c.id)).toEqual([theirs.id]);
    expect((await member.call('campaign', undefined, { ...params, campaignId: ours.id })).body.code).toBe(ErrorCode.NOT_EXIST);
    expect((await member.ok<{ sources: Source[] }>('sources', undefined, params)).sources.map((s) => s.id)).toEqual([tiktokSource.id]);
    expect((await member.ok<{ providers: AccountProvider[] }>('accountProviders')).providers.map((p) => p.id)).toEqual([provider.id]);
    expect((await member.call('createCampaign', campaignBody(tiktokSource.id, { name: 'Mine' }), params)).body.code).toBe(ErrorCode.NO_PERMISSION);
    // Everyone else picks a provider.
    const ownerView = await client.ok<{ view: ProviderViewInfo }>('providerView', undefined, params);
    expect(ownerView.view.memberOf).toBeNull();
    expect((await client.ok<{ campaigns: Campaign[] }>('campaigns', undefined, params, { accountProviderId: provider.id })).campaigns.map((c) => c.name)).toEqual(['Videos']);

    await addLink(app.id, theirs.id);
    const refused = await client.call('deleteAccountProvider', undefined, { providerId: provider.id });
    expect(refused.body.code).toBe(ErrorCode.PROVIDER_HAS_ACTIVE_URLS);
    expect(await count('SELECT count(*) AS n FROM account_providers WHERE id = $1 AND deleted_at IS NULL', [provider.id])).toBe(1);
    await client.ok('deleteCampaign', undefined, { ...params, campaignId: theirs.id });
    await client.ok('deleteAccountProvider', undefined, { providerId: provider.id });
    expect(await count('SELECT count(*) AS n FROM provider_members WHERE user_id = $1', [member.userId])).toBe(0);
    const stranger = await registerAccount(api);
    expect((await stranger.client.call('updateAccountProvider', { name: 'x', kind: 'other' }, { providerId: provider.id })).body.code).toBe(ErrorCode.NOT_EXIST);
    expect(await count('SELECT count(*) AS n FROM account_providers WHERE account_id = $1', [accountId])).toBe(1);
  });

  it('keeps the catalogue for platform administrators; deleting an entry whose account providers have active links gives 20003', async () => {
    const { client, params, app, userId } = await setup();
    expect((await client.call('adProviders')).body.code).toBe(ErrorCode.NO_PERMISSION);
    await api.deps.db.query("UPDATE user_roles SET grants = grants || '{route:/admin/providers}' WHERE id = (SELECT role_id FROM users WHERE id = $1)", [userId]);
    const name = `Ads ${randomUUID().slice(0, 6)}`;
    const { provider: entry } = await client.ok<{ provider: AdProvider }>('createAdProvider', { kind: 'retail', name, website: 'https://ads.example.com' });
    expect((await client.call('createAdProvider', { kind: 'other', name: name.toUpperCase() })).body.code).toBe(ErrorCode.NAME_DUPLICATED);
    const { provider: renamed } = await client.ok<{ provider: AdProvider }>('updateAdProvider', { kind: 'retail', name: `${name} 2`, eventPostbackUrl: 'https://ads.example.com/e?o={order_id}&a={amount}' }, { adProviderId: entry.id });
    expect(renamed).toMatchObject({ name: `${name} 2`, website: null, eventPostbackUrl: 'https://ads.example.com/e?o={order_id}&a={amount}', accounts: 0 });
    const { provider } = await client.ok<{ provider: AccountProvider }>('createAccountProvider', { name: 'Retail', kind: 'retail', adProviderId: entry.id });
    const { source } = await client.ok<{ source: Source }>('createSource', { name: 'Retail', type: 'adnetwork', accountProviderId: provider.id }, params);
    const { campaign } = await client.ok<{ campaign: Campaign }>('createCampaign', campaignBody(source.id, { name: 'Retail ads' }), params);
    const linkId = await addLink(app.id, campaign.id);
    expect((await client.call('deleteAdProvider', undefined, { adProviderId: entry.id })).body.code).toBe(ErrorCode.PROVIDER_HAS_ACTIVE_URLS);
    await api.deps.db.query('UPDATE acq_links SET active = false WHERE id = $1', [linkId]);
    await client.ok('deleteAdProvider', undefined, { adProviderId: entry.id });
    expect((await client.ok<{ providers: AdProvider[] }>('adProviders')).providers.some((p) => p.id === entry.id)).toBe(false);
    expect((await client.call('deleteAdProvider', undefined, { adProviderId: entry.id })).body.code).toBe(ErrorCode.NOT_EXIST);
  });
});

describe('download and fraud export', () => {
  it('downloads the list with figures and exports the clicks and installs the fraud rules flag', async () => {
    const { client, params, app, source } = await setup();
    const { campaign } = await client.ok<{ campaign: Campaign }>('createCampaign', campaignBody(source.id), params);
    const linkId = await addLink(app.id, campaign.id);
    const start = Date.now() - 2 * 3600_000;
    const base = { appId: app.id, linkId, campaignId: campaign.id, sourceId: source.id, platform: 'ios' as const };
    const rows = [
      ...Array.from({ length: 12 }, (_, i) => ({ ...base, clickedAt: new Date(start + i * 60_000), ip: '198.51.100.9' })),
      ...Array.from({ length: 3 }, (_, i) => ({ ...base, clickedAt: new Date(start + i * 1000), ip: `192.0.2.${i + 1}`, idfa: 'IDFA-X' })),
      { ...base, clickedAt: new Date(start), ip: '192.0.2.50', bot: true, botReason: 'prefetch' },
    ];
    const ids = await recordClicks(api.deps.db, rows);
    // An install 3 s after its click, attributed to it.
    const fast = ids[12]!;
    await api.deps.db.query(
      `INSERT INTO acq_attributions (app_id, kind, event_time, person_id, device_id, campaign_id, source_id, click_id, clicked_at, match, mode)
       VALUES ($1, 'install', $2, 1, 1, $3, $4, $5, $6, 'device_id', 'last_click')`,
      [app.id, new Date(start + 3000), campaign.id, source.id, fast, new Date(start)],
    );
    const day = new Date(start).toISOString().slice(0, 10);
    const endDay = today();
    const fraud = await csv(client, `/apps/${app.id}/acquisition/fraud.csv?startDay=${day}&endDay=${endDay}`);
    expect(fraud.status).toBe(200);
    expect(fraud.type).toContain('text/csv');
    expect(fraud.rows[0]).toEqual(['kind', 'time', 'campaign', 'source', 'reasons', 'detail', 'click_id', 'ip', 'device_id', 'platform', 'user_agent']);
    const flaggedClicks = new Map(fraud.rows.slice(1).filter((r) => r[0] === 'click').map((r) => [r[6]!, r[4]!.split(' ')]));
    const expected = flagClicks(rows.map((r, i): FraudClick => ({ id: ids[i]!, at: r.clickedAt.getTime(), ip: r.ip, idfa: 'idfa' in r ? String(r.idfa) : null, bot: 'bot' in r && r.bot === true })));
    expect(Object.fromEntries(flaggedClicks)).toEqual(Object.fromEntries(expected));
    expect(expected.size).toBe(3); // the 11th and 12th click of one IP, and the bot
    const installs = fraud.rows.slice(1).filter((r) => r[0] === 'install');
    expect(installs).toEqual([expect.arrayContaining(['install', 'ctit_short', '3.0', fast])]);

    const download = await csv(client, `/apps/${app.id}/acquisition/campaigns.csv?startDay=${day}&endDay=${endDay}&scope=all`);
    expect(download.rows[0]?.slice(0, 3)).toEqual(['campaign', 'source', 'source_type']);
    const header = download.rows[0]!;
    const row = download.rows[1]!;
    expect(row[0]).toBe('Spring');
    expect(row[header.indexOf('clicks')]).toBe('15');
    expect(row[header.indexOf('installs')]).toBe('1');
    const analyst = await addMember(api, client, 'analyst');
    const denied = await fetch(`${api.url}/api/apps/${app.id}/acquisition/fraud.csv?startDay=${day}&endDay=${endDay}`, { headers: { cookie: [...analyst.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
    expect(((await denied.json()) as { code: number }).code).toBe(ErrorCode.NO_PERMISSION);
  });
});
