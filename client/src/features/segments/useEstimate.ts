/**
 * The live estimate while a segment is edited: ESTIMATE_DEBOUNCE_MS after the last change of what
 * can be evaluated (conditions with problems are left out), POST /segments/estimate; a newer
 * change aborts the request on its way (AbortController), so only the latest answer shows. The
 * same conditions are not asked twice (a peer's presence or a repair changes nothing).
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { ResponseOf } from '@gd/shared/endpoints';
import type { Segment } from '@gd/shared/segment/model';
import { api } from '../../api/client.ts';
import { createLatestRunner, type RunnerState } from '../../state/latestRunner.ts';

export const ESTIMATE_DEBOUNCE_MS = 400;

export type EstimateAnswer = ResponseOf<'estimateSegment'>;

export interface Estimate extends RunnerState<EstimateAnswer> {
  /** The shown answer is for the current conditions. */
  current: boolean;
  retry: () => void;
}

/**
 * How the shown answer stands: `updating` while a newer one is on its way (never offline: nothing
 * is asked then), `stale` when offline and the conditions changed since the answer.
 */
export function estimateStanding(e: Pick<Estimate, 'result' | 'pending' | 'current' | 'error'>, offline: boolean): { updating: boolean; stale: boolean } {
  const outdated = !e.current && e.error === null && e.result !== null;
  if (offline) return { updating: false, stale: outdated || (e.pending && e.result !== null) };
  return { updating: e.pending || outdated, stale: false };
}

const INITIAL: RunnerState<EstimateAnswer> = { result: null, resultKey: null, error: null, pending: false, key: null };

export function useEstimate(appId: string, segment: Segment, enabled: boolean): Estimate {
  const [state, setState] = useState<RunnerState<EstimateAnswer>>(INITIAL);
  const runner = useRef<ReturnType<typeof createLatestRunner<Segment, EstimateAnswer>> | null>(null);

  useEffect(() => {
    const r = createLatestRunner<Segment, EstimateAnswer>({
      delayMs: ESTIMATE_DEBOUNCE_MS,
      run: (input, signal) => api.call('estimateSegment', { params: { appId }, body: { segment: input }, signal }),
      onChange: setState,
    });
    runner.current = r;
    return () => {
      r.dispose();
      runner.current = null;
      setState(INITIAL);
    };
  }, [appId]);

  const key = useMemo(() => JSON.stringify(segment), [segment]);
  useEffect(() => {
    // `segment` changes identity on every read; `key` is its content.
    if (enabled) runner.current?.schedule(key, JSON.parse(key) as Segment);
  }, [key, enabled, appId]);

  return { ...state, current: state.resultKey === key, retry: () => runner.current?.retry() };
}
