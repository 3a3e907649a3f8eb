/**
 * Calls `refetch` every `intervalMs` while mounted; `null` polls not at all. Ticks are skipped while
 * the tab is hidden, and it refetches once when the tab becomes visible again. A tick does not start
 * a new request while the previous one still loads: pass `loading` (e.g. `query.state === 'loading'`).
 *
 *   usePolling(query.refetch, running ? 2_000 : null, query.state === 'loading');
 */
import { useEffect, useRef } from 'react';
import { shouldPollOnVisible, shouldPollTick } from './polling.ts';

export function usePolling(refetch: () => void, intervalMs: number | null, loading = false): void {
  // Read through refs so a new `refetch` or load state does not restart the timer.
  const refetchRef = useRef(refetch);
  const loadingRef = useRef(loading);
  useEffect(() => {
    refetchRef.current = refetch;
    loadingRef.current = loading;
  });

  useEffect(() => {
    if (intervalMs === null) return undefined;
    const context = () => ({ hidden: typeof document !== 'undefined' && document.hidden, loading: loadingRef.current });
    const timer = window.setInterval(() => {
      if (shouldPollTick(context())) refetchRef.current();
    }, intervalMs);
    const onVisibility = () => {
      if (shouldPollOnVisible(context(), intervalMs)) refetchRef.current();
    };
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [intervalMs]);
}
