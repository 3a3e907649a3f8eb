/**
 * Integrations of an app (/manage/integrations; endpoints/integrations.ts) and the OAuth 2
 * callback (`GET /api/oauth/callback`).
 *
 * - Secrets are sealed with the server secret and the row id (imports/secretBox.ts) and never
 *   answered: an answer lists the names of the stored secrets (`secretsSet`).
 * - Basic and key sign-ins are saved `connected` (the credentials are there; a connection test, or
 *   a use that fails, sets `error` with the reason); OAuth 2 ones `pending` until authorised.
 * - Editing an OAuth 2 integration's client id, authorize or token endpoint or scopes drops its
 *   tokens (status pending: authorise again); a new client secret alone keeps them.
 * - OAuth 2 start: a random state (only its SHA-256 is stored) and a PKCE verifier (sealed under
 *   the state row's id with the redirect URI), valid OAUTH_STATE_TTL_SECONDS, for the user who
 *   started it. The callback takes the state once: unknown, used, expired, another user's, a
 *   provider's `error`, or a token endpoint refusal all end at
 *   `/manage/integrations?oauth=error&code=10009` (and the integration, when known, in `error`
 *   with the reason); success at `?oauth=connected&integration=<id>`.
 * - An integration id of nothing, of another app or of another account answers 10 and changes nothing.
 */
import { randomUUID } from 'node:crypto';
import type { Request, Response, Router } from 'express';
import {
  ErrorCode, INTEGRATION_SERVICES, OAUTH_STATE_TTL_SECONDS, REQUIRED_SECRETS, SERVICE_DEFAULTS, SecretName, fail, ok, conflict,
  type FieldIssue, type Integration, type IntegrationInput, type IntegrationService, type ServiceDef,
} from '@gd/shared';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/errors.ts';
import { tx } from '../../db/pool.ts';
import type { Deps } from '../../http/context.ts';
import { authenticate, route } from '../../http/endpoint.ts';
import { isUuid } from '../../http/validate.ts';
import { netPolicy } from '../../net/index.ts';
import { publicBaseUrl } from '../auth/routes.ts';
import { randomToken, sha256 } from '../auth/secrets.ts';
import { ISSUE_TEXT, addressProblems } from '../imports/netConfig.ts';
import { openSecrets, sealSecrets } from '../imports/secretBox.ts';
import { failCodeOf, integrationAccess, markIntegrationError } from './access.ts';
import { testConnection } from './connectionTest.ts';
import { authorizeUrl as buildAuthorizeUrl, exchangeCode, pkcePair } from './oauth.ts';
import * as repo from './repository.ts';
import { APP_PATH } from '@gd/shared/schemas/integrations';

const notFound = () => fail(ErrorCode.NOT_EXIST, 'No such integration');
const taken = () => fail(ErrorCode.NAME_DUPLICATED, 'The app already has an integration with that name', [{ path: 'name', message: 'name_taken' }]);
const SECRET_TEXT: Readonly<Record<string, string>> = { secret_required: 'required' };
const invalid = (details: FieldIssue[]) =>
  fail(ErrorCode.MANDATORY, details.map((d) => `${d.path}: ${ISSUE_TEXT[d.message] ?? SECRET_TEXT[d.message] ?? d.message}`).join('; '), details);

export const OAUTH_CALLBACK_PATH = '/api/oauth/callback';
const TOKEN_SECRETS = ['accessToken', 'refreshToken'] as const;

const defOf = (service: string) => (INTEGRATION_SERVICES as Record<string, ServiceDef>)[service];

/** The answer for a row: settings and status, and only the names of the stored secrets. */
export function toIntegration(row: repo.IntegrationRow, serverSecret: string): Integration {
  const opened = row.secret ? openSecrets(serverSecret, row.id, row.secret) : null;
  const secretsSet = opened ? SecretName.options.filter((n) => typeof opened[n] === 'string' && opened[n] !== '') : [];
  const c = row.config;
  const str = (k: string) => (typeof c[k] === 'string' ? (c[k]) : undefined);
  const list = (k: string) => (Array.isArray(c[k]) ? (c[k] as unknown[]).filter((v): v is string => typeof v === 'string') : undefined);
  const config: Integration['config'] = {};
  for (const k of ['baseUrl', 'authorizeUrl', 'tokenUrl', 'clientId', 'adAccountId', 'techId', 'imsOrgId', 'imsHost', 'region', 'advertiserId', 'endpoint', 'bucket', 'accessKeyId'] as const) {
    const v = str(k);
    if (v !== undefined) config[k] = v;
  }
  for (const k of ['scopes', 'metaScopes', 'eventTypes'] as const) {
    const v = list(k);
    if (v !== undefined) config[k] = v;
  }
  return {
    id: row.id, appId: row.app_id, name: row.name, kind: row.kind, service: row.service as IntegrationService, auth: row.auth, config, secretsSet,
    status: row.status, statusCode: row.status_code, statusMessage: row.status_message,
    tokenExpiresAt: row.token_expires_at?.toISOString() ?? null, connectedAt: row.connected_at?.toISOString() ?? null,
    lastRefreshedAt: row.last_refreshed_at?.toISOString() ?? null, createdAt: row.created_at.toISOString(), updatedAt: row.updated_at.toISOString(),
  };
}

