/**
 * Loading, error (with retry) and content for one query. Loaded data stays on screen while a
 * refetch runs; the skeleton shows only when there is nothing yet, after the debounce.
 */
import type { ReactNode } from 'react';
import type { QueryResult } from '../state/useApiQuery.ts';
import { ListSkeleton } from './Loading.tsx';
import { ErrorBlock } from './States.tsx';

export function DataState<T>({ query, children, rows }: { query: QueryResult<T>; children: (data: T) => ReactNode; rows?: number }) {
  if (query.data !== undefined && query.state !== 'error') return <>{children(query.data)}</>;
  if (query.state === 'error') return <ErrorBlock error={query.error} onRetry={query.refetch} />;
  return <ListSkeleton rows={rows} />;
}
