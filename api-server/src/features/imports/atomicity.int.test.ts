/**
 * An import is all or nothing even after whole batches were staged (issue 11, item 22): a file of
 * more than one batch (10,000 rows) of good identifiers that breaks further down fails with
 * CsvSyntaxError naming its line, and leaves no trace of the batches staged before the break: the
 * audience keeps its members, no staged row stays, people and tags are as they were.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerAccount, startTestApi, type TestApi, type TestClient } from '../../testing/harness.ts';
import { seeder } from '../segments/testing/data.ts';

interface Task {
  id: string; status: string; audienceId: string | null; personCount: number | null; errorName: string | null; errorMessage: string | null; errorLine: number | null;
  progress: { rowsRead: number; rowsMatched: number };
}

const PEOPLE = 12_000;
const id = (n: number) => `p-${String(n).padStart(5, '0')}`;

let api: TestApi;
let owner: TestClient;
let appId: string;

beforeAll(async () => {
  api = await startTestApi({ JOB_QUEUE: `it-import-atomic-${randomBytes(4).toString('hex')}` });
  ({ client: owner } = await registerAccount(api));
  appId = (await createTestApp(owner)).id;
  await api.db.query(`INSERT INTO people (app_id, customer_id) SELECT $1, 'p-' || lpad(n::text, 5, '0') FROM generate_series(1, $2::int) AS n`, [appId, PEOPLE]);
  const vip = await seeder(api.db, appId).tag('vip', 'text');
  const first = (await api.db.query<{ id: string }>('SELECT id::text FROM people WHERE app_id = $1 ORDER BY id LIMIT 1', [appId])).rows[0]!.id;
  await seeder(api.db, appId).tagValue(first, vip, { text: 'yes' }, new Date().toISOString());
});
afterAll(async () => {
  await api?.stop();
});

async function settled(taskId: string): Promise<Task> {
  for (let i = 0; i < 1200; i++) {
    const { task } = await owner.ok<{ task: Task }>('getImportTask', undefined, { appId, taskId });
    if (task.status !== 'new' && task.status !== 'in_progress') return task;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`import ${taskId} did not finish`);
}

/** Creates an import waiting for its file, uploads `csv`, and waits for the end. */
async function importFile(name: string, csv: string, audienceId?: string): Promise<Task> {
  const { task } = await owner.ok<{ task: Task }>('createImportTask', { name, awaitUpload: true, ...(audienceId ? { audienceId } : {}), source: { type: 'csv_dynamic', csvIdType: 'customerId' } }, { appId });
  const res = await fetch(`${api.url}/api/apps/${appId}/import-tasks/${task.id}/upload`, {
    method: 'POST', body: csv,
    headers: { 'content-type': 'text/csv', cookie: [...owner.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'x-csrf-token': owner.cookies.get('gd_csrf') ?? '' },
  });
  expect(((await res.json()) as { status: string }).status).toBe('OK');
  return settled(task.id);
}

/** What an import could have touched, counted. */
async function footprint(audienceId: string) {
  const { rows } = await api.db.query<Record<string, number>>(
    `SELECT (SELECT count(*) FROM people WHERE app_id = $1)::int AS people,
            (SELECT count(*) FROM tags WHERE app_id = $1)::int AS tags,
            (SELECT count(*) FROM person_tags WHERE app_id = $1)::int AS person_tags,
            (SELECT count(*) FROM audience_members WHERE audience_id = $2)::int AS members,
            (SELECT count(*) FROM import_rows r JOIN import_tasks t ON t.id = r.task_id WHERE t.app_id = $1)::int AS staged`,
    [appId, audienceId],
  );
  const members = (await api.db.query<{ customer_id: string }>(
    'SELECT p.customer_id FROM audience_members m JOIN people p ON p.app_id = m.app_id AND p.id = m.person_id WHERE m.audience_id = $1 ORDER BY 1', [audienceId],
  )).rows.map((r) => r.customer_id);
  return { ...rows[0], memberIds: members };
}

describe('import atomicity after staged batches', () => {
  it('fails a file that breaks after the first 10,000 rows with CsvSyntaxError and its line, keeping nothing of the staged batches', async () => {
    const first = await importFile('Before', `customerId\n${[1, 2, 3, 4, 5].map(id).join('\n')}\n`);
    expect(first).toMatchObject({ status: 'ready', personCount: 5 });
    const audienceId = first.audienceId!;
    const before = await footprint(audienceId);
    expect(before).toMatchObject({ people: PEOPLE, tags: 1, person_tags: 1, members: 5, staged: 0 });

    // 12,000 good rows of ~200 bytes (every one a known person), then a row with a field too many
    // on line 12,002. The file is read in 1 MiB chunks (jobs/storedFiles.ts): row 10,000 ends in
    // the second chunk and the bad row is in the third, so the first batch of 10,000 is staged
    // (and its progress written) before the parser reaches the break.
    const good = Array.from({ length: PEOPLE }, (_, i) => `${id(i + 1)},${'x'.repeat(190)}`);
    const csv = `customerId,plan\n${good.join('\n')}\n${id(1)},x,extra\n${id(2)},x\n`;
    expect(csv.indexOf(id(10_001))).toBeLessThan(2 * 1024 * 1024);
    expect(csv.indexOf(',x,extra')).toBeGreaterThan(2 * 1024 * 1024);
    const task = await importFile('Broken after a batch', csv, audienceId);

    expect(task).toMatchObject({ status: 'error', errorName: 'CsvSyntaxError', errorLine: PEOPLE + 2, personCount: null });
    expect(task.errorMessage).toContain(`line ${PEOPLE + 2}`);
    // A whole batch was read and staged before the break.
    expect(task.progress.rowsRead).toBe(10_000);
    expect(await footprint(audienceId)).toEqual(before);
    expect((await owner.ok<{ audience: { personCount: number; errorName: string } }>('getAudience', undefined, { appId, audienceId })).audience)
      .toMatchObject({ personCount: 5, errorName: 'CsvSyntaxError' });
  });
});