/** The hosts the server will call for this integration (checked on save; each call checks again). */
function calledHosts(body: IntegrationInput): { path: string; host: string }[] {
  const hosts: { path: string; host: string }[] = [];
  const c = body.config as Record<string, unknown>;
  for (const key of ['baseUrl', 'tokenUrl', 'endpoint'] as const) {
    const v = c[key];
    if (typeof v === 'string' && v) hosts.push({ path: `config.${key}`, host: new URL(v).hostname });
  }
  return hosts;
}

const OAUTH_IDENTITY = ['clientId', 'authorizeUrl', 'tokenUrl', 'scopes'] as const;
const sameValue = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

function secretIssues(auth: keyof typeof REQUIRED_SECRETS, secrets: Record<string, string>): FieldIssue[] {
  return REQUIRED_SECRETS[auth].filter((n) => !secrets[n]).map((n) => ({ path: `secrets.${n}`, message: 'secret_required' }));
}

export function integrationRoutes(router: Router, deps: Deps): void {
  const { db } = deps;
  const policy = () => netPolicy(deps.config);
  const answer = (row: repo.IntegrationRow) => toIntegration(row, deps.secret);
  const find = async (appId: string, id: string | undefined) => (id && isUuid(id) ? repo.findIntegration(db, appId, id) : undefined);

  route(router, deps, 'integrations', async ({ app, query, req }) =>
    ok({ integrations: (await repo.listIntegrations(db, app.id, query.kind)).map(answer), redirectUri: `${publicBaseUrl(deps, req)}${OAUTH_CALLBACK_PATH}` }));

  route(router, deps, 'integration', async ({ app, params }) => {
    const row = await find(app.id, params.integrationId);
    return row ? ok({ integration: answer(row) }) : notFound();
  });

  route(router, deps, 'createIntegration', async ({ app, principal, body }) => {
    const def = defOf(body.service);
    if (!def) return invalid([{ path: 'service', message: 'Unknown service' }]);
    const auth = def.auth[0] ?? 'basic';
    const secrets = Object.fromEntries(Object.entries(body.secrets).filter(([, v]) => typeof v === 'string' && v !== '')) as Record<string, string>;
    const issues = [...secretIssues(auth, secrets), ...(await addressProblems(calledHosts(body), policy()))];
    if (issues.length) return invalid(issues);
    const id = randomUUID();
    try {
      await repo.insertIntegration(db, {
        id, accountId: principal.account.id, appId: app.id, kind: def.kind, service: body.service, auth, name: body.name,
        config: body.config, secret: sealSecrets(deps.secret, id, secrets), status: auth === 'oauth2' ? 'pending' : 'connected',
        tokenExpiresAt: null, createdBy: principal.user.id,
      });
    } catch (error) {
      if (isUniqueViolation(error)) return taken();
      throw error;
    }
    const row = await repo.findIntegration(db, app.id, id);
    return row ? ok({ integration: answer(row) }) : notFound();
  });

  route(router, deps, 'updateIntegration', async ({ app, params, body }) => {
    const current = await find(app.id, params.integrationId);
    if (!current) return notFound();
    if (body.service !== current.service) return invalid([{ path: 'service', message: 'The service of an integration cannot change: add another integration' }]);
    const stored = current.secret ? openSecrets(deps.secret, current.id, current.secret) ?? {} : {};
    const sent = Object.fromEntries(Object.entries(body.secrets).filter(([, v]) => typeof v === 'string' && v !== '')) as Record<string, string>;
    const merged: Record<string, string> = { ...stored, ...sent };
    const issues = [...secretIssues(current.auth, merged), ...(await addressProblems(calledHosts(body), policy()))];
    if (issues.length) return invalid(issues);
    const config = body.config as Record<string, unknown>;
    let status: repo.IntegrationRow['status'] | undefined;
    let dropTokens = false;
    if (current.auth === 'oauth2') {
      if (OAUTH_IDENTITY.some((k) => !sameValue(config[k], current.config[k]))) {
        for (const k of TOKEN_SECRETS) delete merged[k];
        dropTokens = true;
        status = 'pending';
      }
    } else if (Object.keys(sent).length > 0 || !sameValue(config, current.config)) {
      status = 'connected'; // new credentials or settings: the last error no longer applies
    }
    try {
      await tx(db, async (c) => {
        const locked = await repo.lockIntegration(c, app.id, current.id);
        if (!locked) return;
        await repo.updateIntegration(c, app.id, current.id, { name: body.name, config, secret: sealSecrets(deps.secret, current.id, merged), status, dropTokens });
      });
    } catch (error) {
      if (isUniqueViolation(error)) return taken();
      throw error;
    }
    const row = await repo.findIntegration(db, app.id, current.id);
    return row ? ok({ integration: answer(row) }) : notFound();
  });

  route(router, deps, 'deleteIntegration', async ({ app, params }) => {
    const row = await find(app.id, params.integrationId);
    if (!row) return notFound();
    try {
      await repo.deleteIntegration(db, app.id, row.id);
    } catch (error) {
      if (isForeignKeyViolation(error)) return conflict('The integration is still in use (an audience share or another record names it): remove that first');
      throw error;
    }
    return ok({});
  });

  route(router, deps, 'testIntegration', async ({ app, params }) => {
    const row = await find(app.id, params.integrationId);
    if (!row) return notFound();
    const code = failCodeOf(row.service);
    if (row.status === 'pending' || row.status === 'disconnected') return fail(code, 'The integration is not connected: connect it first');
    const access = await integrationAccess(deps, app.id, row.id);
    if (!access.ok) return access.code === ErrorCode.NOT_EXIST ? notFound() : access;
    const outcome = await testConnection(access.value, policy());
    if (!outcome.ok) {
      await markIntegrationError(db, row.id, outcome.code, outcome.message);
      return outcome;
    }
    await repo.setStatus(db, row.id, 'connected', null, null);
    const after = await repo.findIntegration(db, app.id, row.id);
    if (!after) return notFound();
    return ok({ result: { ok: true as const, ms: outcome.value.ms, ...(outcome.value.accounts ? { accounts: outcome.value.accounts } : {}) }, integration: answer(after) });
  });

  route(router, deps, 'startIntegrationOAuth', async ({ app, principal, params, body, req }) => {
    const row = await find(app.id, params.integrationId);
    if (!row) return notFound();
    if (row.auth !== 'oauth2') return invalid([{ path: 'integrationId', message: 'Only OAuth 2 integrations are authorised this way' }]);
    const defaults = SERVICE_DEFAULTS[row.service as IntegrationService];
    const base = typeof row.config.authorizeUrl === 'string' && row.config.authorizeUrl ? row.config.authorizeUrl : defaults.authorizeUrl;
    if (!base || typeof row.config.clientId !== 'string') return invalid([{ path: 'config.authorizeUrl', message: 'The integration has no authorization endpoint or client id' }]);
    const state = randomToken(32);
    const { verifier, challenge } = pkcePair();
    const stateId = randomUUID();
    const redirectUri = `${publicBaseUrl(deps, req)}${OAUTH_CALLBACK_PATH}`;
    const scopes = Array.isArray(row.config.scopes) ? (row.config.scopes as unknown[]).filter((s): s is string => typeof s === 'string') : [];
    await repo.insertOAuthState(db, {
      id: stateId, integrationId: row.id, accountId: principal.account.id, userId: principal.user.id, stateHash: sha256(state),
      verifier: sealSecrets(deps.secret, stateId, { verifier, redirectUri }), returnTo: body.returnTo ?? '/manage/integrations', ttlSeconds: OAUTH_STATE_TTL_SECONDS,
    });
    return ok({ authorizeUrl: buildAuthorizeUrl(base, { clientId: row.config.clientId, redirectUri, scopes, state, challenge }) });
  });

  route(router, deps, 'disconnectIntegration', async ({ app, params }) => {
    const row = await find(app.id, params.integrationId);
    if (!row) return notFound();
    if (row.auth !== 'oauth2') return invalid([{ path: 'integrationId', message: 'Only OAuth 2 integrations have tokens to drop' }]);
    await tx(db, async (c) => {
      const locked = await repo.lockIntegration(c, app.id, row.id);
      if (!locked) return;
      const opened = locked.secret ? openSecrets(deps.secret, locked.id, locked.secret) : null;
      const kept: Record<string, string> = opened?.clientSecret ? { clientSecret: opened.clientSecret } : {};
      await repo.disconnect(c, app.id, locked.id, sealSecrets(deps.secret, locked.id, kept));
    });
    const after = await repo.findIntegration(db, app.id, row.id);
    return after ? ok({ integration: answer(after) }) : notFound();
  });

  router.get('/oauth/callback', (req, res, next) => {
    oauthCallback(deps, req, res).catch(next);
  });
}

