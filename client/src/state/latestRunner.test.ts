import { describe, expect, it } from 'vitest';
import { createLatestRunner, type RunnerState, type Timers } from './latestRunner.ts';

/** Timers a test advances by hand (no waiting on real time). */
function manualTimers() {
  let now = 0;
  let seq = 0;
  const pending = new Map<number, { at: number; fn: () => void }>();
  const timers: Timers = {
    set: (fn, ms) => {
      seq += 1;
      pending.set(seq, { at: now + ms, fn });
      return seq;
    },
    clear: (h) => void pending.delete(h as number),
  };
  const advance = (ms: number) => {
    now += ms;
    for (const [id, t] of [...pending].sort((a, b) => a[1].at - b[1].at)) {
      if (t.at <= now) {
        pending.delete(id);
        t.fn();
      }
    }
  };
  return { timers, advance, count: () => pending.size };
}

interface Call {
  input: string;
  signal: AbortSignal;
  resolve: (v: string) => void;
  reject: (e: unknown) => void;
}

function setup() {
  const clock = manualTimers();
  const calls: Call[] = [];
  const states: RunnerState<string>[] = [];
  const runner = createLatestRunner<string, string>({
    delayMs: 400,
    timers: clock.timers,
    run: (input, signal) => new Promise((resolve, reject) => calls.push({ input, signal, resolve, reject })),
    onChange: (s) => states.push(s),
  });
  const flush = () => new Promise((r) => setTimeout(r, 0));
  return { clock, calls, states, runner, flush };
}

describe('latest runner', () => {
  it('waits for a pause: only the last of quick changes runs', () => {
    const { clock, calls, runner } = setup();
    runner.schedule('a', 'A');
    clock.advance(300);
    runner.schedule('b', 'B');
    clock.advance(300);
    expect(calls).toHaveLength(0);
    expect(runner.state().pending).toBe(true);
    clock.advance(100);
    expect(calls.map((c) => c.input)).toEqual(['B']);
  });

  it('aborts a run that a newer input supersedes and ignores its late answer', async () => {
    const { clock, calls, runner, flush } = setup();
    runner.schedule('a', 'A');
    clock.advance(400);
    runner.schedule('b', 'B');
    expect(calls[0]?.signal.aborted).toBe(true);
    clock.advance(400);
    calls[0]?.resolve('old');
    calls[1]?.resolve('new');
    await flush();
    expect(runner.state()).toMatchObject({ result: 'new', resultKey: 'b', pending: false, error: null });
  });

  it('keeps the last answer while the next one is on its way', async () => {
    const { clock, calls, runner, flush } = setup();
    runner.schedule('a', 'A');
    clock.advance(400);
    calls[0]?.resolve('first');
    await flush();
    runner.schedule('b', 'B');
    expect(runner.state()).toMatchObject({ result: 'first', resultKey: 'a', pending: true, key: 'b' });
  });

  it('does not ask again for what it shows or is already asking', async () => {
    const { clock, calls, runner, flush } = setup();
    runner.schedule('a', 'A');
    runner.schedule('a', 'A');
    clock.advance(400);
    runner.schedule('a', 'A');
    expect(calls).toHaveLength(1);
    calls[0]?.resolve('x');
    await flush();
    runner.schedule('a', 'A');
    clock.advance(400);
    expect(calls).toHaveLength(1);
    expect(clock.count()).toBe(0);
  });

  it('records a failure, asks again for the same input after it, and retries at once', async () => {
    const { clock, calls, runner, flush } = setup();
    runner.schedule('a', 'A');
    clock.advance(400);
    calls[0]?.reject(new Error('boom'));
    await flush();
    expect(runner.state()).toMatchObject({ pending: false, result: null });
    expect(runner.state().error).toBeInstanceOf(Error);
    runner.retry();
    expect(calls).toHaveLength(2);
    calls[1]?.reject(new Error('again'));
    await flush();
    runner.schedule('a', 'A');
    clock.advance(400);
    expect(calls).toHaveLength(3);
  });

  it('reports nothing after dispose and aborts what runs', async () => {
    const { clock, calls, runner, states, flush } = setup();
    runner.schedule('a', 'A');
    clock.advance(400);
    const before = states.length;
    runner.dispose();
    expect(calls[0]?.signal.aborted).toBe(true);
    calls[0]?.resolve('late');
    runner.schedule('b', 'B');
    clock.advance(400);
    await flush();
    expect(states.length).toBe(before);
    expect(calls).toHaveLength(1);
  });
});
