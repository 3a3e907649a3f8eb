/** A throttled call of the latest `fn` (see throttle.ts); a pending call is dropped on unmount. */
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { throttle, type Throttled } from './throttle.ts';

export function useThrottled<A extends unknown[]>(fn: ((...args: A) => void) | undefined, ms: number): Throttled<A> {
  const latest = useRef(fn);
  const instance = useRef<Throttled<A> | null>(null);
  useEffect(() => {
    latest.current = fn;
  });
  useEffect(() => () => instance.current?.cancel(), []);
  const call = useCallback(
    (...args: A) => {
      instance.current ??= throttle((...a: A) => latest.current?.(...a), ms);
      instance.current.call(...args);
    },
    [ms],
  );
  const cancel = useCallback(() => instance.current?.cancel(), []);
  return useMemo(() => ({ call, cancel }), [call, cancel]);
}
