/**
 * SKAdNetwork against real Postgres and the real server: settings with the App Store id unique on
 * the platform and mappings to the app's own campaigns only, the conversion-value schema, the
 * public postback receiver (signature checked with a key made here, SKAN_PUBLIC_KEYS; both
 * addresses; once per transaction and window; a forged postback never counts and cannot take a
 * transaction id first), the postbacks list with its filters and the decoded figures.
 */
import { generateKeyPairSync, randomUUID, sign, type KeyObject } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@gd/shared';
import { SkanPostbackBody, skanSignedString } from '@gd/shared/acquisition/skan';
import type { SkanCampaignFiguresRow, SkanPostbackRow, SkanSettings } from '@gd/shared/schemas/skan';
import { addMember, createTestApp, registerAccount, startTestApi, type TestApi, type TestClient } from '../../testing/harness.ts';

let api: TestApi;
let privateKey: KeyObject;
let owner: TestClient;
let appId: string;
let otherAppId: string;
let campaignA: string;
let campaignB: string;
let foreignCampaign: string;
const storeId = String(1_000_000_000 + Math.floor(Math.random() * 1_000_000_000));
const today = new Date().toISOString().slice(0, 10);
const range = { startDay: today, endDay: today };

beforeAll(async () => {
  const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  privateKey = pair.privateKey;
  api = await startTestApi({ SKAN_PUBLIC_KEYS: JSON.stringify({ '*': pair.publicKey.export({ format: 'der', type: 'spki' }).toString('base64') }) });
  ({ client: owner } = await registerAccount(api));
  appId = (await createTestApp(owner, { os: 'iOS' })).id;
  otherAppId = (await createTestApp(owner, { os: 'iOS' })).id;
  const mine = await campaigns(appId, ['Spring promo', 'Summer promo']);
  campaignA = mine[0]!;
  campaignB = mine[1]!;
  foreignCampaign = (await campaigns(otherAppId, ['Other app promo']))[0]!;
});
afterAll(async () => {
  await api.stop();
});

/** Campaigns straight in the tables of migration 040 (the campaigns API is another piece's). */
async function campaigns(app: string, names: string[]): Promise<string[]> {
  const { rows } = await api.deps.db.query<{ id: string }>(`INSERT INTO acq_sources (app_id, name, type) VALUES ($1, $2, 'adnetwork') RETURNING id`, [app, `Network ${randomUUID().slice(0, 6)}`]);
  const ids: string[] = [];
  for (const name of names) {
    const { rows: c } = await api.deps.db.query<{ id: string }>(`INSERT INTO acq_campaigns (app_id, name, source_id, pricing_model) VALUES ($1, $2, $3, 'cpi') RETURNING id`, [app, name, rows[0]!.id]);
    ids.push(c[0]!.id);
  }
  return ids;
}

