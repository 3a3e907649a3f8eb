/**
 * Session memory (SPEC.md sections 2 and 9): the current app, the current user and the latest
 * dashboard are remembered for the browser session (sessionStorage). The memory is stamped with
 * the build hash and cleared when the build changes, so a new release never reads old state.
 */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

const PREFIX = 'gd.';
export const MEMORY_KEYS = { build: `${PREFIX}build`, appId: `${PREFIX}appId`, userId: `${PREFIX}userId`, dashboardId: `${PREFIX}dashboardId` } as const;
type Remembered = Exclude<keyof typeof MEMORY_KEYS, 'build'>;

export interface SessionMemory {
  get(key: Remembered): string | null;
  set(key: Remembered, value: string | null): void;
  /** Forget everything but the build stamp. */
  clear(): void;
  /**
   * Record who is signed in. A different user than the remembered one starts from a clean
   * memory (another user's app or dashboard is never reused).
   */
  rememberUser(userId: string): void;
}

/** Memory over a storage; the storage may throw (private mode, quota): the memory then forgets quietly. */
export function createSessionMemory(storage: KeyValueStorage | undefined, buildHash: string): SessionMemory {
  const read = (key: string): string | null => {
    try {
      return storage?.getItem(key) ?? null;
    } catch {
      return null;
    }
  };
  const write = (key: string, value: string | null): void => {
    try {
      if (value === null) storage?.removeItem(key);
      else storage?.setItem(key, value);
    } catch {
      // Storage unavailable: nothing is remembered.
    }
  };
  const clear = () => {
    write(MEMORY_KEYS.appId, null);
    write(MEMORY_KEYS.userId, null);
    write(MEMORY_KEYS.dashboardId, null);
  };

  if (read(MEMORY_KEYS.build) !== buildHash) {
    clear();
    write(MEMORY_KEYS.build, buildHash);
  }

  return {
    get: (key) => read(MEMORY_KEYS[key]),
    set: (key, value) => write(MEMORY_KEYS[key], value),
    clear,
    rememberUser(userId) {
      if (read(MEMORY_KEYS.userId) === userId) return;
      clear();
      write(MEMORY_KEYS.userId, userId);
    },
  };
}

/** The app to show: the remembered one when the user still has it, else the first app. */
export function pickCurrentApp<T extends { id: string }>(apps: readonly T[], rememberedId: string | null): T | undefined {
  return apps.find((a) => a.id === rememberedId) ?? apps[0];
}
