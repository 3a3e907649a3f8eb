/**
 * The attribution rules (issue 16, docs/design/acquisition.md piece C) as a pure reference
 * function over clicks held in memory. The API's engine (api-server/src/features/attribution/
 * engine.ts) applies the same rules in set-based SQL; `engine.int.test.ts` runs both on generated
 * cases and they must agree.
 *
 * For one install, reinstall or retargeting open (`PendingTouch`):
 *
 * 1. Eligible clicks: the same app's counted clicks (`bot` false) of a source the kind may use
 *    (installs: every type but `retargeting`; reinstalls: every type; retargeting opens: only
 *    `retargeting`), clicked inside their own source's lookback window before the event:
 *    `eventTime - lookbackDays × 86,400 s <= clickedAt <= eventTime`. Both edges are inclusive, to
 *    the millisecond: a click exactly `lookbackDays` days before counts, one a second older does not.
 * 2. Matching, in tiers (SPEC §3): `device_id` (the click's idfa, idfv, gaid or oaid equals the
 *    device's), then `referrer` (the click's id is the one the install referrer carried), then
 *    `fingerprint` (same IP and same user agent, the click at most 24 h before, its source with
 *    fingerprinting on). Only the first tier that finds anything is used.
 * 3. The winner among that tier's clicks is the newest (ties: the greater click id), after the
 *    source's mode is applied: `last_click` counts every click; `unique_click` counts only the
 *    first click of the device on each campaign (later repeats of a campaign it already clicked
 *    are duplicates, never credited), so a device that clicked A, then B, then A again is credited
 *    to A in last-click mode and to B in unique-click mode.
 * 4. `assisted`: the other matched clicks (any tier) of other campaigns than the winner's, oldest first.
 * 5. Nothing matched: Organic (no campaign, match `organic`, mode `last_click`).
 * 6. Reinstalls: only clicks after the device's original install (`previousInstall`) may
 *    re-attribute it; without one, a reinstall within the original install's source's
 *    re-attribution window (`reinstall time - install time <= reattributionDays × 86,400 s`) keeps
 *    the original attribution (campaign, click, match); outside it, or when the original was
 *    Organic, it is Organic.
 */
import type { AttributionKind, AttributionMode, MatchKind, SourceType } from './model.ts';
import { ATTRIBUTION_DEFAULTS } from './model.ts';

export const DAY_MS = 86_400_000;
export const FINGERPRINT_MS = ATTRIBUTION_DEFAULTS.fingerprintHours * 3_600_000;

export interface RefSource {
  id: string;
  type: SourceType;
  attribution: AttributionMode;
  lookbackDays: number;
  reattributionDays: number;
  fingerprint: boolean;
}

export interface DeviceIds {
  idfa?: string | null;
  idfv?: string | null;
  gaid?: string | null;
  oaid?: string | null;
}

export interface RefClick extends DeviceIds {
  id: string;
  appId: string;
  campaignId: string;
  sourceId: string;
  clickedAt: Date;
  ip: string | null;
  userAgent: string | null;
  bot: boolean;
}

export interface PendingTouch {
  appId: string;
  kind: AttributionKind;
  eventTime: Date;
  device: DeviceIds;
  ip: string | null;
  userAgent: string | null;
  referrerClickId: string | null;
}

export interface RefAttribution {
  campaignId: string | null;
  sourceId: string | null;
  clickId: string | null;
  clickedAt: Date | null;
  match: MatchKind;
  mode: AttributionMode;
  /** Click ids, oldest first. */
  assisted: string[];
}

export const ORGANIC: RefAttribution = { campaignId: null, sourceId: null, clickId: null, clickedAt: null, match: 'organic', mode: 'last_click', assisted: [] };

const ID_KINDS = ['idfa', 'idfv', 'gaid', 'oaid'] as const;

/** Whether a source of this type may be credited with this kind of touch. */
export function sourceServes(kind: AttributionKind, type: SourceType): boolean {
  if (kind === 'retargeting_open') return type === 'retargeting';
  if (kind === 'install') return type !== 'retargeting';
  return true;
}

const TIERS = ['device_id', 'referrer', 'fingerprint'] as const;
type Tier = (typeof TIERS)[number];

