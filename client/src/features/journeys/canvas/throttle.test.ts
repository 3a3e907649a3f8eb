import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { throttle } from './throttle.ts';

describe('throttle', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('calls at once, then at most once per interval with the latest arguments', () => {
    const seen: number[] = [];
    const th = throttle((n: number) => seen.push(n), 50);
    th.call(1);
    th.call(2);
    th.call(3);
    expect(seen).toEqual([1]);
    vi.advanceTimersByTime(50);
    expect(seen).toEqual([1, 3]);
    vi.advanceTimersByTime(100);
    th.call(4);
    expect(seen).toEqual([1, 3, 4]);
  });

  it('drops a pending call when cancelled', () => {
    const seen: number[] = [];
    const th = throttle((n: number) => seen.push(n), 50);
    th.call(1);
    th.call(2);
    th.cancel();
    vi.advanceTimersByTime(100);
    expect(seen).toEqual([1]);
  });
});
