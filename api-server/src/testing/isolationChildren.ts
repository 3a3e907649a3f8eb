/**
 * What the tenant sweeps with the caller's own app (isolation-child.int.test.ts; for the acquisition
 * routes isolation-acquisition.int.test.ts) count as a child, and which path parameters and request
 * fields name one: derived from the endpoint table and the request schemas, with the exemptions
 * and their reasons. Kept apart from the sweep itself so the
 * list of what is swept reads on its own.
 */
import { Segment, endpoints, type DocumentKind, type EndpointName } from '@gd/shared';
import { acquisitionEndpoints } from '@gd/shared/endpoints/acquisition';
import { acqReportEndpoints } from '@gd/shared/endpoints/acqReports';
import { linkEndpoints } from '@gd/shared/endpoints/links';
import { postbackEndpoints } from '@gd/shared/endpoints/postbacks';
import { skanEndpoints } from '@gd/shared/endpoints/skan';

// ---------------------------------------------------------------------------------------------
// What a child is, and which parameters and fields name one.

export type Child =
  | 'journey' | 'segment' | 'audience' | 'task' | 'integration' | 'export' | 'device' | 'tag' | 'person' | 'event' | 'user' | 'role'
  | 'message' | 'submission' | 'campaign'
  /** Message settings: a communication parameter and a native ad template of an app. */
  | 'parameter' | 'template'
  /** A mail provider (SMTP server) of the account. */
  | 'mailProvider'
  /** An automatic rule of an app. */
  | 'rule'
  /** A person's customer id and an SDK device id: what people search matches. */
  | 'customer' | 'deviceKey'
  /** A dashboard of an app. */
  | 'dashboard'
  /** A scheduled report of an app, and one of its runs. */
  | 'report' | 'reportRun'
  /**
   * Acquisition (issue 16, migrations 040..045): an app's campaign (acq_campaigns; not 'campaign',
   * the message campaign of migration 014), source, channel, link and tracker, and a provider of
   * the account (account_providers).
   */
  | 'acqCampaign' | 'acqSource' | 'acqChannel' | 'link' | 'tracker' | 'accountProvider'
  /** A category of the account (issue 17, migration 051; swept by isolation-categories.int.test.ts). */
  | 'category'
  /** The skudo marketplace of the account (issue 17, migration 053; swept by isolation-skudo.int.test.ts). */
  | 'skudoProvider' | 'skudoCampaign' | 'skudoOffer' | 'skudoTrackingUrl' | 'skudoPartner'
  /** A pass design and an issued pass of an app (issue 17, migration 052; swept by isolation-wallet.int.test.ts). */
  | 'walletDesign' | 'walletPass'
  /** A share of an audience to an ad platform (issue 17, migration 049; swept by isolation-audienceShare.int.test.ts). */
  | 'audienceShare'
  /** A landing page of an app (issue 17, migration 050; swept by isolation-landings.int.test.ts). */
  | 'landing';
/** Children of the account rather than of an app: only another account's caller may not name them. */
export const ACCOUNT_CHILDREN: ReadonlySet<Child> = new Set(['user', 'role', 'mailProvider', 'accountProvider', 'category',
  'skudoProvider', 'skudoCampaign', 'skudoOffer', 'skudoTrackingUrl', 'skudoPartner']);

export const PATH_CHILDREN: Record<string, Child> = {
  journeyId: 'journey', segmentId: 'segment', audienceId: 'audience', taskId: 'task', integrationId: 'integration', exportId: 'export',
  deviceId: 'device', tagId: 'tag', personId: 'person', eventName: 'event', userId: 'user', roleId: 'role',
  messageId: 'message', submissionId: 'submission',
  // An app's template; on the platform's routes (/admin/native-templates/:templateId) neither caller
  // is a platform administrator, so those answer 10004 whatever the id.
  parameterId: 'parameter', templateId: 'template',
  providerId: 'mailProvider',
  ruleId: 'rule',
  dashboardId: 'dashboard',
  reportId: 'report', runId: 'reportRun',
  // The acquisition routes' :campaignId is an acquisition campaign (/apps/:appId/acquisition/campaigns/:campaignId).
  campaignId: 'acqCampaign', sourceId: 'acqSource', channelId: 'acqChannel', linkId: 'link', trackerId: 'tracker',
  categoryId: 'category',
  shareId: 'audienceShare',
  skudoProviderId: 'skudoProvider', skudoCampaignId: 'skudoCampaign', offerId: 'skudoOffer', trackingUrlId: 'skudoTrackingUrl', partnerId: 'skudoPartner',
  designId: 'walletDesign', passId: 'walletPass',
  landingId: 'landing',
};
/**
 * The skudo routes (issue 17, piece F: account-wide, 10 for an unknown id) are swept by
 * http/isolation-skudo.int.test.ts, which checks that it covers every entry given this reason.
 */
