/** SQL of integrations and their OAuth 2 states (every query scoped by app or account as well as the id). */
import type { IntegrationAuth, IntegrationKind, IntegrationStatus } from '@gd/shared';
import type { Queryable } from '../../db/pool.ts';

export interface IntegrationRow {
  id: string; account_id: string; app_id: string; kind: IntegrationKind; service: string; auth: IntegrationAuth; name: string;
  config: Record<string, unknown>; secret: Buffer | null; status: IntegrationStatus; status_code: number | null; status_message: string | null;
  token_expires_at: Date | null; connected_at: Date | null; last_refreshed_at: Date | null; created_by: string | null;
  created_at: Date; updated_at: Date;
}

const COLUMNS = `id, account_id, app_id, kind, service, auth, name, config, secret, status, status_code, status_message,
  token_expires_at, connected_at, last_refreshed_at, created_by, created_at, updated_at`;

export async function findIntegration(db: Queryable, appId: string, id: string): Promise<IntegrationRow | undefined> {
  return (await db.query<IntegrationRow>(`SELECT ${COLUMNS} FROM integrations WHERE id = $1 AND app_id = $2`, [id, appId])).rows[0];
}

/** The row, locked for this transaction (one refresh or authorisation at a time per integration). */
export async function lockIntegration(db: Queryable, appId: string, id: string): Promise<IntegrationRow | undefined> {
  return (await db.query<IntegrationRow>(`SELECT ${COLUMNS} FROM integrations WHERE id = $1 AND app_id = $2 FOR UPDATE`, [id, appId])).rows[0];
}

export async function listIntegrations(db: Queryable, appId: string, kind?: IntegrationKind): Promise<IntegrationRow[]> {
  return (await db.query<IntegrationRow>(
    `SELECT ${COLUMNS} FROM integrations WHERE app_id = $1 AND ($2::text IS NULL OR kind = $2) ORDER BY kind, lower(name), id`,
    [appId, kind ?? null],
  )).rows;
}

export interface NewIntegration {
  id: string; accountId: string; appId: string; kind: IntegrationKind; service: string; auth: IntegrationAuth; name: string;
  config: Record<string, unknown>; secret: Buffer | null; status: IntegrationStatus; tokenExpiresAt: Date | null; createdBy: string | null;
}

export async function insertIntegration(db: Queryable, i: NewIntegration): Promise<void> {
  await db.query(
    `INSERT INTO integrations (id, account_id, app_id, kind, service, auth, name, config, secret, status, token_expires_at,
       connected_at, last_refreshed_at, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, CASE WHEN $10 = 'connected' THEN now() END, CASE WHEN $10 = 'connected' THEN now() END, $12)`,
    [i.id, i.accountId, i.appId, i.kind, i.service, i.auth, i.name, JSON.stringify(i.config), i.secret, i.status, i.tokenExpiresAt, i.createdBy],
  );
}

/** A name/config/secret edit; `status` set when the edit changes what the connection rests on. */
export async function updateIntegration(db: Queryable, appId: string, id: string, patch: { name: string; config: Record<string, unknown>; secret: Buffer | null; status?: IntegrationStatus | undefined; dropTokens?: boolean }): Promise<void> {
  await db.query(
    `UPDATE integrations SET name = $3, config = $4, secret = $5, status = coalesce($6, status),
       status_code = CASE WHEN $6::text IS NULL THEN status_code END, status_message = CASE WHEN $6::text IS NULL THEN status_message END,
       token_expires_at = CASE WHEN $7 THEN NULL ELSE token_expires_at END, updated_at = now()
     WHERE id = $1 AND app_id = $2`,
    [id, appId, patch.name, JSON.stringify(patch.config), patch.secret, patch.status ?? null, patch.dropTokens ?? false],
  );
}

export async function deleteIntegration(db: Queryable, appId: string, id: string): Promise<void> {
  await db.query('DELETE FROM integrations WHERE id = $1 AND app_id = $2', [id, appId]);
}

