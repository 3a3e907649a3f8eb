/**
 * CSV import (issue 5; target: a 1-million-row file under 60 s in constant memory). A file of
 * 1,000,000 rows (customer id and e-mail; 90% of the ids belong to one of the app's 1,000,000
 * people, 10% to nobody) is generated into a temporary file, stored as an upload (chunks in
 * Postgres, as POST .../upload does), then imported by the real job code (claim, stream, resolve
 * per batch, one-transaction member swap) on local Postgres, in this process.
 *
 * Memory: resident set size sampled every 100 ms during the import, and process.resourceUsage()
 * maxRSS. The same figures for a 100,000-row file show whether memory grows with the file.
 * BENCH_IMPORT_ROWS overrides the row count of the big run. Run with `node --max-old-space-size=64` to
 * check that the import fits a small fixed heap whatever the file's size.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { pino } from 'pino';
import { migrate } from '../../api-server/src/db/migrate.ts';
import { createPool, type Db } from '../../api-server/src/db/pool.ts';
import { claimJob } from '../../api-server/src/jobs/runner.ts';
import { storeStream } from '../../api-server/src/jobs/storedFiles.ts';
import { insertTask } from '../../api-server/src/features/imports/repository.ts';
import { importJobKind, runImport } from '../../api-server/src/features/imports/run.ts';
import { freshDatabase } from './support.ts';

const PEOPLE = 1_000_000;
const BIG = Number(process.env.BENCH_IMPORT_ROWS ?? 1_000_000);
const SMALL = 100_000;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

async function writeCsv(file: string, rows: number): Promise<number> {
  const out = createWriteStream(file);
  out.write('customer_id,email\n');
  let buffer = '';
  for (let i = 0; i < rows; i++) {
    // 1 row in 10 names nobody; the others one of the people, in a scattered order.
    const id = i % 10 === 9 ? `unknown-${i}` : `cust-${(i * 7919) % PEOPLE}`;
    buffer += `${id},${id}@example.com\n`;
    if (buffer.length > 1 << 20) {
      if (!out.write(buffer)) await once(out, 'drain');
      buffer = '';
    }
  }
  out.end(buffer);
  await once(out, 'finish');
  return (await stat(file)).size;
}

async function setup(db: Db): Promise<{ accountId: string; appId: string }> {
  const { rows: [account] } = await db.query<{ id: string }>(`INSERT INTO accounts (name, plan) VALUES ('Bench', 'growth') RETURNING id`);
  const { rows: [app] } = await db.query<{ id: string }>(`INSERT INTO apps (account_id, name, os, app_key) VALUES ($1, 'Bench app', 'Android', $2) RETURNING id`, [account!.id, randomUUID()]);
  await db.query(`INSERT INTO people (app_id, customer_id, email) SELECT $1, 'cust-' || g, 'cust-' || g || '@example.com' FROM generate_series(0, $2 - 1) g`, [app!.id, PEOPLE]);
  await db.query('ANALYZE people');
  return { accountId: account!.id, appId: app!.id };
}

async function importFile(db: Db, ids: { accountId: string; appId: string }, file: string, rows: number) {
  const { rows: [audience] } = await db.query<{ id: string }>(
    `INSERT INTO audiences (account_id, app_id, name, source_type) VALUES ($1, $2, $3, 'csv') RETURNING id`, [ids.accountId, ids.appId, `Bench ${rows} ${randomUUID()}`],
  );
  const taskId = randomUUID();
  const queue = `bench-${taskId}`;
  await insertTask(db, {
    id: taskId, accountId: ids.accountId, appId: ids.appId, audienceId: audience!.id, name: 'bench', type: 'csv', config: { type: 'csv' },
    secret: null, hasUpload: true, queue, runNow: true, maxAttempts: 1, createdBy: null as unknown as string,
  });
  const uploadStart = performance.now();
  await storeStream(db, taskId, createReadStream(file), 4 * 1024 * 1024 * 1024);
  const uploadMs = performance.now() - uploadStart;

  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  let peakRss = rssBefore;
  let peakHeap = 0;
  let readAllAt = 0;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
    // When every row has been read and written to import_rows (the rest is the resolve-and-swap statement).
    if (!readAllAt) {
      void db.query<{ rows_read: number }>('SELECT rows_read FROM import_tasks WHERE id = $1', [taskId]).then(({ rows: [t] }) => {
        if (!readAllAt && t?.rows_read === rows) readAllAt = performance.now();
      });
    }
  }, 100);
  const log = pino({ level: 'warn' });
  const deps = { db, log, secret: 'bench-secret-0123456789abcdef0123456789' };
  const job = await claimJob(db, importJobKind(deps), queue, 'bench');
  if (!job) throw new Error('no job');
  const start = performance.now();
  await runImport(deps, job, { workerId: 'bench', signal: new AbortController().signal, renew: () => Promise.resolve(true) });
  const importMs = performance.now() - start;
  clearInterval(sampler);
  const { rows: [task] } = await db.query<{ status: string; person_count: number; rows_read: number; rows_unmatched: number; error_message: string | null }>(
    'SELECT status, person_count, rows_read, rows_unmatched, error_message FROM import_tasks WHERE id = $1', [taskId],
  );
  if (task?.status !== 'ready') throw new Error(`import ended ${task?.status}: ${task?.error_message}`);
  return { uploadMs, importMs, readMs: readAllAt - start, rssBefore, peakRss, peakHeap, task };
}

const { url, drop } = await freshDatabase('gd_bench_import');
const dir = await mkdtemp(path.join(tmpdir(), 'gd-bench-import-'));
const db = createPool(url, 4);
try {
  await migrate(db);
  const ids = await setup(db);
  console.log(`${PEOPLE.toLocaleString('en')} people seeded`);
  for (const rows of [SMALL, BIG]) {
    const file = path.join(dir, `import-${rows}.csv`);
    const bytes = await writeCsv(file, rows);
    const r = await importFile(db, ids, file, rows);
    console.log(`${rows.toLocaleString('en')} rows (${mb(bytes)}): upload to chunks ${(r.uploadMs / 1000).toFixed(1)} s, import ${(r.importMs / 1000).toFixed(1)} s ` +
      `(${Math.round(rows / (r.importMs / 1000)).toLocaleString('en')} rows/s; read and staged in ${(r.readMs / 1000).toFixed(1)} s, resolved and swapped in ${((r.importMs - r.readMs) / 1000).toFixed(1)} s); ${r.task.person_count.toLocaleString('en')} people, ${r.task.rows_unmatched.toLocaleString('en')} rows unmatched; ` +
      `RSS ${mb(r.rssBefore)} before, peak ${mb(r.peakRss)} (+${mb(r.peakRss - r.rssBefore)}), peak heap ${mb(r.peakHeap)}`);
  }
  console.log(`process maxRSS (resourceUsage): ${mb(process.resourceUsage().maxRSS * 1024)}`);
} finally {
  await db.end();
  await drop();
  await rm(dir, { recursive: true, force: true });
}
