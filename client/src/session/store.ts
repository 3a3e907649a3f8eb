/**
 * Who is signed in: the `/user/meta` answer, the current app and the session status. The API
 * client reads the API version and "do we have a session" from here; a refused refresh ends
 * the session here and the signed-in layout then sends the user to /login?next=...
 *
 * Offline: each answer is kept in the browser (offlineSession.ts). When `/user/meta` fails for
 * network reasons (not a refusal), the session opens from that copy with `offlineSince` set (the
 * shell shows an "offline" badge, the journeys open from the browser's copies), and `/user/meta` is
 * asked again when the browser is back online (and every 30 s meanwhile).
 */
import { create } from 'zustand';
import { ErrorCode } from '@gd/shared/errors';
import type { UserMeta } from '@gd/shared/schemas/account';
import { api } from '../api/client.ts';
import { ApiError } from '../api/errors.ts';
import { useQueryCache } from '../state/queryStore.ts';
import { clearBrowserCopies } from './localCopies.ts';
import { createSessionMemory, pickCurrentApp, type KeyValueStorage } from './memory.ts';
import { keepSession, savedSession } from './offlineSession.ts';

export type SessionStatus = 'idle' | 'loading' | 'signedIn' | 'signedOut' | 'error';

function sessionStorageOrNothing(): KeyValueStorage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

export const memory = createSessionMemory(sessionStorageOrNothing(), __BUILD_HASH__);

const SIGNED_OUT_CODES = new Set<unknown>([
  ErrorCode.ACCESS_TOKEN_MISSING, ErrorCode.ACCESS_TOKEN_INVALID, ErrorCode.ACCESS_TOKEN_NOT_EXISTING,
  ErrorCode.ACCESS_TOKEN_EXPIRED, ErrorCode.REFRESH_TOKEN_INVALID, ErrorCode.REFRESH_TOKEN_EXPIRED,
  ErrorCode.INVALID_USER, ErrorCode.USER_DELETED,
]);

interface SessionState {
  status: SessionStatus;
  meta: UserMeta | null;
  currentAppId: string | null;
  error: ApiError | null;
  /** True when the session ended on its own (the login page says so). */
  expired: boolean;
  /**
   * Set while the API cannot be reached and the session comes from the browser's copy: when that
   * copy was saved. Null when `meta` is the API's current answer.
   */
  offlineSince: number | null;
  /** Load `/user/meta` (first visit, retry, after sign-in). */
  load: () => Promise<void>;
  /** Reload `/user/meta` quietly after a change (apps, account, profile); keeps the screen. */
  reload: () => Promise<void>;
  /** The refresh was refused. */
  expire: () => void;
  /** Signed out on purpose: forget everything. */
  signOut: () => void;
  /** Remember the current app (the app switcher then reloads the page). */
  rememberApp: (appId: string) => void;
}

function accept(meta: UserMeta): Pick<SessionState, 'meta' | 'currentAppId'> {
  memory.rememberUser(meta.user.id);
  const app = pickCurrentApp(meta.apps, memory.get('appId'));
  memory.set('appId', app?.id ?? null);
  return { meta, currentAppId: app?.id ?? null };
}

let loading: Promise<void> | null = null;

/** How often `/user/meta` is asked again while offline (besides the browser's `online` event). */
const OFFLINE_RETRY_MS = 30_000;
let stopWatching: (() => void) | null = null;

/** While the session is offline: ask `/user/meta` again when the browser is back online. */
function watchConnection(retry: () => void): void {
  if (stopWatching || typeof window === 'undefined') return;
  const timer = setInterval(retry, OFFLINE_RETRY_MS);
  window.addEventListener('online', retry);
  stopWatching = () => {
    clearInterval(timer);
    window.removeEventListener('online', retry);
    stopWatching = null;
  };
}
const unwatchConnection = () => stopWatching?.();

export const useSession = create<SessionState>((set, get) => ({
  status: 'idle',
  meta: null,
  currentAppId: null,
  error: null,
  expired: false,
  offlineSince: null,

  load() {
    // One load at a time (React runs effects twice in development; sign-in and the layout may both ask).
    loading ??= (async () => {
      set({ status: 'loading', error: null });
      try {
        const meta = await api.call('meta');
        unwatchConnection();
        set({ ...accept(meta), status: 'signedIn', expired: false, offlineSince: null });
        void keepSession(meta);
      } catch (error) {
        const apiError = error instanceof ApiError ? error : new ApiError(ErrorCode.GENERIC, String(error));
        const saved = apiError.code === 'network' ? await savedSession(memory.get('userId')) : null;
        if (saved) {
          set({ ...accept(saved.meta), status: 'signedIn', expired: false, offlineSince: saved.savedAt });
          watchConnection(() => void get().reload());
        } else if (SIGNED_OUT_CODES.has(apiError.code)) set({ status: 'signedOut', meta: null, currentAppId: null });
        else set({ status: 'error', error: apiError });
      }
    })().finally(() => {
      loading = null;
    });
    return loading;
  },

  async reload() {
    if (get().status !== 'signedIn') return;
    try {
      const meta = await api.call('meta');
      if (get().status !== 'signedIn') return;
      unwatchConnection();
      set({ ...accept(meta), offlineSince: null });
      void keepSession(meta);
    } catch {
      // The screen that asked already shows its own outcome; a stale header is harmless. Offline,
      // the next try comes with the connection. A refused session ends through `expire`.
    }
  },

  expire() {
    unwatchConnection();
    useQueryCache.getState().clear();
    // Only a session that was running "expires"; a first visit without one is simply signed out.
    set({ status: 'signedOut', meta: null, currentAppId: null, expired: get().status === 'signedIn', offlineSince: null });
  },

  signOut() {
    // The browser's copies of this user's documents, lists and session go too (awaited by the logout page).
    unwatchConnection();
    void clearBrowserCopies(get().meta?.user.id ?? memory.get('userId'));
    useQueryCache.getState().clear();
    memory.clear();
    api.reset();
    set({ status: 'signedOut', meta: null, currentAppId: null, expired: false, error: null, offlineSince: null });
  },

  rememberApp(appId) {
    memory.set('appId', appId);
  },
}));

export const useMeta = (): UserMeta => {
  const meta = useSession((s) => s.meta);
  if (!meta) throw new Error('useMeta outside the signed-in layout');
  return meta;
};

export const useCurrentApp = () =>
  useSession((s) => s.meta?.apps.find((a) => a.id === s.currentAppId) ?? null);
