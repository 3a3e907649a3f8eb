/**
 * One run of an audience export (a background job, jobs/runner.ts): the members are read in pages
 * of 5,000 (keyset on the person id, no long transaction), written as CSV rows (csvCells.ts) and,
 * for zip, deflated into a zip holding that one CSV, streamed into stored chunks (constant memory).
 *
 * Statuses (SPEC.md section 4): processing while it runs, ready when the rows written equal the
 * audience's person count, warning when they differ (the members changed while it ran: the file
 * is complete as read, the count says so), error when it failed (its file is dropped).
 */
import { Zip, ZipDeflate } from 'fflate';
import type { Logger } from 'pino';
import { EXPORT_COLUMNS } from '@gd/shared';
import type { Db } from '../../db/pool.ts';
import { LEASE_SECONDS, type Claimed, type JobContext, type JobKind } from '../../jobs/runner.ts';
import { ChunkWriter, deleteFile } from '../../jobs/storedFiles.ts';
import { csvLine } from './csvCells.ts';
import * as repo from './repository.ts';

export interface ExportRunDeps { db: Db; log: Logger; pageRows?: number }

export function exportJobKind(deps: ExportRunDeps): JobKind {
  return { name: 'export', table: 'audience_exports', runnable: `status = 'processing'`, run: (job, ctx) => runExport(deps, job, ctx) };
}

class Stop extends Error {}
class Failed extends Error {}

interface MemberRow { id: string; customer_id: string | null; email: string | null; device_id: string | null }

/** A file name from the audience's name and the day: letters, digits, - and _ only. */
export function exportBaseName(audienceName: string, day: string): string {
  const slug = audienceName.normalize('NFKD').replace(/[^\w-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'audience';
  return `${slug}-${day}`;
}

/** Where the bytes go: straight to the chunks (csv) or through a zip entry (zip). */
function fileSink(format: 'csv' | 'zip', writer: ChunkWriter, csvName: string) {
  if (format === 'csv') return { push: (text: string) => writer.write(Buffer.from(text, 'utf8')), end: () => Promise.resolve() };
  let chain: Promise<void> = Promise.resolve();
  let failure: Error | null = null;
  const zip = new Zip((error, data) => {
    if (error) failure = new Error(`zip: ${error.message}`);
    else chain = chain.then(() => writer.write(data));
  });
  const entry = new ZipDeflate(csvName, { level: 6 });
  zip.add(entry);
  const settle = async () => {
    await chain;
    if (failure) throw failure;
  };
  return {
    async push(text: string) {
      entry.push(Buffer.from(text, 'utf8'));
      await settle();
    },
    async end() {
      entry.push(new Uint8Array(0), true);
      zip.end();
      await settle();
    },
  };
}

async function audienceCount(db: Db, audienceId: string): Promise<{ count: number; name: string } | null> {
  const { rows } = await db.query<{ person_count: number | null; name: string }>('SELECT person_count, name FROM audiences WHERE id = $1 AND deleted_at IS NULL', [audienceId]);
  return rows[0] ? { count: rows[0].person_count ?? 0, name: rows[0].name } : null;
}

export async function runExport(deps: ExportRunDeps, job: Claimed, ctx: JobContext): Promise<void> {
  const { db } = deps;
  const row = await repo.findExportById(db, job.id);
  if (!row) return;
  const progress = async (sql: string, values: unknown[]) => {
    const { rowCount } = await db.query(`${sql} WHERE id = $1 AND locked_by = $2`, [row.id, ctx.workerId, ...values]);
    if (rowCount !== 1) throw new Stop();
  };
  try {
    if (job.attempts > job.max_attempts) throw new Failed(`NoRecoverableTaskError: the export stopped unfinished ${job.max_attempts} times; export again`);
    const start = row.audience_id ? await audienceCount(db, row.audience_id) : null;
    if (!start || !row.audience_id) throw new Failed('AudienceNotExist: the audience was deleted');
    await deleteFile(db, row.id);
    const day = new Date().toISOString().slice(0, 10);
    const base = exportBaseName(start.name, day);
    const fileName = `${base}.${row.format}`;
    await progress('UPDATE audience_exports SET expected_count = $3, file_name = $4, row_count = 0', [start.count, fileName]);
    const writer = new ChunkWriter(db, row.id);
    const sink = fileSink(row.format, writer, `${base}.csv`);
    await sink.push(csvLine(EXPORT_COLUMNS));
    let rows = 0;
    let after = '0';
    for (;;) {
      if (ctx.signal.aborted) throw new Stop();
      const page = (await db.query<MemberRow>(
        `SELECT p.id::text AS id, p.customer_id, p.email, p.device_id
           FROM audience_members m JOIN people p ON p.app_id = m.app_id AND p.id = m.person_id
          WHERE m.app_id = $1 AND m.audience_id = $2 AND m.person_id > $3::bigint
          ORDER BY m.person_id LIMIT $4`,
        [row.app_id, row.audience_id, after, deps.pageRows ?? 5_000],
      )).rows;
      if (page.length === 0) break;
      await sink.push(page.map((m) => csvLine([m.id, m.customer_id, m.email, m.device_id])).join(''));
      rows += page.length;
      after = (page[page.length - 1] as MemberRow).id;
      await progress('UPDATE audience_exports SET row_count = $3, locked_until = now() + make_interval(secs => $4)', [rows, LEASE_SECONDS]);
    }
    await sink.end();
    const bytes = await writer.end();
    const end = await audienceCount(db, row.audience_id);
    const counts = [start.count, end?.count ?? start.count];
    const warning = counts.every((c) => c === rows) ? null
      : `${rows} rows exported while the audience counts ${[...new Set(counts)].join(' then ')} people: its members changed during the export`;
    await progress(
      `UPDATE audience_exports SET status = $3, row_count = $4, byte_size = $5, warning = $6, error_message = NULL, finished_at = now(),
         run_at = NULL, locked_by = NULL, locked_until = NULL`,
      [warning ? 'warning' : 'ready', rows, bytes, warning],
    );
  } catch (error) {
    if (error instanceof Stop || ctx.signal.aborted) {
      // Deleted, taken over, or shutting down: a deleted export leaves no file behind.
      if (!(await repo.findExportById(db, row.id))) await deleteFile(db, row.id);
      return;
    }
    const message = error instanceof Failed ? error.message : `SaveDataError: the export could not be written (${error instanceof Error ? error.message : String(error)})`;
    deps.log.warn({ err: error, export: row.id }, 'export failed');
    await deleteFile(db, row.id);
    await db.query(
      `UPDATE audience_exports SET status = 'error', error_message = left($3, 1000), finished_at = now(), run_at = NULL, locked_by = NULL, locked_until = NULL
        WHERE id = $1 AND locked_by = $2`,
      [row.id, ctx.workerId, message],
    );
  }
}
