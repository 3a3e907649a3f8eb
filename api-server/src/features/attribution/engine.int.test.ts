/**
 * The attribution engine against real Postgres: known answers (device id beats fingerprint, last
 * click against unique click, the lookback edge to the second, Organic, reinstalls inside and
 * outside the re-attribution window, retargeting, another app's click, an idempotent re-run), and
 * the SQL against the reference function (shared `attribute`) on generated worlds. Installs go
 * through the real ingestion API; clicks through the link host's `recordClicks`.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arbWorld, expectedOf } from '@gd/shared/acquisition/attributionArbitraries';
import { createTestApp, registerAccount, startTestApi, type TestApi, type TestClient } from '../../testing/harness.ts';
import { recordClicks, type ClickRow } from '../links/clicks.ts';
import { attributePending } from './engine.ts';
import { attributionsOf, insertCampaign, insertLink, insertSource, sendEvents, type SourceInput } from './testing/helpers.ts';

let api: TestApi;
let owner: TestClient;

beforeAll(async () => {
  api = await startTestApi({ ATTRIBUTION_IN_PROCESS: 'off', POSTBACKS_IN_PROCESS: 'off' });
  ({ client: owner } = await registerAccount(api));
});
afterAll(async () => {
  await api.stop();
});

const HOUR = 3_600_000, DAY = 86_400_000;
/** Event times well inside the ingestion bounds (the past, after the app's creation minus two years). */
const T = Date.now() - 50 * DAY - (Date.now() % 1000);
const IP = '203.0.113.50', UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X)';

interface Setup { appId: string; appKey: string; source: string; campaigns: Record<string, string>; links: Record<string, string> }

/** A fresh app with one source and the named campaigns (each with a link). */
async function setup(source: SourceInput = {}, names: string[] = ['A', 'B']): Promise<Setup> {
  const app = await createTestApp(owner, { os: 'iOS' });
  const sourceId = await insertSource(api.db, app.id, { name: 'Net', ...source });
  const campaigns: Record<string, string> = {};
  const links: Record<string, string> = {};
  for (const name of names) {
    campaigns[name] = await insertCampaign(api.db, app.id, sourceId, { name });
    links[name] = await insertLink(api.db, app.id, campaigns[name]);
  }
  return { appId: app.id, appKey: app.appKey, source: sourceId, campaigns, links };
}

const click = (s: Setup, name: string, at: number, extra: Partial<ClickRow> = {}): ClickRow => ({
  appId: s.appId, linkId: s.links[name]!, campaignId: s.campaigns[name]!, sourceId: s.source, clickedAt: new Date(at), platform: 'ios', ip: IP, userAgent: UA, ...extra,
});

const install = (s: Setup, device: Parameters<typeof sendEvents>[2], at = T, name = 'gd_install', properties?: Record<string, string>) =>
  sendEvents(api.url, s.appKey, device, [{ name, time: at, ...(properties ? { properties } : {}) }], { ip: IP, userAgent: UA });

