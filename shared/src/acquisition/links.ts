/**
 * Links of the link host (issue 16, piece B), as pure rules both sides apply: the address of a
 * short link with its tracking parameters (`linkUrl`), which parameters a click may carry, where a
 * click goes on each platform and how the click id travels on to the destination.
 *
 * Decisions (docs/design/acquisition.md "B"):
 * - A link's own destinations win over its campaign's, platform by platform and field by field.
 * - A tracking link on a phone goes to the platform's store, else its web fallback, else the
 *   desktop web address; on a desktop to the desktop web address, else a phone's web fallback.
 *   Its deep link (the link's, else the campaign's) is not opened by the redirect: it waits for
 *   the install and reaches the app as a deferred deep link (piece C).
 * - A powlink on a phone answers a small page that opens the deep link (the app is there) and
 *   falls back to the store, else the web fallback; without a deep link it redirects like a
 *   tracking link. On a desktop it goes to the web fallback.
 * - The click id travels on as `gd_click=<id>` to web fallbacks and deep links (plus the deep link
 *   itself as `gd_dl` on a web fallback, so a web app can hand it over), and to Google Play as the
 *   install referrer `referrer=gd_click%3D<id>`. Other stores get the address unchanged.
 */
import { TRACKING_LINK_PARAMS, type AcqDestinations, type ClickPlatform, type PlatformDestination, type TrackingParams } from './model.ts';

/** The device ids a network may fill in on a click (SPEC §3 device id types, less `auto`). */
export const CLICK_DEVICE_IDS = ['idfa', 'idfv', 'gaid', 'oaid'] as const;
export type ClickDeviceId = (typeof CLICK_DEVICE_IDS)[number];

/** Longest value of a parameter or device id a click keeps (longer ones are cut). */
export const CLICK_VALUE_MAX = 256;

/** Query parameter names on destinations. */
export const CLICK_ID_PARAM = 'gd_click';
export const DEEP_LINK_PARAM = 'gd_dl';

/** A short code: letters, digits, '_' and '-', 3 to 64 characters (generated ones are 8). */
export const LINK_CODE_PATTERN = /^[A-Za-z0-9_-]{3,64}$/;
export const GENERATED_CODE_LENGTH = 8;

/**
 * The address of a short link: `<base>/<code>`, plus the given parameters (empty values left out)
 * in SPEC §3's order for the tracking parameters, then any others in the order given.
 */
export function linkUrl(baseUrl: string, code: string, params?: Readonly<Record<string, string | null | undefined>>): string {
  const base = `${baseUrl.replace(/\/+$/, '')}/${encodeURIComponent(code)}`;
  if (!params) return base;
  const known: readonly string[] = TRACKING_LINK_PARAMS;
  const names = [
    ...TRACKING_LINK_PARAMS.filter((name) => params[name] != null && params[name] !== ''),
    ...Object.keys(params).filter((name) => !known.includes(name) && params[name] != null && params[name] !== ''),
  ];
  if (names.length === 0) return base;
  const query = new URLSearchParams();
  for (const name of names) query.append(name, String(params[name]));
  return `${base}?${query.toString()}`;
}

/**
 * What a click carries in its query: the tracking parameters (SPEC §3; the link's own values are
 * the defaults, the click's win) and the device ids. Values are trimmed, cut to CLICK_VALUE_MAX,
 * and empty ones dropped; anything else in the query is ignored.
 */
export function clickValues(query: URLSearchParams, fixed: TrackingParams = {}): { params: Record<string, string>; ids: Partial<Record<ClickDeviceId, string>> } {
  const params: Record<string, string> = {};
  for (const name of TRACKING_LINK_PARAMS) {
    const value = clean(query.get(name)) ?? clean(fixed[name]);
    if (value !== undefined) params[name] = value;
  }
  const ids: Partial<Record<ClickDeviceId, string>> = {};
  for (const name of CLICK_DEVICE_IDS) {
    // idfa also comes as a tracking parameter; aaid is Android's advertising id (= gaid).
    const value = clean(query.get(name)) ?? (name === 'gaid' ? clean(query.get('aaid')) : undefined) ?? (name === 'idfa' || name === 'idfv' ? clean(fixed[name]) : undefined);
    if (value !== undefined && !ZERO_ID.test(value)) ids[name] = value;
  }
  return { params, ids };
}

/** An advertising id of zeros: what a device that limits ad tracking reports; never an id. */
const ZERO_ID = /^[0-]+$/;
/** Unfilled macros a network left in the address ({idfa}, __IDFA__, $idfa, %%IDFA%%). */
const UNFILLED = /^(\{[^}]*\}|__[A-Z0-9_]+__|\$[a-z_]+|%%[A-Z0-9_]+%%)$/i;

function clean(value: string | null | undefined): string | undefined {
  if (value == null) return undefined;
  const trimmed = value.trim().slice(0, CLICK_VALUE_MAX);
  return trimmed === '' || UNFILLED.test(trimmed) ? undefined : trimmed;
}

/** A link's destinations over its campaign's, platform by platform and field by field. */
export function mergeDestinations(link: AcqDestinations, campaign: AcqDestinations = {}): AcqDestinations {
  const merged: AcqDestinations = {};
  for (const platform of ['ios', 'android'] as const) {
    const value = { ...campaign[platform], ...link[platform] };
    if (Object.keys(value).length) merged[platform] = value;
  }
  const desktop = { ...campaign.desktop, ...link.desktop };
  if (Object.keys(desktop).length) merged.desktop = desktop;
  return merged;
}

