/**
 * The session as last seen online. Every `/user/meta` answer is kept in the browser (Dexie, keyed
 * by user, deleted on logout with the user's other copies); when a page loads while the API cannot
 * be reached (a network failure, not a refusal), the store signs in with that copy and marks the
 * session offline until the API answers again. The Dexie code loads lazily: the sign-in pages stay
 * light.
 */
import { UserMeta } from '@gd/shared/schemas/account';

const localStore = () => import('../sync/localStore.ts');

export interface SavedSession {
  meta: UserMeta;
  savedAt: number;
}

/** Keeps this answer as the user's offline session (best effort). */
export function keepSession(meta: UserMeta): Promise<void> {
  return localStore()
    .then((m) => m.saveSession(meta.user.id, meta))
    .catch(() => undefined);
}

/**
 * The session kept for `userId` (the user this tab remembers), or with nobody remembered the most
 * recent one; null when there is none or it no longer matches the schema (an older build's copy).
 */
export async function savedSession(userId: string | null): Promise<SavedSession | null> {
  try {
    const record = await (await localStore()).loadSession(userId);
    const parsed = UserMeta.safeParse(record?.meta);
    return record && parsed.success ? { meta: parsed.data, savedAt: record.savedAt } : null;
  } catch {
    return null;
  }
}
