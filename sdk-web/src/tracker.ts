/**
 * createTracker: the queue, its persistence, the sending loop and the built-in events.
 *
 * Sending: one request in flight at a time, head of the queue first. A batch leaves when
 * `flushAt` items are queued, every `flushIntervalMs`, on flush(), and when the page is hidden or
 * left (then with fetch keepalive and at most KEEPALIVE_BYTES, so the browser lets it outlive the
 * page). What a failure does is in transport.ts; a retry waits per backoff.ts, and nothing else
 * sends meanwhile (the timer, flushAt and page events wait for it), except coming back online.
 * Items leave the queue only when the API has answered for them.
 */
import type { IngestEvent, IngestInteraction, RejectedItem } from '@gd/shared';
import { DEFAULT_BACKOFF, backoffDelay } from './backoff.ts';
import { detectDevice, pageCampaign, uuid } from './device.ts';
import { EVENT_PREFIX, SCREEN_EVENT, eventNameProblem } from './names.ts';
import { batchBody, mergeQueues, nextRequest, parseQueue, serializeQueue, trimQueue, type NextRequest, type QueueItem } from './queue.ts';
import { SESSION_TIMEOUT_MS, expireSession, parseSession, touchSession, type SessionState } from './session.ts';
import { browserStorage, memoryStorage, storageKeys } from './storage.ts';
import { INVALID_CODE, post, type Outcome } from './transport.ts';
import type { EventExtras, InteractionRefs, Properties, Rejection, Tracker, TrackerOptions } from './types.ts';
import { messagesApi } from './inapp/index.ts';
import { webPushApi } from './push.ts';
import { deferredApi, landingClick } from './deferred.ts';

/** Browsers allow 64 KiB of keepalive request bodies in flight per page. */
export const KEEPALIVE_BYTES = 60_000;
const INSTALL = `${EVENT_PREFIX}install`, START = `${EVENT_PREFIX}start_session`, END = `${EVENT_PREFIX}end_session`;

const unref = (timer: unknown) => (timer as { unref?: () => void }).unref?.();

function epochOf(value: Date | string | number | undefined, now: () => number): number | null {
  const t = value === undefined ? now() : value instanceof Date ? value.getTime() : typeof value === 'string' ? Date.parse(value) : value;
  return Number.isFinite(t) ? t : null;
}

function rejectionsOf(request: NextRequest, body: Record<string, unknown>): Rejection[] {
  const of = (kind: 'event' | 'interaction', list: unknown): Rejection[] => {
    const items = request.items.filter((i) => i.kind === kind);
    return (Array.isArray(list) ? list as RejectedItem[] : []).map((r) => {
      const item = items[r.index];
      return { kind, id: r.id ?? item?.id ?? null, ...(item?.kind === 'event' ? { name: item.body.name } : {}), code: r.code, reason: r.reason };
    });
  };
  if (request.kind === 'batch') return [...of('event', body.rejected), ...of('interaction', (body.interactions as { rejected?: unknown } | undefined)?.rejected)];
  const tags = (body.tags as { rejected?: { name: string; reason: string }[] } | undefined)?.rejected ?? [];
  return tags.map((t) => ({ kind: 'tag', id: t.name, code: INVALID_CODE, reason: t.reason }));
}