describe('attribution with known answers', () => {
  it('prefers a device id match to a newer fingerprint, and names the source on the person and the install', async () => {
    const s = await setup();
    const [byId, byPrint] = await recordClicks(api.db, [
      click(s, 'A', T - 5 * HOUR, { idfa: 'IDFA-1', ip: '198.51.100.1' }),
      click(s, 'B', T - HOUR),
    ]);
    await install(s, { id: 'device-one', idfa: 'IDFA-1' });
    const result = await attributePending(api.db, { appId: s.appId });
    expect(result.pending).toBe(1);
    const [a] = await attributionsOf(api.db, s.appId);
    expect(a).toMatchObject({ kind: 'install', campaign_id: s.campaigns.A, click_id: byId, match: 'device_id', mode: 'last_click', assisted: [byPrint] });
    const { rows: [person] } = await api.db.query<{ from_source: string; from_campaign: string }>('SELECT from_source, from_campaign FROM people WHERE app_id = $1 AND id = $2', [s.appId, a!.person_id]);
    expect(person).toEqual({ from_source: 'Net', from_campaign: 'A' });
    const { rows: lifecycle } = await api.db.query(`SELECT source, campaign FROM lifecycle_events WHERE app_id = $1 AND kind = 'install'`, [s.appId]);
    expect(lifecycle).toEqual([{ source: 'Net', campaign: 'A' }]);
    const { rows: pending } = await api.db.query('SELECT 1 FROM acq_pending WHERE app_id = $1', [s.appId]);
    expect(pending).toEqual([]);
  });

  it('matches by fingerprint (IP and user agent within 24 h) and by the install referrer when there is no device id', async () => {
    const s = await setup();
    const [print, ref] = await recordClicks(api.db, [click(s, 'A', T - 2 * HOUR), click(s, 'B', T - 3 * DAY, { ip: '198.51.100.2', userAgent: 'Other' })]);
    await install(s, { id: 'device-print' });
    await install(s, { id: 'device-ref' }, T, 'gd_install', { referrer: `utm_source=net&gd_click=${ref}` });
    await attributePending(api.db, { appId: s.appId });
    const rows = await attributionsOf(api.db, s.appId);
    expect(rows.map((r) => [r.device_key, r.click_id, r.match])).toEqual([['device-print', print, 'fingerprint'], ['device-ref', ref, 'referrer']]);
  });

  it('credits the newest click in last-click mode and ignores repeats of a campaign in unique-click mode', async () => {
    const answers: Record<string, string | null> = {};
    for (const mode of ['last_click', 'unique_click'] as const) {
      const s = await setup({ attribution: mode });
      const [, b, a2] = await recordClicks(api.db, [
        click(s, 'A', T - 30 * HOUR, { gaid: 'GAID-7' }), click(s, 'B', T - 20 * HOUR, { gaid: 'GAID-7' }), click(s, 'A', T - 10 * HOUR, { gaid: 'GAID-7' }),
      ]);
      await install(s, { id: `device-${mode}`, gaid: 'GAID-7' });
      await attributePending(api.db, { appId: s.appId });
      const [row] = await attributionsOf(api.db, s.appId);
      expect(row!.mode).toBe(mode);
      answers[mode] = row!.click_id;
      expect(row!.click_id).toBe(mode === 'last_click' ? a2 : b);
    }
    expect(answers.last_click).not.toBe(answers.unique_click);
  });

  it('counts a click exactly at the lookback edge, not one a second older, nor one after the install', async () => {
    const s = await setup({ lookbackDays: 7 });
    const [edge] = await recordClicks(api.db, [
      click(s, 'A', T - 7 * DAY, { idfv: 'IDFV-EDGE' }),
      click(s, 'B', T - 7 * DAY - 1000, { idfv: 'IDFV-OLD', ip: null }),
      click(s, 'B', T + 1000, { idfv: 'IDFV-LATE', ip: null }),
    ]);
    await install(s, { id: 'device-edge', idfv: 'IDFV-EDGE' });
    await sendEvents(api.url, s.appKey, { id: 'device-old', idfv: 'IDFV-OLD' }, [{ name: 'gd_install', time: T }], { ip: '192.0.2.1' });
    await sendEvents(api.url, s.appKey, { id: 'device-late', idfv: 'IDFV-LATE' }, [{ name: 'gd_install', time: T }], { ip: '192.0.2.2' });
    await attributePending(api.db, { appId: s.appId });
    const rows = await attributionsOf(api.db, s.appId);
    expect(rows.map((r) => [r.device_key, r.click_id, r.match])).toEqual([['device-edge', edge, 'device_id'], ['device-late', null, 'organic'], ['device-old', null, 'organic']]);
  });

  it('is Organic when nothing matches, and says so on the person', async () => {
    const s = await setup();
    await install(s, { id: 'device-organic', idfa: 'NOBODY' });
    await attributePending(api.db, { appId: s.appId });
    const [row] = await attributionsOf(api.db, s.appId);
    expect(row).toMatchObject({ campaign_id: null, click_id: null, match: 'organic', assisted: [] });
    const { rows: [person] } = await api.db.query<{ from_source: string; from_campaign: string }>('SELECT from_source, from_campaign FROM people WHERE app_id = $1 AND id = $2', [s.appId, row!.person_id]);
    expect(person).toEqual({ from_source: 'Organic', from_campaign: 'Organic' });
  });

  it('keeps the original campaign of a reinstall inside the re-attribution window, not outside; a newer click re-attributes', async () => {
    const s = await setup({ reattributionDays: 30 }, ['A', 'B']);
    const [first, , fresh] = await recordClicks(api.db, [
      click(s, 'A', T - 45 * DAY - HOUR, { idfa: 'IDFA-IN', ip: null }),
      click(s, 'A', T - 45 * DAY - HOUR, { idfa: 'IDFA-OUT', ip: null }),
      click(s, 'B', T - 2 * HOUR, { idfa: 'IDFA-NEW', ip: null }),
      click(s, 'A', T - 45 * DAY - HOUR, { idfa: 'IDFA-NEW', ip: null }),
    ]);
    const at = T - 45 * DAY;
    const other = { ip: '192.0.2.9' };
    await sendEvents(api.url, s.appKey, { id: 'device-in', idfa: 'IDFA-IN' }, [{ name: 'gd_install', time: at }, { name: 'gd_reinstall', time: at + 20 * DAY }], other);
    await sendEvents(api.url, s.appKey, { id: 'device-out', idfa: 'IDFA-OUT' }, [{ name: 'gd_install', time: at }, { name: 'gd_reinstall', time: at + 31 * DAY }], other);
    await sendEvents(api.url, s.appKey, { id: 'device-new', idfa: 'IDFA-NEW' }, [{ name: 'gd_install', time: at }, { name: 'gd_reinstall', time: T }], other);
    await attributePending(api.db, { appId: s.appId });
    const rows = await attributionsOf(api.db, s.appId);
    const of = (device: string, kind: string) => rows.find((r) => r.device_key === device && r.kind === kind)!;
    expect(of('device-in', 'install')).toMatchObject({ campaign_id: s.campaigns.A, click_id: first });
    expect(of('device-in', 'reinstall')).toMatchObject({ campaign_id: s.campaigns.A, click_id: first, match: 'device_id' });
    expect(of('device-out', 'reinstall')).toMatchObject({ campaign_id: null, match: 'organic' });
    expect(of('device-new', 'reinstall')).toMatchObject({ campaign_id: s.campaigns.B, click_id: fresh });
    const { rows: [person] } = await api.db.query<{ from_campaign: string }>('SELECT from_campaign FROM people WHERE app_id = $1 AND id = $2', [s.appId, of('device-new', 'reinstall').person_id]);
    expect(person).toEqual({ from_campaign: 'B' });
  });

  it('credits retargeting opens only to retargeting sources, and never installs to them', async () => {
    const s = await setup({ type: 'retargeting' }, ['RT']);
    const [rt] = await recordClicks(api.db, [click(s, 'RT', T - HOUR, { idfa: 'IDFA-RT' })]);
    await sendEvents(api.url, s.appKey, { id: 'device-rt', idfa: 'IDFA-RT' }, [{ name: 'gd_install', time: T - 10 * DAY }, { name: 'gd_retargeting_open', time: T }], { ip: IP, userAgent: UA });
    await attributePending(api.db, { appId: s.appId });
    const rows = await attributionsOf(api.db, s.appId);
    expect(rows.map((r) => [r.kind, r.campaign_id, r.click_id])).toEqual([['install', null, null], ['retargeting_open', s.campaigns.RT, rt]]);
  });

  it('never matches a click of another app, even with the same device id, IP and user agent', async () => {
    const mine = await setup();
    const theirs = await setup();
    const [their] = await recordClicks(api.db, [click(theirs, 'A', T - HOUR, { idfa: 'IDFA-SHARED' })]);
    await install(mine, { id: 'device-shared', idfa: 'IDFA-SHARED' }, T, 'gd_install', { gd_click: their! });
    await attributePending(api.db, { appId: mine.appId });
    const [row] = await attributionsOf(api.db, mine.appId);
    expect(row).toMatchObject({ campaign_id: null, match: 'organic' });
  });

  it('is idempotent: a re-run and a repeated pending row change nothing', async () => {
    const s = await setup();
    await recordClicks(api.db, [click(s, 'A', T - HOUR, { idfa: 'IDFA-AGAIN' })]);
    await install(s, { id: 'device-again', idfa: 'IDFA-AGAIN' });
    await attributePending(api.db, { appId: s.appId });
    const before = await attributionsOf(api.db, s.appId);
    expect(await attributePending(api.db, { appId: s.appId })).toMatchObject({ pending: 0, attributions: [] });
    await api.db.query(`INSERT INTO acq_pending (app_id, kind, event_time, person_id, device_id)
                        SELECT app_id, kind, event_time, person_id, device_id FROM acq_attributions WHERE app_id = $1`, [s.appId]);
    expect(await attributePending(api.db, { appId: s.appId })).toMatchObject({ pending: 1, attributions: [] });
    expect(await attributionsOf(api.db, s.appId)).toEqual(before);
  });
});

