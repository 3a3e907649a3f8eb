/**
 * Figures and postbacks depend on the schema and the mappings edited in the other tabs: a tab
 * opened with cached data refetches it once (the cached answer stays on screen meanwhile).
 */
import { useEffect, useRef } from 'react';

export function useFreshOnMount(query: { data: unknown; refetch: () => void }): void {
  const cached = useRef(query.data !== undefined);
  const { refetch } = query;
  useEffect(() => {
    if (cached.current) refetch();
    cached.current = false;
  }, [refetch]);
}
