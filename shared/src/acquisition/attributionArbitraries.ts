/**
 * Generated attribution worlds (fast-check): a few sources, campaigns, clicks and devices with an
 * install, maybe a reinstall and a retargeting open, drawn from small pools of device ids, IPs and
 * user agents so that matches, ties of tiers and window edges happen often. Used by the property
 * tests and by the API's differential test (the SQL engine against `attribute`).
 */
import fc from 'fast-check';
import { DAY_MS, attribute, type DeviceIds, type PendingTouch, type RefAttribution, type RefClick, type RefSource } from './attribution.ts';
import { AttributionMode, SourceType } from './model.ts';

export const WORLD_T0 = Date.parse('2026-11-20T12:00:00.000Z');

export interface WorldDevice { key: string; ids: DeviceIds; ip: string; userAgent: string; install: number; reinstall: number | null; open: number | null; referrer: string | null }
export interface World { sources: RefSource[]; campaigns: { id: string; sourceId: string }[]; clicks: RefClick[]; devices: WorldDevice[] }

const IPS = ['203.0.113.1', '203.0.113.2', '198.51.100.3'];
const UAS = ['Mozilla/5.0 (iPhone)', 'Mozilla/5.0 (Linux; Android 14)'];
const pool = (prefix: string) => fc.oneof({ arbitrary: fc.constant(null), weight: 2 }, { arbitrary: fc.constantFrom(`${prefix}-1`, `${prefix}-2`, `${prefix}-3`), weight: 1 });
const ids = fc.record({ idfa: pool('idfa'), idfv: pool('idfv'), gaid: pool('gaid'), oaid: pool('oaid') });
/** The i-th element, round the list (lists here are never empty). */
const pick = <T>(list: readonly T[], i: number): T => list[i % list.length] as T;
const uuidOf = (kind: number, i: number) => `00000000-0000-4000-8${kind}00-${String(i).padStart(12, '0')}`;
/** Seconds around T0, with the lookback edges (whole days) drawn often. */
const offset = fc.oneof(fc.integer({ min: -12 * 86_400, max: 0 }), fc.integer({ min: 1, max: 12 }).map((d) => -d * 86_400), fc.integer({ min: 1, max: 12 }).map((d) => -d * 86_400 - 1));

export const arbWorld = (appId: string, t0: number = WORLD_T0): fc.Arbitrary<World> => fc.record({
  sources: fc.array(fc.record({
    type: fc.constantFrom(...SourceType.options), attribution: fc.constantFrom(...AttributionMode.options),
    lookbackDays: fc.integer({ min: 1, max: 10 }), reattributionDays: fc.integer({ min: 0, max: 5 }), fingerprint: fc.boolean(),
  }), { minLength: 1, maxLength: 3 }),
  campaignSources: fc.array(fc.nat(), { minLength: 1, maxLength: 4 }),
  clicks: fc.array(fc.record({
    campaign: fc.nat(), at: offset, near: fc.option(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 30 * 3600 })), { nil: null }), ids, ip: fc.constantFrom(...IPS), ua: fc.constantFrom(...UAS), bot: fc.integer({ min: 0, max: 9 }).map((x) => x < 2),
  }), { maxLength: 14 }),
  devices: fc.array(fc.record({
    ids, ip: fc.constantFrom(...IPS), ua: fc.constantFrom(...UAS), install: fc.integer({ min: -3 * 86_400, max: 3 * 86_400 }),
    reinstallAfter: fc.option(fc.integer({ min: 1, max: 8 * 86_400 }), { nil: null }), openAfter: fc.option(fc.integer({ min: 1, max: 3 * 86_400 }), { nil: null }),
    referrer: fc.oneof({ arbitrary: fc.constant(null), weight: 3 }, { arbitrary: fc.nat(), weight: 1 }),
  }), { minLength: 1, maxLength: 4 }),
}).map((w) => {
  const sources: RefSource[] = w.sources.map((s, i) => ({ id: uuidOf(1, i), ...s }));
  const campaigns = w.campaignSources.map((s, i) => ({ id: uuidOf(2, i), sourceId: pick(sources, s).id }));
  // A click is drawn at a time of its own, or shortly before a device's install (fingerprints, 24 h).
  const clicks: RefClick[] = w.clicks.map((c, i) => {
    const campaign = pick(campaigns, c.campaign);
    const at = c.near ? t0 + (pick(w.devices, c.near[0]).install - c.near[1]) * 1000 : t0 + c.at * 1000;
    return { id: uuidOf(3, i), appId, campaignId: campaign.id, sourceId: campaign.sourceId, clickedAt: new Date(at), ip: c.ip, userAgent: c.ua, bot: c.bot, ...c.ids };
  });
  const devices: WorldDevice[] = w.devices.map((d, i) => ({
    key: `device-${i}`, ids: d.ids, ip: d.ip, userAgent: d.ua, install: t0 + d.install * 1000,
    reinstall: d.reinstallAfter === null ? null : t0 + (d.install + d.reinstallAfter) * 1000,
    open: d.openAfter === null ? null : t0 + (d.install + d.openAfter) * 1000,
    referrer: d.referrer === null || clicks.length === 0 ? null : pick(clicks, d.referrer).id,
  }));
  return { sources, campaigns, clicks, devices };
});

export interface ExpectedTouch { device: string; kind: PendingTouch['kind']; eventTime: number; attribution: RefAttribution }

/** What the reference function answers for every touch of the world, in the engine's order (install, then reinstall, then the open). */
export function expectedOf(world: World, appId: string): ExpectedTouch[] {
  const sources = new Map(world.sources.map((s) => [s.id, s]));
  const out: ExpectedTouch[] = [];
  for (const d of world.devices) {
    const base = { appId, device: d.ids, ip: d.ip, userAgent: d.userAgent, referrerClickId: d.referrer };
    const install = attribute({ ...base, kind: 'install', eventTime: new Date(d.install) }, world.clicks, sources);
    out.push({ device: d.key, kind: 'install', eventTime: d.install, attribution: install });
    if (d.reinstall !== null) {
      const re = attribute({ ...base, kind: 'reinstall', eventTime: new Date(d.reinstall) }, world.clicks, sources, { previousInstall: { eventTime: new Date(d.install), attribution: install } });
      out.push({ device: d.key, kind: 'reinstall', eventTime: d.reinstall, attribution: re });
    }
    if (d.open !== null) {
      out.push({ device: d.key, kind: 'retargeting_open', eventTime: d.open, attribution: attribute({ ...base, kind: 'retargeting_open', eventTime: new Date(d.open) }, world.clicks, sources) });
    }
  }
  return out;
}

export { DAY_MS };
