/**
 * Audience sharing through the real API and the real share runs, against loopback servers that
 * speak each platform's documented upload API (testing/platforms): Meta custom audiences, Google
 * Ads Customer Match (OfflineUserDataJobService) and The Trade Desk Data API. Per platform: the
 * first upload (platform audience created, identifiers normalised and hashed, batches), a refresh
 * that adds and removes members (only the change is sent), and a failure that leaves the share and
 * the audience `error` with the reason and is retried after the next refresh. Then the routes'
 * refusals (codes, nothing written), "sync now", stopping a share, and the loop of the process.
 *
 * Runs go through `syncDueShares` with a batch size of 2 (the server's own loop is off here, so
 * each run is the test's), except the last test, which turns the loop on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { ErrorCode, type IntegrationService } from '@gd/shared';
import { addMember, createTestApp, registerAccount, startTestApi, type TestApi, type TestClient } from '../../testing/harness.ts';
import { startMetaPlatform, type MetaFixture } from '../../testing/platforms/meta.ts';
import { startGoogleAdsPlatform, type GoogleAdsFixture } from '../../testing/platforms/googleAds.ts';
import { startTradeDeskPlatform, type TradeDeskFixture } from '../../testing/platforms/tradeDesk.ts';
import { createConnectedIntegration } from '../integrations/testing.ts';
import { seeder, single } from '../segments/testing/data.ts';
import { syncDueShares, type ShareDeps } from './run.ts';

interface Share { id: string; status: string; errorCode: number | null; errorMessage: string | null; platformAudienceId: string | null; uploadedCount: number; skippedCount: number; lastAdded: number | null; lastRemoved: number | null }
interface Audience { id: string; status: string; errorName: string | null; errorMessage: string | null; personCount: number | null }

const sha = (v: string) => createHash('sha256').update(v).digest('hex');
const META_TOKEN = 'meta-access-token';
const GOOGLE_TOKEN = 'google-access-token';
const TTD_KEY = 'ttd-secret-key';

let api: TestApi;
let owner: Awaited<ReturnType<typeof registerAccount>>;
let appId: string;
let deps: ShareDeps;
let meta: MetaFixture;
let google: GoogleAdsFixture;
let ttd: TradeDeskFixture;
let s: ReturnType<typeof seeder>;

const p = (extra: Record<string, string> = {}) => ({ appId, ...extra });
const run = () => syncDueShares(deps);

async function integration(service: IntegrationService, config: Record<string, unknown>, secrets: Record<string, string>) {
  return createConnectedIntegration(api.db, api.deps.secret, { accountId: owner.accountId, appId, service, config, secrets, name: `${service} ${randomUUID().slice(0, 6)}` });
}

/** A person of `country` with the identifiers given (phone in the profile attribute, ad ids on a device). */
async function person(country: string, ids: { email?: string; phone?: string; idfa?: string; gaid?: string; customerId?: string }) {
  const id = await s.person({ customer_id: ids.customerId ?? `c-${randomUUID()}`, email: ids.email ?? null, country });
  if (ids.phone) await api.db.query(`UPDATE people SET attributes = jsonb_build_object('phone', $3::text) WHERE app_id = $1 AND id = $2`, [appId, id, ids.phone]);
  if (ids.idfa || ids.gaid) {
    const key = `dev-${randomUUID()}`;
    await s.device(id, { key });
    await api.db.query('UPDATE devices SET idfa = $3, gaid = $4 WHERE app_id = $1 AND device_key = $2', [appId, key, ids.idfa ?? null, ids.gaid ?? null]);
  }
  return id;
}
const moveTo = (id: string, country: string) => api.db.query('UPDATE people SET country = $3 WHERE app_id = $1 AND id = $2', [appId, id, country]);