describe('the SQL engine against the reference function', () => {
  it('answers what shared attribute() answers on generated worlds', async () => {
    const t0 = Date.now() - 30 * DAY - (Date.now() % 1000);
    const worlds = fc.sample(arbWorld('APP', t0), { numRuns: 50, seed: 1627 });
    for (const world of worlds) {
      const app = await createTestApp(owner, { os: 'Android' });
      // Fresh ids that keep the generated ones' order (the engine breaks ties by click id).
      const prefix = randomBytes(4).toString('hex');
      const map = (id: string) => `${prefix}${id.slice(8)}`;
      for (const src of world.sources) await insertSource(api.db, app.id, { ...src, id: map(src.id), name: map(src.id) });
      const linkOf = new Map<string, string>();
      for (const c of world.campaigns) {
        await insertCampaign(api.db, app.id, map(c.sourceId), { id: map(c.id), name: map(c.id) });
        linkOf.set(c.id, await insertLink(api.db, app.id, map(c.id)));
      }
      await recordClicks(api.db, world.clicks.map((c) => ({
        id: map(c.id), appId: app.id, linkId: linkOf.get(c.campaignId)!, campaignId: map(c.campaignId), sourceId: map(c.sourceId), clickedAt: c.clickedAt,
        platform: 'android', ip: c.ip, userAgent: c.userAgent, bot: c.bot, idfa: c.idfa ?? null, idfv: c.idfv ?? null, gaid: c.gaid ?? null, oaid: c.oaid ?? null,
      })));
      for (const d of world.devices) {
        const properties = d.referrer ? { gd_click: map(d.referrer) } : undefined;
        const events = [{ name: 'gd_install', time: d.install, properties }];
        if (d.reinstall !== null) events.push({ name: 'gd_reinstall', time: d.reinstall, properties });
        if (d.open !== null) events.push({ name: 'gd_retargeting_open', time: d.open, properties });
        await sendEvents(api.url, app.appKey, { id: `${prefix}-${d.key}`, ...d.ids }, events, { ip: d.ip, userAgent: d.userAgent });
      }
      await attributePending(api.db, { appId: app.id });
      const rows = await attributionsOf(api.db, app.id);
      const want = expectedOf(world, 'APP').map((e) => ({
        device: `${prefix}-${e.device}`, kind: e.kind, at: e.eventTime, campaign: e.attribution.campaignId && map(e.attribution.campaignId),
        click: e.attribution.clickId && map(e.attribution.clickId), match: e.attribution.match, mode: e.attribution.mode, assisted: e.attribution.assisted.map(map),
      }));
      const got = rows.map((r) => ({ device: r.device_key, kind: r.kind, at: r.event_time.getTime(), campaign: r.campaign_id, click: r.click_id, match: r.match, mode: r.mode, assisted: r.assisted }));
      const key = (x: { device: string; kind: string; at: number }) => `${x.device}:${x.kind}:${x.at}`;
      expect(got.sort((a, b) => key(a).localeCompare(key(b))), JSON.stringify(world)).toEqual(want.sort((a, b) => key(a).localeCompare(key(b))));
    }
  });
});