export const SKUDO_SWEEP = 'swept by isolation-skudo.int.test.ts: another account\'s skudo provider, campaign, offer, tracking URL or partner answers as an unused id (10) and changes nothing';
/**
 * The category routes and the lists' category filters (issue 17, piece D) are swept by
 * http/isolation-categories.int.test.ts, which checks that it covers every entry given this reason.
 */
export const CATEGORY_SWEEP = 'swept by isolation-categories.int.test.ts: another account\'s category, or another app\'s entity, answers as an unused id and changes nothing';
/**
 * The audience share routes (issue 17, piece B: 10004 for an audience, 10 for an integration or a
 * share that is not the app's) are swept by http/isolation-audienceShare.int.test.ts, which checks
 * that it covers every entry given this reason.
 */
export const AUDIENCE_SHARE_SWEEP = 'swept by isolation-audienceShare.int.test.ts: another app\'s or account\'s audience, share or integration answers as an unused id and changes nothing';
/**
 * The landing routes (issue 17, piece C: 10 for an unknown landing, campaign or link) and the
 * links' landing fallback are swept by http/isolation-landings.int.test.ts, which checks that it
 * covers every entry given this reason.
 */
export const LANDING_SWEEP = 'swept by isolation-landings.int.test.ts: another app\'s or account\'s landing, campaign or link answers as an unused id (10) and changes nothing';
/** Routes whose parameter names another child than PATH_CHILDREN says (the same name in two features). */
const ROUTE_PATH_CHILDREN: Partial<Record<EndpointName, Record<string, Child>>> = {
  updateAccountProvider: { providerId: 'accountProvider' },
  deleteAccountProvider: { providerId: 'accountProvider' },
};
/** The child that path parameter `param` of route `name` names (undefined: unknown to the sweep). */
export const pathChild = (name: EndpointName, param: string): Child | undefined => ROUTE_PATH_CHILDREN[name]?.[param] ?? PATH_CHILDREN[param];
/**
 * Path parameters that name no child: the caller's own app, a version number inside the journey
 * beside it, a push provider (`apns` or `fcm`: a fixed word, the credentials being the app's
 * own; isolation.int.test.ts refuses them for another account's app), and an entry of the
 * platform's ad provider catalogue (ad_providers: nobody's; its routes are the platform
 * administrators', which neither caller is, and isolation.int.test.ts sees them refused).
 */
export const NOT_CHILDREN = new Set(['appId', 'version', 'provider', 'adProviderId']);

/** Routes with a child parameter that answer otherwise than an unused id, with why. */
/**
 * The integration routes (issue 17, piece A: 10 for an unknown id) and the adobe import's
 * integration are swept by http/isolation-integrations.int.test.ts, which checks that it covers
 * every entry given this reason.
 */
export const INTEGRATION_SWEEP = 'swept by isolation-integrations.int.test.ts: another app\'s or account\'s integration answers as an unused id (10) and changes nothing';
/**
 * The wallet routes (issue 17, piece E: pass designs and passes of an app; 10 for an unknown id) are
 * swept by http/isolation-wallet.int.test.ts, which checks that it covers every entry given this reason.
 */