async function audienceOf(country: string): Promise<Audience> {
  return (await owner.client.ok<{ audience: Audience }>('createAudience', { name: `People of ${country} ${randomUUID().slice(0, 6)}`, source: { from: 'definition', segment: single({ type: 'attribute', id: 'country', condition: 'equals', input: country }) } }, p())).audience;
}
const getAudience = async (id: string) => (await owner.client.ok<{ audience: Audience }>('getAudience', undefined, p({ audienceId: id }))).audience;
const shares = async (audienceId: string) => (await owner.client.ok<{ shares: Share[] }>('audienceShares', undefined, p({ audienceId }))).shares;
const share = async (audienceId: string, integrationId: string, platformAudienceId?: string) =>
  (await owner.client.ok<{ share: Share }>('createAudienceShare', { integrationId, ...(platformAudienceId ? { platformAudienceId } : {}) }, p({ audienceId }))).share;
const refresh = (audienceId: string) => owner.client.ok('refreshAudience', undefined, p({ audienceId }));

beforeAll(async () => {
  api = await startTestApi({ OUTGOING_ALLOW_LOOPBACK: '127.0.0.1' });
  deps = { db: api.db, config: api.deps.config, log: pino({ level: 'silent' }), secret: api.deps.secret, batchSize: 2 };
  owner = await registerAccount(api);
  appId = (await createTestApp(owner.client)).id;
  s = seeder(api.db, appId);
  [meta, google, ttd] = await Promise.all([
    startMetaPlatform({ accessToken: META_TOKEN, adAccounts: ['1234567'] }),
    startGoogleAdsPlatform({ accessToken: GOOGLE_TOKEN, developerToken: 'dev-token', customers: ['1234567890'] }),
    startTradeDeskPlatform({ advertiserId: 'adv42', secretKey: TTD_KEY }),
  ]);
});
afterAll(async () => {
  await Promise.all([meta.close(), google.close(), ttd.close()]);
  await api.stop();
});

const IDFA = '6D92078A-8246-4BA4-AE5B-76104861E7DC';
const GAID_1 = '38400000-8cf0-11bd-b23e-10b96e40000d';
const GAID_2 = '9f2b1c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d';
const GAID_3 = 'aa11bb22-cc33-4d44-8e55-ff6677889900';

