/**
 * SQL for mail providers (migration 018): one row per SMTP server of an account. The sealed
 * password (`secret`) is read only by `providerSettings`, for the connection test and the send
 * pipeline's transport; the records answered to the web app say only whether one is set.
 */
import type { MailProvider, MailProviderInput, MailTlsMode } from '@gd/shared/schemas/mailProviders';
import { tx, type Db, type Queryable } from '../../db/pool.ts';

interface ProviderRow {
  id: string; name: string; host: string; port: number; tls: MailTlsMode; username: string; has_password: boolean;
  sender_name: string; sender_email: string; rate_per_second: number | null; active: boolean; created_at: Date; updated_at: Date;
}
const COLUMNS = 'id, name, host, port, tls, username, secret IS NOT NULL AS has_password, sender_name, sender_email, rate_per_second, active, created_at, updated_at';

const toRecord = (r: ProviderRow): MailProvider => ({
  id: r.id, name: r.name, host: r.host, port: r.port, tls: r.tls, username: r.username, hasPassword: r.has_password,
  senderName: r.sender_name, senderEmail: r.sender_email, ratePerSecond: r.rate_per_second, active: r.active,
  createdAt: r.created_at.toISOString(), updatedAt: r.updated_at.toISOString(),
});

/** What connecting needs: the settings and the sealed password (null: no login). */
export interface ProviderSettings {
  id: string; host: string; port: number; tls: MailTlsMode; username: string; secret: Buffer | null;
  senderName: string; senderEmail: string; ratePerSecond: number | null;
}
interface SettingsRow { id: string; host: string; port: number; tls: MailTlsMode; username: string; secret: Buffer | null; sender_name: string; sender_email: string; rate_per_second: number | null }
const SETTINGS = 'id, host, port, tls, username, secret, sender_name, sender_email, rate_per_second';
const toSettings = (r: SettingsRow): ProviderSettings => ({
  id: r.id, host: r.host, port: r.port, tls: r.tls, username: r.username, secret: r.secret, senderName: r.sender_name, senderEmail: r.sender_email,
  ratePerSecond: r.rate_per_second,
});

export async function listProviders(db: Queryable, accountId: string): Promise<MailProvider[]> {
  const { rows } = await db.query<ProviderRow>(`SELECT ${COLUMNS} FROM mail_providers WHERE account_id = $1 ORDER BY lower(name), id`, [accountId]);
  return rows.map(toRecord);
}

export async function findProvider(db: Queryable, accountId: string, id: string): Promise<MailProvider | undefined> {
  const { rows } = await db.query<ProviderRow>(`SELECT ${COLUMNS} FROM mail_providers WHERE account_id = $1 AND id = $2`, [accountId, id]);
  return rows[0] && toRecord(rows[0]);
}

/** The settings of one provider of the account, or of its active provider (`'active'`). */
export async function providerSettings(db: Queryable, accountId: string, which: { id: string } | 'active'): Promise<ProviderSettings | undefined> {
  const { rows } = which === 'active'
    ? await db.query<SettingsRow>(`SELECT ${SETTINGS} FROM mail_providers WHERE account_id = $1 AND active`, [accountId])
    : await db.query<SettingsRow>(`SELECT ${SETTINGS} FROM mail_providers WHERE account_id = $1 AND id = $2`, [accountId, which.id]);
  return rows[0] && toSettings(rows[0]);
}

/** The stored secret of a provider (to keep it on an update without a new password); undefined: no such provider. */
export async function storedSecret(db: Queryable, accountId: string, id: string): Promise<{ secret: Buffer | null } | undefined> {
  const { rows } = await db.query<{ secret: Buffer | null }>('SELECT secret FROM mail_providers WHERE account_id = $1 AND id = $2', [accountId, id]);
  return rows[0];
}

export async function insertProvider(db: Queryable, input: { id: string; accountId: string; userId: string; provider: MailProviderInput; secret: Buffer | null }): Promise<MailProvider> {
  const p = input.provider;
  const { rows } = await db.query<ProviderRow>(
    `INSERT INTO mail_providers (id, account_id, name, host, port, tls, username, secret, sender_name, sender_email, created_by, rate_per_second)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING ${COLUMNS}`,
    [input.id, input.accountId, p.name, p.host, p.port, p.tls, p.username, input.secret, p.senderName, p.senderEmail, input.userId, p.ratePerSecond],
  );
  const row = rows[0];
  if (!row) throw new Error('inserted mail provider not returned');
  return toRecord(row);
}

export async function updateProvider(db: Queryable, accountId: string, id: string, p: MailProviderInput, secret: Buffer | null): Promise<MailProvider | undefined> {
  const { rows } = await db.query<ProviderRow>(
    `UPDATE mail_providers SET name = $3, host = $4, port = $5, tls = $6, username = $7, secret = $8, sender_name = $9, sender_email = $10,
            rate_per_second = $11, updated_at = now()
      WHERE account_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
    [accountId, id, p.name, p.host, p.port, p.tls, p.username, secret, p.senderName, p.senderEmail, p.ratePerSecond],
  );
  return rows[0] && toRecord(rows[0]);
}

export async function deleteProvider(db: Queryable, accountId: string, id: string): Promise<boolean> {
  return ((await db.query('DELETE FROM mail_providers WHERE account_id = $1 AND id = $2', [accountId, id])).rowCount ?? 0) > 0;
}

/**
 * Makes `id` the account's one active provider, or none (`active` false), in one transaction. The
 * account's provider rows are locked first, so two activations at once run one after the other
 * (the second sees the first's provider active and turns it off) instead of one of them failing on
 * the partial unique index.
 */
export async function setActive(db: Db, accountId: string, id: string, active: boolean): Promise<MailProvider | undefined> {
  return tx(db, async (client) => {
    const { rows: locked } = await client.query<{ id: string }>('SELECT id FROM mail_providers WHERE account_id = $1 ORDER BY id FOR UPDATE', [accountId]);
    if (!locked.some((r) => r.id === id)) return undefined;
    if (active) await client.query('UPDATE mail_providers SET active = false, updated_at = now() WHERE account_id = $1 AND active AND id <> $2', [accountId, id]);
    const { rows } = await client.query<ProviderRow>(
      `UPDATE mail_providers SET active = $3, updated_at = CASE WHEN active = $3 THEN updated_at ELSE now() END
        WHERE account_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
      [accountId, id, active],
    );
    return rows[0] && toRecord(rows[0]);
  });
}
