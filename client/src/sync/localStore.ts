/**
 * What the browser keeps for a signed-in user besides the documents themselves (Dexie):
 * - `docs`: every y-indexeddb database opened for a user (so logout can delete them all), with the
 *   last sync URL and access the API answered for it (used when the document opens offline);
 * - `lists`: document lists (journeys of an app, ...) as last loaded, shown offline as a dated copy;
 * - `sessions`: the last `/user/meta` answer per user, so a page reloaded offline still knows who is
 *   signed in (session/offlineSession.ts);
 * - `recoveries`: a writer's browser copy as it was when it had to be dropped (the server refused
 *   it), so the person can restore their version (sync/RecoveryNotice.tsx): the last
 *   MAX_RECOVERIES per document, for RECOVERY_DAYS.
 *
 * Every function swallows IndexedDB failures (private browsing, quota, blocked): the browser copy
 * is a convenience, never a reason for a screen to fail.
 */
import Dexie, { type EntityTable } from 'dexie';

export interface DocRecord {
  /** The y-indexeddb database name: `<userId>:<docName>`. */
  dbName: string;
  userId: string;
  docName: string;
  /** The sync server URL the API gave last (used to connect when the API is unreachable). */
  url: string | null;
  access: 'read' | 'write' | null;
  /**
   * Local changes the server had not confirmed, as copies from before 2026-11-25 recorded them
   * (read only: the count now lives in localStorage, savePendingCount).
   */
  pending?: number;
  openedAt: number;
}

export interface RecoveryRecord {
  id?: number;
  userId: string;
  docName: string;
  /** The whole Yjs state of the dropped copy. */
  state: Uint8Array;
  /** Why it was dropped (the server's close reason). */
  reason: string;
  savedAt: number;
}

export interface SessionRecord {
  userId: string;
  /** The `/user/meta` answer (checked against its schema when read back). */
  meta: unknown;
  savedAt: number;
}

export interface ListRecord {
  /** `<userId>|<list key>` */
  key: string;
  userId: string;
  data: unknown;
  savedAt: number;
}

const DB_NAME = 'gd-local';

class LocalDb extends Dexie {
  docs!: EntityTable<DocRecord, 'dbName'>;
  lists!: EntityTable<ListRecord, 'key'>;
  sessions!: EntityTable<SessionRecord, 'userId'>;
  recoveries!: EntityTable<RecoveryRecord, 'id'>;
  constructor() {
    super(DB_NAME);
    this.version(1).stores({ docs: 'dbName, userId', lists: 'key, userId' });
    this.version(2).stores({ docs: 'dbName, userId', lists: 'key, userId', sessions: 'userId, savedAt' });
    this.version(3).stores({ docs: 'dbName, userId', lists: 'key, userId', sessions: 'userId, savedAt', recoveries: '++id, userId, [userId+docName]' });
  }
}

let db: LocalDb | null = null;
const local = (): LocalDb => (db ??= new LocalDb());

async function quietly<T>(work: () => Promise<T>, fallback: T): Promise<T> {
  try {
    return await work();
  } catch {
    return fallback;
  }
}

export const docDbName = (userId: string, docName: string): string => `${userId}:${docName}`;

export function rememberDoc(userId: string, docName: string, patch: Partial<Pick<DocRecord, 'url' | 'access'>> = {}): Promise<void> {
  const dbName = docDbName(userId, docName);
  return quietly(async () => {
    await local().transaction('rw', local().docs, async () => {
      const current = await local().docs.get(dbName);
      await local().docs.put({
        dbName, userId, docName,
        url: patch.url !== undefined ? patch.url : (current?.url ?? null),
        access: patch.access !== undefined ? patch.access : (current?.access ?? null),
        ...(current?.pending === undefined ? {} : { pending: current.pending }),
        openedAt: Date.now(),
      });
    });
  }, undefined);
}

export const docRecord = (userId: string, docName: string): Promise<DocRecord | undefined> =>
  quietly(() => local().docs.get(docDbName(userId, docName)), undefined);

/** The most recent sync URL any document of the user got (a fallback when offline). */
export const lastSyncUrl = (userId: string): Promise<string | null> =>
  quietly(async () => {
    const rows = await local().docs.where('userId').equals(userId).toArray();
    const known = rows.filter((r) => r.url).sort((a, b) => b.openedAt - a.openedAt);
    return known[0]?.url ?? null;
  }, null);

export function saveList(userId: string, key: string, data: unknown): Promise<void> {
  return quietly(() => local().lists.put({ key: `${userId}|${key}`, userId, data, savedAt: Date.now() }).then(() => undefined), undefined);
}

export const loadList = (userId: string, key: string): Promise<ListRecord | undefined> =>
  quietly(() => local().lists.get(`${userId}|${key}`), undefined);

