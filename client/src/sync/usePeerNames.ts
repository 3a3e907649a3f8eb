/**
 * The names of everyone seen on a document in this session, by Yjs client id (the name the sync
 * server stamped on their presence). Remembered after they leave: a person back from offline may
 * be gone before their change is noticed.
 */
import { useEffect, useState } from 'react';
import type { Awareness } from 'y-protocols/awareness';
import { readPeers } from './presence.ts';

export function usePeerNames(awareness: Awareness | null): ReadonlyMap<number, string> {
  const [names, setNames] = useState<ReadonlyMap<number, string>>(new Map());
  useEffect(() => {
    if (!awareness) return;
    const remember = () => {
      const peers = readPeers(awareness.getStates(), awareness.clientID);
      setNames((known) => {
        if (peers.every((p) => known.get(p.clientId) === p.name)) return known;
        const next = new Map(known);
        for (const p of peers) next.set(p.clientId, p.name);
        return next;
      });
    };
    remember();
    awareness.on('change', remember);
    return () => awareness.off('change', remember);
  }, [awareness]);
  return names;
}
