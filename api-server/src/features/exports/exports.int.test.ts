/**
 * Audience exports through the real API and worker: CSV and zip files with every member (person
 * id, customer id, e-mail, device id), RFC 4180 quoting and formula-injection prefixes, statuses
 * ready / warning / error, the download's permission, and deletion.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unzipSync } from 'fflate';
import { ErrorCode, EXPORT_COLUMNS } from '@gd/shared';
import { addMember, createTestApp, registerAccount, startTestApi, type TestApi, type TestClient } from '../../testing/harness.ts';
import { claimJob } from '../../jobs/runner.ts';
import { seeder } from '../segments/testing/data.ts';
import { insertExport } from './repository.ts';
import { exportJobKind, runExport } from './run.ts';

interface Export { id: string; status: string; rowCount: number | null; expectedCount: number | null; warning: string | null; errorMessage: string | null; fileName: string | null; byteSize: number | null }

let api: TestApi;
let owner: TestClient;
let accountId: string;
let appId: string;
let audienceId: string;
const ids: string[] = [];
const p = (extra: Record<string, string> = {}) => ({ appId, ...extra });

async function settled(id: string): Promise<Export> {
  for (let i = 0; i < 400; i++) {
    const { exports } = await owner.ok<{ exports: Export[] }>('listAudienceExports', undefined, p());
    const found = exports.find((e) => e.id === id);
    if (found && found.status !== 'processing') return found;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`export ${id} did not finish`);
}

async function download(client: TestClient, id: string): Promise<Response> {
  return fetch(`${api.url}/api/apps/${appId}/audience-exports/${id}/download`, { headers: { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
}

beforeAll(async () => {
  api = await startTestApi({ JOB_QUEUE: `it-exports-${randomBytes(4).toString('hex')}` });
  ({ client: owner, accountId } = await registerAccount(api));
  appId = (await createTestApp(owner)).id;
  const seed = seeder(api.db, appId);
  ids.push(await seed.person({ customer_id: 'plain-1', email: 'a@x.com' }));
  ids.push(await seed.person({ customer_id: '=HYPERLINK("http://evil","x")', email: 'b,c@x.com' }));
  ids.push(await seed.person({ customer_id: '+33 600 000', email: '@mention' }));
  ids.push(await seed.person({ customer_id: 'multi\nline "q"', email: null }));
  await api.db.query(`UPDATE people SET device_id = 'dev-' || id WHERE app_id = $1`, [appId]);
  audienceId = await seed.audience(accountId, 'Export me', ids);
});

afterAll(async () => {
  await api?.stop();
});

describe('audience exports', () => {
  it('writes every member to an RFC 4180 CSV, safe against formula injection', async () => {
    const { export: created } = await owner.ok<{ export: Export }>('createAudienceExport', { format: 'csv' }, p({ audienceId }));
    expect(created.status).toBe('processing');
    const done = await settled(created.id);
    expect(done).toMatchObject({ status: 'ready', rowCount: 4, expectedCount: 4, warning: null });
    expect(done.fileName).toMatch(/^Export-me-\d{4}-\d{2}-\d{2}\.csv$/);
    const res = await download(owner, created.id);
    expect(res.headers.get('content-type')).toContain('text/csv');
    expect(res.headers.get('content-disposition')).toContain(done.fileName!);
    const text = await res.text();
    expect(Buffer.byteLength(text)).toBe(done.byteSize);
    const sorted = [...ids].sort((a, b) => Number(a) - Number(b));
    expect(text).toBe([
      EXPORT_COLUMNS.join(','),
      `${sorted[0]},plain-1,a@x.com,dev-${sorted[0]}`,
      `${sorted[1]},"'=HYPERLINK(""http://evil"",""x"")","b,c@x.com",dev-${sorted[1]}`,
      `${sorted[2]},'+33 600 000,'@mention,dev-${sorted[2]}`,
      `${sorted[3]},"multi\nline ""q""",,dev-${sorted[3]}`,
      '',
    ].join('\r\n'));
  });

  it('puts the same CSV inside a zip', async () => {
    const { export: created } = await owner.ok<{ export: Export }>('createAudienceExport', { format: 'zip' }, p({ audienceId }));
    const done = await settled(created.id);
    expect(done).toMatchObject({ status: 'ready', rowCount: 4 });
    const res = await download(owner, created.id);
    expect(res.headers.get('content-type')).toBe('application/zip');
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const names = Object.keys(files);
    expect(names).toEqual([done.fileName!.replace(/\.zip$/, '.csv')]);
    const csv = new TextDecoder().decode(files[names[0]!]);
    expect(csv.split('\r\n')).toHaveLength(6);
    expect(csv).toContain(`"'=HYPERLINK(""http://evil"",""x"")"`);
  });

  it('warns when the rows written differ from the audience count (members changed during the export)', async () => {
    await api.db.query('UPDATE audiences SET person_count = 5 WHERE id = $1', [audienceId]);
    const { export: created } = await owner.ok<{ export: Export }>('createAudienceExport', { format: 'csv' }, p({ audienceId }));
    const done = await settled(created.id);
    expect(done).toMatchObject({ status: 'warning', rowCount: 4, expectedCount: 5 });
    expect(done.warning).toMatch(/4 rows exported while the audience counts 5/);
    expect((await download(owner, created.id)).status).toBe(200);
    await api.db.query('UPDATE audiences SET person_count = 4 WHERE id = $1', [audienceId]);
  });

  it('records an error for an audience deleted before the export ran, with no file', async () => {
    const seed = seeder(api.db, appId);
    const doomed = await seed.audience(accountId, `Doomed ${randomBytes(2).toString('hex')}`, ids.slice(0, 1));
    // Queued on a queue no runner serves, so the deletion happens first; then run it here.
    const queue = `held-${randomBytes(4).toString('hex')}`;
    const created = { id: randomUUID() };
    const { user } = await owner.ok<{ user: { id: string } }>('meta');
    await insertExport(api.db, { id: created.id, accountId, appId, audienceId: doomed, audienceName: 'Doomed', format: 'csv', queue, createdBy: user.id });
    await owner.ok('deleteAudience', undefined, p({ audienceId: doomed }));
    const kind = exportJobKind({ db: api.db, log: api.deps.log });
    const job = await claimJob(api.db, kind, queue, 'test-worker');
    expect(job?.id).toBe(created.id);
    await runExport({ db: api.db, log: api.deps.log }, job!, { workerId: 'test-worker', signal: new AbortController().signal, renew: () => Promise.resolve(true) });
    const done = await settled(created.id);
    expect(done).toMatchObject({ status: 'error', rowCount: null });
    expect(done.errorMessage).toContain('AudienceNotExist');
    expect((await download(owner, created.id)).status).toBe(404);
  });

  it('needs ui:audience.view to download; deleting removes the file', async () => {
    const { export: created } = await owner.ok<{ export: Export }>('createAudienceExport', { format: 'csv' }, p({ audienceId }));
    await settled(created.id);
    const provider = await addMember(api, owner, 'provider');
    const refused = await download(provider, created.id);
    expect(await refused.json()).toMatchObject({ status: 'KO', code: ErrorCode.NO_PERMISSION });
    expect((await fetch(`${api.url}/api/apps/${appId}/audience-exports/${created.id}/download`)).status).toBe(401);
    await owner.ok('deleteAudienceExport', undefined, p({ exportId: created.id }));
    expect((await api.db.query('SELECT 1 FROM stored_file_chunks WHERE file_id = $1', [created.id])).rowCount).toBe(0);
    expect(await (await download(owner, created.id)).json()).toMatchObject({ status: 'KO', code: ErrorCode.NO_PERMISSION });
  });
});