function tierOf(click: RefClick, source: RefSource, touch: PendingTouch): Tier[] {
  const tiers: Tier[] = [];
  if (ID_KINDS.some((k) => click[k] != null && touch.device[k] != null && click[k] === touch.device[k])) tiers.push('device_id');
  if (touch.referrerClickId !== null && click.id === touch.referrerClickId) tiers.push('referrer');
  if (source.fingerprint && touch.ip !== null && touch.userAgent !== null && click.ip === touch.ip && click.userAgent === touch.userAgent
    && click.clickedAt.getTime() >= touch.eventTime.getTime() - FINGERPRINT_MS) tiers.push('fingerprint');
  return tiers;
}

/** Orders clicks by time, then id (the SQL's `ORDER BY clicked_at, id`; uuids compare as their lower-case text). */
const byTime = (a: RefClick, b: RefClick) => a.clickedAt.getTime() - b.clickedAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export interface AttributeOptions {
  /** For a reinstall: the device's original install (its latest install before the reinstall) and how it was attributed. */
  previousInstall?: { eventTime: Date; attribution: RefAttribution } | null;
}

/** Attributes one touch (see the module's comment). `sources` by id. */
export function attribute(touch: PendingTouch, clicks: readonly RefClick[], sources: ReadonlyMap<string, RefSource>, options: AttributeOptions = {}): RefAttribution {
  const t = touch.eventTime.getTime();
  const previous = touch.kind === 'reinstall' ? options.previousInstall ?? null : null;
  const after = previous ? previous.eventTime.getTime() : -Infinity;
  const matched: { click: RefClick; source: RefSource; tiers: Tier[] }[] = [];
  for (const click of clicks) {
    const source = sources.get(click.sourceId);
    if (!source || click.bot || click.appId !== touch.appId || !sourceServes(touch.kind, source.type)) continue;
    const at = click.clickedAt.getTime();
    if (at > t || at < t - source.lookbackDays * DAY_MS || at <= after) continue;
    const tiers = tierOf(click, source, touch);
    if (tiers.length) matched.push({ click, source, tiers });
  }
  const tier = TIERS.find((k) => matched.some((m) => m.tiers.includes(k)));
  if (!tier) {
    if (!previous || previous.attribution.campaignId === null) return ORGANIC;
    const src = previous.attribution.sourceId ? sources.get(previous.attribution.sourceId) : undefined;
    const window = (src?.reattributionDays ?? ATTRIBUTION_DEFAULTS.reattributionDays) * DAY_MS;
    return t - previous.eventTime.getTime() <= window ? { ...previous.attribution, assisted: [] } : ORGANIC;
  }
  const inTier = matched.filter((m) => m.tiers.includes(tier)).sort((a, b) => byTime(a.click, b.click));
  const firstOfCampaign = new Map<string, RefClick>();
  for (const m of inTier) if (!firstOfCampaign.has(m.click.campaignId)) firstOfCampaign.set(m.click.campaignId, m.click);
  const eligible = inTier.filter((m) => m.source.attribution === 'last_click' || firstOfCampaign.get(m.click.campaignId) === m.click);
  const winner = eligible.at(-1);
  if (!winner) return ORGANIC; // never: the first click of each campaign is always eligible
  const assisted = [...new Map(matched.filter((m) => m.click.campaignId !== winner.click.campaignId).map((m) => [m.click.id, m.click])).values()]
    .sort(byTime).map((c) => c.id);
  return {
    campaignId: winner.click.campaignId, sourceId: winner.click.sourceId, clickId: winner.click.id, clickedAt: winner.click.clickedAt,
    match: tier, mode: winner.source.attribution, assisted,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The click id an install carries: its `gd_click` property (the web SDK reads it from the landing
 * address), else the `gd_click` of its `referrer` property (Google Play's install referrer,
 * `gd_click=<id>&...`, possibly URL-encoded once more), else a `referrer` that is itself a click id.
 */
export function referrerClickId(properties: Readonly<Record<string, unknown>> | null | undefined): string | null {
  if (!properties) return null;
  const direct = properties.gd_click;
  if (typeof direct === 'string' && UUID.test(direct.trim())) return direct.trim().toLowerCase();
  const referrer = properties.referrer;
  if (typeof referrer !== 'string') return null;
  let text = referrer.trim();
  for (let i = 0; i < 2; i++) {
    if (UUID.test(text)) return text.toLowerCase();
    const id = new URLSearchParams(text.replace(/^\?/, '')).get('gd_click')?.trim();
    if (id && UUID.test(id)) return id.toLowerCase();
    try {
      text = decodeURIComponent(text);
    } catch {
      return null;
    }
  }
  return null;
}
