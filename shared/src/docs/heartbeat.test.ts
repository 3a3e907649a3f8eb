import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startHeartbeat, type HeartbeatTarget } from './heartbeat.ts';

describe('startHeartbeat', () => {
  beforeEach(() => { vi.useFakeTimers(); });
  afterEach(() => { vi.useRealTimers(); });

  function target(state: { live: boolean; connecting: boolean }) {
    const calls = { pings: 0, restarts: 0 };
    const t: HeartbeatTarget = {
      live: () => state.live, connecting: () => state.connecting,
      ping: () => { calls.pings += 1; }, restartAttempt: () => { calls.restarts += 1; },
    };
    return { t, calls };
  }

  it('pings every interval while live, and stops when told', () => {
    const state = { live: true, connecting: false };
    const { t, calls } = target(state);
    const stop = startHeartbeat(t, { everyMs: 1000, attemptTimeoutMs: 3000, now: () => Date.now() });
    vi.advanceTimersByTime(3500);
    expect(calls.pings).toBe(3);
    stop();
    vi.advanceTimersByTime(5000);
    expect(calls.pings).toBe(3);
  });

  it('abandons an attempt to connect that hangs, once per timeout, and never while live', () => {
    const state = { live: false, connecting: true };
    const { t, calls } = target(state);
    const stop = startHeartbeat(t, { everyMs: 1000, attemptTimeoutMs: 3000, now: () => Date.now() });
    vi.advanceTimersByTime(3500); // seen connecting at 1 s: not yet 3 s
    expect(calls.restarts).toBe(0);
    vi.advanceTimersByTime(1000); // seen connecting for 3 s: given up
    expect(calls.restarts).toBe(1);
    vi.advanceTimersByTime(2000);
    expect(calls.restarts).toBe(1); // the new attempt has its own 3 s
    state.connecting = false;
    state.live = true;
    vi.advanceTimersByTime(10_000);
    expect(calls.restarts).toBe(1);
    expect(calls.pings).toBeGreaterThan(0);
    stop();
  });
});
