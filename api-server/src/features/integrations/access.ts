/**
 * Using an integration from background work or another feature (audience sharing, the adobe
 * import, journey postbacks): `integrationAccess` opens the sealed secrets and hands back the ready
 * `Authorization` header value, refreshing an OAuth 2 access token first when it expires within
 * TOKEN_REFRESH_MARGIN_SECONDS.
 *
 * - One refresh at a time per integration: the refresh runs under the row's lock (SELECT ... FOR
 *   UPDATE) and checks again, once it holds the lock, whether another process already refreshed;
 *   the lock is held for the token request only (its own limit: 15 s).
 * - A failure (no refresh token, the token endpoint refusing, secrets that no longer open) sets the
 *   integration's status `error` with the reason and answers the service's `connectionFailCode`.
 * - `authorization`: `Bearer <access token>` (oauth2), `Basic base64(username:password)` (basic),
 *   and '' for `keys` (object storage signs each request with its keys: AWS signature v4).
 * - Pending (never authorised) and disconnected integrations answer the service's
 *   connectionFailCode without a call; an unknown id, or one of another app, answers 10.
 */
import type { Logger } from 'pino';
import { ErrorCode, INTEGRATION_SERVICES, TOKEN_REFRESH_MARGIN_SECONDS, fail, ok, type ErrorCodeValue, type IntegrationAuth, type IntegrationKind, type Result, type ServiceDef } from '@gd/shared';
import type { Config } from '../../config.ts';
import { tx, type Db, type Queryable } from '../../db/pool.ts';
import { netPolicy, publicOnly, type NetPolicy } from '../../net/index.ts';
import { loadSigningSecret } from '../auth/secrets.ts';
import { openSecrets, sealSecrets } from '../imports/secretBox.ts';
import { refreshTokens } from './oauth.ts';
import * as repo from './repository.ts';

export interface IntegrationAccess {
  id: string;
  appId: string;
  kind: IntegrationKind;
  service: string;
  auth: IntegrationAuth;
  config: Record<string, unknown>;
  secrets: Record<string, string>;
  /** The ready `Authorization` header value ('' for `keys`). */
  authorization: string;
}

export interface AccessDeps {
  db: Db;
  /** For the outgoing-request policy and JWT_SECRET (background work without it passes `secret` and `net`). */
  config?: Config | undefined;
  log: Logger;
  /** The server secret credentials are sealed with; read from the database (or JWT_SECRET) when absent. */
  secret?: string | undefined;
  /** What token requests may reach; netPolicy(config) when absent, else public addresses only. */
  net?: NetPolicy | undefined;
}

export const accessPolicy = (deps: AccessDeps): NetPolicy => deps.net ?? (deps.config ? netPolicy(deps.config) : publicOnly());

const secrets = new WeakMap<Db, Promise<string>>();

/** The server secret of this database (JWT_SECRET when set), read once per pool. */
export function serverSecret(deps: AccessDeps): Promise<string> {
  if (deps.secret) return Promise.resolve(deps.secret);
  let secret = secrets.get(deps.db);
  if (!secret) {
    secret = loadSigningSecret(deps.db, deps.config?.JWT_SECRET);
    secrets.set(deps.db, secret);
    secret.catch(() => secrets.delete(deps.db));
  }
  return secret;
}

export const serviceDef = (service: string): ServiceDef | undefined => (INTEGRATION_SERVICES as Record<string, ServiceDef>)[service];
export const failCodeOf = (service: string): ErrorCodeValue => (serviceDef(service)?.connectionFailCode ?? ErrorCode.OAUTH_ERROR) as ErrorCodeValue;

/** Sets the integration's status `error` with the catalogue code and the reason shown on the screen. */
export async function markIntegrationError(db: Queryable, id: string, code: number, message: string): Promise<void> {
  await repo.setStatus(db, id, 'error', code, message);
}

export function authorizationOf(auth: IntegrationAuth, s: Record<string, string>): string {
  if (auth === 'oauth2') return `Bearer ${s.accessToken ?? ''}`;
  if (auth === 'basic') return `Basic ${Buffer.from(`${s.username ?? ''}:${s.password ?? ''}`, 'utf8').toString('base64')}`;
  return '';
}

