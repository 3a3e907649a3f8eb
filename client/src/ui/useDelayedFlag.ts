import { useEffect, useState } from 'react';

/** Loading indicators appear only after a 100 ms debounce (SPEC.md section 9). */
export const LOADING_DEBOUNCE_MS = 100;

/** True once `flag` has stayed true for `delayMs`; false again as soon as it turns false. */
export function useDelayedFlag(flag: boolean, delayMs = LOADING_DEBOUNCE_MS): boolean {
  const [elapsed, setElapsed] = useState(false);
  useEffect(() => {
    if (!flag) return undefined;
    const timer = window.setTimeout(() => setElapsed(true), delayMs);
    return () => {
      window.clearTimeout(timer);
      setElapsed(false);
    };
  }, [flag, delayMs]);
  return flag && elapsed;
}
