/**
 * Where the SDK keeps its queue, install id and session: any object with the Web Storage methods
 * getItem/setItem/removeItem. In the browser that is localStorage; in Node (or where localStorage
 * is unavailable, such as some private modes) an in-memory storage.
 *
 * Why localStorage rather than IndexedDB: it is synchronous, so the queue is written within the
 * task that tracked the event and, crucially, from a pagehide handler, where an IndexedDB
 * transaction may never commit; and it costs no code. Its limits (about 5 MB per origin, strings
 * only, main thread) fit a queue capped at `maxQueue` events; a write that exceeds the quota drops
 * the oldest events rather than losing the whole queue (see tracker.ts).
 */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** An in-memory implementation of the Web Storage interface (Node scripts, tests, fallback). */
export interface MemoryStorage extends KeyValueStorage {
  readonly length: number;
  key(index: number): string | null;
  clear(): void;
}

export function memoryStorage(initial?: Record<string, string>): MemoryStorage {
  const map = new Map<string, string>(Object.entries(initial ?? {}));
  return {
    get length() { return map.size; },
    key: (index) => [...map.keys()][index] ?? null,
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, String(value)),
    removeItem: (key) => void map.delete(key),
    clear: () => map.clear(),
  };
}

/** localStorage when it exists and accepts a write; otherwise null. */
export function browserStorage(): KeyValueStorage | null {
  try {
    const storage = globalThis.localStorage;
    if (!storage) return null;
    storage.setItem('gd:probe', '1');
    storage.removeItem('gd:probe');
    return storage;
  } catch {
    return null;
  }
}

/** Storage keys of one app key (several apps may share a site). */
export const storageKeys = (appKey: string) => ({
  queue: `gd:${appKey}:queue`,
  device: `gd:${appKey}:device`,
  session: `gd:${appKey}:session`,
});
