/**
 * The journeys of the current app, from the API, with the last answer kept in the browser (Dexie)
 * so the list (and an editor's title and status) still shows when the server cannot be reached:
 * then `offlineSince` is the time of that copy.
 */
import { useEffect, useState } from 'react';
import { z } from 'zod';
import { JourneySummary } from '@gd/shared/schemas/journeys';
import type { CampaignScope as Scope, OwnershipFilter as Owner } from '@gd/shared/enums';
import { ApiError } from '../../api/errors.ts';
import { useSession } from '../../session/store.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { loadList, saveList } from '../../sync/localStore.ts';

const Cached = z.array(JourneySummary);

export interface JourneyList {
  journeys: JourneySummary[] | undefined;
  state: 'loading' | 'loaded' | 'error';
  error: unknown;
  /** Set when the journeys shown are the browser's copy (the server is unreachable). */
  offlineSince: number | null;
  refetch: () => void;
}

type OwnershipFilter = (typeof Owner.options)[number];
type CampaignScope = (typeof Scope.options)[number];
export type { OwnershipFilter, CampaignScope };

const listKey = (appId: string, owner: OwnershipFilter, scope: CampaignScope) => `journeys:${appId}:${owner}:${scope}`;
export const isNetworkError = (error: unknown): boolean => error instanceof ApiError && error.code === 'network';

export function useJourneys(owner: OwnershipFilter, scope: CampaignScope): JourneyList {
  const appId = useSession((s) => s.currentAppId);
  const userId = useSession((s) => s.meta?.user.id ?? null);
  const query = useApiQuery('listJourneys', { params: { appId: appId ?? '' }, query: { owner, scope }, scope: 'app', enabled: appId !== null });
  const key = appId ? listKey(appId, owner, scope) : null;

  useEffect(() => {
    if (query.data && userId && key) void saveList(userId, key, query.data.journeys);
  }, [query.data, userId, key]);

  const offline = query.state === 'error' && isNetworkError(query.error);
  const [copy, setCopy] = useState<{ key: string; journeys: JourneySummary[]; savedAt: number } | null>(null);
  useEffect(() => {
    if (!offline || !userId || !key) return;
    let live = true;
    void loadList(userId, key).then((record) => {
      const parsed = Cached.safeParse(record?.data);
      if (live && record && parsed.success) setCopy({ key, journeys: parsed.data, savedAt: record.savedAt });
    });
    return () => {
      live = false;
    };
  }, [offline, userId, key]);

  // Offline: what this page loaded last, else the browser's copy (read from IndexedDB meanwhile).
  if (offline && query.data && query.loadedAt !== undefined && !(copy && copy.key === key && copy.savedAt > query.loadedAt)) {
    return { journeys: query.data.journeys, state: 'loaded', error: null, offlineSince: query.loadedAt, refetch: query.refetch };
  }
  if (offline && copy && copy.key === key) {
    return { journeys: copy.journeys, state: 'loaded', error: null, offlineSince: copy.savedAt, refetch: query.refetch };
  }
  return { journeys: query.data?.journeys, state: query.state, error: query.error, offlineSince: null, refetch: query.refetch };
}

/** One journey of the current app (from the full list, which the editor also keeps offline). */
export function useJourney(id: string): Omit<JourneyList, 'journeys'> & { journey: JourneySummary | undefined } {
  const list = useJourneys('all', 'all');
  return { ...list, journey: list.journeys?.find((j) => j.id === id) };
}
