/**
 * Logout clears the browser's copies of the user's data: every collaborative document kept in
 * IndexedDB (y-indexeddb) and the cached lists (Dexie). Loaded lazily: the sign-in pages stay light.
 * Another user signing in on the same browser never sees these copies anyway (they are keyed by user).
 */
let clearing: Promise<void> = Promise.resolve();

export function clearBrowserCopies(userId: string | null): Promise<void> {
  clearing = import('../sync/clearLocal.ts').then((m) => m.clearLocalCopies(userId)).catch(() => undefined);
  return clearing;
}

/** Resolves once the last clearing finished (logout waits for it before leaving). */
export const browserCopiesCleared = (): Promise<void> => clearing;