/**
 * The destinations with a landing page as the web fallback on every platform (issue 17): a
 * link's published landing replaces the web addresses of the link and its campaign; stores and
 * deep links stay. Without a landing, the destinations unchanged.
 */
export function withLandingFallback(destinations: AcqDestinations, landingAddress: string | null | undefined): AcqDestinations {
  if (!landingAddress) return destinations;
  return {
    ios: { ...destinations.ios, web: landingAddress },
    android: { ...destinations.android, web: landingAddress },
    desktop: { web: landingAddress },
  };
}

/** Whether the destinations send at least one platform somewhere. */
export function hasDestination(destinations: AcqDestinations): boolean {
  const { ios, android, desktop } = destinations;
  return !!(ios?.store || ios?.web || android?.store || android?.web || desktop?.web);
}

/** The address with `name=value` set in its query (fragment kept). Works for app schemes too. */
export function withQueryParam(address: string, name: string, value: string): string {
  const hashAt = address.indexOf('#');
  const head = hashAt < 0 ? address : address.slice(0, hashAt);
  const hash = hashAt < 0 ? '' : address.slice(hashAt);
  const pair = `${encodeURIComponent(name)}=${encodeURIComponent(value)}`;
  return `${head}${head.includes('?') ? (/[?&]$/.test(head) ? '' : '&') : '?'}${pair}${hash}`;
}

/** A Google Play address (the store that reads the install referrer). */
export function isGooglePlay(address: string): boolean {
  try {
    const url = new URL(address);
    return url.hostname === 'play.google.com' || url.protocol === 'market:';
  } catch {
    return false;
  }
}

/** The store address with the click id: the install referrer on Google Play, unchanged elsewhere. */
export function storeWithClick(store: string, clickId: string): string {
  return isGooglePlay(store) ? withQueryParam(store, 'referrer', `${CLICK_ID_PARAM}=${clickId}`) : store;
}

/** The web fallback with the click id and, when there is one, the deep link the app would get. */
export function webWithClick(web: string, clickId: string, deepLink?: string | null): string {
  const withClick = withQueryParam(web, CLICK_ID_PARAM, clickId);
  return deepLink ? withQueryParam(withClick, DEEP_LINK_PARAM, deepLink) : withClick;
}

/** The deep link with the click id, so the app that opens it knows the click. */
export function deepLinkWithClick(deepLink: string, clickId: string): string {
  return withQueryParam(deepLink, CLICK_ID_PARAM, clickId);
}

/** Where a click goes: a plain redirect, a page that tries the app first, or nowhere (404). */
export type ClickTarget =
  | { kind: 'redirect'; url: string }
  | { kind: 'open'; deepLink: string; fallback: string; intent?: string }
  | { kind: 'none' };

export interface TargetInput {
  kind: 'tracking' | 'powlink';
  platform: ClickPlatform;
  /** Already merged (mergeDestinations). */
  destinations: AcqDestinations;
  /** The link's deep link, else the campaign's. */
  deepLink?: string | null;
  clickId: string;
}

/** The destination of one click (see the module's decisions). */
export function clickTarget({ kind, platform, destinations, deepLink, clickId }: TargetInput): ClickTarget {
  const desktopWeb = destinations.desktop?.web;
  if (platform === 'desktop') {
    const web = desktopWeb ?? destinations.ios?.web ?? destinations.android?.web;
    return web ? { kind: 'redirect', url: webWithClick(web, clickId, deepLink) } : { kind: 'none' };
  }
  const phone: PlatformDestination = destinations[platform] ?? {};
  const store = phone.store ? storeWithClick(phone.store, clickId) : undefined;
  const webAddress = phone.web ?? desktopWeb;
  const web = webAddress ? webWithClick(webAddress, clickId, deepLink) : undefined;
  const fallback = store ?? web;
  const appLink = phone.deepLink ?? deepLink ?? undefined;
  if (kind === 'powlink' && appLink) {
    const opened = deepLinkWithClick(appLink, clickId);
    const fallbackUrl = fallback ?? opened;
    if (platform === 'android') {
      const intent = androidIntent(opened, fallbackUrl, phone.store ? playPackage(phone.store) : undefined);
      return intent ? { kind: 'open', deepLink: opened, fallback: fallbackUrl, intent } : { kind: 'open', deepLink: opened, fallback: fallbackUrl };
    }
    return { kind: 'open', deepLink: opened, fallback: fallbackUrl };
  }
  return fallback ? { kind: 'redirect', url: fallback } : { kind: 'none' };
}

/** The app's package named by a Google Play address (`?id=com.example.app`). */
export function playPackage(store: string): string | undefined {
  try {
    const id = new URL(store).searchParams.get('id');
    return id && /^[A-Za-z0-9_.]+$/.test(id) ? id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * An Android `intent:` address for an app-scheme deep link: Chrome opens the app when it is
 * installed and otherwise goes to `S.browser_fallback_url`. None for http(s) deep links (App Links
 * open from the address itself).
 */
export function androidIntent(deepLink: string, fallback: string, pkg?: string): string | undefined {
  const match = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/(.*)$/.exec(deepLink);
  if (!match || /^https?$/i.test(match[1] ?? '')) return undefined;
  const [, scheme, rest] = match;
  const extras = [`scheme=${scheme}`, ...(pkg ? [`package=${pkg}`] : []), `S.browser_fallback_url=${encodeURIComponent(fallback)}`];
  return `intent://${rest}#Intent;${extras.join(';')};end`;
}
