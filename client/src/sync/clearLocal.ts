/** Logout: close every open document, then delete the user's browser copies and cached lists. */
import { closeAll } from './lifecycle.ts';
import { clearUserData } from './localStore.ts';

export async function clearLocalCopies(userId: string | null): Promise<void> {
  await closeAll();
  if (userId) await clearUserData(userId);
}
