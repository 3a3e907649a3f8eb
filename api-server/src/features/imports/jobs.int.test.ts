/**
 * Import jobs beyond files, and their durability: segment and performance-report imports, a failed
 * try that may pass retried with backoff (RecoverableTaskError meanwhile), a task whose worker died
 * taken over when its lease expired, one interrupted on every try failed as NoRecoverableTaskError,
 * and a task deleted while it runs leaving the audience's members as they were.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportConfig } from '@gd/shared';
import { claimJob } from '../../jobs/runner.ts';
import { storeStream } from '../../jobs/storedFiles.ts';
import { createTestApp, registerAccount, startTestApi, type TestApi, type TestClient } from '../../testing/harness.ts';
import { seeder, single } from '../segments/testing/data.ts';
import { insertTask } from './repository.ts';
import { importJobKind, runImport } from './run.ts';
import { allowList } from './netGuard.ts';
import { startHttpsServer, type HttpsFixture } from './testing/servers.ts';

interface Task { id: string; status: string; audienceId: string; personCount: number | null; errorName: string | null; errorMessage: string | null; attempts: number }

let api: TestApi;
let owner: TestClient;
let accountId: string;
let userId: string;
let appId: string;
let https: HttpsFixture;
let flaky = 0;
const people: Record<string, string> = {};
const p = (extra: Record<string, string> = {}) => ({ appId, ...extra });
const held = () => `held-${randomBytes(4).toString('hex')}`;

async function settled(id: string): Promise<Task> {
  for (let i = 0; i < 400; i++) {
    const { task } = await owner.ok<{ task: Task }>('getImportTask', undefined, p({ taskId: id }));
    if (task.status !== 'new' && task.status !== 'in_progress') return task;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`import ${id} did not finish`);
}

const members = async (audienceId: string) =>
  (await api.db.query<{ customer_id: string }>(
    `SELECT p.customer_id FROM audience_members m JOIN people p ON p.app_id = m.app_id AND p.id = m.person_id WHERE m.audience_id = $1 ORDER BY 1`, [audienceId],
  )).rows.map((r) => r.customer_id);

/** An import task on a queue no runner serves (the test runs it), into a fresh audience. */
async function heldTask(queue: string, config: ImportConfig, csv?: string): Promise<{ id: string; audienceId: string }> {
  const audienceId = await seeder(api.db, appId).audience(accountId, `Held ${randomBytes(3).toString('hex')}`, [people.ana!]);
  const id = randomUUID();
  await insertTask(api.db, { id, accountId, appId, audienceId, name: 'held', type: config.type, config, secret: null, hasUpload: csv !== undefined, queue, runNow: true, maxAttempts: 3, createdBy: userId });
  if (csv !== undefined) await storeStream(api.db, id, [Buffer.from(csv)], 1e6);
  return { id, audienceId };
}

const deps = () => ({ db: api.db, log: api.deps.log, secret: api.deps.secret, net: { allow: allowList('127.0.0.1'), extraCa: undefined as string | undefined }, retryBaseSeconds: 0 });
const ctx = (workerId: string) => ({ workerId, signal: new AbortController().signal, renew: () => Promise.resolve(true) });

beforeAll(async () => {
  https = await startHttpsServer({
    '/flaky.csv': (_req, res) => {
      flaky++;
      if (flaky === 1) res.writeHead(503).end('busy');
      else res.writeHead(200, { 'content-type': 'text/csv' }).end('customer_id\nben\n');
    },
  });
  api = await startTestApi({ JOB_QUEUE: `it-import-jobs-${randomBytes(4).toString('hex')}` });
  ({ client: owner, accountId, userId } = await registerAccount(api));
  appId = (await createTestApp(owner, { timezone: 'Europe/Madrid' })).id;
  await api.db.query(`SELECT gd_ensure_month_partitions('2026-01-01', '2026-12-31')`);
  const seed = seeder(api.db, appId);
  for (const [name, country] of [['ana', 'ES'], ['ben', 'ES'], ['cai', 'FR'], ['dan', 'FR']] as const) people[name] = await seed.person({ customer_id: name, country });
  // Europe/Madrid: 2026-03-01 starts at 2026-02-28T23:00Z; 2026-03-31 ends at 2026-03-31T22:00Z (summer time).
  await seed.interaction(people.ana!, 'push', 'impression', '2026-02-28T23:30:00Z', { message: 'm1' });
  await seed.interaction(people.ben!, 'push', 'impression', '2026-02-28T22:30:00Z', { message: 'm1' });
  await seed.interaction(people.cai!, 'inapp', 'impression', '2026-03-10T10:00:00Z', { message: 'm2' });
  await seed.interaction(people.dan!, 'push', 'click', '2026-03-10T10:00:00Z', { message: 'm1' });
  await seed.event(people.dan!, 'gd_transaction', '2026-03-11T10:00:00Z', {}, 20);
  await seed.interaction(people.ana!, 'push', 'click', '2026-03-12T10:00:00Z', { message: 'm1' });
  await seed.event(people.ana!, 'gd_transaction', '2026-03-11T10:00:00Z', {}, 20);
});