export const WALLET_SWEEP = 'swept by isolation-wallet.int.test.ts: another app\'s or account\'s pass design, pass, person or coupon message answers as an unused id (10) and changes nothing';
const SERVICE_ID = 'an identifier at the outside service (client, ad account, organisation, advertiser, access key), never a lookup of ours';
export const PATH_EXEMPT: Partial<Record<EndpointName, string>> = {
  integration: INTEGRATION_SWEEP,
  updateIntegration: INTEGRATION_SWEEP,
  deleteIntegration: INTEGRATION_SWEEP,
  testIntegration: INTEGRATION_SWEEP,
  startIntegrationOAuth: INTEGRATION_SWEEP,
  disconnectIntegration: INTEGRATION_SWEEP,
  putRole: 'creates or updates a role of the caller\'s own account whatever the id (role ids are per account, migration 011); its own test below',
  updateCategory: CATEGORY_SWEEP,
  deleteCategory: CATEGORY_SWEEP,
  updateSkudoProvider: SKUDO_SWEEP,
  deleteSkudoProvider: SKUDO_SWEEP,
  updateSkudoCampaign: SKUDO_SWEEP,
  deleteSkudoCampaign: SKUDO_SWEEP,
  updateSkudoOffer: SKUDO_SWEEP,
  deleteSkudoOffer: SKUDO_SWEEP,
  createSkudoTrackingUrl: SKUDO_SWEEP,
  updateSkudoTrackingUrl: SKUDO_SWEEP,
  deleteSkudoTrackingUrl: SKUDO_SWEEP,
  updateSkudoPartner: SKUDO_SWEEP,
  deleteSkudoPartner: SKUDO_SWEEP,
  createSkudoAuthCode: SKUDO_SWEEP,
  inviteSkudoPartner: SKUDO_SWEEP,
  updateWalletDesign: WALLET_SWEEP,
  deleteWalletDesign: WALLET_SWEEP,
  voidWalletPass: WALLET_SWEEP,
  audienceShares: AUDIENCE_SHARE_SWEEP,
  createAudienceShare: AUDIENCE_SHARE_SWEEP,
  syncAudienceShare: AUDIENCE_SHARE_SWEEP,
  deleteAudienceShare: AUDIENCE_SHARE_SWEEP,
  landing: LANDING_SWEEP,
  updateLanding: LANDING_SWEEP,
  publishLanding: LANDING_SWEEP,
  unpublishLanding: LANDING_SWEEP,
  deleteLanding: LANDING_SWEEP,
  landingVisits: LANDING_SWEEP,
};

