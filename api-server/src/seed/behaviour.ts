/**
 * Behaviour activity sent through the real ingestion API (HTTP, app key), as apps' SDKs would: the
 * demo apps of `npm start` get a few weeks of generated activity, and tests use the same sender.
 *
 * Each person's requests go in order (a device sends its batches one after another, and identifies
 * after signing in); people go in parallel. A 429 waits for Retry-After, a 503 or a dropped
 * connection is retried with a short backoff: event ids are fixed, so a resent batch is stored
 * once. A refused event is a generator bug and stops the run.
 *
 * Demo decision: the demo apps are seeded only while they have no events at all, in the
 * background after the server listens (the app is usable at once; screens fill in as it goes). An
 * interrupted run is not resumed: its window ends at the moment it started. Delete `.data/` (or
 * the demo apps' events) to seed again.
 */
import type { Logger } from 'pino';
import { endpoints } from '@gd/shared';
import type { Db } from '../db/pool.ts';
import { demoEmail } from './demo.ts';
import { addDays, generatePeople, localDayFormatter, type AppOs, type GeneratedPerson, type GeneratorConfig } from './generator/index.ts';
import { seedRetargeting } from './retargeting.ts';

export interface IngestTarget { url: string; appKey: string; signal?: AbortSignal }

export interface SendStats { people: number; requests: number; events: number; accepted: number; duplicates: number; retries: number }
export const emptyStats = (): SendStats => ({ people: 0, requests: 0, events: 0, accepted: 0, duplicates: 0, retries: 0 });

const PATHS = { batch: `/api${endpoints.ingestBatch.path}`, identify: `/api${endpoints.ingestIdentify.path}`, profile: `/api${endpoints.ingestProfile.path}` } as const;
const MAX_ATTEMPTS = 8;
const sleep = (ms: number, signal?: AbortSignal) => new Promise<void>((resolve) => {
  const timer = setTimeout(resolve, ms);
  signal?.addEventListener('abort', () => { clearTimeout(timer); resolve(); }, { once: true });
});

interface BatchAnswer { status: 'OK' | 'KO'; message?: string; accepted?: string[]; duplicates?: string[]; rejected?: { id: string | null; reason: string }[] }

async function post(target: IngestTarget, path: string, body: unknown, stats: SendStats): Promise<BatchAnswer> {
  const payload = JSON.stringify(body);
  for (let attempt = 1; ; attempt++) {
    target.signal?.throwIfAborted();
    let status = 0;
    let answer: BatchAnswer | null = null;
    let wait = 100 * 2 ** attempt;
    try {
      const res = await fetch(`${target.url}${path}`, {
        method: 'POST', headers: { 'content-type': 'application/json', 'x-app-key': target.appKey }, body: payload, signal: target.signal,
      });
      status = res.status;
      answer = (await res.json()) as BatchAnswer;
      if (status === 429) wait = Number(res.headers.get('retry-after') ?? 1) * 1000;
    } catch (error) {
      if (target.signal?.aborted || attempt >= MAX_ATTEMPTS) throw error;
    }
    if (answer && status !== 429 && status !== 503) {
      if (answer.status !== 'OK') throw new Error(`${path} answered ${status}: ${answer.message ?? JSON.stringify(answer)}`);
      return answer;
    }
    if (attempt >= MAX_ATTEMPTS) throw new Error(`${path} still answered ${status} after ${attempt} attempts`);
    stats.retries++;
    await sleep(wait, target.signal);
  }
}

/** Sends one person's requests in order; throws if any event is refused. */
export async function sendPerson(target: IngestTarget, person: GeneratedPerson, stats: SendStats = emptyStats()): Promise<SendStats> {
  for (const request of person.requests) {
    stats.requests++;
    if (request.kind !== 'batch') {
      await post(target, PATHS[request.kind], request.body, stats);
      continue;
    }
    const answer = await post(target, PATHS.batch, request.body, stats);
    const rejected = answer.rejected ?? [];
    if (rejected.length) throw new Error(`ingestion refused ${rejected.length} generated events, first: ${rejected[0]?.id}: ${rejected[0]?.reason}`);
    stats.events += request.body.events.length;
    stats.accepted += answer.accepted?.length ?? 0;
    stats.duplicates += answer.duplicates?.length ?? 0;
  }
  stats.people++;
  return stats;
}