afterAll(async () => {
  await api?.stop();
  await https?.close();
});

describe('imports without a file', () => {
  it('materialises a segment into a new audience', async () => {
    const { task: created } = await owner.ok<{ task: Task }>('createImportTask', {
      name: 'Spanish people', source: { type: 'segment', config: single({ type: 'attribute', id: 'country', condition: 'equals', input: 'es' }) },
    }, p());
    const task = await settled(created.id);
    expect(task).toMatchObject({ status: 'ready', personCount: 2 });
    expect(await members(task.audienceId)).toEqual(['ana', 'ben']);
  });

  it('refuses a segment import of an empty segment as AudienceNotValid', async () => {
    const { task: created } = await owner.ok<{ task: Task }>('createImportTask', { name: 'Empty segment', source: { type: 'segment', config: { rootKey: 'root', nodes: [{ key: 'root', kind: 'group', combinator: 'and', children: [] }] } } }, p());
    expect(await settled(created.id)).toMatchObject({ status: 'error', errorName: 'AudienceNotValid' });
  });

  it('selects impacted people of the filtered messages in the app-time-zone date range', async () => {
    const { task: created } = await owner.ok<{ task: Task }>('createImportTask', {
      name: 'Impacted by m1', source: { type: 'performance_report', kpiType: 'impacts', filters: { messageIds: ['m1'] }, dateRange: { startDay: '2026-03-01', endDay: '2026-03-31', timeGroup: 'day' } },
    }, p());
    const task = await settled(created.id);
    expect(await members(task.audienceId)).toEqual(['ana']);
    const { task: all } = await owner.ok<{ task: Task }>('createImportTask', {
      name: 'Impacted', source: { type: 'performance_report', kpiType: 'impacts', dateRange: { startDay: '2026-03-01', endDay: '2026-03-31', timeGroup: 'day' } },
    }, p());
    expect(await members((await settled(all.id)).audienceId)).toEqual(['ana', 'cai']);
  });

  it('selects people who converted after interacting', async () => {
    const { task: created } = await owner.ok<{ task: Task }>('createImportTask', {
      name: 'Converted', source: { type: 'performance_report', kpiType: 'conversions', filters: { channels: ['push'] }, dateRange: { startDay: '2026-03-01', endDay: '2026-03-31', timeGroup: 'day' } },
    }, p());
    // dan clicked, then bought; ana's impression (just after midnight on 1 March, Madrid time) came
    // before her purchase; ben's impression was on 28 February (local); cai's was in-app.
    expect(await members((await settled(created.id)).audienceId)).toEqual(['ana', 'dan']);
  });
});

