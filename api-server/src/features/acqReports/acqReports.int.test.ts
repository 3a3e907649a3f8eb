/**
 * Campaign figures and the acquisition reports on real Postgres, with known answers: sources,
 * campaigns of every pricing model, clicks (bots and the previous period included), attributions
 * (installs, a reinstall, a retargeting open, an assisted install, Organic) and the credited
 * people's events, in a time zone whose days are not UTC days (range edges to the second).
 * The rows are written as the link host and the attribution engine write them (their own tests
 * cover how); here we test what is read from them.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, type AcqActivity, type AcqReport } from '@gd/shared';
import { createTestApp, registerAccount, startTestApi, type TestApi } from '../../testing/harness.ts';
import { campaignFigures } from './figures.ts';

let api: TestApi;
let owner: Awaited<ReturnType<typeof registerAccount>>;
let app: { id: string; appKey: string; timezone: string };
let other: { id: string };
const TZ = 'America/New_York';
/** 2026-03-10..16 in New York (EDT, UTC-4): [2026-03-10T04:00Z, 2026-03-17T04:00Z). */
const RANGE = { startDay: '2026-03-10', endDay: '2026-03-16' };
const ids: Record<string, string> = {};
const people: Record<string, string> = {};

async function q<T extends Record<string, unknown>>(sql: string, params: unknown[]): Promise<T[]> {
  return (await api.deps.db.query<T>(sql, params)).rows;
}

