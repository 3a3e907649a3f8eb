/**
 * What a provider postback sends (pure): the SPEC §3 macro values of an attributed install or event
 * (their meaning: shared/src/acquisition/macros.ts) and the request (method, URL, body) fixed when
 * the postback is queued, so every attempt sends the same bytes.
 *
 * - Install postbacks: the provider's install URL with its macros filled; GET sends nothing else,
 *   POST sends an empty form body.
 * - Event postbacks (trackers): the tracker's URL (else the provider's event URL) with its macros
 *   filled, plus parameters: `event=<the provider's event name>` when the tracker names one, and each
 *   macro the tracker lists as `<macro>=<value>`; in the query for GET, as a form body
 *   (`application/x-www-form-urlencoded`) for POST (SPEC §9: POST by default).
 */
import { createHash } from 'node:crypto';
import { fillPostbackUrl, isPostbackMacro, type MacroValues } from '@gd/shared/acquisition/macros';

export interface PostbackFacts {
  appName: string;
  /** The app's category names in alphabetical order, comma separated ('' for none; categories/repository.ts). */
  appCategories: string;
  personId: string;
  customerId: string | null;
  personIp: string | null;
  personCountry: string | null;
  deviceKey: string | null;
  idfa: string | null;
  idfv: string | null;
  gaid: string | null;
  oaid: string | null;
  model: string | null;
  clickId: string | null;
  clickIp: string | null;
  clickCountry: string | null;
  clickDevice: string | null;
  clickParams: Record<string, unknown> | null;
  campaignId: string;
  sourceId: string | null;
  providerId: string;
  deepLink: string | null;
  /** The install's (or event's) time. */
  at: Date;
  event?: { properties: Record<string, unknown>; revenue: number | null } | undefined;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : null);

/** A number fixed by the postback's key: the same on every attempt, different between postbacks. */
export function postbackRandom(key: string): string {
  return String(parseInt(createHash('sha256').update(`acq-postback:${key}`).digest('hex').slice(0, 12), 16) % 1_000_000_000);
}

export function macroValues(f: PostbackFacts, key: string): MacroValues {
  const params = f.clickParams ?? {};
  const props = f.event?.properties ?? {};
  const values: MacroValues = {
    exid: str(params.tid), camid: str(params.cid), app_name: f.appName, app_cats: f.appCategories, dp: f.deepLink,
    udid: f.idfa ?? f.gaid ?? f.oaid ?? f.idfv ?? f.deviceKey,
    ip: f.personIp ?? f.clickIp, device: f.model ?? f.clickDevice, country: f.personCountry ?? f.clickCountry,
    customer_id: f.customerId, user_id: f.personId, click_id: f.clickId, campaign_id: f.campaignId, network_id: f.sourceId,
    provider_id: f.providerId, order_id: str(props.order_id), amount: f.event?.revenue ?? null,
    random: postbackRandom(key), unix_time: Math.floor(f.at.getTime() / 1000),
  };
  for (let i = 1; i <= 25; i++) {
    const name = `eat_sub${i}` as const;
    values[name] = str(props[name]) ?? (i <= 9 ? str(params[`p${i}`]) : null);
  }
  return values;
}

export interface PostbackRequest { method: 'GET' | 'POST'; url: string; body: string | null }

/** The request of a postback (see the module doc). Throws when the filled template is no URL. */
export function buildRequest(template: string, method: 'GET' | 'POST', values: MacroValues, extra: { event?: string | null; macros?: readonly string[] } = {}): PostbackRequest {
  const url = new URL(fillPostbackUrl(template.trim(), values));
  const params = new URLSearchParams();
  if (extra.event) params.append('event', extra.event);
  for (const m of extra.macros ?? []) {
    if (!isPostbackMacro(m)) continue;
    const v = values[m];
    params.append(m, v === null || v === undefined ? '' : String(v));
  }
  if (method === 'GET') {
    for (const [k, v] of params) url.searchParams.append(k, v);
    return { method, url: url.toString(), body: null };
  }
  return { method, url: url.toString(), body: params.toString() };
}
