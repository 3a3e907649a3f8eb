/**
 * The launched version's step counts (journeyStepCounts): read once a journey has a version, then
 * every 3 s while it is live (usePolling skips hidden tabs). A stopped journey shows its last
 * version's counts, read once. The draft's nodes get the counts of the steps the version has.
 */
import { useMemo } from 'react';
import type { Journey } from '@gd/shared/journey/model';
import type { JourneySummary } from '@gd/shared/schemas/journeys';
import { useSession } from '../../../session/store.ts';
import { usePolling } from '../../../state/usePolling.ts';
import { useApiQuery } from '../../../state/useApiQuery.ts';
import { countsKey, nodeCounts, type NodeCount } from './format.ts';

export const COUNTS_POLL_MS = 3_000;

export function useStepCounts(journeyId: string, summary: JourneySummary | undefined, journey: Journey) {
  const appId = useSession((s) => s.currentAppId) ?? '';
  const launched = summary?.liveVersion != null;
  const live = summary?.status === 'live';
  const query = useApiQuery('journeyStepCounts', { params: { appId, journeyId }, scope: 'app', enabled: launched && appId !== '' });
  usePolling(query.refetch, launched && live ? COUNTS_POLL_MS : null, query.state === 'loading');
  const data = launched ? query.data : undefined;
  const mapped = useMemo(() => nodeCounts(data?.counts, journey), [data, journey]);
  // The same object while no figure changes: the canvas's nodes are not rebuilt on every poll.
  const key = countsKey(mapped);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` stands for `mapped`'s content
  const counts = useMemo<Record<string, NodeCount>>(() => mapped, [key]);
  return { launched, live, data, counts, state: query.state, error: query.error, loadedAt: query.loadedAt, refetch: query.refetch };
}

export type StepCounts = ReturnType<typeof useStepCounts>;