async function source(appId: string, name: string, type: string, providerId: string | null = null): Promise<string> {
  return (await q<{ id: string }>('INSERT INTO acq_sources (app_id, name, type, account_provider_id) VALUES ($1, $2, $3, $4) RETURNING id', [appId, name, type, providerId]))[0]!.id;
}
async function campaign(appId: string, name: string, sourceId: string, model: string, value: number, extra: { start?: string; end?: string; costEvent?: string } = {}): Promise<string> {
  return (await q<{ id: string }>(
    `INSERT INTO acq_campaigns (app_id, name, source_id, pricing_model, cost_value, start_day, end_day, cost_event) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
    [appId, name, sourceId, model, value, extra.start ?? null, extra.end ?? null, extra.costEvent ?? null],
  ))[0]!.id;
}
async function click(campaignName: string, at: string, device: string, bot = false): Promise<string> {
  const id = randomUUID();
  const linkId = ids.link!;
  await q(
    `INSERT INTO acq_clicks (app_id, clicked_at, id, link_id, campaign_id, source_id, ip, user_agent, platform, gaid, bot)
     SELECT $1, $2, $3, $4, c.id, c.source_id, '203.0.113.7', 'UA', 'android', $6, $7 FROM acq_campaigns c WHERE c.id = $5`,
    [app.id, at, id, linkId, ids[campaignName], device, bot],
  );
  return id;
}
async function person(name: string): Promise<string> {
  const id = (await q<{ id: string }>(`INSERT INTO people (app_id, attributes) VALUES ($1, $2) RETURNING id::text`, [app.id, { name }]))[0]!.id;
  people[name] = id;
  return id;
}
async function attribution(kind: string, at: string, who: string, campaignName: string | null, assisted: string[] = [], match = 'device_id') {
  await q(
    `INSERT INTO acq_attributions (app_id, kind, event_time, person_id, device_id, campaign_id, source_id, match, mode, assisted)
     SELECT $1, $2, $3, $4, $4, c.id, c.source_id, $6, 'last_click', $7 FROM (SELECT 1) one LEFT JOIN acq_campaigns c ON c.id = $5`,
    [app.id, kind, at, who, campaignName === null ? null : ids[campaignName], campaignName === null ? 'organic' : match, assisted],
  );
}
async function event(who: string, name: string, at: string, revenue: number | null = null) {
  await q(
    `INSERT INTO events (app_id, event_time, received_at, client_id, person_id, device_id, name, revenue) VALUES ($1, $2, $2, $3, $4, $4, $5, $6)`,
    [app.id, at, randomUUID(), who, name, revenue],
  );
}

beforeAll(async () => {
  api = await startTestApi();
  owner = await registerAccount(api);
  app = await createTestApp(owner.client, { timezone: TZ });
  other = await createTestApp(owner.client, { timezone: 'UTC' });
  const provider = (await q<{ id: string }>(`INSERT INTO account_providers (account_id, name, kind) VALUES ($1, 'Agency One', 'agency') RETURNING id`, [owner.accountId]))[0]!.id;
  ids.provider = provider;
  const networks = await source(app.id, 'Networks', 'adnetwork');
  const agency = await source(app.id, 'Agency', 'agency', provider);
  ids.cpc = await campaign(app.id, 'Per click', networks, 'cpc', 0.5);
  ids.cpi = await campaign(app.id, 'Per install', networks, 'cpi', 2);
  ids.fixed = await campaign(app.id, 'Flat fee', networks, 'fixed', 700, { start: '2026-03-01', end: '2026-03-14' });
  ids.cpa = await campaign(app.id, 'Per sale', agency, 'cpa', 10, { costEvent: 'gd_transaction' });
  ids.otherCampaign = await campaign(other.id, 'Elsewhere', await source(other.id, 'Other source', 'inbound'), 'cpc', 1);
  ids.link = (await q<{ id: string }>(`INSERT INTO acq_links (app_id, campaign_id, kind, name, code) VALUES ($1, $2, 'tracking', 'L', $3) RETURNING id`, [app.id, ids.cpc, `c${randomUUID().slice(0, 8)}`]))[0]!.id;

  // Clicks of "Per click": 10 counted in the range from 6 devices, a bot, and 2 the day before (previous period).
  const assisting: string[] = [];
  for (let i = 0; i < 10; i++) {
    const id = await click('cpc', `2026-03-1${i % 7}T12:00:00Z`, `dev-${i % 6}`);
    if (i < 2) assisting.push(id);
  }
  await click('cpc', '2026-03-11T12:00:00Z', 'dev-bot', true);
  await click('cpc', '2026-03-10T03:59:59Z', 'dev-prev');
  await click('cpc', '2026-03-09T10:00:00Z', 'dev-prev');

  // Installs of "Per install": 4 inside, one on the last second of the range, one just after it.
  const ann = await person('Ann');
  await attribution('install', '2026-03-10T12:00:00Z', ann, 'cpi', assisting);
  for (const [i, at] of ['2026-03-11T12:00:00Z', '2026-03-12T12:00:00Z', '2026-03-13T12:00:00Z', '2026-03-17T03:59:59Z', '2026-03-17T04:00:00Z'].entries()) {
    await attribution('install', at, await person(`P${i}`), 'cpi');
  }
  // Ann: a registration, two sales on two days, an uninstall, then a retargeting open of "Per click".
  await event(ann, 'gd_register', '2026-03-11T13:00:00Z');
  await event(ann, 'gd_transaction', '2026-03-12T13:00:00Z', 30);
  await event(ann, 'gd_transaction', '2026-03-13T13:00:00Z', 20);
  await q(`INSERT INTO lifecycle_events (app_id, event_time, kind, person_id, device_id) VALUES ($1, '2026-03-14T10:00:00Z', 'uninstall', $2, $2)`, [app.id, ann]);
  await attribution('retargeting_open', '2026-03-15T10:00:00Z', ann, 'cpc');

  // Bob, of "Per sale": a sale before his install (not credited), one after, then an Organic
  // reinstall after which his sales credit no campaign.
  const bob = await person('Bob');
  await event(bob, 'gd_transaction', '2026-03-10T05:00:00Z', 500);
  await attribution('install', '2026-03-11T10:00:00Z', bob, 'cpa');
  await event(bob, 'gd_transaction', '2026-03-12T10:00:00Z', 100);
  await attribution('reinstall', '2026-03-13T10:00:00Z', bob, null);
  await event(bob, 'gd_transaction', '2026-03-14T10:00:00Z', 900);
  // Cy: Organic.
  await attribution('install', '2026-03-12T10:00:00Z', await person('Cy'), null);
}, 60_000);

afterAll(async () => {
  await api.stop();
});

describe('campaignFigures', () => {
  it('answers each campaign with its counts, cost by pricing model and metrics', async () => {
    const figures = await campaignFigures(api.deps.db, app, RANGE);
    expect([...figures.keys()].sort()).toEqual([ids.cpc, ids.cpi, ids.fixed, ids.cpa].sort());

    const cpc = figures.get(ids.cpc!)!;
    expect(cpc).toMatchObject({ clicks: 10, uniqueClicks: 6, reactivations: 1, installs: 0, cost: 5, cpc: 0.5, cpi: null, roi: -1 });

    const cpi = figures.get(ids.cpi!)!;
    expect(cpi).toMatchObject({
      installs: 5, registers: 1, registrants: 1, leads: 1, sales: 2, buyers: 1, buyerDays: 2, revenue: 50, uninstalls: 1, uninstallers: 1,
      cost: 10, cpi: 2, roi: 4, arpu: 10, cps: 5, cpb: 10, cpl: 10, clicks: 0, cpc: null, itr: null,
    });
    expect(cpi.dailyBuyers).toBeCloseTo(2 / 7);
    expect(cpi.engagement).toBe(3);
    expect(cpi.ratios.uninstalls).toBe(0.2);
    expect(cpi.costs.transaction).toBe(5);

    // 700 over 14 days (1..14 March), 5 of them in the range.
    expect(figures.get(ids.fixed!)).toMatchObject({ cost: 250, installs: 0, roi: -1 });

    const cpa = figures.get(ids.cpa!)!;
    expect(cpa).toMatchObject({ installs: 1, sales: 1, revenue: 100, conversions: 1, cost: 10, cpa: 10, roi: 9 });
  });

  it('keeps to the campaigns and the provider asked for; another app\'s ids are absent', async () => {
    const some = await campaignFigures(api.deps.db, app, RANGE, { campaignIds: [ids.cpi!, ids.otherCampaign!] });
    expect([...some.keys()]).toEqual([ids.cpi]);
    const provider = await campaignFigures(api.deps.db, app, RANGE, { accountProviderId: ids.provider! });
    expect([...provider.keys()]).toEqual([ids.cpa]);
  });

  it('the previous day holds the clicks before the range', async () => {
    const figures = await campaignFigures(api.deps.db, app, { startDay: '2026-03-09', endDay: '2026-03-09' });
    expect(figures.get(ids.cpc!)).toMatchObject({ clicks: 2, uniqueClicks: 1, cost: 1 });
    expect(figures.get(ids.fixed!)?.cost).toBe(50);
  });
});

describe('reports', () => {
  it('activity: by source with Organic, totals, previous period and the series', async () => {
    const a = await owner.client.ok<AcqActivity & { status: 'OK' }>('acqActivity', undefined, { appId: app.id }, { ...RANGE, timeGroup: 'day' });
    expect(a.previous).toEqual({ startDay: '2026-03-03', endDay: '2026-03-09' });
    const byName = new Map(a.sources.map((s) => [s.name, s]));
    expect(byName.get('Networks')?.current).toEqual({ clicks: 10, installs: 5, conversionRate: 0.5, cost: 265, revenue: 50, roi: (50 - 265) / 265 });
    expect(byName.get('Networks')?.previous.clicks).toBe(2);
    expect(byName.get('Agency')?.current).toMatchObject({ installs: 1, cost: 10, revenue: 100, roi: 9, conversionRate: null });
    expect(a.sources.at(-1)).toMatchObject({ sourceId: null, name: 'Organic', current: { installs: 1, clicks: 0 } });
    expect(a.totals.current).toMatchObject({ clicks: 10, installs: 7, conversionRate: 0.6, cost: 275, revenue: 150 });
    expect(a.series.labels).toHaveLength(7);
    expect(a.series.clicks.reduce((x, y) => x + y, 0)).toBe(10);
    expect(a.series.installs.reduce((x, y) => x + y, 0)).toBe(6);
    expect(a.series.cost.reduce((x, y) => x + y, 0)).toBeCloseTo(275, 6);
    expect(a.series.revenue.reduce((x, y) => x + y, 0)).toBe(150);
    // 2026-03-16 local holds the install on the range's last second (03:59:59Z on the 17th).
    expect(a.series.installs[6]).toBe(1);
  });

  it('installs: totals, by source and campaign with Organic, the latest with match kinds', async () => {
    const r = await owner.client.ok<AcqReport & { status: 'OK' }>('acqInstalls', undefined, { appId: app.id }, { ...RANGE, timeGroup: 'day' });
    expect(r.totals).toEqual([{ key: 'installs', current: 7, previous: 0 }, { key: 'reinstalls', current: 1, previous: 0 }]);
    expect(r.byCampaign.map((g) => [g.name, g.current])).toEqual([['Per install', 5], ['Organic', 1], ['Per sale', 1]]);
    expect(r.bySource.find((g) => g.id === null)).toMatchObject({ name: 'Organic', current: 1 });
    expect(r.latest[0]).toMatchObject({ kind: 'install', campaignName: 'Per install', match: 'device_id', personName: 'P3' });
    expect(r.latest.find((l) => l.personName === 'Cy')).toMatchObject({ campaignId: null, sourceName: 'Organic', match: 'organic' });
    expect(r.series.values.reduce((x, y) => x + y, 0)).toBe(7);
  });

  it('uninstalls are credited to the install; retargeting opens; assisted installs by the assisting clicks', async () => {
    const u = await owner.client.ok<AcqReport>('acqUninstalls', undefined, { appId: app.id }, RANGE);
    expect(u.totals).toEqual([{ key: 'uninstalls', current: 1, previous: 0 }]);
    expect(u.byCampaign).toMatchObject([{ name: 'Per install', sourceName: 'Networks', current: 1 }]);
    const rt = await owner.client.ok<AcqReport>('acqRetargeting', undefined, { appId: app.id }, RANGE);
    expect(rt.totals).toEqual([{ key: 'reactivations', current: 1, previous: 0 }]);
    expect(rt.latest).toMatchObject([{ personName: 'Ann', campaignName: 'Per click', kind: 'retargeting_open' }]);
    const as = await owner.client.ok<AcqReport>('acqAssisted', undefined, { appId: app.id }, RANGE);
    expect(as.totals).toEqual([{ key: 'assistedInstalls', current: 1, previous: 0 }, { key: 'assistingClicks', current: 2, previous: 0 }]);
    expect(as.byCampaign).toMatchObject([{ id: ids.cpc, name: 'Per click', current: 2 }]);
    expect(as.latest).toMatchObject([{ personName: 'Ann', campaignName: 'Per install', assists: 2 }]);
  });

  it('refuses bad ranges (10001) and another account\'s app (10004)', async () => {
    const bad = await owner.client.call('acqActivity', undefined, { appId: app.id }, { startDay: '2026-03-10', timeGroup: 'day' });
    expect(bad.body).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY });
    const stranger = await registerAccount(api);
    const foreign = await stranger.client.call('acqInstalls', undefined, { appId: app.id }, RANGE);
    expect(foreign.body).toMatchObject({ status: 'KO', code: ErrorCode.NO_PERMISSION });
  });
});

describe('scheduled report of kind acquisition', () => {
  it('runs: the activity table by source and the totals of both periods', async () => {
    const { reportTables } = await import('../reports/tables.ts');
    const answer = await reportTables(api.deps.db, app, 'acquisition', {}, RANGE);
    expect(answer.empty).toBe(false);
    const [sources, totals] = answer.tables;
    expect(sources?.columns.slice(0, 8)).toEqual(['source', 'type', 'clicks', 'installs', 'conversion_rate', 'cost', 'revenue', 'roi']);
    expect(sources?.rows.find((r) => r[0] === 'Networks')?.slice(2, 8)).toEqual([10, 5, 0.5, 265, 50, Math.round(((50 - 265) / 265) * 10_000) / 10_000]);
    expect(sources?.rows.at(-1)?.slice(0, 4)).toEqual(['Organic', '', 0, 1]);
    expect(totals?.rows[0]?.slice(0, 5)).toEqual(['current', '2026-03-10', '2026-03-16', 10, 7]);
  });
});
