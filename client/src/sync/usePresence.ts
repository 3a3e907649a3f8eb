/**
 * `usePresence(awareness)`: the other people in the document (names and colours as the sync server
 * stamped them) and `setLocalPresence` to publish what this person is doing (selection, pointer,
 * live drag). Identity is never published by the client. Read-only connections publish nothing
 * (the server would drop it anyway), so `publish` is false for them.
 */
import { useCallback, useMemo, useSyncExternalStore } from 'react';
import type { Awareness } from 'y-protocols/awareness';
import { presencePatch, readPeers, type LocalPresence, type Peer } from './presence.ts';

interface PeerStore {
  subscribe: (onChange: () => void) => () => void;
  get: () => Peer[];
}

const EMPTY: Peer[] = [];

function peerStore(awareness: Awareness | null): PeerStore {
  if (!awareness) return { subscribe: () => () => undefined, get: () => EMPTY };
  let cache = readPeers(awareness.getStates(), awareness.clientID);
  let key = JSON.stringify(cache);
  return {
    subscribe(onChange) {
      const handler = () => {
        const next = readPeers(awareness.getStates(), awareness.clientID);
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
}

export function usePresence(awareness: Awareness | null, publish = true): { peers: Peer[]; setLocalPresence: (partial: Partial<LocalPresence>) => void } {
  const store = useMemo(() => peerStore(awareness), [awareness]);
  const peers = useSyncExternalStore(store.subscribe, store.get);
  const setLocalPresence = useCallback(
    (partial: Partial<LocalPresence>) => {
      if (!awareness || !publish) return;
      const current = (awareness.getLocalState() ?? {}) as Record<string, unknown>;
      const patch = presencePatch(partial);
      const changed = (Object.keys(patch) as (keyof LocalPresence)[]).some((k) => JSON.stringify(current[k] ?? null) !== JSON.stringify(patch[k] ?? null));
      if (changed) awareness.setLocalState({ ...current, ...patch });
    },
    [awareness, publish],
  );
  return { peers, setLocalPresence };
}
