/** SQL for sessions (refresh tokens), one-time links and login throttling. */
import { LOGIN_FAILURE_WINDOW_SECONDS } from '@gd/shared';
import type { Queryable } from '../../db/pool.ts';

export interface RefreshRow { id: string; user_id: string; family_id: string; expires_at: Date; used_at: Date | null; revoked_at: Date | null }

export async function insertRefresh(db: Queryable, r: { userId: string; familyId: string; tokenHash: Buffer; ttlSeconds: number }): Promise<void> {
  await db.query(
    `INSERT INTO refresh_tokens (user_id, family_id, token_hash, expires_at) VALUES ($1, $2, $3, now() + make_interval(secs => $4))`,
    [r.userId, r.familyId, r.tokenHash, r.ttlSeconds],
  );
}
/** Marks the token used; returns the row as it was before, or nothing for an unknown token. */
export async function claimRefresh(db: Queryable, tokenHash: Buffer): Promise<RefreshRow | undefined> {
  const { rows } = await db.query<RefreshRow>(
    `UPDATE refresh_tokens t SET used_at = COALESCE(t.used_at, now())
     FROM (SELECT id, used_at FROM refresh_tokens WHERE token_hash = $1 FOR UPDATE) before
     WHERE t.id = before.id
     RETURNING t.id, t.user_id, t.family_id, t.expires_at, before.used_at, t.revoked_at`,
    [tokenHash],
  );
  return rows[0];
}
/**
 * Revoke sessions (refresh-token families) and move their users' meta version in the same statement,
 * so every process reloads the principal (and its revoked sessions) on the user's next request.
 */
async function revokeWhere(db: Queryable, where: string, params: unknown[]): Promise<void> {
  await db.query(
    `WITH revoked AS (UPDATE refresh_tokens SET revoked_at = now() WHERE revoked_at IS NULL AND ${where} RETURNING user_id)
     UPDATE users SET meta_version = meta_version WHERE id IN (SELECT user_id FROM revoked)`,
    params,
  );
}
export async function revokeFamily(db: Queryable, familyId: string): Promise<void> {
  await revokeWhere(db, 'family_id = $1', [familyId]);
}
export async function revokeAllForUser(db: Queryable, userId: string): Promise<void> {
  await revokeWhere(db, 'user_id = $1', [userId]);
}
/** Every session of the user but `keep` (a password change signs out the other devices). */
export async function revokeOtherSessions(db: Queryable, userId: string, keep: string | undefined): Promise<void> {
  await revokeWhere(db, 'user_id = $1 AND family_id IS DISTINCT FROM $2::uuid', [userId, keep ?? null]);
}
/** Every reset link of the user not used yet: once one was used, the older (and newer) ones are void. */
export async function voidResetLinks(db: Queryable, userId: string): Promise<void> {
  await db.query(`UPDATE one_time_tokens SET used_at = now() WHERE user_id = $1 AND purpose = 'reset_password' AND used_at IS NULL`, [userId]);
}
export async function findRefreshFamily(db: Queryable, tokenHash: Buffer): Promise<string | undefined> {
  return (await db.query<{ family_id: string }>('SELECT family_id FROM refresh_tokens WHERE token_hash = $1', [tokenHash])).rows[0]?.family_id;
}

export type OneTimePurpose = 'reset_password' | 'auto_login';
export interface OneTimeRow { id: string; user_id: string; redirect: string | null; expired: boolean; used: boolean }
export async function insertOneTime(db: Queryable, t: { userId: string; purpose: OneTimePurpose; tokenHash: Buffer; ttlSeconds: number; redirect?: string }): Promise<void> {
  await db.query(
    `INSERT INTO one_time_tokens (user_id, purpose, token_hash, redirect, expires_at) VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5))`,
    [t.userId, t.purpose, t.tokenHash, t.redirect ?? null, t.ttlSeconds],
  );
}
/** Consumes a one-time token: the row as found (expired/used flags from before this call). */
export async function consumeOneTime(db: Queryable, purpose: OneTimePurpose, tokenHash: Buffer): Promise<OneTimeRow | undefined> {
  const { rows } = await db.query<OneTimeRow>(
    `WITH found AS (
       SELECT id, user_id, redirect, expires_at <= now() AS expired, used_at IS NOT NULL AS used
       FROM one_time_tokens WHERE token_hash = $1 AND purpose = $2 FOR UPDATE)
     UPDATE one_time_tokens t SET used_at = COALESCE(t.used_at, now()) FROM found WHERE t.id = found.id AND NOT found.expired
     RETURNING found.id, found.user_id, found.redirect, found.expired, found.used`,
    [tokenHash, purpose],
  );
  if (rows[0]) return rows[0];
  const expired = await db.query<OneTimeRow>(
    `SELECT id, user_id, redirect, true AS expired, used_at IS NOT NULL AS used FROM one_time_tokens WHERE token_hash = $1 AND purpose = $2`,
    [tokenHash, purpose],
  );
  return expired.rows[0];
}

/** Looks a one-time token up without consuming it. */
export async function peekOneTime(db: Queryable, purpose: OneTimePurpose, tokenHash: Buffer): Promise<OneTimeRow | undefined> {
  return (await db.query<OneTimeRow>(
    `SELECT id, user_id, redirect, expires_at <= now() AS expired, used_at IS NOT NULL AS used FROM one_time_tokens WHERE token_hash = $1 AND purpose = $2`,
    [tokenHash, purpose],
  )).rows[0];
}

export async function recentFailures(db: Queryable, email: string, ip: string): Promise<{ byEmail: number; byIp: number }> {
  const { rows } = await db.query<{ by_email: number; by_ip: number }>(
    `SELECT count(*) FILTER (WHERE lower(email) = lower($1))::int AS by_email, count(*) FILTER (WHERE ip = $2)::int AS by_ip
     FROM login_failures WHERE created_at > now() - make_interval(secs => $3) AND (lower(email) = lower($1) OR ip = $2)`,
    [email, ip, LOGIN_FAILURE_WINDOW_SECONDS],
  );
  return { byEmail: rows[0]?.by_email ?? 0, byIp: rows[0]?.by_ip ?? 0 };
}
export async function recordFailure(db: Queryable, email: string, ip: string): Promise<void> {
  await db.query('INSERT INTO login_failures (email, ip) VALUES (lower($1), $2)', [email, ip]);
}
export async function clearFailures(db: Queryable, email: string): Promise<void> {
  await db.query('DELETE FROM login_failures WHERE lower(email) = lower($1)', [email]);
}