/** Request and query fields named like ids that name no child of an account or app, with why. */
export const FIELD_EXEMPT: Record<string, string> = {
  // Landings (issue 17): the landing routes' campaign and link, and the links' landing fallback.
  'landings query.campaignId': LANDING_SWEEP,
  'createLanding body.campaignId': LANDING_SWEEP,
  'createLanding body.linkId': LANDING_SWEEP,
  'updateLanding body.campaignId': LANDING_SWEEP,
  'updateLanding body.linkId': LANDING_SWEEP,
  'createLink body.landingId': LANDING_SWEEP,
  'updateLink body.landingId': LANDING_SWEEP,
  'createLanding body.blocks[].id': 'a block\'s own key inside the landing\'s blocks (editor order and React keys), not a row',
  'updateLanding body.blocks[].id': 'a block\'s own key inside the landing\'s blocks (editor order and React keys), not a row',
  // Integrations (issue 17): the adobe import's integration is swept in their own file; the rest are the service's own ids.
  'createImportTask body.source.adobeId': INTEGRATION_SWEEP,
  'updateImportTask body.source.adobeId': INTEGRATION_SWEEP,
  'createImportTask body.source.adobeSegmentId': 'the segment\'s id in the experience platform, read through the caller\'s own integration, never a lookup of ours',
  'updateImportTask body.source.adobeSegmentId': 'the segment\'s id in the experience platform, read through the caller\'s own integration, never a lookup of ours',
  ...Object.fromEntries(['createIntegration', 'updateIntegration'].flatMap((n) =>
    ['accessKeyId', 'adAccountId', 'advertiserId', 'clientId', 'imsOrgId', 'techId'].map((k) => [`${n} body.config.${k}`, SERVICE_ID]))),
  // Categories (issue 17): their routes and the lists' category filters, swept in their own file.
  'setCategoryAssignments body.entityId': CATEGORY_SWEEP,
  'setCategoryAssignments body.categoryIds': CATEGORY_SWEEP,
  'listApps query.categoryId': CATEGORY_SWEEP,
  'listMessages query.categoryId': CATEGORY_SWEEP,
  'campaigns query.categoryId': CATEGORY_SWEEP,
  'campaignsDownload query.categoryId': CATEGORY_SWEEP,
  // Skudo (issue 17): the offers' provider and campaign, a tracking URL's partner, swept in their own file.
  'createSkudoOffer body.providerId': SKUDO_SWEEP,
  'createSkudoOffer body.campaignId': SKUDO_SWEEP,
  'updateSkudoOffer body.providerId': SKUDO_SWEEP,
  'updateSkudoOffer body.campaignId': SKUDO_SWEEP,
  'createSkudoTrackingUrl body.partnerId': SKUDO_SWEEP,
  // Wallet (issue 17): the design, person and coupon message a pass is issued with, and the passes list's design filter.
  'issueWalletPass body.designId': WALLET_SWEEP,
  'issueWalletPass body.personId': WALLET_SWEEP,
  'issueWalletPass body.messageId': WALLET_SWEEP,
  'walletPasses query.designId': WALLET_SWEEP,
  'putGoogleWalletSigning body.issuerId': 'the account\'s issuer number at Google Wallet, the data itself, not a reference',
  // Audience shares (issue 17): the integration an audience is shared through, swept in their own file; the platform's own audience id.
  'createAudienceShare body.integrationId': AUDIENCE_SHARE_SWEEP,
  'createAudienceShare body.platformAudienceId': 'the audience\'s id at the ad platform (Meta, Google Ads, The Trade Desk), reached through the caller\'s own integration, never a lookup of ours',
  'createApp body.bundleId': 'the store bundle id the app declares, not a reference',
  'updateApp body.bundleId': 'the store bundle id the app declares, not a reference',
  'addTestDevice body.deviceId': 'the phone\'s advertising id: the data itself, not a reference',
  'updateTestDevice body.deviceId': 'the phone\'s advertising id: the data itself, not a reference',
  'createStorageIntegration body.accessKeyId': 'an S3 credential',
  'createAudience body.source.rules[].messageId': 'a label matched in the caller\'s own message interactions (as the SDK reported them), never a lookup',
  'createImportTask body.source.filters.campaignIds': 'labels matched in the caller\'s own message interactions, never a lookup',
  'createImportTask body.source.filters.messageIds': 'labels matched in the caller\'s own message interactions, never a lookup',
  'updateImportTask body.source.filters.campaignIds': 'labels matched in the caller\'s own message interactions, never a lookup',
  'updateImportTask body.source.filters.messageIds': 'labels matched in the caller\'s own message interactions, never a lookup',
  'performanceReport query.campaignIds': 'labels matched in the caller\'s own app\'s interactions and outbox (the performance-report import\'s filter), never a lookup',
  'performanceReport query.journeyIds': 'labels matched in the caller\'s own app\'s interactions and outbox (the performance-report import\'s filter), never a lookup',
  'performanceReport query.messageIds': 'labels matched in the caller\'s own app\'s interactions and outbox (the performance-report import\'s filter), never a lookup',
  'exportPerformanceReport query.campaignIds': 'labels matched in the caller\'s own app\'s interactions and outbox (the performance-report import\'s filter), never a lookup',
  'exportPerformanceReport query.journeyIds': 'labels matched in the caller\'s own app\'s interactions and outbox (the performance-report import\'s filter), never a lookup',
  'exportPerformanceReport query.messageIds': 'labels matched in the caller\'s own app\'s interactions and outbox (the performance-report import\'s filter), never a lookup',
  'commentSubmission body.variantId': 'a variant inside the draft of the message in the path, not a row',
  'sendAbWinner body.variantId': 'a variant inside the approved version of the message in the path, not a row',
  'putApnsCredentials body.keyId': 'the APNs key\'s id at Apple, the data itself, not a reference',
  'putApnsCredentials body.teamId': 'the Apple developer team id, the data itself, not a reference',
  'putApnsCredentials body.bundleId': 'the store bundle id the key signs for, not a reference',
  'createRule body.trigger.eventId': 'an event name the rule matches in the caller\'s own app\'s events as they arrive, never a lookup',
  'createRule body.trigger.productId': 'a product id the rule matches in the caller\'s own app\'s purchases as they arrive, never a lookup',
  'updateRule body.trigger.eventId': 'an event name the rule matches in the caller\'s own app\'s events as they arrive, never a lookup',
  'updateRule body.trigger.productId': 'a product id the rule matches in the caller\'s own app\'s purchases as they arrive, never a lookup',
  'updateRule body.messageId': 'the same check as createRule body.messageId (rules/routes.ts `checked`), run only after the rule in the path was found in the caller\'s app',
  'updateRule body.trigger.messageId': 'the same check as createRule body.trigger.messageId (rules/routes.ts `checked`), run only after the rule in the path was found',
  'updateReport body.target.mailProviderId': 'the same check as createReport body.target.mailProviderId (reports/routes.ts `prepare`), run only after the report in the path was found in the caller\'s app',
  'updateRule body.trigger.tagId': 'the same check as createRule body.trigger.tagId (rules/routes.ts `checked`), run only after the rule in the path was found',
  'simulateJourney body.behaviour.events[].eventId': 'an event name of a described behaviour, matched against the journey\'s own steps in memory, never a lookup',
  'simulateJourney body.behaviour.interactions[].stepId': 'a step of the journey in the path (already found in the caller\'s app), not a row',
  'simulateJourney body.startStepId': 'a step of the journey in the path (already found in the caller\'s app), not a row',
  // Acquisition (issue 16).
  'createCampaign body.destinations.android': 'where the campaign\'s Android clicks go (store, deep link, web addresses): named like an id only by its last letters',
  'updateCampaign body.destinations.android': 'where the campaign\'s Android clicks go (store, deep link, web addresses): named like an id only by its last letters',
  'createLink body.destinations.android': 'where the link\'s Android clicks go (store, deep link, web addresses): named like an id only by its last letters',
  'updateLink body.destinations.android': 'where the link\'s Android clicks go (store, deep link, web addresses): named like an id only by its last letters',
  'createAccountProvider body.adProviderId': 'an entry of the platform\'s ad provider catalogue (ad_providers): nobody\'s, every account reads it (adProviderCatalogue)',
  'updateAccountProvider body.adProviderId': 'an entry of the platform\'s ad provider catalogue (ad_providers): nobody\'s, every account reads it (adProviderCatalogue)',
  'updateSkanSettings body.appStoreId': 'the app\'s number at Apple (the `app-id` of SKAdNetwork postbacks), the data itself: one app of the platform per number, so a taken one answers 30 by contract (docs/design/acquisition.md), whoever has it',
  'updateSkanSettings body.mappings[].adNetworkId': 'an ad network\'s SKAdNetwork id at Apple (e.g. cstr6suwn9.skadnetwork), matched in the app\'s own postbacks, never a lookup',
};