const back = (res: Response, returnTo: string, query: Record<string, string>) => {
  const path = APP_PATH.test(returnTo) ? returnTo : '/manage/integrations';
  res.setHeader('Cache-Control', 'no-store');
  res.redirect(303, `${path}?${new URLSearchParams(query).toString()}`);
};

/** GET /api/oauth/callback?code&state (see the module doc). */
async function oauthCallback(deps: Deps, req: Request, res: Response): Promise<void> {
  const q = req.query as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  const state = text(q.state);
  const code = text(q.code);
  const refused = (returnTo = '/manage/integrations', integrationId?: string) =>
    back(res, returnTo, { oauth: 'error', code: String(ErrorCode.OAUTH_ERROR), ...(integrationId ? { integration: integrationId } : {}) });
  const signedIn = await authenticate(deps, req);
  if (!signedIn.ok || !state || state.length > 200) return refused();
  const userId = signedIn.value.principal.user.id;
  // Take the state once, whatever follows: a second use of the same state is refused.
  const taken = await tx(deps.db, async (c) => {
    const row = await repo.takeOAuthState(c, sha256(state));
    if (!row || row.user_id !== userId) return null;
    if (row.used || row.expired) return { row, usable: false };
    await repo.markOAuthStateUsed(c, row.id);
    return { row, usable: true };
  });
  if (!taken) return refused();
  const { row } = taken;
  if (!taken.usable) return refused(row.return_to, row.integration_id);
  const fault = async (message: string) => {
    await markIntegrationError(deps.db, row.integration_id, ErrorCode.OAUTH_ERROR, message);
    refused(row.return_to, row.integration_id);
  };
  const providerError = text(q.error);
  if (providerError) return fault(`The provider refused the authorization (${providerError.slice(0, 60)}${q.error_description ? `: ${text(q.error_description).slice(0, 200)}` : ''})`);
  if (!code || code.length > 4096) return fault('The provider sent no authorization code');
  const sealed = openSecrets(deps.secret, row.id, row.verifier);
  const integration = await repo.findIntegration(deps.db, row.app_id, row.integration_id);
  if (!sealed?.verifier || !sealed.redirectUri || !integration) return refused(row.return_to);
  const secrets = integration.secret ? openSecrets(deps.secret, integration.id, integration.secret) : null;
  const cfg = integration.config;
  const tokenUrl = typeof cfg.tokenUrl === 'string' && cfg.tokenUrl ? cfg.tokenUrl : SERVICE_DEFAULTS[integration.service as IntegrationService].tokenUrl;
  if (!secrets?.clientSecret || !tokenUrl || typeof cfg.clientId !== 'string') return fault('The integration has no client secret or token endpoint: edit it and connect again');
  const outcome = await exchangeCode({ tokenUrl, clientId: cfg.clientId, clientSecret: secrets.clientSecret }, { code, redirectUri: sealed.redirectUri, verifier: sealed.verifier }, netPolicy(deps.config));
  if (!outcome.ok) {
    deps.log.warn({ integrationId: integration.id, error: outcome.error }, 'OAuth 2 code exchange failed');
    return fault(outcome.error);
  }
  await tx(deps.db, async (c) => {
    const locked = await repo.lockIntegration(c, integration.app_id, integration.id);
    if (!locked) return;
    const current = (locked.secret ? openSecrets(deps.secret, locked.id, locked.secret) : null) ?? secrets;
    const next: Record<string, string> = { ...current, accessToken: outcome.tokens.accessToken };
    if (outcome.tokens.refreshToken) next.refreshToken = outcome.tokens.refreshToken;
    else delete next.refreshToken;
    await repo.storeTokens(c, locked.id, sealSecrets(deps.secret, locked.id, next), outcome.tokens.expiresAt, true);
  });
  back(res, row.return_to, { oauth: 'connected', integration: integration.id });
}
