/**
 * Integrations of an app (/manage/integrations; model: integrations/model.ts, contract:
 * docs/design/integrations.md). What is sent and answered.
 *
 * - The input is a union on `service`: each service has its own settings (`config`, never a
 *   secret) and its own write-only secrets (`secrets`). Secrets are never answered: an answer says
 *   which are stored (`secretsSet`). On update, a secret left out keeps the stored one.
 * - Every service has `baseUrl` (its API base, the real service's public address by default,
 *   SERVICE_DEFAULTS); OAuth 2 services also `authorizeUrl`, `tokenUrl` (defaults too), `clientId`
 *   and `scopes`; ad services `adAccountId`; the experience platform `techId`, `imsOrgId`, `imsHost`
 *   and `metaScopes`; the retail demand-side platform `region`, `eventTypes` and `advertiserId`;
 *   object storage `endpoint`, `region`, `bucket` and `accessKeyId`; the trade desk `advertiserId`.
 *
 * Decisions where SPEC is silent ("not shown"):
 * - Basic and key sign-ins are saved `connected` (the credentials are there; a failed test or use
 *   sets `error` with the reason); OAuth 2 ones `pending` until authorised. Status `error` keeps the
 *   catalogue code and the service's reason, shown on the screen.
 * - Editing an OAuth 2 client (id, endpoints, scopes) drops its tokens (authorise again); a new
 *   client secret alone keeps them. The service of an integration never changes (add another).
 * - Disconnect drops the tokens and keeps the settings and client secret.
 * - The connection test reads one small resource of each service (SERVICE_DEFAULTS testPath); ad
 *   services must list the configured ad account (else 13).
 * - A token answer without `expires_in` is taken as valid one hour; tokens are refreshed on use
 *   when they expire within TOKEN_REFRESH_MARGIN_SECONDS, and by the worker within twice that.
 * - An OAuth 2 state is valid OAUTH_STATE_TTL_SECONDS, for the user who started it, used once.
 * - The adobe import names the platform's segment (adobeSegmentId) besides SPEC's adobeId, and an
 *   id type (default customer id); members are read from the export API (integrations/adobeExport.ts).
 * - Journeys' integration postbacks post the body entries to the experience platform
 *   (journeyRun/postbacks.ts).
 * - Integrations belong to the app's plumbing: Client, Admin, Manager and Client P. manager edit
 *   them (`api:integrations.edit`); every role that sees the screen reads them.
 */
import { z } from 'zod';
import {
  IntegrationAuth, IntegrationKind, IntegrationService, IntegrationStatus, RetailEventType, RetailRegion,
} from '../integrations/model.ts';
import { Name } from './common.ts';

