/**
 * A server answer kept in the browser (Dexie `lists`) for when the server cannot be reached: each
 * answer is saved under `key` for the signed-in user; while `offline`, the freshest of what this page
 * loaded last and the browser's copy is returned with the time it dates from (`since`), so a list,
 * an editor's title or a status still shows offline and after a reload offline. Online: null (show
 * the live answer). A copy that no longer parses (an older app version's) is ignored.
 */
import { useEffect, useState } from 'react';
import type { z } from 'zod';
import { useSession } from '../session/store.ts';
import { loadList, saveList } from './localStore.ts';

export interface KeptCopy<T> {
  data: T;
  /** When it was loaded from the server (ms since the epoch). */
  since: number;
}

export function useKeptCopy<T>(schema: z.ZodType<T>, key: string | null, fresh: { data: T | undefined; loadedAt: number | undefined }, offline: boolean): KeptCopy<T> | null {
  const userId = useSession((s) => s.meta?.user.id ?? null);
  useEffect(() => {
    if (fresh.data !== undefined && userId && key) void saveList(userId, key, fresh.data);
  }, [fresh.data, userId, key]);

  const [copy, setCopy] = useState<{ key: string; data: T; savedAt: number } | null>(null);
  useEffect(() => {
    if (!offline || !userId || !key) return;
    let live = true;
    void loadList(userId, key).then((record) => {
      const parsed = schema.safeParse(record?.data);
      if (live && record && parsed.success) setCopy({ key, data: parsed.data, savedAt: record.savedAt });
    });
    return () => {
      live = false;
    };
  }, [offline, userId, key, schema]);

  if (!offline) return null;
  const stored = copy && copy.key === key ? copy : null;
  if (fresh.data !== undefined && fresh.loadedAt !== undefined && !(stored && stored.savedAt > fresh.loadedAt)) return { data: fresh.data, since: fresh.loadedAt };
  return stored ? { data: stored.data, since: stored.savedAt } : null;
}
