/** Leading and trailing throttle: at most one call per `ms`, the latest arguments win. */
export interface Throttled<A extends unknown[]> {
  call(...args: A): void;
  /** Drops a pending trailing call. */
  cancel(): void;
}

export function throttle<A extends unknown[]>(fn: (...args: A) => void, ms: number): Throttled<A> {
  let last = -Infinity;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let pending: A | null = null;
  const fire = () => {
    timer = null;
    if (!pending) return;
    const args = pending;
    pending = null;
    last = Date.now();
    fn(...args);
  };
  return {
    call(...args: A) {
      pending = args;
      const wait = last + ms - Date.now();
      if (wait <= 0 && timer === null) fire();
      else timer ??= setTimeout(fire, Math.max(0, wait));
    },
    cancel() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      pending = null;
    },
  };
}