export function saveSession(userId: string, meta: unknown): Promise<void> {
  return quietly(() => local().sessions.put({ userId, meta, savedAt: Date.now() }).then(() => undefined), undefined);
}

/** The session saved for `userId`; with nobody remembered (a new tab), the most recently saved one. */
export const loadSession = (userId: string | null): Promise<SessionRecord | undefined> =>
  quietly(() => (userId ? local().sessions.get(userId) : local().sessions.orderBy('savedAt').last()), undefined);

function deleteDatabase(name: string): Promise<void> {
  return new Promise((resolve) => {
    try {
      const request = indexedDB.deleteDatabase(name);
      request.onsuccess = () => resolve();
      request.onerror = () => resolve();
      // Another tab still holds it open: the deletion completes when that tab closes it; stop waiting.
      request.onblocked = () => setTimeout(resolve, 2_000);
    } catch {
      resolve();
    }
  });
}

/**
 * The unconfirmed-changes count of a document's browser copy, kept synchronously (localStorage):
 * a page reloaded right after a burst of offline edits must show the same count it showed before
 * (an asynchronous IndexedDB write of it could still be on its way when the page went).
 */
const pendingKey = (userId: string, docName: string) => `gd.pending:${docDbName(userId, docName)}`;

export function savePendingCount(userId: string, docName: string, count: number): void {
  try {
    window.localStorage.setItem(pendingKey(userId, docName), String(count));
  } catch {
    // Storage unavailable (private browsing, quota): the count restarts at what IndexedDB kept.
  }
}

export function readPendingCount(userId: string, docName: string): number | null {
  try {
    const raw = window.localStorage.getItem(pendingKey(userId, docName));
    const n = raw === null ? NaN : Number(raw);
    return Number.isInteger(n) && n >= 0 ? n : null;
  } catch {
    return null;
  }
}

function forgetPendingCounts(userId: string): void {
  try {
    const prefix = `gd.pending:${userId}:`;
    for (let i = window.localStorage.length - 1; i >= 0; i--) {
      const key = window.localStorage.key(i);
      if (key?.startsWith(prefix)) window.localStorage.removeItem(key);
    }
  } catch {
    // nothing kept
  }
}

export const MAX_RECOVERIES = 5;
export const RECOVERY_DAYS = 30;

/**
 * Keeps `state` (a copy about to be dropped) as a recovery copy. Resolves true once it is stored:
 * the caller drops the copy only then (a browser that cannot store it keeps the copy instead).
 */
export function keepRecovery(userId: string, docName: string, state: Uint8Array, reason: string): Promise<boolean> {
  return quietly(async () => {
    await local().transaction('rw', local().recoveries, async () => {
      await local().recoveries.add({ userId, docName, state, reason, savedAt: Date.now() });
      const kept = await local().recoveries.where('[userId+docName]').equals([userId, docName]).sortBy('savedAt');
      const expired = kept.filter((r, i) => i < kept.length - MAX_RECOVERIES || r.savedAt < Date.now() - RECOVERY_DAYS * 86_400_000);
      await local().recoveries.bulkDelete(expired.flatMap((r) => (r.id === undefined ? [] : [r.id])));
    });
    return true;
  }, false);
}

/** The recovery copies of a document, newest first. */
export const recoveries = (userId: string, docName: string): Promise<RecoveryRecord[]> =>
  quietly(async () => (await local().recoveries.where('[userId+docName]').equals([userId, docName]).sortBy('savedAt')).reverse(), [] as RecoveryRecord[]);

export const forgetRecovery = (id: number): Promise<void> => quietly(() => local().recoveries.delete(id), undefined);

/** Deletes one document's browser copy (the server's copy is reloaded on the next open). */
export const deleteDocCopy = (userId: string, docName: string): Promise<void> => deleteDatabase(docDbName(userId, docName));

/**
 * Forgets everything the browser keeps for `userId`: each of their document databases (the ones
 * recorded here, plus any `<userId>:` database the browser lists), their cached lists and session.
 */
export async function clearUserData(userId: string): Promise<void> {
  forgetPendingCounts(userId);
  const recorded = await quietly(() => local().docs.where('userId').equals(userId).toArray(), [] as DocRecord[]);
  const listed = await quietly(async () => (typeof indexedDB.databases === 'function' ? await indexedDB.databases() : []), [] as IDBDatabaseInfo[]);
  const names = new Set([
    ...recorded.map((r) => r.dbName),
    ...listed.flatMap((d) => (d.name?.startsWith(`${userId}:`) ? [d.name] : [])),
  ]);
  await Promise.all([...names].map(deleteDatabase));
  await quietly(async () => {
    await local().docs.where('userId').equals(userId).delete();
    await local().lists.where('userId').equals(userId).delete();
    await local().sessions.delete(userId);
    await local().recoveries.where('userId').equals(userId).delete();
  }, undefined);
}
