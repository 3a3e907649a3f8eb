/**
 * The web SDK (@gd/sdk-web) against the real ingestion API and Postgres: batching, storage of
 * every event exactly once, retries across a server outage and a page reload, a lost answer
 * (the resend is reported as duplicates), the rate limit's Retry-After, a refused app key, and the
 * built-in install and session events.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTracker, memoryStorage, type Tracker, type TrackerError, type TrackerOptions } from '../../sdk-web/src/index.ts';
import { createTestApp, registerAccount, startTestApi, type TestApi } from '../../api-server/src/testing/harness.ts';

let api: TestApi;
/** Extra servers a test started and has not stopped. */
const servers = new Set<TestApi>();
const trackers: Tracker[] = [];

beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  for (const t of trackers) await t.shutdown();
  for (const s of servers) await s.stop();
  await api.stop();
});

async function freshAppKey() {
  const owner = await registerAccount(api);
  return createTestApp(owner.client);
}

interface Exchange { url: string; status: number | 'network error'; events: number; answer: { accepted?: string[]; duplicates?: string[] } | null }

/** The global fetch, recording each request's outcome (the SDK sees exactly what the server said). */
function recordingFetch(log: Exchange[], before?: (url: string) => void): typeof fetch {
  return async (input, init) => {
    const url = input as string;
    const events = (JSON.parse(init?.body as string) as { events?: unknown[] }).events?.length ?? 0;
    before?.(url);
    try {
      const res = await fetch(input, init);
      log.push({ url, status: res.status, events, answer: (await res.clone().json()) as Exchange['answer'] });
      return res;
    } catch (error) {
      log.push({ url, status: 'network error', events, answer: null });
      throw error;
    }
  };
}

function tracker(options: Partial<TrackerOptions> & Pick<TrackerOptions, 'appKey' | 'endpoint'>): Tracker {
  const t = createTracker({ storage: memoryStorage(), autoTrack: false, flushAt: 10_000, flushIntervalMs: 60_000, retryBaseMs: 50, retryCapMs: 400, ...options });
  trackers.push(t);
  return t;
}

