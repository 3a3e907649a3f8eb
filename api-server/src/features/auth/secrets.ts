/** Random tokens, their hashes, and the signing secret shared by the API and the sync server. */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Queryable } from '../../db/pool.ts';

export const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url');
export const sha256 = (value: string) => createHash('sha256').update(value).digest();

export function hmac(secret: string, value: string): string {
  return createHmac('sha256', secret).update(value).digest('base64url');
}

export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

/** The configured secret, or one generated once and kept in the database for every process. */
export async function loadSigningSecret(db: Queryable, configured?: string): Promise<string> {
  if (configured) return configured;
  await db.query(
    `INSERT INTO server_secrets (name, value) VALUES ('jwt', $1) ON CONFLICT (name) DO NOTHING`,
    [randomToken(48)],
  );
  const { rows } = await db.query<{ value: string }>(`SELECT value FROM server_secrets WHERE name = 'jwt'`);
  const secret = rows[0]?.value;
  if (!secret) throw new Error('signing secret missing');
  return secret;
}
