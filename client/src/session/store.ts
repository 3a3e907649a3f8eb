/**
 * Who is signed in: the `/user/meta` answer, the current app and the session status. The API
 * client reads the API version and "do we have a session" from here; a refused refresh ends
 * the session here and the signed-in layout then sends the user to /login?next=...
 */
import { create } from 'zustand';
import { ErrorCode } from '@gd/shared/errors';
import type { UserMeta } from '@gd/shared/schemas/account';
import { api } from '../api/client.ts';
import { ApiError } from '../api/errors.ts';
import { useQueryCache } from '../state/queryStore.ts';
import { clearBrowserCopies } from './localCopies.ts';
import { createSessionMemory, pickCurrentApp, type KeyValueStorage } from './memory.ts';

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

export const useSession = create<SessionState>((set, get) => ({
  status: 'idle',
  meta: null,
  currentAppId: null,
  error: null,
  expired: false,

  load() {
    // One load at a time (React runs effects twice in development; sign-in and the layout may both ask).
    loading ??= (async () => {
      set({ status: 'loading', error: null });
      try {
        const meta = await api.call('meta');
        set({ ...accept(meta), status: 'signedIn', expired: false });
      } catch (error) {
        const apiError = error instanceof ApiError ? error : new ApiError(ErrorCode.GENERIC, String(error));
        if (SIGNED_OUT_CODES.has(apiError.code)) set({ status: 'signedOut', meta: null, currentAppId: null });
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
      set(accept(meta));
    } catch {
      // The screen that asked already shows its own outcome; a stale header is harmless.
    }
  },

  expire() {
    useQueryCache.getState().clear();
    // Only a session that was running "expires"; a first visit without one is simply signed out.
    set({ status: 'signedOut', meta: null, currentAppId: null, expired: get().status === 'signedIn' });
  },

  signOut() {
    // The browser's copies of this user's documents and lists go too (awaited by the logout page).
    void clearBrowserCopies(get().meta?.user.id ?? memory.get('userId'));
    useQueryCache.getState().clear();
    memory.clear();
    api.reset();
    set({ status: 'signedOut', meta: null, currentAppId: null, expired: false, error: null });
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