const expiring = (expiresAt: Date | null, now: Date) => expiresAt === null || expiresAt.getTime() - now.getTime() <= TOKEN_REFRESH_MARGIN_SECONDS * 1000;

const access = (row: repo.IntegrationRow, s: Record<string, string>): IntegrationAccess => ({
  id: row.id, appId: row.app_id, kind: row.kind, service: row.service, auth: row.auth, config: row.config, secrets: s,
  authorization: authorizationOf(row.auth, s),
});

/**
 * Refreshes the OAuth 2 tokens of one integration under its row lock. `force`: refresh even when
 * the token is not about to expire (the refresher's margin is wider than the one of use).
 */
export async function refreshIntegration(deps: AccessDeps, appId: string, integrationId: string, opts: { force?: boolean; margin?: number } = {}): Promise<Result<IntegrationAccess>> {
  const secret = await serverSecret(deps);
  return tx(deps.db, async (c) => {
    const row = await repo.lockIntegration(c, appId, integrationId);
    if (!row) return fail(ErrorCode.NOT_EXIST, 'No such integration');
    const code = failCodeOf(row.service);
    if (row.auth !== 'oauth2') return fail(ErrorCode.MANDATORY, 'Only OAuth 2 integrations have tokens to refresh');
    if (row.status === 'pending' || row.status === 'disconnected') return fail(code, 'The integration is not connected: connect it first');
    const opened = row.secret ? openSecrets(secret, row.id, row.secret) : null;
    if (!opened) {
      await markIntegrationError(c, row.id, code, 'The stored credentials can no longer be read; connect the integration again');
      return fail(code, 'The stored credentials can no longer be read');
    }
    const margin = (opts.margin ?? TOKEN_REFRESH_MARGIN_SECONDS) * 1000;
    if (!opts.force && row.token_expires_at && row.token_expires_at.getTime() - Date.now() > margin && opened.accessToken) {
      return ok(access(row, opened)); // another process refreshed it while we waited for the lock
    }
    const cfg = row.config;
    if (!opened.refreshToken || typeof cfg.tokenUrl !== 'string' || typeof cfg.clientId !== 'string') {
      await markIntegrationError(c, row.id, code, 'The access token expired and there is no refresh token: connect the integration again');
      return fail(code, 'The access token expired and cannot be refreshed');
    }
    const outcome = await refreshTokens({ tokenUrl: cfg.tokenUrl, clientId: cfg.clientId, clientSecret: opened.clientSecret ?? '' }, opened.refreshToken, accessPolicy(deps));
    if (!outcome.ok) {
      deps.log.warn({ integrationId: row.id, service: row.service, error: outcome.error }, 'integration token refresh failed');
      await markIntegrationError(c, row.id, code, `Token refresh failed: ${outcome.error}`);
      return fail(code, `Token refresh failed: ${outcome.error}`);
    }
    const next = { ...opened, accessToken: outcome.tokens.accessToken, refreshToken: outcome.tokens.refreshToken ?? opened.refreshToken };
    await repo.storeTokens(c, row.id, sealSecrets(secret, row.id, next), outcome.tokens.expiresAt, false);
    return ok(access({ ...row, status: 'connected', token_expires_at: outcome.tokens.expiresAt }, next));
  });
}

/** The integration's settings, opened secrets and Authorization header (see the module doc). */
export async function integrationAccess(deps: AccessDeps, appId: string, integrationId: string): Promise<Result<IntegrationAccess>> {
  const row = await repo.findIntegration(deps.db, appId, integrationId);
  if (!row) return fail(ErrorCode.NOT_EXIST, 'No such integration');
  const code = failCodeOf(row.service);
  if (row.status === 'pending' || row.status === 'disconnected') return fail(code, 'The integration is not connected: connect it first');
  const secret = await serverSecret(deps);
  const opened = row.secret ? openSecrets(secret, row.id, row.secret) : row.auth === 'keys' ? null : {};
  if (!opened) {
    await markIntegrationError(deps.db, row.id, code, 'The stored credentials can no longer be read; enter them again');
    return fail(code, 'The stored credentials can no longer be read');
  }
  if (row.auth === 'oauth2' && (expiring(row.token_expires_at, new Date()) || !opened.accessToken)) {
    return refreshIntegration({ ...deps, secret }, appId, integrationId);
  }
  return ok(access(row, opened));
}
