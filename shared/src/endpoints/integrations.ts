/**
 * Integrations of an app (/manage/integrations; schemas/integrations.ts). Reading needs the
 * screen's route key; every change (create, edit, connect, test, disconnect, delete) needs
 * `api:integrations.edit`. Secrets are write-only: no answer carries one.
 *
 * Failures: 10001 with `details` for a bad field, a private address, or a missing secret; 30 for a
 * name in use in the app; 10 for an integration id of nothing, of another app or of another
 * account; a failed connection test answers the service's connection-fail code (10009, 10024 for
 * the search-ad platform, 10047 for the short-video ad platform) or 13 when the ad account is not
 * among the accounts the token sees, and leaves the integration in `error` with the reason.
 *
 * The OAuth 2 callback (`GET /api/oauth/callback?code&state`) is a browser redirect, not a JSON
 * endpoint: it is registered by the integrations feature beside these routes.
 */
import { z } from 'zod';
import { Integration, IntegrationInput, IntegrationListQuery, IntegrationTestResult, OAuthStart } from '../schemas/integrations.ts';
import { ep, none } from './define.ts';

const VIEW = 'route:/manage/integrations' as const;
const EDIT = { and: ['route:/manage/integrations', 'api:integrations.edit'] } as const;

export const integrationEndpoints = {
  integrations: ep({ method: 'GET', path: '/apps/:appId/integrations', summary: "The app's integrations by kind and name (query: kind); secrets are never answered", auth: VIEW, query: IntegrationListQuery, response: {
    integrations: z.array(Integration),
    /** The OAuth 2 redirect URI to register at the providers (this deployment's callback). */
    redirectUri: z.string(),
  } }),
  integration: ep({ method: 'GET', path: '/apps/:appId/integrations/:integrationId', summary: 'An integration with its status', auth: VIEW, response: { integration: Integration } }),
  createIntegration: ep({
    method: 'POST', path: '/apps/:appId/integrations', auth: EDIT, request: IntegrationInput, response: { integration: Integration },
    summary: 'Add an integration (secrets sealed, never answered). Basic and key sign-ins start connected; OAuth 2 ones pending until authorised',
  }),
  updateIntegration: ep({
    method: 'PUT', path: '/apps/:appId/integrations/:integrationId', auth: EDIT, request: IntegrationInput, response: { integration: Integration },
    summary: 'Change an integration (same service); secrets left out are kept. Changing the OAuth 2 endpoints or client drops the tokens (authorise again)',
  }),
  deleteIntegration: ep({ method: 'DELETE', path: '/apps/:appId/integrations/:integrationId', summary: 'Delete an integration and its sealed credentials', auth: EDIT, response: none }),
  testIntegration: ep({
    method: 'POST', path: '/apps/:appId/integrations/:integrationId/test', auth: EDIT, response: { result: IntegrationTestResult, integration: Integration },
    summary: "Call the service with the stored credentials: OK (connected) or the service's connection-fail code, 13 for an ad account the token does not see (status error)",
  }),
  startIntegrationOAuth: ep({
    method: 'POST', path: '/apps/:appId/integrations/:integrationId/oauth/start', auth: EDIT, request: OAuthStart, response: { authorizeUrl: z.string() },
    summary: "Start the OAuth 2 authorization: the provider's authorize URL with state and an S256 code challenge (valid 10 minutes, for the caller's session)",
  }),
  disconnectIntegration: ep({ method: 'POST', path: '/apps/:appId/integrations/:integrationId/disconnect', summary: 'Drop the OAuth 2 tokens (status disconnected); settings and client secret stay', auth: EDIT, response: { integration: Integration } }),
} as const;
