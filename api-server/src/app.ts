/**
 * The Express application: JSON API under /api (KO answers for every failure, never a stack trace)
 * and, when a built client is given, the single-page app with an index.html fallback.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import express, { type NextFunction, type Request, type Response } from 'express';
import cookieParser from 'cookie-parser';
import { ErrorCode } from '@gd/shared';
import type { Deps } from './http/context.ts';
import { appKeyAuth } from './http/appKeyAuth.ts';
import { corsForWebApp, parseOrigins } from './http/cors.ts';
import { emailLinksRouter } from './features/delivery/emailLinks.ts';
import { csrfProtection } from './http/csrf.ts';
import { openApiDocument } from './http/openapi.ts';
import { HttpFailure, sendKo } from './http/respond.ts';
import { refuseUnstorableText } from './http/validate.ts';
import { accountRoutes, metaRoute } from './features/accounts/routes.ts';
import { analyticsRoutes } from './features/analytics/routes.ts';
import { appRoutes } from './features/apps/routes.ts';
import { authRoutes } from './features/auth/routes.ts';
import { documentRoutes } from './features/documents/routes.ts';
import { journeyRoutes } from './features/journeys/routes.ts';
import { journeyRunRoutes } from './features/journeyRun/routes.ts';
import { journeySimulationRoutes } from './features/journeySimulation/routes.ts';
import { messageRoutes } from './features/messages/routes.ts';
import { messageAnalyticsRoutes } from './features/messageAnalytics/routes.ts';
import { webPluginRoutes } from './features/webPlugin/routes.ts';
import { messageWhatIfRoutes } from './features/messageWhatIf/routes.ts';
import { peopleRoutes } from './features/people/routes.ts';
import { ingestRouter } from './features/ingest/routes.ts';
import { sdkMessagesRouter } from './features/sdkMessages/routes.ts';
import { deferredLinkRouter } from './features/attribution/routes.ts';
import { tagRoutes } from './features/tags/routes.ts';
import { segmentRoutes } from './features/segments/routes.ts';
import { funnelRoutes } from './features/funnels/routes.ts';
import { acqReportRoutes } from './features/acqReports/routes.ts';
import { importRoutes } from './features/imports/routes.ts';
import { exportRoutes } from './features/exports/routes.ts';
import { homeRoutes } from './features/home/routes.ts';
import { commParameterRoutes } from './features/commParameters/routes.ts';
import { nativeTemplateRoutes } from './features/nativeTemplates/routes.ts';
import { mailProviderRoutes } from './features/mailProviders/routes.ts';
import { integrationRoutes } from './features/integrations/routes.ts';
import { pushCredentialRoutes } from './features/delivery/push/credentialsRoutes.ts';
import { abAnalysisRoutes } from './features/abAnalysis/routes.ts';
import { webPushRoutes, webPushSdkRouter } from './features/delivery/push/webPushRoutes.ts';
import { ruleRoutes } from './features/rules/routes.ts';
import { cohortRoutes } from './features/cohorts/routes.ts';
import { reportRoutes } from './features/reports/routes.ts';
import { dashboardRoutes } from './features/dashboards/routes.ts';
import { executiveRoutes } from './features/executive/routes.ts';
import { acquisitionRoutes } from './features/acquisition/routes.ts';
import { postbackRoutes } from './features/postbacks/routes.ts';
import { skanPostbackRouter, skanRoutes } from './features/skan/routes.ts';
import { linkHost } from './features/links/host.ts';
import { linkRoutes } from './features/links/routes.ts';
import { trackingHost } from './features/skudo/host.ts';
import { skudoPartnerRoutes } from './features/skudo/partner.ts';
import { skudoRoutes } from './features/skudo/routes.ts';
import { customDomainLandings, landingHost } from './features/landings/host.ts';
import { landingRoutes } from './features/landings/routes.ts';
import { categoryRoutes } from './features/categories/routes.ts';
import { audienceShareRoutes } from './features/audienceShare/routes.ts';
import { walletHost } from './features/wallet/host.ts';
import { walletRoutes } from './features/wallet/routes.ts';

export const JSON_LIMIT = '100kb';

export function createApp(deps: Deps): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.set('query parser', 'extended');

  // The link host first: a click is a cached lookup, one queued insert and the redirect; no
  // cookies, body parser or CSRF (features/links/host.ts).
  // Landing pages on their custom domains: such a host answers nothing else (features/landings/host.ts).
  app.use(customDomainLandings(deps));
  app.use('/l', linkHost(deps));
  // The skudo tracking host likewise: a tracking URL's click is one lookup, one insert and the redirect (features/skudo/host.ts).
  app.use('/s', trackingHost(deps));
  // Landing pages on the link host, like the links: no cookies, body parser or CSRF.
  app.use('/p', landingHost(deps));
  // Wallet passes' public pages and downloads (features/wallet/host.ts), before the session layers too.
  app.use('/w', walletHost(deps));

  app.use((_req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'same-origin');
    res.setHeader('X-Frame-Options', 'DENY');
    next();
  });

  // One app-key authentication for every app-key endpoint: one key cache, one per-key budget and
  // one unknown-key allowance per address across ingestion, web push and the SDK's messages.
  const appKeys = appKeyAuth(deps.db, { perSecond: deps.config.INGEST_RATE_PER_SECOND, burst: deps.config.INGEST_RATE_BURST });

  // Ingestion first: app-key auth, its own body limit and CORS, no cookies or CSRF.
  app.use('/api/ingest/v1/web-push', webPushSdkRouter(deps, appKeys));
  app.use('/api/ingest', ingestRouter(deps, { durableCommit: deps.config.INGEST_DURABLE_COMMIT === 'on' }, appKeys));

  // The SDK's messages (in-app, native ads, coupon redemptions): app-key auth and CORS like ingestion.
  app.use('/api/sdk', sdkMessagesRouter(deps, appKeys));
  // Deferred deep links: the SDK's first open asks for its click's deep link (features/attribution).
  app.use('/api/sdk', deferredLinkRouter(deps, appKeys));

  // SKAdNetwork postbacks from Apple's devices (no session, no CSRF): the API's address and the developer copy's.
  const skanReceiver = skanPostbackRouter(deps);
  app.use('/api/skan/v4/postback', skanReceiver);
  app.use('/.well-known/skadnetwork/report-attribution', skanReceiver);

  // E-mail links (open pixel, clicks, unsubscribe): called by recipients' mail clients, no session.
  app.use('/api/email', emailLinksRouter(deps));

  const api = express.Router();
  api.use(corsForWebApp(parseOrigins(deps.config.CORS_ORIGINS)));
  api.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  api.use(cookieParser());
  api.use(refuseUnstorableText('url'));
  // The hottest call (every screen load): a GET with no body, so it comes before the body parser,
  // the CSRF check and the other routes' layers (measured: 112 -> 102 µs of server CPU per call).
  metaRoute(api, deps);
  api.use(express.json({ limit: JSON_LIMIT, type: ['application/json', 'application/*+json'] }));
  api.use(refuseUnstorableText('body'));
  api.get('/health', (_req, res) => void res.json({ status: 'OK' }));
  api.get('/openapi.json', (_req, res) => void res.json(openApiDocument()));
  api.use(csrfProtection(deps.secret));
  authRoutes(api, deps);
  accountRoutes(api, deps);
  appRoutes(api, deps);
  documentRoutes(api, deps);
  journeyRoutes(api, deps);
  journeyRunRoutes(api, deps);
  journeySimulationRoutes(api, deps);
  messageRoutes(api, deps);
  messageAnalyticsRoutes(api, deps);
  webPluginRoutes(api, deps);
  messageWhatIfRoutes(api, deps);
  analyticsRoutes(api, deps);
  peopleRoutes(api, deps);
  tagRoutes(api, deps);
  segmentRoutes(api, deps);
  funnelRoutes(api, deps);
  acqReportRoutes(api, deps);
  importRoutes(api, deps);
  exportRoutes(api, deps);
  homeRoutes(api, deps);
  commParameterRoutes(api, deps);
  nativeTemplateRoutes(api, deps);
  mailProviderRoutes(api, deps);
  integrationRoutes(api, deps);
  pushCredentialRoutes(api, deps);
  abAnalysisRoutes(api, deps);
  webPushRoutes(api, deps);
  ruleRoutes(api, deps);
  cohortRoutes(api, deps);
  reportRoutes(api, deps);
  dashboardRoutes(api, deps);
  executiveRoutes(api, deps);
  acquisitionRoutes(api, deps);
  skanRoutes(api, deps);
  linkRoutes(api, deps);
  skudoRoutes(api, deps);
  skudoPartnerRoutes(api, deps);
  landingRoutes(api, deps);
  postbackRoutes(api, deps);
  categoryRoutes(api, deps);
  audienceShareRoutes(api, deps);
  walletRoutes(api, deps);
  api.use((req, res) => sendKo(res, ErrorCode.NOT_EXIST, `No such API route: ${req.method} ${req.path}`));
  api.use(apiErrorHandler(deps));
  app.use('/api', api);

  // The web SDK bundle, for apps' web pages (<script src="/sdk/growthdeck.js">): any origin may load it.
  const sdkDist = deps.config.SDK_DIST;
  if (sdkDist && existsSync(sdkDist)) {
    app.use('/sdk', express.static(sdkDist, { index: false, maxAge: '1h', setHeaders: (res) => res.setHeader('Access-Control-Allow-Origin', '*') }));
  }

  // Resolved here so a relative CLIENT_DIST (from the working directory) serves index.html too.
  const dist = deps.config.CLIENT_DIST ? path.resolve(deps.config.CLIENT_DIST) : undefined;
  if (dist && existsSync(path.join(dist, 'index.html'))) {
    app.use(express.static(dist, { index: false, maxAge: '1h', setHeaders: (res, file) => {
      if (file.includes(`${path.sep}assets${path.sep}`)) res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
      // The service worker names the build's files: always revalidated, so a new build takes over.
      else if (path.basename(file) === 'sw.js') res.setHeader('Cache-Control', 'no-cache');
    } }));
    app.get(/.*/, (_req, res) => {
      res.setHeader('Cache-Control', 'no-cache');
      res.sendFile(path.join(dist, 'index.html'));
    });
  }
  return app;
}

interface BodyParserError { type?: string; status?: number }

function apiErrorHandler(deps: Deps) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction) => {
    if (error instanceof HttpFailure) return sendKo(res, error.code, error.message, error.details, error.status);
    const e = error as BodyParserError;
    if (e.type === 'entity.parse.failed') return sendKo(res, ErrorCode.MANDATORY, 'Malformed JSON body', undefined, 400);
    if (e.type === 'entity.too.large') return sendKo(res, ErrorCode.GENERIC, `Request body too large (limit ${JSON_LIMIT})`, undefined, 413);
    if (e.type === 'encoding.unsupported' || e.type === 'charset.unsupported') return sendKo(res, ErrorCode.MANDATORY, 'Unsupported body encoding', undefined, 415);
    if (e.status && e.status >= 400 && e.status < 500) return sendKo(res, ErrorCode.GENERIC, 'Bad request', undefined, e.status);
    deps.log.error({ err: error, method: req.method, path: req.path }, 'unhandled API error');
    const code = (error as { code?: string } | null)?.code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return sendKo(res, ErrorCode.DATABASE_ERROR, 'Database error', undefined, 500);
    sendKo(res, ErrorCode.GENERIC, 'Internal error', undefined, 500);
  };
}
