/**
 * The HTTP contract: every endpoint with its method, path, request and response schemas and the
 * permission it needs. The API registers its routes from this table and `/api/openapi.json` is
 * generated from it. The browser client takes method and path from `endpointRoutes.ts` (no
 * schemas) and request schemas from `endpoints/core.ts`, loading this whole table only when a
 * feature endpoint is first called (so feature schemas stay out of the login page's bundle).
 *
 * `auth`: 'public' needs no session; 'session' needs a signed-in user; otherwise a permission
 * expression checked with `can` (app-scoped when the path has `:appId`).
 */
import type { z } from 'zod';
import { coreEndpoints } from './endpoints/core.ts';
import { journeyEndpoints } from './endpoints/journeys.ts';
import { journeySimulationEndpoints } from './endpoints/journeySimulation.ts';
import { journeyRunEndpoints } from './endpoints/journeyRun.ts';
import { behaviourEndpoints } from './endpoints/behaviour.ts';
import { peopleEndpoints } from './endpoints/people.ts';
import { ingestEndpoints } from './endpoints/ingest.ts';
import { tagEndpoints } from './endpoints/tags.ts';
import { segmentEndpoints } from './endpoints/segments.ts';
import { importEndpoints } from './endpoints/imports.ts';
import { homeEndpoints } from './endpoints/home.ts';
import { messageEndpoints } from './endpoints/messages.ts';
import { messageAnalyticsEndpoints } from './endpoints/messageAnalytics.ts';
import { webPluginEndpoints } from './endpoints/webPlugin.ts';
import { messageSettingsEndpoints } from './endpoints/messageSettings.ts';
import { messageWhatIfEndpoints } from './endpoints/messageWhatIf.ts';
import { mailProviderEndpoints } from './endpoints/mailProviders.ts';
import { integrationEndpoints } from './endpoints/integrations.ts';
import { pushCredentialEndpoints } from './endpoints/pushCredentials.ts';
import { abAnalysisEndpoints } from './endpoints/abAnalysis.ts';
import { sdkMessageEndpoints } from './endpoints/sdkMessages.ts';
import { attributionEndpoints } from './endpoints/attribution.ts';
import { webPushEndpoints } from './endpoints/webPush.ts';
import { ruleEndpoints } from './endpoints/rules.ts';
import { reportEndpoints } from './endpoints/reports.ts';
import { funnelEndpoints } from './endpoints/funnels.ts';
import { cohortEndpoints } from './endpoints/cohorts.ts';
import { dashboardEndpoints } from './endpoints/dashboards.ts';
import { linkEndpoints } from './endpoints/links.ts';
import { audienceShareEndpoints } from './endpoints/audienceShare.ts';
import { landingEndpoints } from './endpoints/landings.ts';
import { skanEndpoints } from './endpoints/skan.ts';
import { acquisitionEndpoints } from './endpoints/acquisition.ts';
import { postbackEndpoints } from './endpoints/postbacks.ts';
import { acqReportEndpoints } from './endpoints/acqReports.ts';
import { walletEndpoints } from './endpoints/wallet.ts';
import { skudoEndpoints } from './endpoints/skudo.ts';
import { categoryEndpoints } from './endpoints/categories.ts';

export { ep, none, type Endpoint, type EndpointAuth, type Method } from './endpoints/define.ts';
export { fillPath } from './endpointRoutes.ts';

/** Every endpoint, in the order the API registers them (the foundation first, then each feature). */
export const endpoints = {
  ...coreEndpoints,
  ...journeyEndpoints,
  ...journeySimulationEndpoints,
  ...journeyRunEndpoints,
  ...behaviourEndpoints,
  ...funnelEndpoints,
  ...peopleEndpoints,
  ...ingestEndpoints,
  ...sdkMessageEndpoints,
  ...attributionEndpoints,
  ...tagEndpoints,
  ...segmentEndpoints,
  ...importEndpoints,
  ...homeEndpoints,
  ...messageEndpoints,
  ...messageAnalyticsEndpoints,
  ...webPluginEndpoints,
  ...messageWhatIfEndpoints,
  ...messageSettingsEndpoints,
  ...mailProviderEndpoints,
  ...integrationEndpoints,
  ...pushCredentialEndpoints,
  ...abAnalysisEndpoints,
  ...webPushEndpoints,
  ...ruleEndpoints,
  ...reportEndpoints,
  ...cohortEndpoints,
  ...dashboardEndpoints,
  ...skanEndpoints,
  ...acquisitionEndpoints,
  ...acqReportEndpoints,
  ...linkEndpoints,
  ...audienceShareEndpoints,
  ...landingEndpoints,
  ...postbackEndpoints,
  ...categoryEndpoints,
  ...walletEndpoints,
  ...skudoEndpoints,
} as const;

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;
export type RequestOf<N extends EndpointName> = Endpoints[N] extends { request: infer R extends z.ZodType } ? z.input<R> : undefined;
export type QueryOf<N extends EndpointName> = Endpoints[N] extends { query: infer Q extends z.ZodType } ? z.output<Q> : undefined;
export type ResponseOf<N extends EndpointName> = z.infer<z.ZodObject<Endpoints[N]['response']>>;
