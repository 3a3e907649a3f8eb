/**
 * A breakdown backfill that fails for real, run by the real job runner on a queue of its own: the
 * app's time zone is one this Postgres does not know (as when Node's time zone data, which the API
 * checks names against, is newer than the database's), so the backfill's `AT TIME ZONE` fails on
 * every run. The name is written straight to the row, since the API refuses it. After max_attempts
 * runs the mark is `failed` with Postgres's error and the runner never claims it again; explore
 * keeps answering from the events table. A retry is refused without api:events.edit and on another
 * account's app, answers 10 for a property that is not marked, and by the owner (once the zone is
 * fixed) starts the backfill over, which makes the mark ready; retrying again changes nothing.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, type BreakdownMark } from '@gd/shared';
import { addMember, createTestApp, ingest, registerAccount, startTestApi, type TestApi, type TestClient } from '../../testing/harness.ts';
import { claimJob, wakeJobRunners } from '../../jobs/runner.ts';
import { breakdownBackfillJobKind } from './breakdowns.ts';

const QUEUE = `it-breakdown-failures-${randomBytes(4).toString('hex')}`;
const UNKNOWN_ZONE = 'Mars/Olympus_Mons';
const RANGE = { startDay: '2025-06-01', endDay: '2025-06-07' };

let api: TestApi;
let owner: Awaited<ReturnType<typeof registerAccount>>;
let app: { id: string; appKey: string };

const markOf = async (client: TestClient, property = 'plan'): Promise<BreakdownMark | undefined> => {
  const body = await client.ok<{ custom: { name: string; breakdowns: BreakdownMark[] }[] }>('listEventDefinitions', undefined, { appId: app.id });
  return body.custom.find((d) => d.name === 'purchase')?.breakdowns.find((b) => b.property === property);
};
const row = async () => (await api.deps.db.query<{ attempts: number; locked_by: string | null; error: string | null }>(
  'SELECT attempts, locked_by, error FROM event_breakdowns WHERE app_id = $1', [app.id])).rows[0]!;
const retry = (client: TestClient, property = 'plan') => client.call('retryEventBreakdown', { property }, { appId: app.id, eventName: 'purchase' });
const explorePlan = async () => (await owner.client.call('explore', undefined, { appId: app.id }, { event: 'purchase', breakdown: 'property', property: 'plan', ...RANGE })).body as {
  status: string; source: string; series: { key: string; total: number }[];
};

/** Wakes the runner until `done` holds (each check a round trip; bounded, never timed). */
async function until(done: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 400; i++) {
    wakeJobRunners();
    if (await done()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the condition never held');
}

beforeAll(async () => {
  api = await startTestApi({ JOB_QUEUE: QUEUE });
  owner = await registerAccount(api);
  app = await createTestApp(owner.client, { timezone: 'UTC' });
  const plans = ['pro', 'pro', 'free', undefined];
  const answer = await ingest(api, app.appKey, 'ingestBatch', {
    device: { id: randomUUID(), os: 'Android', country: 'ES' },
    events: plans.map((plan, i) => ({ id: randomUUID(), name: 'purchase', time: `2025-06-0${i + 2}T10:00:00Z`, properties: plan ? { plan } : {} })),
  });
  expect(answer.body).toMatchObject({ status: 'OK', rejected: [] });
});

afterAll(async () => {
  await api.stop();
});

describe('a breakdown backfill that keeps failing', () => {
  it('is failed with the reason after its last attempt, is never claimed again, and explore stays on the events table', async () => {
    expect((await owner.client.call('setEventBreakdowns', { properties: ['plan'] }, { appId: app.id, eventName: 'purchase' })).body).toMatchObject({ status: 'OK' });
    await api.deps.db.query('UPDATE apps SET timezone = $2 WHERE id = $1', [app.id, UNKNOWN_ZONE]);
    // The cut-over and the job's start moved to now instead of waiting for them.
    await api.deps.db.query('UPDATE event_breakdowns SET since = clock_timestamp(), run_at = now() WHERE app_id = $1', [app.id]);
    const { maxAttempts } = (await markOf(owner.client))!;
    expect(maxAttempts).toBe(5);
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      await until(async () => {
        const r = await row();
        return r.attempts === attempt && r.locked_by === null;
      });
      const mark = await markOf(owner.client);
      expect(mark).toMatchObject({ attempts: attempt, ready: false, state: attempt < maxAttempts ? 'counting' : 'failed' });
      expect(mark?.error).toContain(`time zone "${UNKNOWN_ZONE}" not recognized`);
      // The next attempt is due a minute later: made due now.
      if (attempt < maxAttempts) await api.deps.db.query('UPDATE event_breakdowns SET run_at = now() WHERE app_id = $1', [app.id]);
    }
    await api.deps.db.query("UPDATE apps SET timezone = 'UTC' WHERE id = $1", [app.id]);
    await api.deps.db.query('UPDATE event_breakdowns SET run_at = now() WHERE app_id = $1', [app.id]);
    // Due, the zone fixed, but no attempt left: nobody claims it.
    expect(await claimJob(api.deps.db, breakdownBackfillJobKind({ db: api.deps.db, log: pino({ level: 'silent' }) }), QUEUE, 'probe')).toBeUndefined();
    expect(await markOf(owner.client)).toMatchObject({ state: 'failed', attempts: maxAttempts });
    const explored = await explorePlan();
    expect(explored).toMatchObject({ status: 'OK', source: 'events' });
    expect(Object.fromEntries(explored.series.map((s) => [s.key, s.total]))).toEqual({ pro: 2, free: 1, __empty__: 1 });
  });

  it('refuses a retry without api:events.edit and on another account\'s app, and a property that is not marked', async () => {
    const analyst = await addMember(api, owner.client, 'analyst');
    expect((await analyst.call('listEventDefinitions', undefined, { appId: app.id })).body).toMatchObject({ status: 'OK' });
    expect((await retry(analyst)).body).toMatchObject({ status: 'KO', code: ErrorCode.NO_PERMISSION });
    const stranger = await registerAccount(api);
    expect((await retry(stranger.client)).body).toMatchObject({ status: 'KO', code: ErrorCode.NO_PERMISSION });
    expect((await retry(owner.client, 'color')).body).toMatchObject({ status: 'KO', code: ErrorCode.NOT_EXIST });
    expect((await owner.client.call('retryEventBreakdown', { property: '' }, { appId: app.id, eventName: 'purchase' })).body).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY });
    expect(await row()).toMatchObject({ attempts: 5 });
    expect(await markOf(owner.client)).toMatchObject({ state: 'failed' });
  });

  it('starts over on the owner\'s retry and becomes ready; a second retry changes nothing', async () => {
    const retried = await retry(owner.client);
    expect(retried.body).toMatchObject({ status: 'OK', definition: { name: 'purchase' } });
    const answered = (retried.body as unknown as { definition: { breakdowns: BreakdownMark[] } }).definition.breakdowns[0];
    expect(answered).toMatchObject({ property: 'plan', error: null });
    expect(answered?.state).not.toBe('failed');
    await until(async () => (await markOf(owner.client))?.state === 'ready');
    expect(await markOf(owner.client)).toEqual({ property: 'plan', ready: true, state: 'ready', attempts: 1, maxAttempts: 5, error: null });
    const explored = await explorePlan();
    expect(explored.source).toBe('propertyRollup');
    expect(Object.fromEntries(explored.series.map((s) => [s.key, s.total]))).toEqual({ pro: 2, free: 1, __empty__: 1 });

    const again = await retry(owner.client);
    expect(again.body).toMatchObject({ status: 'OK', definition: { breakdowns: [{ property: 'plan', state: 'ready', attempts: 1 }] } });
    expect(await row()).toMatchObject({ attempts: 1 });
  });
});
