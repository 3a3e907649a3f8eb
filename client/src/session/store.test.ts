/**
 * The session store's offline fallback: `/user/meta` unreachable (a network failure) opens the
 * session from the browser's copy and marks it offline; a refusal or a KO never does; back online,
 * the answer is asked again. The API and the browser copy are stand-ins; the store is the real one.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ErrorCode } from '@gd/shared/errors';
import type { UserMeta } from '@gd/shared/schemas/account';
import { ApiError } from '../api/errors.ts';

const { api, offline, browser } = vi.hoisted(() => {
  const values = new Map<string, string>();
  const browser = Object.assign(new EventTarget(), {
    sessionStorage: {
      getItem: (k: string) => values.get(k) ?? null,
      setItem: (k: string, v: string) => void values.set(k, v),
      removeItem: (k: string) => void values.delete(k),
      clear: () => values.clear(),
    },
  });
  Object.assign(globalThis, { __BUILD_HASH__: 'test-build', window: browser });
  return {
    api: { call: vi.fn<(name: string) => Promise<unknown>>(), reset: vi.fn() },
    offline: { keepSession: vi.fn(() => Promise.resolve()), savedSession: vi.fn<(userId: string | null) => Promise<unknown>>() },
    browser,
  };
});
vi.mock('../api/client.ts', () => ({ api }));
vi.mock('./offlineSession.ts', () => offline);
vi.mock('./localCopies.ts', () => ({ clearBrowserCopies: () => Promise.resolve() }));

const meta = (userId: string, build = 'b1') =>
  ({ user: { id: userId }, account: { apiVersion: 2 }, apps: [{ id: `${userId}-app` }], disallowed: [], build }) as unknown as UserMeta;
const networkDown = () => Promise.reject(new ApiError('network', 'Failed to fetch'));

/** The store as on a page load (its module state is reset by signOut after each test). */
async function freshStore() {
  const { useSession } = await import('./store.ts');
  useSession.setState({ status: 'idle', meta: null, currentAppId: null, error: null, expired: false, offlineSince: null });
  return useSession;
}

beforeEach(() => {
  api.call.mockReset();
  offline.keepSession.mockClear();
  offline.savedSession.mockReset();
  browser.sessionStorage.clear();
});
afterEach(async () => {
  // Stop any watcher the store left behind.
  (await import('./store.ts')).useSession.getState().signOut();
});

describe('session store offline fallback', () => {
  it('keeps each answer of /user/meta as the offline copy', async () => {
    const session = await freshStore();
    api.call.mockResolvedValue(meta('u1'));
    await session.getState().load();
    expect(session.getState()).toMatchObject({ status: 'signedIn', offlineSince: null, currentAppId: 'u1-app' });
    expect(offline.keepSession).toHaveBeenCalledWith(meta('u1'));
    expect(offline.savedSession).not.toHaveBeenCalled();
  });

  it('opens the session from the copy of the remembered user when the API cannot be reached', async () => {
    browser.sessionStorage.setItem('gd.build', 'test-build');
    browser.sessionStorage.setItem('gd.userId', 'u2');
    const session = await freshStore();
    api.call.mockImplementation(networkDown);
    offline.savedSession.mockResolvedValue({ meta: meta('u2'), savedAt: 1_700_000_000_000 });
    await session.getState().load();
    expect(offline.savedSession).toHaveBeenCalledWith('u2');
    expect(session.getState()).toMatchObject({ status: 'signedIn', offlineSince: 1_700_000_000_000, error: null, currentAppId: 'u2-app' });
    expect(session.getState().meta?.user.id).toBe('u2');
    expect(offline.keepSession).not.toHaveBeenCalled();
  });

  it('shows the error when the API cannot be reached and nothing was kept', async () => {
    const session = await freshStore();
    api.call.mockImplementation(networkDown);
    offline.savedSession.mockResolvedValue(null);
    await session.getState().load();
    expect(offline.savedSession).toHaveBeenCalledWith(null);
    expect(session.getState()).toMatchObject({ status: 'error', meta: null, offlineSince: null });
    expect(session.getState().error?.code).toBe('network');
  });

  it('never uses the copy when the server answers, even with a refusal or a failure', async () => {
    offline.savedSession.mockResolvedValue({ meta: meta('u1'), savedAt: 1 });
    let session = await freshStore();
    api.call.mockRejectedValue(new ApiError(ErrorCode.ACCESS_TOKEN_EXPIRED, 'expired'));
    await session.getState().load();
    expect(session.getState()).toMatchObject({ status: 'signedOut', meta: null, offlineSince: null });

    session = await freshStore();
    api.call.mockRejectedValue(new ApiError(ErrorCode.GENERIC, 'Internal error'));
    await session.getState().load();
    expect(session.getState()).toMatchObject({ status: 'error', meta: null, offlineSince: null });
    expect(offline.savedSession).not.toHaveBeenCalled();
  });

  it('asks /user/meta again when the browser is back online, and is online once it answers', async () => {
    const session = await freshStore();
    api.call.mockImplementation(networkDown);
    offline.savedSession.mockResolvedValue({ meta: meta('u1', 'old'), savedAt: 5 });
    await session.getState().load();
    expect(session.getState().offlineSince).toBe(5);

    // Still unreachable: stays offline with the copy.
    browser.dispatchEvent(new Event('online'));
    await vi.waitFor(() => expect(api.call).toHaveBeenCalledTimes(2));
    expect(session.getState()).toMatchObject({ status: 'signedIn', offlineSince: 5 });

    api.call.mockResolvedValue(meta('u1', 'new'));
    browser.dispatchEvent(new Event('online'));
    await vi.waitFor(() => expect(session.getState().offlineSince).toBeNull());
    expect(session.getState().meta?.build).toBe('new');
    expect(offline.keepSession).toHaveBeenCalledWith(meta('u1', 'new'));

    // Online: the browser's events no longer ask.
    browser.dispatchEvent(new Event('online'));
    expect(api.call).toHaveBeenCalledTimes(3);
  });

  it('stops asking once the person signs out', async () => {
    const session = await freshStore();
    api.call.mockImplementation(networkDown);
    offline.savedSession.mockResolvedValue({ meta: meta('u1'), savedAt: 5 });
    await session.getState().load();
    session.getState().signOut();
    expect(session.getState()).toMatchObject({ status: 'signedOut', offlineSince: null, meta: null });
    browser.dispatchEvent(new Event('online'));
    expect(api.call).toHaveBeenCalledTimes(1);
  });
});
