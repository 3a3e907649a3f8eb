/**
 * Imports and exports on the embedded database of `npm start` (PGlite behind one pooled
 * connection), with the job runner in process: the runner's SKIP LOCKED claim and leases, the
 * batched staging, the one-transaction member swap, an uploaded file in stored chunks and a zip
 * export all run there as on Postgres, while the API keeps answering.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { unzipSync } from 'fflate';
import { afterAll, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { startServer } from '../../server.ts';
import { createTestApp, registerAccount } from '../../testing/harness.ts';
import { seeder } from '../segments/testing/data.ts';

const dataDir = mkdtempSync(path.join(tmpdir(), 'gd-embedded-imports-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

it('runs imports and exports as background jobs on PGlite', { timeout: 180_000 }, async () => {
  const server = await startServer(loadConfig({ PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), { log: pino({ level: 'silent' }) });
  try {
    const { client } = await registerAccount(server);
    const appId = (await createTestApp(client)).id;
    const seed = seeder(server.db, appId);
    for (let i = 0; i < 30; i++) await seed.person({ customer_id: `c${i}`, email: `c${i}@x.com` });

    // 20,000 rows in batches of 5,000 (a quarter match), uploaded as a file.
    const rows = Array.from({ length: 20_000 }, (_, i) => `c${i % 120}`);
    const { task } = await client.ok<{ task: { id: string } }>('createImportTask', { name: 'Uploaded', awaitUpload: true, source: { type: 'csv' } }, { appId });
    const res = await fetch(`${server.url}/api/apps/${appId}/import-tasks/${task.id}/upload`, {
      method: 'POST', body: `customer_id\n${rows.join('\n')}\n`,
      headers: { 'content-type': 'text/csv', cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'x-csrf-token': client.cookies.get('gd_csrf') ?? '' },
    });
    expect(((await res.json()) as { status: string }).status).toBe('OK');
    let done: { status: string; personCount: number | null; audienceId: string; progress: { rowsRead: number; rowsUnmatched: number } } | undefined;
    for (let i = 0; i < 2000 && (!done || done.status === 'new' || done.status === 'in_progress'); i++) {
      // The API answers while the import runs.
      done = (await client.ok<{ task: NonNullable<typeof done> }>('getImportTask', undefined, { appId, taskId: task.id })).task;
      if (done.status === 'new' || done.status === 'in_progress') await new Promise((r) => setTimeout(r, 25));
    }
    expect(done).toMatchObject({ status: 'ready', personCount: 30, progress: { rowsRead: 20_000, rowsUnmatched: rows.filter((r) => Number(r.slice(1)) >= 30).length } });

    const { export: created } = await client.ok<{ export: { id: string } }>('createAudienceExport', { format: 'zip' }, { appId, audienceId: done!.audienceId });
    let exported: { status: string; rowCount: number | null } | undefined;
    for (let i = 0; i < 2000 && exported?.status !== 'ready'; i++) {
      exported = (await client.ok<{ exports: { id: string; status: string; rowCount: number | null }[] }>('listAudienceExports', undefined, { appId })).exports.find((e) => e.id === created.id);
      if (exported?.status === 'processing') await new Promise((r) => setTimeout(r, 25));
      else if (exported?.status !== 'ready') break;
    }
    expect(exported).toMatchObject({ status: 'ready', rowCount: 30 });
    const zip = await fetch(`${server.url}/api/apps/${appId}/audience-exports/${created.id}/download`, { headers: { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
    const files = unzipSync(new Uint8Array(await zip.arrayBuffer()));
    const csv = new TextDecoder().decode(Object.values(files)[0]);
    expect(csv.trim().split('\r\n')).toHaveLength(31);
  } finally {
    await server.stop();
  }
});