export function createTracker(options: TrackerOptions): Tracker {
  const { appKey } = options;
  if (!appKey || !options.endpoint) throw new Error('Growthdeck: appKey and endpoint are required');
  const base = options.endpoint.replace(/\/+$/, '');
  const fetcher = options.fetch ?? globalThis.fetch.bind(globalThis);
  const flushAt = Math.max(1, options.flushAt ?? 20);
  const maxBatch = Math.min(500, Math.max(1, options.maxBatch ?? 100));
  const maxQueue = Math.max(1, options.maxQueue ?? 10_000);
  const autoTrack = options.autoTrack ?? true;
  const sessionTimeout = options.sessionTimeoutMs ?? SESSION_TIMEOUT_MS;
  const backoff = { baseMs: options.retryBaseMs ?? DEFAULT_BACKOFF.baseMs, capMs: options.retryCapMs ?? DEFAULT_BACKOFF.capMs };
  const now = options.now ?? Date.now;
  const storage = options.storage ?? browserStorage() ?? memoryStorage();
  const keys = storageKeys(appKey);

  const safely = <T>(fn: ((arg: T) => void) | undefined, arg: T) => {
    try { fn?.(arg); } catch (error) { console.error('Growthdeck: callback failed', error); }
  };
  const report = (rejected: Rejection[]) => {
    if (!rejected.length) return;
    console.warn('Growthdeck: refused', rejected);
    safely(options.onRejected, rejected);
  };
  const read = (key: string): string | null => {
    try { return storage.getItem(key); } catch { return null; }
  };
  const write = (key: string, value: string): boolean => {
    try { storage.setItem(key, value); return true; } catch { return false; }
  };

  // ---- the queue and its storage
  let queue: QueueItem[] = parseQueue(read(keys.queue));
  /** Ids this page removed (sent or dropped) since its last write: not to be merged back. */
  let removed = new Set<string>();
  let dropped = 0;
  let persistQueued = false;

  const drop = (items: readonly QueueItem[]) => {
    if (!items.length) return;
    const ids = new Set(items.map((i) => i.id));
    queue = queue.filter((i) => !ids.has(i.id));
    dropped += items.length;
  };

  /** Writes the queue: merged with other tabs', trimmed to maxQueue; over the quota, the oldest quarter goes. */
  function persist(): void {
    persistQueued = false;
    const merged = trimQueue(mergeQueues(parseQueue(read(keys.queue)), queue, removed), maxQueue);
    drop(merged.dropped);
    let items = merged.items;
    while (!write(keys.queue, serializeQueue(items)) && items.length) {
      const cut = Math.ceil(items.length / 4);
      drop(items.slice(0, cut));
      items = items.slice(cut);
    }
    removed = new Set();
  }
  const schedulePersist = () => {
    if (persistQueued) return;
    persistQueued = true;
    queueMicrotask(persist);
  };

  function enqueue(item: QueueItem): void {
    queue.push(item);
    if (queue.length > maxQueue) {
      const trimmed = trimQueue(queue, maxQueue);
      for (const item of trimmed.dropped) removed.add(item.id);
      drop(trimmed.dropped);
    }
    schedulePersist();
    if (queue.length >= flushAt) void flush();
  }

  function acknowledge(items: readonly QueueItem[]): void {
    const ids = new Set(items.map((i) => i.id));
    queue = queue.filter((i) => !ids.has(i.id));
    for (const id of ids) removed.add(id);
    schedulePersist();
  }

  // ---- device and session
  let deviceId = read(keys.device) ?? '';
  const firstRun = deviceId.length < 8;
  if (firstRun) {
    deviceId = uuid();
    write(keys.device, deviceId);
  }
  const device = { ...detectDevice(), ...options.deviceContext, id: deviceId };

  const loadSession = () => parseSession(read(keys.session));
  const saveSession = (state: SessionState | null) => state && write(keys.session, JSON.stringify(state));

  function addEvent(name: string, at: number, properties?: Properties, extras?: EventExtras, sessionId?: string, id = uuid()): string {
    const body: IngestEvent = {
      id, name, time: new Date(at).toISOString(), properties,
      revenue: extras?.revenue, currency: extras?.currency, source: extras?.source, campaign: extras?.campaign, sessionId,
    };
    enqueue({ kind: 'event', id, body });
    return id;
  }
  /** The id of a session's end is derived from the session, so two tabs ending it make one event. */
  const addEnd = (end: { id: string; at: number }) => addEvent(END, end.at, undefined, undefined, end.id, `end:${end.id}`);

  /** Activity at `at`: keeps the session alive or rolls it over; answers the session id. */
  function activity(at: number): string | undefined {
    if (!autoTrack) return undefined;
    const change = touchSession(loadSession(), at, uuid, sessionTimeout);
    saveSession(change.state);
    if (change.end) addEnd(change.end);
    if (change.start) addEvent(START, change.start.at, undefined, undefined, change.start.id);
    return change.state.id;
  }

  // ---- sending
  let inFlight: Promise<void> | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let retryAfterAsked = false;
  let attempt = 0;
  let limit = maxBatch;
  let stopped = false;
  let closed = false;

  function flush(keepalive = false): Promise<void> {
    if (stopped || retryTimer !== null) return inFlight ?? Promise.resolve();
    inFlight ??= drain(keepalive).finally(() => { inFlight = null; });
    return inFlight;
  }

  async function drain(keepalive: boolean): Promise<void> {
    while (!stopped) {
      const request = nextRequest(queue, limit, keepalive ? KEEPALIVE_BYTES : Infinity);
      if (!request) return;
      const body = request.kind === 'batch' ? batchBody(device, request.items) : { device, ...request.items[0].body };
      const outcome = await post(fetcher, `${base}/ingest/v1/${request.kind}`, appKey, body, keepalive);
      keepalive = false;
      if (!apply(request, outcome)) return;
    }
  }

  /** Applies an answer to the queue; answers whether to send the next request now. */
  function apply(request: NextRequest, outcome: Outcome): boolean {
    if (outcome.type === 'ok') {
      attempt = 0;
      acknowledge(request.items);
      report(rejectionsOf(request, outcome.body));
      return true;
    }
    if (outcome.type === 'retry') {
      scheduleRetry(outcome.retryAfterMs);
      return false;
    }
    if (outcome.type === 'tooLarge' && request.items.length > 1) {
      limit = Math.max(1, Math.floor(request.items.length / 2));
      return true;
    }
    if (outcome.type === 'tooLarge' || (outcome.type === 'invalid' && request.kind !== 'batch')) {
      // This item alone can never be accepted: it leaves the queue, reported.
      acknowledge(request.items);
      const [item] = request.items;
      report([{ kind: item.kind, id: item.id, ...(item.kind === 'event' ? { name: item.body.name } : {}), code: INVALID_CODE, reason: outcome.type === 'tooLarge' ? 'Too large' : outcome.message }]);
      return true;
    }
    // The whole request is refused (an unknown app key, an invalid device context): every later
    // request would be too. Stop sending and keep the queue for a page that is set up right.
    stopped = true;
    safely(options.onError ?? ((e) => console.warn(`Growthdeck: sending stopped (${e.code ?? e.status}): ${e.message}`)), { status: outcome.status, code: outcome.code, message: outcome.message });
    return false;
  }

  function scheduleRetry(retryAfterMs: number | null): void {
    if (closed) return;
    attempt += 1;
    retryAfterAsked = retryAfterMs !== null;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      void flush();
    }, backoffDelay(attempt, backoff, retryAfterMs));
    unref(retryTimer);
  }

  // ---- timers and page events
  function tick(): void {
    if (autoTrack) {
      const expired = expireSession(loadSession(), now(), sessionTimeout);
      if (expired.end) {
        saveSession(expired.state);
        addEnd(expired.end);
      }
    }
    if (queue.length) void flush();
  }
  const interval = setInterval(tick, Math.max(100, options.flushIntervalMs ?? 5000));
  unref(interval);

  const win = typeof window === 'undefined' || typeof document === 'undefined' ? null : window;
  const leave = () => {
    persist();
    if (queue.length) void flush(true);
  };
  const onVisibility = () => {
    if (document.visibilityState === 'hidden') leave();
    else activity(now());
  };
  const onOnline = () => {
    if (retryTimer === null || retryAfterAsked) return;
    clearTimeout(retryTimer);
    retryTimer = null;
    void flush();
  };
  win?.document.addEventListener('visibilitychange', onVisibility);
  win?.addEventListener('pagehide', leave);
  win?.addEventListener('online', onOnline);

  // ---- start: the first run's install, the session, and what a previous page left
  // The install carries the click of the landing address, if any (deferred.ts).
  if (autoTrack && firstRun) addEvent(INSTALL, now(), landingClick(), pageCampaign());
  activity(now());
  if (queue.length) void flush();

  const refuse = (rejection: Rejection): null => {
    report([rejection]);
    return null;
  };
  const isClosed = () => {
    if (closed) console.warn('Growthdeck: the tracker was shut down');
    return closed;
  };

  /** The storage under this app key's prefix, for the message and web push calls ('' is no value). */
  const store = { get: (key: string) => read(`gd:${appKey}:${key}`) || null, set: (key: string, value: string) => void write(`gd:${appKey}:${key}`, value) };
  const messages = messagesApi({
    calls: { base, appKey, fetcher }, deviceId, flush: () => flush(), leaving: leave, doc: win?.document ?? null, store,
    interaction: (channel, kind, refs) => void tracker.interaction(channel, kind, refs),
  });

  const tracker: Tracker = {
    get deviceId() { return deviceId; },
    get sessionId() {
      const state = loadSession();
      return autoTrack && state?.open ? state.id : null;
    },
    get queued() { return queue.length; },
    get dropped() { return dropped; },

    track(name, properties, extras) {
      if (isClosed()) return null;
      const problem = eventNameProblem(name);
      if (problem) {
        return refuse({
          kind: 'event', id: null, name, code: INVALID_CODE,
          reason: problem === 'pattern' ? 'A name starts with a letter and has up to 64 letters, digits or _ . : -' : `The ${EVENT_PREFIX} prefix is kept for built-in events`,
        });
      }
      const at = epochOf(extras?.time, now);
      if (at === null) return refuse({ kind: 'event', id: null, name, code: INVALID_CODE, reason: 'Invalid time' });
      return addEvent(name, at, properties, extras, activity(at));
    },
    screen(name, properties) {
      return tracker.track(SCREEN_EVENT, { ...properties, screen: name });
    },
    transaction(revenue, currency, properties) {
      return tracker.track(`${EVENT_PREFIX}transaction`, properties, { revenue, currency });
    },
    identify(customerId, profile) {
      const id = customerId.trim();
      if (isClosed()) return;
      if (!id || id.length > 128) return void refuse({ kind: 'identify', id: null, code: INVALID_CODE, reason: 'A customer id has 1 to 128 characters' });
      enqueue({ kind: 'identify', id: uuid(), body: { customerId: id, profile } });
    },
    setProfile(profile, tags) {
      if (isClosed()) return;
      enqueue({ kind: 'profile', id: uuid(), body: { profile, tags } });
    },
    interaction(channel, kind, refs?: InteractionRefs) {
      const at = epochOf(refs?.time, now);
      if (isClosed()) return null;
      if (at === null) return refuse({ kind: 'interaction', id: null, code: INVALID_CODE, reason: 'Invalid time' });
      activity(at);
      const id = uuid();
      const body: IngestInteraction = { id, time: new Date(at).toISOString(), channel, kind, campaignId: refs?.campaignId, messageId: refs?.messageId, variantId: refs?.variantId, journeyId: refs?.journeyId };
      enqueue({ kind: 'interaction', id, body });
      return id;
    },
    ...webPushApi({ base, appKey, device, fetcher, store }, win?.document ?? null),
    ...messages.api,
    ...deferredApi({ base, appKey, fetcher, deviceId, firstRun, flush: () => flush(), store }),
    flush: () => flush(),
    async shutdown() {
      if (closed) return;
      closed = true;
      // What the page shows stops reporting: the renderer goes with the tracker.
      messages.close();
      clearInterval(interval);
      win?.document.removeEventListener('visibilitychange', onVisibility);
      win?.removeEventListener('pagehide', leave);
      win?.removeEventListener('online', onOnline);
      await inFlight;
      if (retryTimer !== null) {
        // One last attempt now, as the page or process goes away; what fails stays stored.
        clearTimeout(retryTimer);
        retryTimer = null;
      }
      await flush();
      persist();
    },
  };
  if (options.inApp && win) tracker.inApp().catch((error: unknown) => console.warn('Growthdeck: in-app messages failed', error));
  return tracker;
}