function signed(body: Record<string, unknown>, key: KeyObject = privateKey): Record<string, unknown> {
  const text = skanSignedString(SkanPostbackBody.parse(body));
  if (!text.ok) throw new Error('not signable');
  return { ...body, 'attribution-signature': sign('sha256', Buffer.from(text.text, 'utf8'), key).toString('base64') };
}
const postback = (over: Record<string, unknown> = {}) => ({
  version: '4.0', 'ad-network-id': 'net.alpha.skadnetwork', 'source-identifier': '5239', 'app-id': Number(storeId), 'transaction-id': randomUUID(),
  redownload: false, 'source-app-id': 1234567891, 'fidelity-type': 1, 'did-win': true, 'postback-sequence-index': 0, ...over,
});
async function send(body: unknown, path = '/api/skan/v4/postback') {
  const res = await fetch(`${api.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as { status: string; code?: number; stored?: boolean; verified?: boolean; duplicate?: boolean } };
}

describe('settings', () => {
  it('sets the App Store id and maps source identifiers to the app\'s campaigns', async () => {
    const { settings } = await owner.ok<{ settings: SkanSettings }>('updateSkanSettings', {
      appStoreId: storeId,
      mappings: [
        { adNetworkId: 'net.alpha.skadnetwork', sourceIdentifier: '5239', campaignId: campaignA },
        { adNetworkId: 'net.alpha.skadnetwork', sourceIdentifier: '7001', campaignId: campaignB },
      ],
    }, { appId });
    expect(settings.appStoreId).toBe(storeId);
    expect(settings.mappings.map((m) => m.campaignName)).toEqual(['Spring promo', 'Summer promo']);
    expect(settings.endpoints.some((e) => e.endsWith('/.well-known/skadnetwork/report-attribution'))).toBe(true);
  });

  it('a campaign of another app answers 10 like an unknown one, and changes nothing', async () => {
    for (const campaignId of [foreignCampaign, randomUUID()]) {
      const answer = await owner.call('updateSkanSettings', { appStoreId: storeId, mappings: [{ adNetworkId: 'n', sourceIdentifier: '1', campaignId }] }, { appId });
      expect(answer.body).toMatchObject({ status: 'KO', code: ErrorCode.NOT_EXIST, details: [{ path: 'mappings.0.campaignId' }] });
    }
    const { settings } = await owner.ok<{ settings: SkanSettings }>('skanSettings', undefined, { appId });
    expect(settings.mappings).toHaveLength(2);
  });

  it('an App Store id another app has answers 30; bad input 10001', async () => {
    const other = await registerAccount(api);
    const theirs = (await createTestApp(other.client, { os: 'iOS' })).id;
    const taken = await other.client.call('updateSkanSettings', { appStoreId: storeId, mappings: [] }, { appId: theirs });
    expect(taken.body).toMatchObject({ status: 'KO', code: ErrorCode.NAME_DUPLICATED, details: [{ path: 'appStoreId' }] });
    const bad = await owner.call('updateSkanSettings', { appStoreId: 'abc', mappings: [{ adNetworkId: 'n', sourceIdentifier: '12345', campaignId: campaignA }] }, { appId });
    expect(bad.body).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY });
    // Another account cannot read or change this app's settings.
    expect((await other.client.call('skanSettings', undefined, { appId })).body.code).toBe(ErrorCode.NO_PERMISSION);
  });

  it('the conversion-value schema: stored, refused when a value is mapped twice', async () => {
    const schema = {
      currency: 'USD',
      fine: [{ value: 63, events: ['register', 'transaction'], revenueMin: 20, revenueMax: 50 }, { value: 1, events: ['register'] }],
      coarse: [{ window: 1, value: 'high', events: ['transaction'], revenueMin: 10, revenueMax: 30 }],
    };
    const { settings } = await owner.ok<{ settings: SkanSettings }>('updateSkanSchema', schema, { appId });
    expect(settings.schema.fine).toHaveLength(2);
    const twice = await owner.call('updateSkanSchema', { fine: [{ value: 2 }, { value: 2 }] }, { appId });
    expect(twice.body).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY });
  });

  it('a provider sees the screen but may not change it', async () => {
    const provider = await addMember(api, owner, 'provider');
    await provider.ok('skanSettings', undefined, { appId });
    expect((await provider.call('updateSkanSchema', { fine: [] }, { appId })).body.code).toBe(ErrorCode.NO_PERMISSION);
  });
});

describe('the postback receiver', () => {
  it('stores a signed postback once, verified, at both addresses', async () => {
    const body = signed(postback({ 'conversion-value': 63 }));
    expect(await send(body)).toEqual({ status: 200, body: { status: 'OK', stored: true, verified: true, duplicate: false } });
    expect((await send(body)).body).toMatchObject({ stored: false, duplicate: true });
    expect((await send(body, '/.well-known/skadnetwork/report-attribution')).body).toMatchObject({ duplicate: true });
    const copy = signed(postback({ 'postback-sequence-index': 1, 'conversion-value': undefined, 'coarse-conversion-value': 'high' }));
    expect((await send(copy, '/.well-known/skadnetwork/report-attribution')).body).toMatchObject({ stored: true, verified: true });
  });

  it('keeps forged postbacks as rejected; the genuine one then takes their place', async () => {
    const genuine = signed(postback({ 'source-identifier': '7001', 'conversion-value': 1 }));
    const forged = { ...genuine, 'conversion-value': 63, 'source-identifier': '5239' };
    expect((await send(forged)).body).toMatchObject({ stored: true, verified: false });
    const wrongKey = signed(postback(), generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey);
    expect((await send(wrongKey)).body).toMatchObject({ stored: true, verified: false });
    expect((await send(genuine)).body).toMatchObject({ stored: true, verified: true, duplicate: false });
    const { rows } = await api.deps.db.query('SELECT verified, source_identifier, fine_value FROM skan_postbacks WHERE app_id = $1 AND transaction_id = $2', [appId, genuine['transaction-id']]);
    expect(rows).toEqual([{ verified: true, source_identifier: '7001', fine_value: 1 }]);
  });

  it('an unknown App Store id stores nothing; a body that is no postback answers 10001', async () => {
    expect((await send(signed(postback({ 'app-id': 42 })))).body).toEqual({ status: 'OK', stored: false, verified: false, duplicate: false });
    expect(await send({ hello: 'world' })).toMatchObject({ status: 400, body: { status: 'KO', code: ErrorCode.MANDATORY } });
    expect(await send('{not json')).toMatchObject({ status: 400, body: { status: 'KO', code: ErrorCode.MANDATORY } });
    expect((await send(postback({ 'conversion-value': 64, 'attribution-signature': 'MEUC' }))).body.code).toBe(ErrorCode.MANDATORY);
  });
});

describe('postbacks and figures', () => {
  it('lists postbacks newest first with filters, decoded with the schema', async () => {
    const all = await owner.ok<{ postbacks: SkanPostbackRow[]; total: number }>('skanPostbacks', undefined, { appId }, range);
    // The fine one, its window-1 postback, the genuine one that replaced its forgery, the wrong key's.
    expect(all.total).toBe(4);
    const rejected = await owner.ok<{ postbacks: SkanPostbackRow[]; total: number }>('skanPostbacks', undefined, { appId }, { ...range, verified: false });
    expect(rejected.postbacks.map((p) => p.rejectReason)).toEqual(['bad_signature']);
    const window1 = await owner.ok<{ postbacks: SkanPostbackRow[] }>('skanPostbacks', undefined, { appId }, { ...range, window: '1' });
    expect(window1.postbacks).toHaveLength(1);
    expect(window1.postbacks[0]).toMatchObject({ window: 1, coarseValue: 'high', campaignName: 'Spring promo', events: ['transaction'], revenueMin: 10, revenueMax: 30 });
    const fine = all.postbacks.find((p) => p.fineValue === 63);
    expect(fine).toMatchObject({ verified: true, campaignId: campaignA, events: ['register', 'transaction'], revenueMin: 20, revenueMax: 50 });
    const views = await owner.ok<{ total: number }>('skanPostbacks', undefined, { appId }, { ...range, fidelity: '0' });
    expect(views.total).toBe(0);
  });

  it('adds up verified winning postbacks per campaign and window; a non-winning one is listed, not counted', async () => {
    const loser = signed(postback({ 'did-win': false, 'source-app-id': undefined, 'source-identifier': '39' }));
    expect((await send(loser)).body).toMatchObject({ verified: true });
    const { campaigns: figures, rejected, currency } = await owner.ok<{ campaigns: SkanCampaignFiguresRow[]; rejected: number; currency: string }>('skanFigures', undefined, { appId }, range);
    expect(currency).toBe('USD');
    expect(rejected).toBe(1);
    expect(figures.map((f) => f.campaignName)).toEqual(['Spring promo', 'Summer promo']);
    const [spring, summer] = figures;
    expect(spring!.windows[0]).toMatchObject({ postbacks: 1, installs: 1, fine: 1, events: { register: 1, transaction: 1 }, revenueMin: 20, revenueMax: 50 });
    expect(spring!.windows[1]).toMatchObject({ postbacks: 1, installs: 0, coarse: 1, events: { transaction: 1 }, revenueMin: 10, revenueMax: 30 });
    expect(summer!.windows[0]).toMatchObject({ installs: 1, events: { register: 1 } });
  });

  it('another app of the account sees none of them', async () => {
    const { total } = await owner.ok<{ total: number }>('skanPostbacks', undefined, { appId: otherAppId }, range);
    expect(total).toBe(0);
  });
});
