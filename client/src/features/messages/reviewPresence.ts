/**
 * Who is reviewing a submission right now: the message's live document's awareness (the sync
 * layer's presence, with names and colours the sync server stamps), narrowed to the people whose
 * state says they have this submission's review open (`reviewing`). A reviewer publishes that while
 * the screen is open. The sync server drops what read-only connections publish, so a reviewer who
 * may only read the message is not seen by the others (they still see the others).
 */
import { useEffect, useMemo, useSyncExternalStore } from 'react';
import type { Awareness } from 'y-protocols/awareness';
import { readPeers, type Peer } from '../../sync/presence.ts';

export const REVIEWING_FIELD = 'reviewing';
const NOBODY: Peer[] = [];

/** The peers (other people) whose awareness state has `reviewing` = `submissionId`. Pure. */
export function reviewersOf(peers: readonly Peer[], states: ReadonlyMap<number, unknown>, submissionId: string): Peer[] {
  return peers.filter((p) => {
    const state = states.get(p.clientId);
    return typeof state === 'object' && state !== null && (state as Record<string, unknown>)[REVIEWING_FIELD] === submissionId;
  });
}

export function useReviewers(awareness: Awareness | null, publish: boolean, submissionId: string): Peer[] {
  // Announce this review while the screen is open; take it back when it closes.
  useEffect(() => {
    if (!awareness || !publish) return;
    awareness.setLocalStateField(REVIEWING_FIELD, submissionId);
    return () => {
      if (awareness.getLocalState() !== null) awareness.setLocalStateField(REVIEWING_FIELD, null);
    };
  }, [awareness, publish, submissionId]);
  // Its own store (not usePresence): a peer's review flag changes nothing usePresence compares.
  const store = useMemo(() => {
    if (!awareness) return { subscribe: () => () => undefined, get: () => NOBODY };
    const read = () => reviewersOf(readPeers(awareness.getStates(), awareness.clientID), awareness.getStates(), submissionId);
    let cache = read();
    let key = JSON.stringify(cache);
    return {
      subscribe: (onChange: () => void) => {
        const handler = () => {
          const next = read();
          const nextKey = JSON.stringify(next);
          if (nextKey === key) return;
          cache = next;
          key = nextKey;
          onChange();
        };
        awareness.on('change', handler);
        return () => awareness.off('change', handler);
      },
      get: () => cache,
    };
  }, [awareness, submissionId]);
  return useSyncExternalStore(store.subscribe, store.get);
}
