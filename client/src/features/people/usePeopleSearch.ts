/**
 * The search box's results: the text is debounced, each request is aborted when a newer one
 * starts, and only the latest answer is shown. An empty text lists the people seen most recently.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { PersonSummary } from '@gd/shared/schemas/people';
import { api } from '../../api/client.ts';
import { isAbort } from '../../api/errors.ts';

/** Typing pause before a search is sent. */
export const SEARCH_DEBOUNCE_MS = 250;

export interface PeopleSearch {
  /** The text being searched (trimmed, debounced). */
  query: string;
  /** The text the shown results answer. */
  answered: string;
  people: PersonSummary[] | undefined;
  loading: boolean;
  error: unknown;
  retry: () => void;
}

export function usePeopleSearch(appId: string, text: string): PeopleSearch {
  const q = text.trim();
  const [debounced, setDebounced] = useState(q);
  const [attempt, setAttempt] = useState(0);
  const [result, setResult] = useState<{ key: string; people?: PersonSummary[]; error?: unknown }>({ key: '' });
  const controller = useRef<AbortController | null>(null);

  useEffect(() => {
    if (q === debounced) return undefined;
    // Clearing the box shows the recent list at once; typing waits for a pause.
    const timer = window.setTimeout(() => setDebounced(q), q === '' ? 0 : SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [q, debounced]);

  const key = `${appId}\n${debounced}\n${attempt}`;
  useEffect(() => {
    controller.current?.abort();
    const ctl = new AbortController();
    controller.current = ctl;
    api.call('searchPeople', { params: { appId }, query: { q: debounced }, signal: ctl.signal }).then(
      ({ people }) => {
        if (!ctl.signal.aborted) setResult({ key, people });
      },
      (error: unknown) => {
        if (!ctl.signal.aborted && !isAbort(error)) setResult({ key, error });
      },
    );
    return () => ctl.abort();
  }, [appId, debounced, key]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  const current = result.key === key;
  // While a newer search runs, the previous results stay (dimmed by the caller) instead of flashing empty.
  return {
    query: debounced,
    answered: result.key.split('\n')[1] ?? '',
    people: result.people,
    loading: !current || q !== debounced,
    error: current ? result.error : undefined,
    retry,
  };
}
