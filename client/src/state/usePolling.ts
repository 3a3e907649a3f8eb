/** Calls `refetch` every `intervalMs` while `active` (lists of running imports and exports). */
import { useEffect } from 'react';

export function usePolling(refetch: () => void, active: boolean, intervalMs = 1000): void {
  useEffect(() => {
    if (!active) return undefined;
    const timer = setInterval(refetch, intervalMs);
    return () => clearInterval(timer);
  }, [refetch, active, intervalMs]);
}