describe('Meta custom audiences', () => {
  let audienceId: string;
  let platformId: string;
  const people: Record<string, string> = {};

  it('first upload: the custom audience is made, members hashed as Meta asks, in batches; the audience is `sync` while it runs', async () => {
    people.ana = await person('ES', { email: ' Ana@Example.com ', phone: '+34 600 111 222', idfa: IDFA, customerId: 'ana-1' });
    people.bea = await person('ES', { email: 'bea@example.com', customerId: 'bea-1' });
    people.cid = await person('ES', { phone: '0034 611 222 333', customerId: 'cid-1' });
    people.dan = await person('ES', { customerId: '   ' }); // nothing to match on
    await person('FR', { email: 'outsider@example.com' });
    audienceId = (await audienceOf('ES')).id;
    const integrationId = await integration('meta_ads', { baseUrl: meta.baseUrl, adAccountId: 'act_1234567' }, { accessToken: META_TOKEN, refreshToken: 'r', clientSecret: 'c' });
    expect(await share(audienceId, integrationId)).toMatchObject({ status: 'sync', platformAudienceId: null, uploadedCount: 0 });

    meta.hold();
    const before = meta.requests.length;
    const running = run();
    await meta.arrived(before + 1);
    expect((await getAudience(audienceId)).status).toBe('sync');
    meta.release();
    await running;

    const [done] = await shares(audienceId);
    expect(done).toMatchObject({ status: 'ready', errorCode: null, uploadedCount: 3, skippedCount: 1, lastAdded: 3, lastRemoved: 0 });
    expect((await getAudience(audienceId)).status).toBe('ready');
    platformId = done!.platformAudienceId!;
    expect(meta.audiences.get(platformId)?.adAccountId).toBe('1234567');
    expect(meta.audiences.get(platformId)?.name).toContain('People of ES');
    const create = meta.requests[before]!;
    expect(create.path).toBe('/v19.0/act_1234567/customaudiences');
    expect(JSON.parse(create.body)).toMatchObject({ subtype: 'CUSTOM', customer_file_source: 'USER_PROVIDED_ONLY' });
    expect(meta.users(platformId)).toEqual([
      { EMAIL: '', PHONE: sha('34611222333'), MADID: '', EXTERN_ID: sha('cid-1') },
      { EMAIL: sha('ana@example.com'), PHONE: sha('34600111222'), MADID: IDFA.toLowerCase(), EXTERN_ID: sha('ana-1') },
      { EMAIL: sha('bea@example.com'), PHONE: '', MADID: '', EXTERN_ID: sha('bea-1') },
    ].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))));
    // 4 new members in pages of 2 people: one request per page (the person with nothing is not sent).
    const uploads = meta.requests.slice(before).filter((r) => r.path.endsWith('/users'));
    expect(uploads.map((r) => [r.method, r.headers.authorization, (JSON.parse(r.body) as { payload: { schema: string[]; data: unknown[] } }).payload.data.length])).toEqual([
      ['POST', `Bearer ${META_TOKEN}`, 2], ['POST', `Bearer ${META_TOKEN}`, 1],
    ]);
    expect(JSON.parse(uploads[0]!.body)).toMatchObject({ payload: { schema: ['EMAIL', 'PHONE', 'MADID', 'EXTERN_ID'] }, session: { batch_seq: 1, last_batch_flag: true, estimated_num_total: 2 } });
  });

  it('a refresh that adds and removes members sends only the change', async () => {
    await moveTo(people.bea!, 'FR');
    people.eva = await person('ES', { email: 'eva@example.com' });
    await refresh(audienceId);
    const before = meta.requests.length;
    await run();
    const sent = meta.requests.slice(before);
    expect(sent.map((r) => [r.method, (JSON.parse(r.body) as { payload: { data: string[][] } }).payload.data])).toEqual([
      ['DELETE', [[sha('bea@example.com'), '', '', sha('bea-1')]]],
      ['POST', [[sha('eva@example.com'), '', '', sha(`${(await api.db.query<{ c: string }>('SELECT customer_id AS c FROM people WHERE app_id = $1 AND id = $2', [appId, people.eva])).rows[0]!.c}`)]]],
    ]);
    expect(meta.users(platformId).map((u) => u.EMAIL)).toEqual(expect.arrayContaining([sha('ana@example.com'), sha('eva@example.com')]));
    expect(meta.users(platformId).map((u) => u.EMAIL)).not.toContain(sha('bea@example.com'));
    expect((await shares(audienceId))[0]).toMatchObject({ status: 'ready', uploadedCount: 3, lastAdded: 1, lastRemoved: 1 });
  });

  it('a platform failure leaves the share and the audience `error` with the reason, kept members, and is retried after the next refresh', async () => {
    meta.fail({ status: 500, body: { error: { message: 'An unexpected error has occurred. Please retry your request later.', type: 'OAuthException', code: 2, is_transient: true } } });
    people.fay = await person('ES', { email: 'fay@example.com' });
    await refresh(audienceId);
    await run();
    const [failed] = await shares(audienceId);
    expect(failed).toMatchObject({ status: 'error', errorCode: ErrorCode.OAUTH_ERROR, uploadedCount: 3 });
    expect(failed!.errorMessage).toContain('Please retry your request later');
    const audience = await getAudience(audienceId);
    expect(audience).toMatchObject({ status: 'error', errorName: 'RecoverableTaskError' });
    expect(audience.errorMessage).toContain('Please retry your request later');
    expect(meta.users(platformId).map((u) => u.EMAIL)).not.toContain(sha('fay@example.com'));
    // Not retried before the audience changes again.
    const quiet = meta.requests.length;
    expect(await run()).toBe(0);
    expect(meta.requests.length).toBe(quiet);

    meta.heal();
    await refresh(audienceId);
    expect((await getAudience(audienceId)).status).toBe('ready');
    await run();
    expect((await shares(audienceId))[0]).toMatchObject({ status: 'ready', errorCode: null, errorMessage: null, uploadedCount: 4, lastAdded: 1 });
    expect(meta.users(platformId).map((u) => u.EMAIL)).toContain(sha('fay@example.com'));
    expect((await getAudience(audienceId)).status).toBe('ready');
  });

  it('a token Meta refuses is an error with the service\'s code', async () => {
    const audience = await audienceOf('ES');
    const integrationId = await integration('meta_ads', { baseUrl: meta.baseUrl, adAccountId: '1234567' }, { accessToken: 'revoked', refreshToken: 'r', clientSecret: 'c' });
    await share(audience.id, integrationId);
    await run();
    const [failed] = await shares(audience.id);
    expect(failed).toMatchObject({ status: 'error', errorCode: ErrorCode.OAUTH_ERROR, platformAudienceId: null });
    expect(failed!.errorMessage).toContain('Invalid OAuth access token');
  });

  it('an ad account the token does not reach answers 13', async () => {
    const audience = await audienceOf('ES');
    const integrationId = await integration('meta_ads', { baseUrl: meta.baseUrl, adAccountId: '999' }, { accessToken: META_TOKEN, refreshToken: 'r', clientSecret: 'c' });
    await share(audience.id, integrationId);
    await run();
    expect((await shares(audience.id))[0]).toMatchObject({ status: 'error', errorCode: ErrorCode.AD_ACCOUNT_NOT_EXIST });
  });
});