/** Waits for a condition that the SDK's retries will bring about. */
async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (condition()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting until ${what}`);
}

async function storedIds(appId: string): Promise<string[]> {
  const { rows } = await api.db.query<{ client_id: string }>('SELECT client_id FROM events WHERE app_id = $1 ORDER BY client_id', [appId]);
  return rows.map((r) => r.client_id);
}

const sorted = (ids: (string | null)[]) => [...ids].map(String).sort();

describe('web SDK against the ingestion API', () => {
  it('sends 250 events in 3 batches and each is stored once', async () => {
    const app = await freshAppKey();
    const log: Exchange[] = [];
    const t = tracker({ appKey: app.appKey, endpoint: `${api.url}/api`, fetch: recordingFetch(log), deviceContext: { appVersion: '1.4.0', country: 'ES' } });
    const ids = Array.from({ length: 250 }, (_, i) => t.track('level_up', { level: i }, i % 50 === 0 ? { revenue: 1.5, currency: 'EUR' } : undefined));
    await t.flush();

    expect(log.map((e) => [e.status, e.events])).toEqual([[200, 100], [200, 100], [200, 50]]);
    expect(log.flatMap((e) => e.answer?.accepted ?? [])).toEqual(ids);
    expect(t.queued).toBe(0);
    expect(await storedIds(app.id)).toEqual(sorted(ids));
    const { rows } = await api.db.query<{ n: number; revenue: string; app_version: string }>(
      `SELECT count(*)::int AS n, sum(e.revenue)::text AS revenue, min(e.app_version) AS app_version
         FROM events e JOIN devices d ON d.app_id = e.app_id AND d.id = e.device_id
        WHERE e.app_id = $1 AND d.device_key = $2`, [app.id, t.deviceId]);
    expect(rows[0]).toEqual({ n: 250, revenue: '7.5000', app_version: '1.4.0' });
  });

  it('keeps events through a server outage and a page reload, then delivers each once', async () => {
    const app = await freshAppKey();
    let server = await startTestApi();
    servers.add(server);
    const endpoint = `${server.url}/api`;
    const storage = memoryStorage();
    const errors: TrackerError[] = [];
    const log: Exchange[] = [];
    const page1 = tracker({ appKey: app.appKey, endpoint, storage, fetch: recordingFetch(log), onError: (e) => errors.push(e) });

    const before = Array.from({ length: 60 }, (_, i) => page1.track('tap', { i }));
    await page1.flush();
    expect(page1.queued).toBe(0);

    await server.stop();
    servers.delete(server);
    const during = Array.from({ length: 70 }, (_, i) => page1.track('tap', { i: 60 + i }));
    await page1.flush();
    expect(log.at(-1)!.status).toBe('network error');
    expect(page1.queued).toBe(70);
    await page1.shutdown(); // the page goes away with the server still down

    const page2 = tracker({ appKey: app.appKey, endpoint, storage, fetch: recordingFetch(log), onError: (e) => errors.push(e) });
    expect(page2.deviceId).toBe(page1.deviceId);
    expect(page2.queued).toBe(70);
    await until(() => log.filter((e) => e.status === 'network error').length >= 4, 'the reloaded page retried a few times');
    expect(page2.queued).toBe(70);

    server = await startTestApi({ PORT: String(server.port) });
    servers.add(server);
    await until(() => page2.queued === 0, 'the queue is delivered after the restart');

    expect(errors).toEqual([]);
    expect(await storedIds(app.id)).toEqual(sorted([...before, ...during]));
    const delivered = log.filter((e) => e.status === 200).flatMap((e) => [...(e.answer?.accepted ?? []), ...(e.answer?.duplicates ?? [])]);
    expect(sorted(delivered)).toEqual(sorted([...before, ...during]));
  });

  it('resends a batch whose answer was lost; the server reports it as duplicates and stores it once', async () => {
    const app = await freshAppKey();
    const log: Exchange[] = [];
    let lose = true;
    const losing: typeof fetch = async (input, init) => {
      const res = await recordingFetch(log)(input, init);
      if (!lose) return res;
      lose = false;
      throw new TypeError('connection reset after the request was processed');
    };
    const t = tracker({ appKey: app.appKey, endpoint: `${api.url}/api`, fetch: losing });
    const ids = Array.from({ length: 30 }, () => t.track('purchase_intent'));
    await t.flush();
    expect(t.queued).toBe(30);
    await until(() => t.queued === 0, 'the retry succeeded');

    expect(log.map((e) => [e.status, e.answer?.accepted?.length, e.answer?.duplicates?.length])).toEqual([[200, 30, 0], [200, 0, 30]]);
    expect(await storedIds(app.id)).toEqual(sorted(ids));
  });

  it('waits as long as the rate limit\'s Retry-After asks instead of hammering the API', async () => {
    const limited = await startTestApi({ INGEST_RATE_PER_SECOND: '2', INGEST_RATE_BURST: '1' });
    servers.add(limited);
    const app = await freshAppKey();
    const log: Exchange[] = [];
    const t = tracker({ appKey: app.appKey, endpoint: `${limited.url}/api`, fetch: recordingFetch(log), maxBatch: 10, retryBaseMs: 10, retryCapMs: 20 });
    const ids = Array.from({ length: 25 }, () => t.track('scroll'));
    await t.flush();
    await until(() => t.queued === 0, 'every batch got through');

    // Each 429 says Retry-After: 1 (the bucket refills in 0.5 s); the SDK's own backoff is at most
    // 20 ms, so only waiting as asked makes every request after a 429 get through.
    expect(log.map((e) => e.status)).toEqual([200, 429, 200, 429, 200]);
    expect(await storedIds(app.id)).toEqual(sorted(ids));
  });

  it('stops and keeps the queue when the app key is refused', async () => {
    const errors: TrackerError[] = [];
    const log: Exchange[] = [];
    const t = tracker({ appKey: 'no-such-key-0123456789', endpoint: `${api.url}/api`, fetch: recordingFetch(log), onError: (e) => errors.push(e) });
    t.track('a');
    t.track('b');
    await t.flush();
    await t.flush();
    expect(log).toHaveLength(1);
    expect(errors).toMatchObject([{ code: 10003 }]);
    expect(t.queued).toBe(2);
  });

  it('records the install and a session with its end from the built-in events', async () => {
    const app = await freshAppKey();
    let now = Date.parse('2026-03-02T09:00:00Z');
    const t = tracker({ appKey: app.appKey, endpoint: `${api.url}/api`, autoTrack: true, now: () => now });
    const session = t.sessionId;
    now += 5 * 60_000;
    t.transaction(4.99, 'EUR', { sku: 'gems-100' });
    now += 45 * 60_000;
    t.screen('Home');
    await t.flush();

    const events = await api.db.query<{ name: string; event_time: Date; session_id: string | null }>(
      'SELECT name, event_time, session_id FROM events WHERE app_id = $1 ORDER BY event_time, name', [app.id]);
    const at = (hhmm: string) => new Date(`2026-03-02T${hhmm}:00Z`);
    expect(events.rows).toEqual([
      { name: 'gd_install', event_time: at('09:00'), session_id: null },
      { name: 'gd_start_session', event_time: at('09:00'), session_id: session },
      { name: 'gd_end_session', event_time: at('09:05'), session_id: session },
      { name: 'gd_transaction', event_time: at('09:05'), session_id: session },
      { name: 'e_screen_name', event_time: at('09:50'), session_id: t.sessionId },
      { name: 'gd_start_session', event_time: at('09:50'), session_id: t.sessionId },
    ]);
    const sessions = await api.db.query<{ session_id: string; started_at: Date; ended_at: Date | null }>(
      'SELECT session_id, started_at, ended_at FROM sessions WHERE app_id = $1 ORDER BY started_at', [app.id]);
    expect(sessions.rows).toEqual([
      { session_id: session, started_at: new Date('2026-03-02T09:00:00Z'), ended_at: new Date('2026-03-02T09:05:00Z') },
      { session_id: t.sessionId, started_at: new Date('2026-03-02T09:50:00Z'), ended_at: null },
    ]);
    const person = await api.db.query<{ install_at: Date; revenue: string; last_session_at: Date }>(
      'SELECT p.install_at, p.revenue::text AS revenue, p.last_session_at FROM people p JOIN devices d ON d.app_id = p.app_id AND d.person_id = p.id WHERE d.app_id = $1 AND d.device_key = $2',
      [app.id, t.deviceId]);
    expect(person.rows).toMatchObject([{ install_at: new Date('2026-03-02T09:00:00Z'), last_session_at: new Date('2026-03-02T09:50:00Z') }]);
    expect(Number(person.rows[0]!.revenue)).toBe(4.99);
  });
});