describe('deferred deep links', () => {
  const call = async (appKey: string, device: string) => {
    const res = await fetch(`${api.url}/api/sdk/v1/deferred-link`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-app-key': appKey }, body: JSON.stringify({ device }) });
    return { status: res.status, body: (await res.json()) as { status: string; code?: number; deepLink?: string | null; params?: Record<string, string> | null } };
  };

  it('attributes the device at once and hands the click\'s deep link and parameters over exactly once', async () => {
    const s = await setup({}, ['Promo']);
    const linkId = await insertLink(api.db, s.appId, s.campaigns.Promo!, { deepLink: 'myapp://product/42', params: { p1: 'summer', sid: 'site-9' } });
    const [clickId] = await recordClicks(api.db, [{ ...click(s, 'Promo', T - HOUR, { gaid: 'GAID-DL', params: { p2: 'banner' } }), linkId }]);
    const device = `dl-${randomUUID()}`;
    await install(s, { id: device, gaid: 'GAID-DL' });
    const first = await call(s.appKey, device);
    expect(first.body).toEqual({ status: 'OK', deepLink: 'myapp://product/42', params: { p1: 'summer', sid: 'site-9', p2: 'banner', gd_click: clickId, gd_campaign: 'Promo' } });
    const again = await Promise.all([call(s.appKey, device), call(s.appKey, device)]);
    expect(again.map((a) => a.body)).toEqual([{ status: 'OK', deepLink: null, params: null }, { status: 'OK', deepLink: null, params: null }]);
  });

  it('answers no link for an unknown device or an Organic install, and refuses a bad body or key', async () => {
    const s = await setup();
    expect((await call(s.appKey, 'never-seen-device')).body).toEqual({ status: 'OK', deepLink: null, params: null });
    await install(s, { id: 'device-no-link', idfa: 'NOBODY-ELSE' });
    expect((await call(s.appKey, 'device-no-link')).body).toEqual({ status: 'OK', deepLink: null, params: null });
    expect((await call(s.appKey, 'x')).body).toMatchObject({ status: 'KO', code: 10001 });
    expect((await call('not-a-key', 'device-no-link')).body).toMatchObject({ status: 'KO', code: 10003 });
  });
});
