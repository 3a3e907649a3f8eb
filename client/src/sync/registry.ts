/**
 * One session (one Y.Doc) per open document and user, shared by every component that opens it.
 * A session is closed shortly after its last user lets go (React's development double effects
 * release and re-acquire within the same tick, which must not reopen the document).
 */
import { CollabSession } from './collabSession.ts';
import { onCloseAll } from './lifecycle.ts';

const RELEASE_DELAY_MS = 0;

interface Entry {
  session: CollabSession;
  refs: number;
  timer: ReturnType<typeof setTimeout> | null;
}

const open = new Map<string, Entry>();
/** How many sessions each document had in this page (the test hooks' `opened`). */
const openings = new Map<string, number>();

export function acquireSession(userId: string, docName: string): CollabSession {
  const key = `${userId}:${docName}`;
  let entry = open.get(key);
  if (!entry) {
    const session = new CollabSession(userId, docName);
    entry = { session, refs: 0, timer: null };
    open.set(key, entry);
    openings.set(docName, (openings.get(docName) ?? 0) + 1);
    session.start();
  }
  if (entry.timer) clearTimeout(entry.timer);
  entry.timer = null;
  entry.refs += 1;
  return entry.session;
}

export function releaseSession(session: CollabSession): void {
  const key = session.dbName;
  const entry = open.get(key);
  if (!entry || entry.session !== session) return;
  entry.refs -= 1;
  if (entry.refs > 0) return;
  entry.timer = setTimeout(() => {
    if (entry.refs > 0) return;
    open.delete(key);
    void session.destroy();
  }, RELEASE_DELAY_MS);
}

/** The session open for this user and document, if any (does not open one). */
export const peekSession = (userId: string, docName: string): CollabSession | null => open.get(`${userId}:${docName}`)?.session ?? null;

/** Closes every open document (logout), resolving once their browser copies are closed. */
export async function closeAllSessions(): Promise<void> {
  const entries = [...open.values()];
  open.clear();
  await Promise.all(
    entries.map((e) => {
      if (e.timer) clearTimeout(e.timer);
      return e.session.destroy();
    }),
  );
}

onCloseAll(closeAllSessions);

/**
 * End-to-end tests set `localStorage['gd.testHooks'] = '1'` to reach the open documents
 * (`window.__gdSync.doc(name)`), for example to force a local change in a read-only client, and
 * how many sessions a document had in this page (`opened(name)`: a screen that stays mounted keeps
 * its one session).
 */
function exposeTestHooks() {
  try {
    if (window.localStorage.getItem('gd.testHooks') !== '1') return;
  } catch {
    return;
  }
  const state = (name: string) => [...open.values()].find((e) => e.session.name === name)?.session.getSnapshot() ?? null;
  Object.assign(window, {
    __gdSync: {
      names: () => [...open.values()].map((e) => e.session.name),
      doc: (name: string) => state(name)?.doc ?? null,
      awareness: (name: string) => state(name)?.awareness ?? null,
      opened: (name: string) => openings.get(name) ?? 0,
    },
  });
}
if (typeof window !== 'undefined') exposeTestHooks();