/** Document kinds and the child whose id their names carry; null: no entity table yet. */
export const DOC_CHILDREN: Record<DocumentKind, Child | null> = { journey: 'journey', segment: 'segment', message: 'message', dashboard: 'dashboard' };

export const isSessionRoute = (n: EndpointName) => endpoints[n].auth !== 'public' && endpoints[n].auth !== 'appKey';
export const sessionEndpoints = (Object.keys(endpoints) as EndpointName[]).filter(isSessionRoute);
export const pathParams = (n: EndpointName) => [...endpoints[n].path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!);
export const childParams = (n: EndpointName) => pathParams(n).filter((p) => !NOT_CHILDREN.has(p));
export const pathSwept = sessionEndpoints.filter((n) => childParams(n).length > 0 && !(n in PATH_EXEMPT));

/**
 * The acquisition routes (issue 16): isolation-acquisition.int.test.ts sweeps their paths and
 * fields in a world of acquisition children; isolation-child.int.test.ts sweeps all the others.
 */
const ACQUISITION_ENDPOINTS: ReadonlySet<string> = new Set(
  [acquisitionEndpoints, acqReportEndpoints, linkEndpoints, postbackEndpoints, skanEndpoints].flatMap((group) => Object.keys(group)),
);
export const isAcquisition = (n: EndpointName): boolean => ACQUISITION_ENDPOINTS.has(n);
/** The endpoint of a swept field, `<endpoint> <where>`. */
export const endpointOf = (field: string) => field.split(' ')[0] as EndpointName;

export interface ZodNode {
  _zod: { def: {
    type: string; shape?: Record<string, ZodNode>; innerType?: ZodNode; in?: ZodNode; out?: ZodNode; options?: ZodNode[];
    left?: ZodNode; right?: ZodNode; element?: ZodNode; valueType?: ZodNode; items?: ZodNode[]; getter?: () => ZodNode;
  } };
}

/** `<endpoint> <where>` for every field named like an id, and every segment (`(segment)`), of a request or query schema. */
export function referenceFields(): string[] {
  const found = new Set<string>();
  const walk = (name: string, node: ZodNode | undefined, path: string, seen: Set<ZodNode>) => {
    if (!node || seen.has(node)) return;
    if ((node as unknown) === Segment) {
      found.add(`${name} ${path} (segment)`);
      return;
    }
    seen.add(node);
    const def = node._zod.def;
    const next = (child: ZodNode | undefined, p = path) => walk(name, child, p, seen);
    switch (def.type) {
      case 'object':
        for (const [key, value] of Object.entries(def.shape ?? {})) {
          if (/ids?$/i.test(key)) found.add(`${name} ${path}.${key}`);
          next(value, `${path}.${key}`);
        }
        break;
      case 'array': next(def.element, `${path}[]`); break;
      case 'record': next(def.valueType, `${path}{}`); break;
      case 'pipe': next(def.in); next(def.out); break;
      case 'union': for (const o of def.options ?? []) next(o); break;
      case 'intersection': next(def.left); next(def.right); break;
      case 'tuple': for (const i of def.items ?? []) next(i); break;
      case 'lazy': next(def.getter?.()); break;
      default: next(def.innerType); // optional, nullable, default, readonly, catch, …
    }
    seen.delete(node);
  };
  for (const name of sessionEndpoints) {
    const e = endpoints[name] as { request?: unknown; query?: unknown };
    walk(name, e.request as ZodNode | undefined, 'body', new Set());
    walk(name, e.query as ZodNode | undefined, 'query', new Set());
  }
  return [...found].sort();
}
