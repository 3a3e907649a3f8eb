/**
 * The acquisition model (issue 16): the enumerations of SPEC.md section 3 (Events, metrics and
 * attribution) and the shapes every acquisition piece shares. The database side is
 * migrations/040_acquisition.sql; the contract between the pieces is docs/design/acquisition.md.
 */
import { z } from 'zod';
import { isAppSchemeUrl, isPublicUrl } from '../formats.ts';

/** SPEC §3 "Source types". */
export const SourceType = z.enum(['inbound', 'custom', 'adnetwork', 'retargeting', 'agency', 'auto']);
export type SourceType = z.infer<typeof SourceType>;

/** SPEC §3 "Pricing models". */
export const PricingModel = z.enum(['cpc', 'cpi', 'cpl', 'cpa', 'fixed']);
export type PricingModel = z.infer<typeof PricingModel>;

/** SPEC §3 "Attribution: last click or unique click". */
export const AttributionMode = z.enum(['last_click', 'unique_click']);
export type AttributionMode = z.infer<typeof AttributionMode>;

/**
 * SPEC §3 "Ad providers (by kind)": social ad platforms, search ad platforms, an app-store search
 * ad service, short-video ad platforms, a dating-app ad platform, a petal ad service, a trade-desk
 * platform, a microsoft ad service and a retail ad service; 'other' for the rest. An account's
 * own provider may also be an 'agency'.
 */
export const AdProviderKind = z.enum(['social', 'search', 'appStoreSearch', 'shortVideo', 'dating', 'petal', 'tradeDesk', 'microsoft', 'retail', 'other']);
export type AdProviderKind = z.infer<typeof AdProviderKind>;
export const AccountProviderKind = z.enum([...AdProviderKind.options, 'agency']);
export type AccountProviderKind = z.infer<typeof AccountProviderKind>;

export const CampaignStatus = z.enum(['active', 'paused', 'archived']);
export type CampaignStatus = z.infer<typeof CampaignStatus>;

export const LinkKind = z.enum(['tracking', 'powlink']);
export type LinkKind = z.infer<typeof LinkKind>;

/** Where a click comes from, as the link host reads its user agent. */
export const ClickPlatform = z.enum(['ios', 'android', 'desktop']);
export type ClickPlatform = z.infer<typeof ClickPlatform>;

export const AttributionKind = z.enum(['install', 'reinstall', 'retargeting_open']);
export type AttributionKind = z.infer<typeof AttributionKind>;

/** How an attribution found its click: SPEC §3 device id first, then referrer, then fingerprint. */
export const MatchKind = z.enum(['device_id', 'referrer', 'fingerprint', 'organic']);
export type MatchKind = z.infer<typeof MatchKind>;

/** SPEC §3 "Organic source label". */
export const ORGANIC_LABEL = 'Organic';

/** SPEC §3 "Tracking link parameters": aaid, cid, event_id, idfa, idfv, p1 to p9, referrer, sid, tid. */
export const TRACKING_LINK_PARAMS = [
  'aaid', 'cid', 'event_id', 'idfa', 'idfv', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7', 'p8', 'p9', 'referrer', 'sid', 'tid',
] as const;
export type TrackingLinkParam = (typeof TRACKING_LINK_PARAMS)[number];

/**
 * SPEC §3 "Macros" of provider postbacks: exid, camid, app_name, app_cats, dp, udid, ip, device,
 * country, customer_id, user_id, click_id, campaign_id, network_id, provider_id, order_id, amount,
 * random, unix_time, eat_sub1 to eat_sub25.
 */
export const POSTBACK_MACROS = [
  'exid', 'camid', 'app_name', 'app_cats', 'dp', 'udid', 'ip', 'device', 'country', 'customer_id', 'user_id',
  'click_id', 'campaign_id', 'network_id', 'provider_id', 'order_id', 'amount', 'random', 'unix_time',
  ...Array.from({ length: 25 }, (_, i) => `eat_sub${i + 1}`),
] as const;
export type PostbackMacro = (typeof POSTBACK_MACROS)[number];

/** Attribution windows (SPEC §3 leaves them open; our defaults, as the leading trackers use). */
export const ATTRIBUTION_DEFAULTS = {
  /** A click counts for an install this many days back (per source). */
  lookbackDays: 7,
  /** Probabilistic matching (IP and user agent) only within this many hours of the click. */
  fingerprintHours: 24,
  /** A reinstall within this many days of the install re-attributes only to a newer click. */
  reattributionDays: 90,
} as const;

/** A web or store address on a link: http(s), public host (SPEC §5 URL). */
export const PublicUrl = z.string().trim().max(2048).refine((s) => isPublicUrl(s, ['http:', 'https:']), 'Expected an http(s) address on a public host');
/** A deep link: an app scheme (myapp://path) or a public http(s) universal link. */
export const DeepLink = z.string().trim().max(2048).refine((s) => isAppSchemeUrl(s) || isPublicUrl(s, ['http:', 'https:']), 'Expected an app link (myapp://...) or a public https address');

/** Where one platform's clicks go: the store, the deep link when the app is there, the web fallback. */
export const PlatformDestination = z.object({
  store: PublicUrl.optional(),
  deepLink: DeepLink.optional(),
  web: PublicUrl.optional(),
}).strict();
export type PlatformDestination = z.infer<typeof PlatformDestination>;

/** A link's or campaign's destinations; desktop has only a web address. */
export const AcqDestinations = z.object({
  ios: PlatformDestination.optional(),
  android: PlatformDestination.optional(),
  desktop: z.object({ web: PublicUrl.optional() }).strict().optional(),
}).strict();
export type AcqDestinations = z.infer<typeof AcqDestinations>;

/** Values of the tracking link parameters fixed on a link. */
export const TrackingParams = z.partialRecord(z.enum(TRACKING_LINK_PARAMS), z.string().trim().max(256));
export type TrackingParams = z.infer<typeof TrackingParams>;