/** Sends people with `concurrency` of them in flight; `progress` is called after each person. */
export async function sendPeople(
  target: IngestTarget, people: Iterable<GeneratedPerson>,
  options: { concurrency?: number; progress?: (stats: SendStats) => void } = {},
): Promise<SendStats> {
  const stats = emptyStats();
  const queue = people[Symbol.iterator]();
  const worker = async () => {
    for (let next = queue.next(); !next.done; next = queue.next()) {
      await sendPerson(target, next.value, stats);
      options.progress?.(stats);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 4 }, worker));
  return stats;
}

/** People per demo app: about four weeks of a small shop's activity (~55 events per person). */
export const DEMO_ACTIVITY = { people: 1200, days: 28 } as const;

interface DemoApp { id: string; name: string; appKey: string; os: string; timezone: string }

/** The demo account's apps that have no events yet. */
async function appsToSeed(db: Db): Promise<DemoApp[]> {
  const { rows } = await db.query<DemoApp>(
    `SELECT a.id, a.name, a.app_key AS "appKey", a.os, a.timezone FROM apps a JOIN users u ON u.account_id = a.account_id
      WHERE u.email = $1 AND a.os IN ('iOS', 'Android')
        AND NOT EXISTS (SELECT 1 FROM events e WHERE e.app_id = a.id) ORDER BY a.created_at, a.name`,
    [demoEmail('client')],
  );
  return rows;
}

export function demoConfig(app: { os: string; timezone: string }, index: number, now: number): GeneratorConfig {
  return {
    seed: 2026 + index, people: DEMO_ACTIVITY.people, days: DEMO_ACTIVITY.days,
    endDate: localDayFormatter(app.timezone)(now), timezone: app.timezone, appOs: app.os as AppOs, now,
  };
}

/**
 * Seeds the demo apps' activity through `url` (this server's own ingestion API). Prints a line
 * at the start, every 20% and at the end, since `npm start` shows warnings only in its log.
 */
export async function seedDemoActivity(db: Db, url: string, log: Logger, signal?: AbortSignal, say: (line: string) => void = console.log): Promise<void> {
  const apps = await appsToSeed(db);
  const now = Date.now();
  for (const [index, app] of apps.entries()) {
    const config = demoConfig(app, index, now);
    const started = performance.now();
    say(`  Demo activity: sending ${config.people} people's last ${config.days} days to "${app.name}" (${addDays(config.endDate, 1 - config.days)} to ${config.endDate})…`);
    let shown = 0;
    const stats = await sendPeople({ url, appKey: app.appKey, signal }, generatePeople(config), {
      progress: (s) => {
        const share = Math.floor((s.people / config.people) * 5);
        if (share > shown && share < 5) {
          shown = share;
          say(`  Demo activity: "${app.name}" ${share * 20}% (${s.events.toLocaleString('en')} events)`);
        }
      },
    });
    // Retargeting needs people who installed days ago: it follows the app's activity.
    const target = { url, appKey: app.appKey, ...(signal ? { signal } : {}) };
    const retargeting = await seedRetargeting(db, (body) => post(target, PATHS.batch, body, stats), app, now);
    const seconds = (performance.now() - started) / 1000;
    log.info({ app: app.id, ...stats, retargetingOpens: retargeting.opens, seconds }, 'demo activity seeded');
    say(`  Demo activity: "${app.name}" done, ${stats.events.toLocaleString('en')} events of ${stats.people} people in ${seconds.toFixed(0)} s`);
  }
}

/** Starts `seedDemoActivity` in the background; `stop` aborts it and waits for it to settle. */
export function startDemoActivity(db: Db, url: string, log: Logger): { stop(): Promise<void> } {
  const abort = new AbortController();
  const running = seedDemoActivity(db, url, log, abort.signal).catch((error: unknown) => {
    if (!abort.signal.aborted) log.error({ err: error }, 'demo activity could not be seeded');
  });
  return {
    async stop() {
      abort.abort();
      await running;
    },
  };
}