describe('durability', () => {
  it('retries a failed try that may pass, recording RecoverableTaskError meanwhile', async () => {
    const queue = held();
    const { id, audienceId } = await heldTask(queue, { type: 'https', httpsIdType: 'customerId', httpsFileUrl: `${https.url}/flaky.csv` });
    const kind = importJobKind(deps());
    const net = { ...deps(), net: { allow: allowList('127.0.0.1'), extraCa: readFileSync(https.caFile, 'utf8') } };
    const first = await claimJob(api.db, kind, queue, 'w1');
    await runImport(net, first!, ctx('w1'));
    const waiting = (await owner.ok<{ task: Task }>('getImportTask', undefined, p({ taskId: id }))).task;
    expect(waiting).toMatchObject({ status: 'in_progress', errorName: 'RecoverableTaskError', attempts: 1 });
    expect(waiting.errorMessage).toContain('HTTP 503');
    expect(await members(audienceId)).toEqual(['ana']);
    const second = await claimJob(api.db, kind, queue, 'w1');
    expect(second).toMatchObject({ id, attempts: 2 });
    await runImport(net, second!, ctx('w1'));
    expect(await settled(id)).toMatchObject({ status: 'ready', errorName: null, personCount: 1, attempts: 2 });
    expect(await members(audienceId)).toEqual(['ben']);
  });

  it('takes over a task whose worker died (expired lease) and runs it from the start', async () => {
    const queue = held();
    const { id, audienceId } = await heldTask(queue, { type: 'csv' }, 'customer_id\ncai\ndan\n');
    await api.db.query(`UPDATE import_tasks SET status = 'in_progress', attempts = 1, locked_by = 'dead-worker', locked_until = now() + interval '1 hour' WHERE id = $1`, [id]);
    // What the dead run had read: cleared, not imported.
    await api.db.query(`INSERT INTO import_rows (task_id, n, ident) VALUES ($1, 1, 'ben')`, [id]);
    const kind = importJobKind(deps());
    expect(await claimJob(api.db, kind, queue, 'w2')).toBeUndefined();
    await api.db.query(`UPDATE import_tasks SET locked_until = now() - interval '1 second' WHERE id = $1`, [id]);
    const job = await claimJob(api.db, kind, queue, 'w2');
    expect(job).toMatchObject({ id, attempts: 2 });
    await runImport(deps(), job!, ctx('w2'));
    expect(await settled(id)).toMatchObject({ status: 'ready', personCount: 2 });
    expect(await members(audienceId)).toEqual(['cai', 'dan']);
  });

  it('fails a task interrupted on every try as NoRecoverableTaskError, keeping the members', async () => {
    const queue = held();
    const { id, audienceId } = await heldTask(queue, { type: 'csv' }, 'customer_id\ncai\n');
    await api.db.query(`UPDATE import_tasks SET status = 'in_progress', attempts = 3, locked_by = 'dead-worker', locked_until = now() - interval '1 second' WHERE id = $1`, [id]);
    const job = await claimJob(api.db, importJobKind(deps()), queue, 'w3');
    await runImport(deps(), job!, ctx('w3'));
    expect(await settled(id)).toMatchObject({ status: 'error', errorName: 'NoRecoverableTaskError' });
    expect(await members(audienceId)).toEqual(['ana']);
  });

  it('stops a task deleted while it runs; the audience keeps its members and state', async () => {
    const queue = held();
    const { id, audienceId } = await heldTask(queue, { type: 'csv' }, `customer_id\n${'ben\n'.repeat(30)}`);
    const job = await claimJob(api.db, importJobKind(deps()), queue, 'w4');
    // The task is deleted (as DELETE /import-tasks/:id does) just before the run stages its first batch.
    let deleted = false;
    const db = new Proxy(api.db, {
      get(target, prop, receiver) {
        if (prop !== 'query') return Reflect.get(target, prop, receiver) as unknown;
        return async (text: unknown, values?: unknown[]) => {
          if (!deleted && typeof text === 'string' && text.includes('INSERT INTO import_rows')) {
            deleted = true;
            await target.query('DELETE FROM import_tasks WHERE id = $1', [id]);
          }
          return target.query(text as string, values);
        };
      },
    });
    await runImport({ ...deps(), db, batchRows: 10 }, job!, ctx('w4'));
    expect(deleted).toBe(true);
    expect(await members(audienceId)).toEqual(['ana']);
    const audience = (await api.db.query<{ status: string }>('SELECT status FROM audiences WHERE id = $1', [audienceId])).rows[0];
    expect(audience?.status).toBe('ready');
    expect((await api.db.query('SELECT 1 FROM import_rows WHERE task_id = $1', [id])).rowCount).toBe(0);
  });
});