describe('Google Ads Customer Match', () => {
  let audienceId: string;
  let list: string;
  const people: Record<string, string> = {};

  it('first upload: a CONTACT_INFO list, then a job of hashed e-mails and phones (gmail dots dropped, phone +E.164), run', async () => {
    people.gil = await person('PT', { email: 'Gil.Vicente@gmail.com', phone: '+351 912 345 678', gaid: GAID_1 });
    people.hel = await person('PT', { email: 'hel@example.com' });
    people.ivo = await person('PT', { gaid: GAID_2 }); // a device only: not for a contact-info list
    audienceId = (await audienceOf('PT')).id;
    const integrationId = await integration('google_ads', { baseUrl: google.baseUrl, adAccountId: '123-456-7890', developerToken: 'dev-token' }, { accessToken: GOOGLE_TOKEN, refreshToken: 'r', clientSecret: 'c' });
    await share(audienceId, integrationId);
    const before = google.requests.length;
    await run();
    const [done] = await shares(audienceId);
    expect(done).toMatchObject({ status: 'ready', uploadedCount: 2, skippedCount: 1, lastAdded: 2 });
    list = done!.platformAudienceId!;
    expect(list).toMatch(/^customers\/1234567890\/userLists\/\d+$/);
    expect(google.lists.get(list)).toMatchObject({ uploadKeyType: 'CONTACT_INFO' });
    expect(google.requests.slice(before).map((r) => r.path.replace(/\d{4,}/g, 'N'))).toEqual([
      '/v17/customers/N/userLists:mutate', '/v17/customers/N/offlineUserDataJobs:create', '/v17/customers/N/offlineUserDataJobs/N:addOperations', '/v17/customers/N/offlineUserDataJobs/N:run',
    ]);
    expect(google.requests.slice(before).every((r) => r.headers['developer-token'] === 'dev-token')).toBe(true);
    expect(google.members(list)).toEqual([
      { hashedEmail: sha('gilvicente@gmail.com'), hashedPhoneNumber: sha('+351912345678') },
      { hashedEmail: sha('hel@example.com') },
    ].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))));
  });

  it('a refresh that adds and removes members: a job of removals and a job of additions', async () => {
    await moveTo(people.hel!, 'ES');
    await person('PT', { phone: '+351 913 000 111' });
    await refresh(audienceId);
    const before = google.requests.length;
    await run();
    const ops = google.requests.slice(before).filter((r) => r.path.endsWith(':addOperations')).map((r) => (JSON.parse(r.body) as { operations: unknown[] }).operations);
    expect(ops).toEqual([[{ remove: { userIdentifiers: [{ hashedEmail: sha('hel@example.com') }] } }], [{ create: { userIdentifiers: [{ hashedPhoneNumber: sha('+351913000111') }] } }]]);
    expect(google.requests.slice(before).filter((r) => r.path.endsWith(':run'))).toHaveLength(2);
    expect(google.members(list)).toEqual([
      { hashedEmail: sha('gilvicente@gmail.com'), hashedPhoneNumber: sha('+351912345678') },
      { hashedPhoneNumber: sha('+351913000111') },
    ].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))));
    expect((await shares(audienceId))[0]).toMatchObject({ status: 'ready', uploadedCount: 2, lastAdded: 1, lastRemoved: 1 });
  });

  it('a refused token leaves the share and the audience `error` with 10024 and the reason', async () => {
    google.fail({ status: 401, body: { error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' } } });
    await person('PT', { email: 'new@example.com' });
    await refresh(audienceId);
    await run();
    google.heal();
    const [failed] = await shares(audienceId);
    expect(failed).toMatchObject({ status: 'error', errorCode: ErrorCode.SEARCH_AD_CONNECTION_FAIL, uploadedCount: 2 });
    expect(failed!.errorMessage).toContain('invalid authentication credentials');
    expect(await getAudience(audienceId)).toMatchObject({ status: 'error', errorName: 'RecoverableTaskError' });
    // "Sync now" retries at once.
    await owner.client.ok('syncAudienceShare', undefined, p({ audienceId, shareId: failed!.id }));
    await run();
    expect((await shares(audienceId))[0]).toMatchObject({ status: 'ready', uploadedCount: 3 });
    expect((await getAudience(audienceId)).status).toBe('ready');
  });
});

describe('The Trade Desk Data API', () => {
  let audienceId: string;
  let segment: string;
  const people: Record<string, string> = {};

  it('first upload: one signed DAID item per device, with the segment TTL', async () => {
    people.jon = await person('IT', { email: 'jon@example.com', idfa: IDFA });
    people.kim = await person('IT', { gaid: GAID_2 });
    const kimSecond = `dev-${randomUUID()}`;
    await s.device(people.kim, { key: kimSecond });
    await api.db.query('UPDATE devices SET gaid = $3 WHERE app_id = $1 AND device_key = $2', [appId, kimSecond, GAID_3]);
    await person('IT', { email: 'no-device@example.com' });
    audienceId = (await audienceOf('IT')).id;
    const integrationId = await integration('the_trade_desk', { baseUrl: ttd.baseUrl, advertiserId: 'adv42' }, { username: 'login', password: TTD_KEY });
    await share(audienceId, integrationId);
    const before = ttd.requests.length;
    await run();
    const [done] = await shares(audienceId);
    expect(done).toMatchObject({ status: 'ready', uploadedCount: 2, skippedCount: 1, lastAdded: 2 });
    segment = done!.platformAudienceId!;
    expect(segment).toBe(`growthdeck-${audienceId}`);
    expect(ttd.ids(segment)).toEqual([`DAID:${IDFA.toLowerCase()}`, `DAID:${GAID_3}`, `DAID:${GAID_2}`].sort());
    // Two people with three devices, batches of 2 rows: two requests.
    const bodies = ttd.requests.slice(before).map((r) => JSON.parse(r.body) as { AdvertiserId: string; Items: { Data: { TTLInMinutes: number }[] }[] });
    expect(bodies.map((b) => b.Items.length)).toEqual([2, 1]);
    expect(bodies.every((b) => b.AdvertiserId === 'adv42' && b.Items.every((i) => i.Data[0]!.TTLInMinutes === 43_200))).toBe(true);
  });

  it('a refresh that adds and removes members: TTL 0 takes the removed ones out; memberships near their TTL are renewed', async () => {
    await moveTo(people.jon!, 'ES');
    await person('IT', { gaid: GAID_1 });
    // Kim's devices were uploaded long ago: renewed before The Trade Desk forgets them.
    await api.db.query(`UPDATE audience_share_members SET uploaded_at = now() - interval '20 days' WHERE person_id = $1`, [people.kim]);
    await refresh(audienceId);
    const before = ttd.requests.length;
    await run();
    const items = ttd.requests.slice(before).flatMap((r) => (JSON.parse(r.body) as { Items: { DAID: string; Data: { TTLInMinutes: number }[] }[] }).Items.map((i) => [i.DAID, i.Data[0]!.TTLInMinutes]));
    // Removals first, then renewals, then additions (Kim's two devices in either order).
    expect(items[0]).toEqual([IDFA.toLowerCase(), 0]);
    expect(items.slice(1, 3).sort()).toEqual([[GAID_2, 43_200], [GAID_3, 43_200]]);
    expect(items[3]).toEqual([GAID_1, 43_200]);
    expect(items).toHaveLength(4);
    expect(ttd.ids(segment)).toEqual([`DAID:${GAID_1}`, `DAID:${GAID_3}`, `DAID:${GAID_2}`].sort());
    expect((await shares(audienceId))[0]).toMatchObject({ status: 'ready', lastAdded: 1, lastRemoved: 1, uploadedCount: 2 });
  });

  it('a signature the platform refuses leaves `error` with the reason', async () => {
    const audience = await audienceOf('IT');
    const integrationId = await integration('the_trade_desk', { baseUrl: ttd.baseUrl, advertiserId: 'adv42' }, { username: 'login', password: 'wrong-key' });
    await share(audience.id, integrationId);
    await run();
    const [failed] = await shares(audience.id);
    expect(failed).toMatchObject({ status: 'error', errorCode: ErrorCode.OAUTH_ERROR, uploadedCount: 0 });
    expect(failed!.errorMessage).toContain('TtdSignature');
    expect(await getAudience(audience.id)).toMatchObject({ status: 'error', errorName: 'RecoverableTaskError' });
  });
});

describe('the routes', () => {
  let audienceId: string;
  let metaIntegration: string;
  let analyst: TestClient;
  const tableCounts = async () => (await api.db.query<{ n: string }>('SELECT count(*) AS n FROM audience_shares WHERE app_id = $1', [appId])).rows[0]!.n;

  beforeAll(async () => {
    audienceId = (await audienceOf('DE')).id;
    metaIntegration = await integration('meta_ads', { baseUrl: meta.baseUrl, adAccountId: '1234567' }, { accessToken: META_TOKEN, refreshToken: 'r', clientSecret: 'c' });
    analyst = await addMember(api, owner.client, 'analyst');
  });

  it('refuse what cannot be shared, with the catalogue codes, and write nothing', async () => {
    const before = await tableCounts();
    const storage = await integration('s3', { bucket: 'b', region: 'eu-west-1', accessKeyId: 'AKIA' }, { secretAccessKey: 'x' });
    const call = (body: unknown, audience = audienceId) => owner.client.call('createAudienceShare', body, p({ audienceId: audience }));
    expect((await call({ integrationId: storage })).body).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY, details: [{ path: 'integrationId' }] });
    expect((await call({ integrationId: randomUUID() })).body).toMatchObject({ status: 'KO', code: ErrorCode.NOT_EXIST });
    expect((await call({ integrationId: 'not-a-uuid' })).body).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY });
    expect((await call({ integrationId: metaIntegration }, randomUUID())).body).toMatchObject({ status: 'KO', code: ErrorCode.NO_PERMISSION });
    expect((await call({ integrationId: metaIntegration, platformAudienceId: 'customers/1/userLists/2' })).body).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY, details: [{ path: 'platformAudienceId' }] });
    const tiktok = await integration('tiktok_ads', { baseUrl: meta.origin, adAccountId: '1' }, { accessToken: 't', refreshToken: 'r', clientSecret: 'c' });
    expect((await call({ integrationId: tiktok })).body).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY });
    // A role without the share keys (analyst) sees shares but shares nothing.
    expect((await analyst.call('createAudienceShare', { integrationId: metaIntegration }, p({ audienceId }))).body).toMatchObject({ status: 'KO', code: ErrorCode.NO_PERMISSION });
    expect(await tableCounts()).toBe(before);
    expect((await analyst.ok<{ shares: Share[] }>('audienceShares', undefined, p({ audienceId }))).shares).toEqual([]);
  });

  it('share once per integration (30 the second time), into a platform audience the user names', async () => {
    const { id: existing } = await fetch(`${meta.baseUrl}/act_1234567/customaudiences`, {
      method: 'POST', headers: { authorization: `Bearer ${META_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Existing', subtype: 'CUSTOM' }),
    }).then((r) => r.json() as Promise<{ id: string }>);
    await person('DE', { email: 'de@example.com' });
    await refresh(audienceId);
    const created = await share(audienceId, metaIntegration, existing);
    expect(created).toMatchObject({ platformAudienceId: existing, status: 'sync' });
    expect((await owner.client.call('createAudienceShare', { integrationId: metaIntegration }, p({ audienceId }))).body).toMatchObject({ status: 'KO', code: ErrorCode.NAME_DUPLICATED });
    const targets = (await owner.client.ok<{ targets: { id: string; entry: string; supported: boolean }[] }>('audienceShareTargets', undefined, p())).targets;
    expect(targets.find((t) => t.id === metaIntegration)).toMatchObject({ entry: 'social', supported: true });
    expect(targets.some((t) => t.entry === undefined)).toBe(false);
    await run();
    expect(meta.users(existing).map((u) => u.EMAIL)).toEqual([sha('de@example.com')]);
  });

  it('stopping a share removes what it uploaded from the platform audience (or keeps it, when asked)', async () => {
    const [current] = await shares(audienceId);
    const platformId = current!.platformAudienceId!;
    expect((await analyst.call('deleteAudienceShare', undefined, p({ audienceId, shareId: current!.id }))).body).toMatchObject({ status: 'KO', code: ErrorCode.NO_PERMISSION });
    expect((await owner.client.call('deleteAudienceShare', undefined, p({ audienceId, shareId: randomUUID() }))).body).toMatchObject({ status: 'KO', code: ErrorCode.NOT_EXIST });
    // The platform refuses: nothing changes, and the answer says why.
    meta.fail({ status: 400, body: { error: { message: 'Error validating access token: Session has expired', type: 'OAuthException', code: 190 } } });
    expect((await owner.client.call('deleteAudienceShare', undefined, p({ audienceId, shareId: current!.id }))).body).toMatchObject({ status: 'KO', code: ErrorCode.OAUTH_ERROR });
    meta.heal();
    expect(await shares(audienceId)).toHaveLength(1);
    expect(meta.users(platformId)).toHaveLength(1);
    await owner.client.ok('deleteAudienceShare', undefined, p({ audienceId, shareId: current!.id }));
    expect(await shares(audienceId)).toEqual([]);
    expect(meta.users(platformId)).toEqual([]);

    const again = await share(audienceId, metaIntegration, platformId);
    await run();
    expect(meta.users(platformId)).toHaveLength(1);
    await owner.client.ok('deleteAudienceShare', undefined, p({ audienceId, shareId: again.id }), { keepOnPlatform: 'true' });
    expect(await shares(audienceId)).toEqual([]);
    expect(meta.users(platformId)).toHaveLength(1);
  });

  it('the process\'s own loop runs a new share at once', async () => {
    const looping = await startTestApi({ OUTGOING_ALLOW_LOOPBACK: '127.0.0.1', AUDIENCE_SHARE_IN_PROCESS: 'on' });
    try {
      const audience = await audienceOf('DE');
      const client = owner.client;
      const { share: created } = await client.ok<{ share: Share }>('createAudienceShare', { integrationId: metaIntegration }, p({ audienceId: audience.id }));
      // The test's own server took the request, but its loop is off: the looping server's (same database) runs it.
      for (let i = 0; i < 400; i++) {
        const [now] = await shares(audience.id);
        if (now?.status === 'ready') break;
        await new Promise((r) => setTimeout(r, 25));
      }
      const [done] = await shares(audience.id);
      expect(done).toMatchObject({ id: created.id, status: 'ready', uploadedCount: 1 });
    } finally {
      await looping.stop();
    }
  });
});