/** An http(s) address without credentials in it (the API also refuses private addresses). */
export function serviceUrlProblem(s: string): string | null {
  let url: URL;
  try {
    url = new URL(s);
  } catch {
    return 'Not a URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'The URL must start with https:// or http://';
  if (!url.hostname) return 'The URL has no host';
  if (url.username || url.password) return 'Credentials in the URL are not accepted';
  return null;
}
/** A path of this web app to come back to after OAuth: one leading slash (never `//host`, which a browser reads as another site). */
export const APP_PATH = /^\/(?!\/)[A-Za-z0-9/_-]*$/;

export const ServiceUrl = z.string().trim().min(1, 'Required').max(2048).superRefine((s, ctx) => {
  const problem = serviceUrlProblem(s);
  if (problem) ctx.addIssue({ code: 'custom', message: problem, params: { rule: 'url' } });
});

/**
 * The real services' public addresses, used when the form leaves them empty. Decision: the
 * connection test reads a small "who am I / which accounts" resource of each API (testPath).
 */
export const SERVICE_DEFAULTS: Record<IntegrationService, { baseUrl: string; authorizeUrl?: string; tokenUrl?: string; testPath: string }> = {
  amplitude: { baseUrl: 'https://amplitude.com/api/2', testPath: '/taxonomy/event' },
  mixpanel: { baseUrl: 'https://mixpanel.com/api', testPath: '/app/me' },
  salesforce: { baseUrl: 'https://login.salesforce.com', authorizeUrl: 'https://login.salesforce.com/services/oauth2/authorize', tokenUrl: 'https://login.salesforce.com/services/oauth2/token', testPath: '/services/oauth2/userinfo' },
  hubspot: { baseUrl: 'https://api.hubapi.com', authorizeUrl: 'https://app.hubspot.com/oauth/authorize', tokenUrl: 'https://api.hubapi.com/oauth/v1/token', testPath: '/account-info/v3/details' },
  meta_ads: { baseUrl: 'https://graph.facebook.com/v19.0', authorizeUrl: 'https://www.facebook.com/v19.0/dialog/oauth', tokenUrl: 'https://graph.facebook.com/v19.0/oauth/access_token', testPath: '/me/adaccounts' },
  tiktok_ads: { baseUrl: 'https://business-api.tiktok.com/open_api/v1.3', authorizeUrl: 'https://business-api.tiktok.com/portal/auth', tokenUrl: 'https://business-api.tiktok.com/open_api/v1.3/oauth2/access_token/', testPath: '/oauth2/advertiser/get/' },
  google_ads: { baseUrl: 'https://googleads.googleapis.com/v17', authorizeUrl: 'https://accounts.google.com/o/oauth2/v2/auth', tokenUrl: 'https://oauth2.googleapis.com/token', testPath: '/customers:listAccessibleCustomers' },
  s3: { baseUrl: 'https://s3.amazonaws.com', testPath: '/' },
  adobe_experience_platform: { baseUrl: 'https://platform.adobe.io', authorizeUrl: 'https://ims-na1.adobelogin.com/ims/authorize/v2', tokenUrl: 'https://ims-na1.adobelogin.com/ims/token/v3', testPath: '/data/core/ups/audiences' },
  google_tag_manager: { baseUrl: 'https://tagmanager.googleapis.com/tagmanager/v2', authorizeUrl: 'https://accounts.google.com/o/oauth2/v2/auth', tokenUrl: 'https://oauth2.googleapis.com/token', testPath: '/accounts' },
  amazon_dsp: { baseUrl: 'https://advertising-api.amazon.com', authorizeUrl: 'https://www.amazon.com/ap/oa', tokenUrl: 'https://api.amazon.com/auth/o2/token', testPath: '/v2/profiles' },
  the_trade_desk: { baseUrl: 'https://api.thetradedesk.com/v3', testPath: '/myself' },
};

/** The secrets a service's sign-in keeps (sealed; never answered). */
export const SecretName = z.enum(['username', 'password', 'clientSecret', 'accessToken', 'refreshToken', 'secretAccessKey']);
export type SecretName = z.infer<typeof SecretName>;

const Text = (max = 200) => z.string().trim().min(1, 'Required').max(max);
const OptUrl = ServiceUrl.optional();
const Scopes = z.array(z.string().trim().min(1).max(200).regex(/^[\x21\x23-\x5B\x5D-\x7E]+$/, 'A scope has no spaces or quotes')).max(50).default([]);

const base = { baseUrl: OptUrl };
const oauth = { ...base, authorizeUrl: OptUrl, tokenUrl: OptUrl, clientId: Text(500), scopes: Scopes };
const adAccount = { adAccountId: Text(100) };

const basicSecrets = z.object({ username: Text(320).optional(), password: z.string().min(1, 'Required').max(2048).optional() });
const oauthSecrets = z.object({ clientSecret: z.string().min(1, 'Required').max(2048).optional() });
const keySecrets = z.object({ secretAccessKey: z.string().min(1, 'Required').max(256).optional() });

/** The settings of each service (non-secret). */
export const SERVICE_CONFIG = {
  amplitude: z.object(base),
  mixpanel: z.object(base),
  salesforce: z.object(oauth),
  hubspot: z.object(oauth),
  meta_ads: z.object({ ...oauth, ...adAccount }),
  tiktok_ads: z.object({ ...oauth, ...adAccount }),
  google_ads: z.object({ ...oauth, ...adAccount }),
  s3: z.object({
    endpoint: ServiceUrl,
    region: z.string().trim().min(1, 'Required').max(64).regex(/^[a-z0-9-]+$/, 'Lower-case letters, digits and -'),
    bucket: z.string().trim().min(3).max(63).regex(/^[a-z0-9.-]+$/, 'Lower-case letters, digits, . and -'),
    accessKeyId: Text(128),
  }),
  adobe_experience_platform: z.object({
    ...oauth,
    techId: Text(200),
    imsOrgId: Text(200),
    /** The IMS host the tokens come from, e.g. ims-na1.adobelogin.com (a host name, no scheme). */
    imsHost: z.string().trim().min(1, 'Required').max(253).regex(/^[A-Za-z0-9.-]+(:\d{1,5})?$/, 'A host name, without https://'),
    metaScopes: z.array(z.string().trim().min(1).max(200)).max(50).default([]),
  }),
  google_tag_manager: z.object(oauth),
  amazon_dsp: z.object({ ...oauth, region: RetailRegion, eventTypes: z.array(RetailEventType).min(1, 'Required').max(RetailEventType.options.length), advertiserId: Text(100) }),
  the_trade_desk: z.object({ ...base, advertiserId: Text(100) }),
} as const satisfies Record<IntegrationService, z.ZodObject>;

const variant = <S extends IntegrationService, T extends z.ZodObject>(s: S, secrets: T) =>
  z.object({ name: Name, service: z.literal(s), config: SERVICE_CONFIG[s], secrets: secrets.optional().transform((v) => v ?? {}) });

/** Create or edit an integration: the service's settings and (write-only) secrets. */
export const IntegrationInput = z.discriminatedUnion('service', [
  variant('amplitude', basicSecrets), variant('mixpanel', basicSecrets), variant('salesforce', oauthSecrets), variant('hubspot', oauthSecrets),
  variant('meta_ads', oauthSecrets), variant('tiktok_ads', oauthSecrets), variant('google_ads', oauthSecrets), variant('s3', keySecrets),
  variant('adobe_experience_platform', oauthSecrets), variant('google_tag_manager', oauthSecrets), variant('amazon_dsp', oauthSecrets),
  variant('the_trade_desk', basicSecrets),
]);
export type IntegrationInput = z.infer<typeof IntegrationInput>;
export type IntegrationInputOf<S extends IntegrationService> = Extract<IntegrationInput, { service: S }>;

/** The secrets a service must have stored before it is saved (create: sent; edit: sent or kept). */
export const REQUIRED_SECRETS: Record<IntegrationAuth, readonly SecretName[]> = {
  basic: ['username', 'password'],
  oauth2: ['clientSecret'],
  keys: ['secretAccessKey'],
};

/** The settings as answered (any service's; never a secret). */
export const IntegrationConfig = z.object({
  baseUrl: z.string().optional(),
  authorizeUrl: z.string().optional(),
  tokenUrl: z.string().optional(),
  clientId: z.string().optional(),
  scopes: z.array(z.string()).optional(),
  adAccountId: z.string().optional(),
  techId: z.string().optional(),
  imsOrgId: z.string().optional(),
  imsHost: z.string().optional(),
  metaScopes: z.array(z.string()).optional(),
  /** Retail: a RetailRegion; object storage: the bucket's region. */
  region: z.string().optional(),
  eventTypes: z.array(z.string()).optional(),
  advertiserId: z.string().optional(),
  endpoint: z.string().optional(),
  bucket: z.string().optional(),
  accessKeyId: z.string().optional(),
});
export type IntegrationConfig = z.infer<typeof IntegrationConfig>;

export const Integration = z.object({
  id: z.string().uuid(),
  appId: z.string().uuid(),
  name: z.string(),
  kind: IntegrationKind,
  service: IntegrationService,
  auth: IntegrationAuth,
  config: IntegrationConfig,
  /** Which secrets are stored (their values are never answered). */
  secretsSet: z.array(SecretName),
  status: IntegrationStatus,
  /** Why the integration is in error: a catalogue code (10009, 13, 10024, 10047...) and the reason. */
  statusCode: z.number().int().nullable(),
  statusMessage: z.string().nullable(),
  /** OAuth 2: when the current access token expires (it is refreshed before). */
  tokenExpiresAt: z.string().nullable(),
  connectedAt: z.string().nullable(),
  lastRefreshedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Integration = z.infer<typeof Integration>;

export const IntegrationListQuery = z.object({ kind: IntegrationKind.optional() });

/** A connection test that passed: what the service said (the accounts its token sees, for ad services). */
export const IntegrationTestResult = z.object({ ok: z.literal(true), ms: z.number().int(), accounts: z.array(z.string()).optional() });
export type IntegrationTestResult = z.infer<typeof IntegrationTestResult>;

export const OAuthStart = z.object({
  /** Where the browser comes back to after the callback (a path of this web app). */
  returnTo: z.string().trim().max(300).regex(APP_PATH, 'A path of this app').optional(),
});
export type OAuthStart = z.infer<typeof OAuthStart>;

/**
 * The adobe audience import's source shape: the experience platform's segment export read page by
 * page (see api-server features/integrations/adobeExport.ts for the protocol).
 */
export const ADOBE_EXPORT_PAGE_SIZE = 1000;
