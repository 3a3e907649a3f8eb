/**
 * A person's events, page by page (keyset cursor from the API). Changing the person or the event
 * filter starts over and aborts what was loading; `loadMore` asks for the next page once.
 */
import { useCallback, useEffect, useReducer, useRef } from 'react';
import type { TimelineEvent } from '@gd/shared/schemas/people';
import { api } from '../../api/client.ts';
import { isAbort } from '../../api/errors.ts';

export interface TimelineState {
  events: TimelineEvent[];
  /** Cursor of the next page; null once the oldest event is loaded. */
  next: string | null;
  /** True until the first page arrived. */
  initial: boolean;
  loading: boolean;
  error: unknown;
}

type Action =
  | { type: 'reset' }
  | { type: 'start' }
  | { type: 'page'; events: TimelineEvent[]; next: string | null }
  | { type: 'failed'; error: unknown };

const START: TimelineState = { events: [], next: null, initial: true, loading: true, error: undefined };

/** Pure: the timeline after an action (exported for tests). */
export function timelineReducer(state: TimelineState, action: Action): TimelineState {
  switch (action.type) {
    case 'reset':
      return START;
    case 'start':
      return { ...state, loading: true, error: undefined };
    case 'page': {
      // Keyset pages never overlap, but a retried request could answer twice: keep ids unique.
      const known = new Set(state.events.map((e) => e.id));
      return { events: [...state.events, ...action.events.filter((e) => !known.has(e.id))], next: action.next, initial: false, loading: false, error: undefined };
    }
    case 'failed':
      return { ...state, loading: false, error: action.error };
    default: {
      const never: never = action;
      return never;
    }
  }
}

export function useTimeline(appId: string, personId: string, name: string | null) {
  const [state, dispatch] = useReducer(timelineReducer, START);
  const controller = useRef<AbortController | null>(null);
  const cursorRef = useRef<string | null>(null);
  const busy = useRef(false);

  const fetchPage = useCallback((cursor: string | null) => {
    controller.current?.abort();
    const ctl = new AbortController();
    controller.current = ctl;
    busy.current = true;
    dispatch({ type: 'start' });
    const query = { ...(cursor ? { cursor } : {}), ...(name ? { name } : {}) };
    api.call('personTimeline', { params: { appId, personId }, query, signal: ctl.signal }).then(
      (page) => {
        if (ctl.signal.aborted) return;
        busy.current = false;
        cursorRef.current = page.nextCursor;
        dispatch({ type: 'page', events: page.events, next: page.nextCursor });
      },
      (error: unknown) => {
        if (ctl.signal.aborted || isAbort(error)) return;
        busy.current = false;
        dispatch({ type: 'failed', error });
      },
    );
  }, [appId, personId, name]);

  useEffect(() => {
    dispatch({ type: 'reset' });
    cursorRef.current = null;
    fetchPage(null);
    return () => controller.current?.abort();
  }, [fetchPage]);

  const loadMore = useCallback(() => {
    if (busy.current || cursorRef.current === null) return;
    fetchPage(cursorRef.current);
  }, [fetchPage]);

  /** After a failure: the first page again, or the page that failed. */
  const retry = useCallback(() => {
    if (busy.current) return;
    fetchPage(cursorRef.current);
  }, [fetchPage]);

  return { ...state, loadMore, retry };
}
