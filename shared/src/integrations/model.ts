/**
 * Integrations (SPEC.md section 3, "Integrations (by kind)"): the names every piece of issue 17
 * shares. The contract is docs/design/integrations.md; the table is migration 047.
 *
 * An integration belongs to one app. Its kind says what the product does with it; its service is
 * the outside product it talks to (each service has fixed protocol shapes and configurable
 * endpoints, so tests and self-hosted deployments point it at their own servers); its auth is how
 * it signs in:
 * - `basic`: a user name and password (or API key as password) sent as HTTP Basic;
 * - `oauth2`: the authorization-code flow with state and PKCE (S256) against the service's
 *   authorize and token endpoints; tokens are sealed and refreshed before they expire;
 * - `keys`: an access key pair signing requests (object storage, S3 signature v4).
 *
 * Decision (SPEC lists eight integration kinds; the audience share entries name a trade-desk
 * platform too): a ninth kind `trade_desk` holds the credentials an audience shared to a trade
 * desk is uploaded with.
 */
import { z } from 'zod';

export const IntegrationKind = z.enum([
  'product_analytics', 'crm', 'social_ads', 'search_ads', 'object_storage', 'experience_platform',
  'tag_manager', 'retail_dsp', 'trade_desk',
]);
export type IntegrationKind = z.infer<typeof IntegrationKind>;

export const IntegrationAuth = z.enum(['basic', 'oauth2', 'keys']);
export type IntegrationAuth = z.infer<typeof IntegrationAuth>;

export const IntegrationStatus = z.enum(['pending', 'connected', 'error', 'disconnected']);
export type IntegrationStatus = z.infer<typeof IntegrationStatus>;

/** Retail demand-side platform regions and event types (SPEC §3). */
export const RetailRegion = z.enum(['NorthAmerica', 'Europe', 'AsiaPacific']);
export type RetailRegion = z.infer<typeof RetailRegion>;
export const RetailEventType = z.enum([
  'ADD_TO_SHOPPING_CART', 'APPLICATION', 'CHECKOUT', 'CONTACT', 'LEAD', 'OFF_AMAZON_PURCHASES', 'PAGE_VIEW',
  'SEARCH', 'SIGN_UP', 'SUBSCRIBE', 'OTHER',
]);
export type RetailEventType = z.infer<typeof RetailEventType>;

/**
 * The services, by kind. `auth` lists the sign-ins the service accepts (the first is the default);
 * `connectionFailCode` is the catalogue code a failed connection test or authorisation answers
 * (SPEC §8: 10024 search-ad connection fail, 10047 short-video ads connection fail, 10009 OAuth
 * error for the others). `share` names the audience share entry (permission
 * `ui:audience.share<Social|SearchAds|TradeDesk>`) the service can receive audiences for.
 */
export interface ServiceDef {
  kind: IntegrationKind;
  auth: readonly IntegrationAuth[];
  connectionFailCode: number;
  share?: 'social' | 'searchAds' | 'tradeDesk';
}

export const INTEGRATION_SERVICES = {
  amplitude: { kind: 'product_analytics', auth: ['basic'], connectionFailCode: 10009 },
  mixpanel: { kind: 'product_analytics', auth: ['basic'], connectionFailCode: 10009 },
  salesforce: { kind: 'crm', auth: ['oauth2'], connectionFailCode: 10009 },
  hubspot: { kind: 'crm', auth: ['oauth2'], connectionFailCode: 10009 },
  meta_ads: { kind: 'social_ads', auth: ['oauth2'], connectionFailCode: 10009, share: 'social' },
  tiktok_ads: { kind: 'social_ads', auth: ['oauth2'], connectionFailCode: 10047, share: 'social' },
  google_ads: { kind: 'search_ads', auth: ['oauth2'], connectionFailCode: 10024, share: 'searchAds' },
  s3: { kind: 'object_storage', auth: ['keys'], connectionFailCode: 10009 },
  adobe_experience_platform: { kind: 'experience_platform', auth: ['oauth2'], connectionFailCode: 10009 },
  google_tag_manager: { kind: 'tag_manager', auth: ['oauth2'], connectionFailCode: 10009 },
  amazon_dsp: { kind: 'retail_dsp', auth: ['oauth2'], connectionFailCode: 10009 },
  the_trade_desk: { kind: 'trade_desk', auth: ['basic'], connectionFailCode: 10009, share: 'tradeDesk' },
} as const satisfies Record<string, ServiceDef>;

export type IntegrationService = keyof typeof INTEGRATION_SERVICES;
export const IntegrationService = z.enum(Object.keys(INTEGRATION_SERVICES) as [IntegrationService, ...IntegrationService[]]);

export const servicesOfKind = (kind: IntegrationKind): IntegrationService[] =>
  (Object.keys(INTEGRATION_SERVICES) as IntegrationService[]).filter((s) => INTEGRATION_SERVICES[s].kind === kind);

/** The services an audience can be shared to through the given share entry. */
export const shareServices = (share: 'social' | 'searchAds' | 'tradeDesk'): IntegrationService[] =>
  (Object.keys(INTEGRATION_SERVICES) as IntegrationService[]).filter((s) => (INTEGRATION_SERVICES[s] as ServiceDef).share === share);

/** An OAuth 2 authorisation started and not finished is refused after this long (and its state with it). */
export const OAUTH_STATE_TTL_SECONDS = 600;
/** Tokens are refreshed when they expire within this many seconds (on use, and by the worker's refresher). */
export const TOKEN_REFRESH_MARGIN_SECONDS = 300;
