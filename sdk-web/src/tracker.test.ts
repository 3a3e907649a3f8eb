/**
 * The tracker against an in-process fake of the ingestion API (no network): what each kind of
 * answer does to the queue, persistence across a reload, the built-in events, the limits.
 * The real API is exercised in tests/integration/sdk.int.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { createTracker } from './tracker.ts';
import { memoryStorage } from './storage.ts';
import type { Rejection, TrackerError, TrackerOptions } from './types.ts';

interface SentRequest { url: string; body: { device: { id: string }; events?: { id: string; name: string; time: string; sessionId?: string; revenue?: number; currency?: string; properties?: Record<string, unknown> }[]; customerId?: string }; headers: Record<string, string>; keepalive: boolean }
type Answer = { status: number; body?: unknown; headers?: Record<string, string> } | Error;

const ok = (req: SentRequest): Answer => ({
  status: 200,
  body: { status: 'OK', accepted: (req.body.events ?? []).map((e) => e.id), duplicates: [], rejected: [], clamped: [], interactions: { accepted: [], duplicates: [], rejected: [] } },
});

function fakeApi(answer: (req: SentRequest, n: number) => Answer | Promise<Answer> = ok) {
  const requests: SentRequest[] = [];
  const fetch = async (url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const req = { url: url as string, body: JSON.parse(init?.body as string) as SentRequest['body'], headers: init?.headers as Record<string, string>, keepalive: init?.keepalive === true };
    requests.push(req);
    const a = await answer(req, requests.length);
    if (a instanceof Error) throw a;
    return new Response(JSON.stringify(a.body ?? {}), { status: a.status, headers: a.headers ?? {} });
  };
  return { fetch, requests, eventIds: () => requests.flatMap((r) => (r.body.events ?? []).map((e) => e.id)) };
}

const base = (api: ReturnType<typeof fakeApi>, extra: Partial<TrackerOptions> = {}): TrackerOptions => ({
  appKey: 'key-1', endpoint: 'https://gd.example.com/api/', storage: memoryStorage(), fetch: api.fetch,
  autoTrack: false, flushAt: 1000, ...extra,
});

let warn: MockInstance<typeof console.warn>;
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  vi.setSystemTime(new Date('2026-05-01T10:00:00Z'));
  warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.useRealTimers();
  warn.mockRestore();
});

describe('sending', () => {
  it('posts batches to {endpoint}/ingest/v1/batch with the app key, the device and the events', async () => {
    const api = fakeApi();
    const tracker = createTracker(base(api, { deviceContext: { appVersion: '3.1.0', country: 'ES' } }));
    const id = tracker.track('purchase', { plan: 'pro' }, { revenue: 9.99, currency: 'EUR', source: 'newsletter' });
    await tracker.flush();
    expect(api.requests).toHaveLength(1);
    const [req] = api.requests;
    expect(req!.url).toBe('https://gd.example.com/api/ingest/v1/batch');
    expect(req!.headers['X-App-Key']).toBe('key-1');
    expect(req!.body.device).toEqual({ id: tracker.deviceId, sdkVersion: '2.0', appVersion: '3.1.0', country: 'ES' });
    expect(req!.body.events).toEqual([{ id, name: 'purchase', time: '2026-05-01T10:00:00.000Z', properties: { plan: 'pro' }, revenue: 9.99, currency: 'EUR', source: 'newsletter' }]);
    expect(tracker.queued).toBe(0);
  });

  it('splits the queue into batches of maxBatch, one request at a time', async () => {
    let inFlight = 0, most = 0;
    const api = fakeApi(async (req) => {
      most = Math.max(most, ++inFlight);
      await Promise.resolve();
      inFlight--;
      return ok(req);
    });
    const tracker = createTracker(base(api, { maxBatch: 100 }));
    for (let i = 0; i < 250; i++) tracker.track('tap', { i });
    await Promise.all([tracker.flush(), tracker.flush(), tracker.flush()]);
    expect(api.requests.map((r) => r.body.events!.length)).toEqual([100, 100, 50]);
    expect(most).toBe(1);
    expect(api.requests.flatMap((r) => r.body.events!.map((e) => e.properties!.i))).toEqual([...Array(250).keys()]);
  });

  it('sends on its own when flushAt items are queued, and on the interval', async () => {
    const api = fakeApi();
    const tracker = createTracker(base(api, { flushAt: 3, flushIntervalMs: 5000 }));
    tracker.track('a');
    tracker.track('b');
    await vi.advanceTimersByTimeAsync(0);
    expect(api.requests).toHaveLength(0);
    tracker.track('c');
    await vi.advanceTimersByTimeAsync(0);
    expect(api.requests).toHaveLength(1);
    tracker.track('d');
    await vi.advanceTimersByTimeAsync(5000);
    expect(api.requests).toHaveLength(2);
    expect(api.requests[1]!.body.events!.map((e) => e.name)).toEqual(['d']);
  });

  it('drops accepted, duplicate and rejected events after a 2xx, reporting the rejected ones', async () => {
    const rejected: Rejection[] = [];
    const api = fakeApi((req) => {
      const [a, b, c] = req.body.events!;
      return { status: 200, body: { status: 'OK', accepted: [a!.id], duplicates: [b!.id], rejected: [{ index: 2, id: c!.id, code: 10001, reason: 'properties: too large' }], clamped: [], interactions: { accepted: [], duplicates: [], rejected: [] } } };
    });
    const tracker = createTracker(base(api, { onRejected: (r) => rejected.push(...r) }));
    tracker.track('a');
    tracker.track('b');
    const bad = tracker.track('c');
    await tracker.flush();
    expect(tracker.queued).toBe(0);
    expect(rejected).toEqual([{ kind: 'event', id: bad, name: 'c', code: 10001, reason: 'properties: too large' }]);
    expect(warn).toHaveBeenCalled();
  });

  it('keeps the events on a network error or a 5xx and resends the same ids after the backoff', async () => {
    const api = fakeApi((req, n) => (n === 1 ? new TypeError('Failed to fetch') : n === 2 ? { status: 503, body: { status: 'KO', code: 10025 } } : ok(req)));
    const random = vi.spyOn(Math, 'random').mockReturnValue(0.75);
    const tracker = createTracker(base(api, { retryBaseMs: 1000 }));
    tracker.track('a');
    tracker.track('b');
    await tracker.flush();
    expect(tracker.queued).toBe(2);
    await tracker.flush(); // while a retry is scheduled, flush does not send
    await vi.advanceTimersByTimeAsync(749); // first retry: 0.75 of [0, 1 s)
    expect(api.requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(api.requests).toHaveLength(2);
    expect(tracker.queued).toBe(2);
    await vi.advanceTimersByTimeAsync(1499); // second retry: 0.75 of [0, 2 s)
    expect(api.requests).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(api.requests).toHaveLength(3);
    random.mockRestore();
    expect(tracker.queued).toBe(0);
    const [first, second, third] = api.requests.map((r) => r.body.events!.map((e) => e.id));
    expect(second).toEqual(first);
    expect(third).toEqual(first);
  });

  it('honours Retry-After on a 429', async () => {
    const api = fakeApi((req, n) => (n === 1 ? { status: 429, headers: { 'retry-after': '30' }, body: { status: 'KO', code: 10004 } } : ok(req)));
    const tracker = createTracker(base(api));
    tracker.track('a');
    await tracker.flush();
    await vi.advanceTimersByTimeAsync(29_999);
    expect(api.requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(api.requests).toHaveLength(2);
    expect(tracker.queued).toBe(0);
  });

  it('stops sending and keeps the queue when the API refuses the app key', async () => {
    const errors: TrackerError[] = [];
    const api = fakeApi(() => ({ status: 401, body: { status: 'KO', code: 10003, message: 'Unknown app key' } }));
    const tracker = createTracker(base(api, { onError: (e) => errors.push(e) }));
    tracker.track('a');
    tracker.track('b');
    await tracker.flush();
    await tracker.flush();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(api.requests).toHaveLength(1);
    expect(errors).toEqual([{ status: 401, code: 10003, message: 'Unknown app key' }]);
    expect(tracker.queued).toBe(2);
  });

  it('halves the batch on 413 and drops a single item the API can never take', async () => {
    const rejected: Rejection[] = [];
    const api = fakeApi((req) => (req.body.events!.length > 2 || req.body.events!.some((e) => e.name === 'huge') ? { status: 413, body: { status: 'KO', code: 10001 } } : ok(req)));
    const tracker = createTracker(base(api, { onRejected: (r) => rejected.push(...r) }));
    for (let i = 0; i < 6; i++) tracker.track('tap');
    tracker.track('huge');
    await tracker.flush();
    expect(api.requests.map((r) => r.body.events!.length)).toEqual([7, 3, 1, 1, 1, 1, 1, 1, 1]);
    expect(tracker.queued).toBe(0);
    expect(rejected).toMatchObject([{ kind: 'event', name: 'huge', reason: 'Too large' }]);
  });

  it('sends identify and profile updates in order with the events, and drops one the API finds invalid', async () => {
    const rejected: Rejection[] = [];
    const api = fakeApi((req) => {
      if (req.url.endsWith('/identify')) return { status: 200, body: { status: 'OK', personId: '1', merged: false } };
      if (req.url.endsWith('/profile')) return { status: 400, body: { status: 'KO', code: 10001, message: 'profile.email: Invalid email' } };
      return ok(req);
    });
    const tracker = createTracker(base(api, { onRejected: (r) => rejected.push(...r) }));
    tracker.track('a');
    tracker.identify(' customer-7 ', { email: 'ann@example.com' });
    tracker.setProfile({ email: 'not-an-email' });
    tracker.track('b');
    await tracker.flush();
    expect(api.requests.map((r) => r.url.split('/').pop())).toEqual(['batch', 'identify', 'profile', 'batch']);
    expect(api.requests[1]!.body).toMatchObject({ device: { id: tracker.deviceId }, customerId: 'customer-7', profile: { email: 'ann@example.com' } });
    expect(rejected).toMatchObject([{ kind: 'profile', code: 10001, reason: 'profile.email: Invalid email' }]);
    expect(tracker.queued).toBe(0);
  });

  it('uses fetch keepalive with a small batch when the page is left', async () => {
    const api = fakeApi();
    vi.stubGlobal('document', Object.assign(new EventTarget(), { visibilityState: 'visible' }));
    vi.stubGlobal('window', Object.assign(new EventTarget(), { document: globalThis.document }));
    try {
      const tracker = createTracker(base(api));
      for (let i = 0; i < 100; i++) tracker.track('tap', { text: 'x'.repeat(2000) });
      window.dispatchEvent(new Event('pagehide'));
      await vi.advanceTimersByTimeAsync(0);
      const [first, ...rest] = api.requests;
      expect(first!.keepalive).toBe(true);
      expect(new TextEncoder().encode(JSON.stringify(first!.body)).length).toBeLessThan(64 * 1024);
      expect(rest.every((r) => !r.keepalive)).toBe(true);
      expect(tracker.queued).toBe(0);
      await tracker.shutdown();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('persistence', () => {
  it('survives a reload: the next page sends the same events with the same ids, and the same device id', async () => {
    const storage = memoryStorage();
    const down = fakeApi(() => new TypeError('Failed to fetch'));
    const page1 = createTracker(base(down, { storage }));
    const ids = [page1.track('a', { n: 1 }), page1.track('b'), page1.screen('Home')];
    page1.identify('customer-1');
    await page1.shutdown();
    expect(storage.getItem('gd:key-1:queue')).toContain(ids[0]);

    const up = fakeApi((req) => (req.url.endsWith('/identify') ? { status: 200, body: { status: 'OK', personId: '1', merged: false } } : ok(req)));
    const page2 = createTracker(base(up, { storage }));
    expect(page2.deviceId).toBe(page1.deviceId);
    expect(page2.queued).toBe(4);
    await page2.flush();
    expect(up.eventIds()).toEqual(ids);
    expect(up.requests[0]!.body.events![2]).toMatchObject({ name: 'e_screen_name', properties: { screen: 'Home' } });
    expect(up.requests[1]!.body.customerId).toBe('customer-1');
    await page2.shutdown();
    expect(JSON.parse(storage.getItem('gd:key-1:queue')!)).toEqual({ v: 1, items: [] });
  });

  it('keeps events another tab stored, and does not bring back the ones this tab sent', async () => {
    const storage = memoryStorage();
    const tabA = createTracker(base(fakeApi(() => new TypeError('offline')), { storage }));
    const api = fakeApi();
    const tabB = createTracker(base(api, { storage }));
    const fromA = tabA.track('from-a')!;
    const fromB = tabB.track('from-b')!;
    await tabB.flush();
    await Promise.resolve();
    const stored = JSON.parse(storage.getItem('gd:key-1:queue')!) as { items: { id: string }[] };
    expect(stored.items.map((i) => i.id)).toEqual([fromA]);
    expect(api.eventIds()).toEqual([fromB]);
    await tabA.shutdown();
    await tabB.shutdown();
  });

  it('drops the oldest events beyond maxQueue and counts them, in memory and in storage', async () => {
    const storage = memoryStorage();
    const tracker = createTracker(base(fakeApi(() => new TypeError('offline')), { storage, maxQueue: 5 }));
    for (let i = 0; i < 8; i++) tracker.track('tap', { i });
    expect(tracker.queued).toBe(5);
    expect(tracker.dropped).toBe(3);
    await tracker.shutdown();
    const stored = JSON.parse(storage.getItem('gd:key-1:queue')!) as { items: { body: { properties: { i: number } } }[] };
    expect(stored.items.map((i) => i.body.properties.i)).toEqual([3, 4, 5, 6, 7]);
  });

  it('drops the oldest quarter when the storage is full instead of losing the queue', async () => {
    const inner = memoryStorage();
    const storage = { getItem: (k: string) => inner.getItem(k), removeItem: (k: string) => inner.removeItem(k), setItem: (k: string, v: string) => {
      if (v.length > 3000) throw new DOMException('full', 'QuotaExceededError');
      inner.setItem(k, v);
    } };
    const tracker = createTracker(base(fakeApi(() => new TypeError('offline')), { storage }));
    for (let i = 0; i < 40; i++) tracker.track('tap', { i });
    await Promise.resolve();
    const stored = JSON.parse(inner.getItem('gd:key-1:queue')!) as { items: { body: { properties: { i: number } } }[] };
    const kept = stored.items.map((i) => i.body.properties.i);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.at(-1)).toBe(39);
    expect(tracker.dropped).toBe(40 - kept.length);
    expect(tracker.queued).toBe(kept.length);
    await tracker.shutdown();
  });
});

describe('built-in events', () => {
  it('tracks gd_install on the first run only, and a session that a reload within 30 minutes continues', async () => {
    const storage = memoryStorage();
    const api = fakeApi();
    const first = createTracker(base(api, { storage, autoTrack: true }));
    await first.flush();
    const [install, start] = api.requests[0]!.body.events!;
    expect(install).toMatchObject({ name: 'gd_install' });
    expect(start).toMatchObject({ name: 'gd_start_session', sessionId: first.sessionId });
    await first.shutdown();

    vi.advanceTimersByTime(29 * 60_000);
    const second = createTracker(base(api, { storage, autoTrack: true }));
    const tap = second.track('tap');
    await second.flush();
    expect(api.requests[1]!.body.events).toEqual([expect.objectContaining({ id: tap, name: 'tap', sessionId: start!.sessionId })]);
    await second.shutdown();
  });

  it('ends a session at its last activity after 30 idle minutes and starts a new one on the next event', async () => {
    let now = Date.parse('2026-05-01T10:00:00Z');
    const api = fakeApi();
    const tracker = createTracker(base(api, { autoTrack: true, now: () => now }));
    const firstSession = tracker.sessionId!;
    now += 10 * 60_000;
    tracker.track('tap');
    now += 31 * 60_000;
    tracker.track('tap');
    await tracker.flush();
    const events = api.requests.flatMap((r) => r.body.events!);
    expect(events.map((e) => e.name)).toEqual(['gd_install', 'gd_start_session', 'tap', 'gd_end_session', 'gd_start_session', 'tap']);
    expect(events[3]).toMatchObject({ id: `end:${firstSession}`, sessionId: firstSession, time: '2026-05-01T10:10:00.000Z' });
    expect(events[5]!.sessionId).toBe(tracker.sessionId);
    expect(tracker.sessionId).not.toBe(firstSession);
    await tracker.shutdown();
  });

  it('the periodic check ends an idle session without waiting for the next event', async () => {
    const api = fakeApi();
    const tracker = createTracker(base(api, { autoTrack: true, flushIntervalMs: 60_000 }));
    const session = tracker.sessionId;
    await vi.advanceTimersByTimeAsync(31 * 60_000);
    expect(tracker.sessionId).toBeNull();
    const ends = api.requests.flatMap((r) => r.body.events!).filter((e) => e.name === 'gd_end_session');
    expect(ends).toEqual([expect.objectContaining({ sessionId: session, time: '2026-05-01T10:00:00.000Z' })]);
    await tracker.shutdown();
  });

  it('tracks a transaction with its revenue', async () => {
    const api = fakeApi();
    const tracker = createTracker(base(api));
    tracker.transaction(19.5, 'USD', { sku: 'A-1' });
    await tracker.flush();
    expect(api.requests[0]!.body.events![0]).toMatchObject({ name: 'gd_transaction', revenue: 19.5, currency: 'USD', properties: { sku: 'A-1' } });
  });
});

describe('local checks', () => {
  it('refuses bad event names and times before queueing', () => {
    const rejected: Rejection[] = [];
    const tracker = createTracker(base(fakeApi(), { onRejected: (r) => rejected.push(...r) }));
    expect(tracker.track('gd_custom')).toBeNull();
    expect(tracker.track('has space')).toBeNull();
    expect(tracker.track('ok', {}, { time: 'yesterday' })).toBeNull();
    tracker.identify('   ');
    expect(tracker.queued).toBe(0);
    expect(rejected.map((r) => [r.kind, r.name ?? null, r.code])).toEqual([['event', 'gd_custom', 10001], ['event', 'has space', 10001], ['event', 'ok', 10001], ['identify', null, 10001]]);
  });

  it('takes an explicit event time', async () => {
    const api = fakeApi();
    const tracker = createTracker(base(api));
    tracker.track('old', undefined, { time: new Date('2026-04-01T08:00:00+02:00') });
    await tracker.flush();
    expect(api.requests[0]!.body.events![0]!.time).toBe('2026-04-01T06:00:00.000Z');
  });
});
