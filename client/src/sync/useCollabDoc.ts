/**
 * `useCollabDoc(name)`: the open collaborative document `name` for the signed-in user, shared by
 * every component that asks for it (one Y.Doc per document), closed when the last one unmounts.
 * `access` gates editing: anything but 'write' (or a document from a newer app version) is
 * read-only and must not be written, not even repaired.
 */
import { useCallback, useSyncExternalStore } from 'react';
import { useSession } from '../session/store.ts';
import type { CollabSession } from './collabSession.ts';
import type { CollabState } from './collabState.ts';
import { acquireSession, peekSession, releaseSession } from './registry.ts';

export interface CollabDoc extends Omit<CollabState, 'doc'> {
  /** null until the session exists (first render). */
  doc: CollabState['doc'] | null;
  /** Writable: access 'write', the document is current and loaded. */
  canWrite: boolean;
  retry: () => void;
}

const noSubscribe = () => () => undefined;
const noSnapshot = () => null;

const LOADING: Omit<CollabDoc, 'retry'> = {
  doc: null, provider: null, awareness: null, access: null, status: 'loading', unsynced: 0, error: null,
  ready: false, tooNew: false, resets: 0, accessChanges: 0, summaryChanges: 0, canWrite: false,
};

export function useCollabDoc(docName: string | null): CollabDoc {
  const userId = useSession((s) => s.meta?.user.id ?? null);
  const subscribeSession = useCallback(
    (onChange: () => void) => {
      if (!userId || !docName) return () => undefined;
      // Opening happens on subscribe (after commit); then the snapshot (the session) changed.
      const session = acquireSession(userId, docName);
      onChange();
      return () => releaseSession(session);
    },
    [userId, docName],
  );
  const peek = useCallback(() => (userId && docName ? peekSession(userId, docName) : null), [userId, docName]);
  const session: CollabSession | null = useSyncExternalStore(subscribeSession, peek);
  const state = useSyncExternalStore(session ? session.subscribe : noSubscribe, session ? session.getSnapshot : noSnapshot);
  const retry = useCallback(() => session?.retry(), [session]);
  if (!state) return { ...LOADING, retry };
  return { ...state, canWrite: state.access === 'write' && !state.tooNew && state.ready && state.error === null, retry };
}