/** New sealed secrets after an authorisation or a refresh: connected, error cleared. */
export async function storeTokens(db: Queryable, id: string, secret: Buffer, expiresAt: Date, firstConnection: boolean): Promise<void> {
  await db.query(
    `UPDATE integrations SET secret = $2, token_expires_at = $3, status = 'connected', status_code = NULL, status_message = NULL,
       last_refreshed_at = now(), connected_at = CASE WHEN $4 OR connected_at IS NULL THEN now() ELSE connected_at END, updated_at = now()
     WHERE id = $1`,
    [id, secret, expiresAt, firstConnection],
  );
}

export async function setStatus(db: Queryable, id: string, status: IntegrationStatus, code: number | null, message: string | null): Promise<void> {
  await db.query(
    `UPDATE integrations SET status = $2, status_code = $3, status_message = $4,
       connected_at = CASE WHEN $2 = 'connected' AND status <> 'connected' THEN now() ELSE connected_at END, updated_at = now()
     WHERE id = $1`,
    [id, status, code, message === null ? null : message.slice(0, 500)],
  );
}

/** Tokens dropped by the user: the sealed secrets keep only the client secret. */
export async function disconnect(db: Queryable, appId: string, id: string, secret: Buffer | null): Promise<void> {
  await db.query(
    `UPDATE integrations SET secret = $3, status = 'disconnected', status_code = NULL, status_message = NULL, token_expires_at = NULL, updated_at = now()
     WHERE id = $1 AND app_id = $2`,
    [id, appId, secret],
  );
}

/** Connected OAuth 2 integrations whose token expires before `before` (the refresher's work). */
export async function expiringIntegrations(db: Queryable, before: Date, limit: number): Promise<{ id: string; app_id: string }[]> {
  return (await db.query<{ id: string; app_id: string }>(
    `SELECT id, app_id FROM integrations WHERE auth = 'oauth2' AND status = 'connected' AND token_expires_at < $1
     ORDER BY token_expires_at LIMIT $2`,
    [before, limit],
  )).rows;
}

// ---------------------------------------------------------------------------------------------
// OAuth 2 states

export async function insertOAuthState(db: Queryable, s: { id: string; integrationId: string; accountId: string; userId: string; stateHash: Buffer; verifier: Buffer; returnTo: string; ttlSeconds: number }): Promise<void> {
  await db.query(
    `INSERT INTO integration_oauth_states (id, integration_id, account_id, user_id, state_hash, verifier, return_to, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, now() + make_interval(secs => $8))`,
    [s.id, s.integrationId, s.accountId, s.userId, s.stateHash, s.verifier, s.returnTo, s.ttlSeconds],
  );
}

export interface OAuthStateRow {
  id: string; integration_id: string; account_id: string; user_id: string | null; verifier: Buffer; return_to: string;
  expired: boolean; used: boolean; app_id: string;
}

/** The state with this hash, locked, with whether it expired or was used. */
export async function takeOAuthState(db: Queryable, stateHash: Buffer): Promise<OAuthStateRow | undefined> {
  return (await db.query<OAuthStateRow>(
    `SELECT s.id, s.integration_id, s.account_id, s.user_id, s.verifier, s.return_to, s.expires_at <= now() AS expired,
       s.used_at IS NOT NULL AS used, i.app_id
     FROM integration_oauth_states s JOIN integrations i ON i.id = s.integration_id
     WHERE s.state_hash = $1 FOR UPDATE OF s`,
    [stateHash],
  )).rows[0];
}

export async function markOAuthStateUsed(db: Queryable, id: string): Promise<void> {
  await db.query('UPDATE integration_oauth_states SET used_at = now() WHERE id = $1', [id]);
}

/** States past their time (kept a day for the record of refusals, then dropped). */
export async function purgeOAuthStates(db: Queryable): Promise<void> {
  await db.query(`DELETE FROM integration_oauth_states WHERE expires_at < now() - interval '1 day'`);
}
