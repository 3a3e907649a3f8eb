/** Password hashing (argon2id) and the no-reuse rule over the last PASSWORD_HISTORY_DEPTH passwords. */
import { hash, verify } from '@node-rs/argon2';
import { PASSWORD_HISTORY_DEPTH } from '@gd/shared';
import type { Queryable } from '../../db/pool.ts';

export const hashPassword = (password: string) => hash(password);

export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  if (!stored) return false;
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

// Verifying against a fixed hash when the user does not exist keeps the answer time alike.
let dummy: Promise<string> | undefined;
export async function burnVerify(password: string): Promise<void> {
  dummy ??= hash('not-a-real-password');
  await verifyPassword(await dummy, password);
}

/** True when `password` matches the current or one of the recent earlier passwords. */
export async function usedBefore(db: Queryable, userId: string, password: string): Promise<boolean> {
  const { rows } = await db.query<{ hash: string }>(
    `(SELECT password_hash AS hash FROM users WHERE id = $1 AND password_hash IS NOT NULL)
     UNION ALL
     (SELECT hash FROM password_history WHERE user_id = $1 ORDER BY created_at DESC LIMIT $2)`,
    [userId, PASSWORD_HISTORY_DEPTH],
  );
  for (const row of rows) if (await verifyPassword(row.hash, password)) return true;
  return false;
}

export async function setPassword(db: Queryable, userId: string, passwordHash: string): Promise<void> {
  await db.query(
    `WITH old AS (SELECT password_hash FROM users WHERE id = $1 AND password_hash IS NOT NULL)
     INSERT INTO password_history (user_id, hash) SELECT $1, password_hash FROM old`,
    [userId],
  );
  await db.query('UPDATE users SET password_hash = $2, password_changed_at = now() WHERE id = $1', [userId, passwordHash]);
}
