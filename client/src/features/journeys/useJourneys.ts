/**
 * The journeys of the current app, from the API, with the last answer kept in the browser (Dexie)
 * so the list (and an editor's title and status) still shows when the server cannot be reached:
 * then `offlineSince` is the time of that copy.
 */
import { useMemo } from 'react';
import { z } from 'zod';
import { JourneySummary } from '@gd/shared/schemas/journeys';
import type { CampaignScope as Scope, OwnershipFilter as Owner } from '@gd/shared/enums';
import { isNetworkError } from '../../api/errors.ts';
import { useSession } from '../../session/store.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { useKeptCopy } from '../../sync/useKeptCopy.ts';

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

export function useJourneys(owner: OwnershipFilter, scope: CampaignScope): JourneyList {
  const appId = useSession((s) => s.currentAppId);
  const query = useApiQuery('listJourneys', { params: { appId: appId ?? '' }, query: { owner, scope }, scope: 'app', enabled: appId !== null });
  const offline = query.state === 'error' && isNetworkError(query.error);
  const fresh = useMemo(() => ({ data: query.data?.journeys, loadedAt: query.loadedAt }), [query.data, query.loadedAt]);
  const kept = useKeptCopy(Cached, appId ? listKey(appId, owner, scope) : null, fresh, offline);
  if (kept) return { journeys: kept.data, state: 'loaded', error: null, offlineSince: kept.since, refetch: query.refetch };
  return { journeys: query.data?.journeys, state: query.state, error: query.error, offlineSince: null, refetch: query.refetch };
}

/** One journey of the current app (from the full list, which the editor also keeps offline). */
export function useJourney(id: string): Omit<JourneyList, 'journeys'> & { journey: JourneySummary | undefined } {
  const list = useJourneys('all', 'all');
  return { ...list, journey: list.journeys?.find((j) => j.id === id) };
}
