/**
 * One run of an import task (a background job, jobs/runner.ts):
 * 1. the target audience is marked in_progress (a deleted one fails with AudienceNotExist, an
 *    inactive one with AudienceNotValid);
 * 2. the source streams in; each batch of identifiers is written to import_rows (progress written
 *    per batch, which also renews the lease);
 * 3. ONE transaction resolves the rows to people (resolve.ts), replaces the audience's members with
 *    them, sets it ready with its person_count, and marks the task ready (with a warning when rows
 *    matched nobody).
 * Any failure before or inside step 3 leaves the previous members untouched: the task and the
 * audience record the error (SPEC.md section 8 name and a message; CsvSyntaxError with its line).
 * A failure that may pass (network, 5xx) is retried with backoff up to max_attempts, recorded
 * meanwhile as RecoverableTaskError. A segment import materialises the segment with the segments
 * feature's compile and materialise functions, in one transaction.
 */
import { notifyAudienceJourneys } from '../journeyRun/enter.ts';
import type { Logger } from 'pino';
import { ImportConfig, SEGMENT_LIMITS, type AudienceIdType, type Segment } from '@gd/shared';
import { tx, type Db, type DbClient } from '../../db/pool.ts';
import { LEASE_SECONDS, type Claimed, type JobContext, type JobKind } from '../../jobs/runner.ts';
import { fileSize, readFile } from '../../jobs/storedFiles.ts';
import type { LiveDocReader } from '../documents/liveDocs.ts';
import { compileFor, describeProblems, errorNameOf, readSegmentDocument } from '../segments/definition.ts';
import { materialise } from '../segments/evaluate.ts';
import * as segments from '../segments/repository.ts';
import { identifierBatches } from './csv.ts';
import { ImportFailure } from './errors.ts';
import { performanceSql } from './performance.ts';
import * as repo from './repository.ts';
import { clearRows, matchedRowsSql, stageRows } from './resolve.ts';
import { openSecrets } from './secretBox.ts';
import { publicOnly, type NetPolicy } from '../../net/index.ts';
import { adobeSegmentSource } from '../integrations/adobeExport.ts';
import { ftpSource, heeded, httpSource, s3Source, urlSource, type FileLimits, type NetOptions, type SourceStream } from './sources.ts';

export interface ImportRunDeps {
  db: Db;
  log: Logger;
  /** The server secret the stored credentials are sealed with. */
  secret: string;
  liveDocs?: LiveDocReader | undefined;
  /** Wakes the journey engine after new members (in-process; a worker elsewhere polls). */
  notifyJourneys?: (() => void) | undefined;
  /** What downloads may reach and trust (net/policy.ts); public addresses only when absent. */
  net?: NetPolicy | undefined;
  /** Download limits other than FILE_LIMITS (tests). */
  fileLimits?: Partial<FileLimits>;
  /** Identifiers per staged batch (default 5,000). */
  batchRows?: number;
  /** First retry after this many seconds, then 4x each time (default 30). */
  retryBaseSeconds?: number;
}

/** The job kind the runner claims import tasks with. */
export function importJobKind(deps: ImportRunDeps): JobKind {
  return { name: 'import', table: 'import_tasks', runnable: `status IN ('new', 'in_progress')`, run: (job, ctx) => runImport(deps, job, ctx) };
}

class LeaseLost extends Error {}

const idTypeOf = (c: ImportConfig): AudienceIdType => {
  switch (c.type) {
    case 'csv': return 'customerId';
    case 'csv_dynamic': return c.csvIdType;
    case 'https': return c.httpsIdType;
    case 'ftp': return c.ftpIdType;
    case 's3': return c.s3IdType;
    case 'adobe': return c.adobeIdType;
    case 'performance_report':
    case 'segment': return '{product}Id';
    default: {
      const never: never = c;
      throw new Error(`unknown import type ${String(never)}`);
    }
  }
};

interface Run {
  deps: ImportRunDeps;
  task: repo.ImportTaskRow;
  config: ImportConfig;
  ctx: JobContext;
  audienceId: string;
}

function secretsOf(run: Run): Record<string, string> {
  if (!run.task.secret) return {};
  const secrets = openSecrets(run.deps.secret, run.task.id, run.task.secret);
  if (!secrets) throw new ImportFailure('NoRecoverableTaskError', 'NoRecoverableTaskError: the stored password can no longer be read (the server secret changed); enter it again');
  return secrets;
}

async function openSource(run: Run): Promise<SourceStream> {
  const { deps, task, config } = run;
  const net: NetOptions = { policy: deps.net ?? publicOnly(), signal: run.ctx.signal, ...(deps.fileLimits ? { limits: deps.fileLimits } : {}) };
  switch (config.type) {
    case 'csv':
    case 'csv_dynamic':
      if (task.has_upload) return { stream: heeded(readFile(deps.db, task.id)), bytesTotal: await fileSize(deps.db, task.id) };
      if (config.csvFileURL) return urlSource(config.csvFileURL, net);
      throw new ImportFailure('CopyImportFileError', 'CopyImportFileError: the task has no file: upload one or give csvFileURL');
    case 'https':
      return httpSource(config.httpsFileUrl, net);
    case 'ftp':
      // SFTP: the pinned host key must be the one presented; without one, the first login pins it (trust on first use).
      return ftpSource({
        host: config.ftpHost, port: config.ftpPort, username: config.ftpUsername, password: secretsOf(run).ftpPassword ?? '', route: config.ftpFileRoute, secure: config.isSecureFtp,
        hostKeyFingerprint: task.sftp_host_key,
        onFirstHostKey: async (fingerprint) => {
          if (await repo.recordHostKey(deps.db, task.id, { host: config.ftpHost, port: config.ftpPort }, fingerprint)) {
            deps.log.info({ task: task.id, host: config.ftpHost, port: config.ftpPort, fingerprint }, 'import: SFTP host key pinned on first use');
          }
        },
      }, net);
    case 's3': {
      const integration = await repo.findIntegration(deps.db, task.app_id, config.s3IntegrationId);
      if (!integration?.secret) throw new ImportFailure('NoRecoverableTaskError', 'NoRecoverableTaskError: the object storage integration of this import was deleted');
      const secrets = openSecrets(deps.secret, integration.id, integration.secret);
      if (!secrets?.secretAccessKey) throw new ImportFailure('NoRecoverableTaskError', 'NoRecoverableTaskError: the integration\'s secret key can no longer be read; enter it again');
      const c = integration.config;
      return s3Source({ endpoint: c.endpoint ?? '', region: c.region ?? '', bucket: c.bucket ?? '', accessKeyId: c.accessKeyId ?? '', secretAccessKey: secrets.secretAccessKey, key: config.s3FileRoute }, net);
    }
    case 'adobe':
      // The segment's members through the experience-platform integration (integrations/adobeExport.ts).
      return adobeSegmentSource({ db: deps.db, log: deps.log, secret: deps.secret, net: net.policy }, {
        appId: task.app_id, integrationId: config.adobeId, segmentId: config.adobeSegmentId, net: net.policy, signal: run.ctx.signal,
      });
    case 'performance_report':
    case 'segment':
      throw new Error(`${config.type} imports have no file`);
    default: {
      const never: never = config;
      throw new Error(`unknown import type ${String(never)}`);
    }
  }
}

/** Writes progress and renews the lease in one statement; throws LeaseLost when the task is no longer ours. */
async function writeProgress(run: Run, p: { rowsRead: number; bytesRead: number; bytesTotal?: number | null }): Promise<void> {
  const { rowCount } = await run.deps.db.query(
    `UPDATE import_tasks SET rows_read = $3, bytes_read = $4, bytes_total = CASE WHEN $5 THEN $6::bigint ELSE bytes_total END,
       locked_until = now() + make_interval(secs => $7), updated_at = now()
     WHERE id = $1 AND locked_by = $2`,
    [run.task.id, run.ctx.workerId, p.rowsRead, p.bytesRead, p.bytesTotal !== undefined, p.bytesTotal ?? null, LEASE_SECONDS],
  );
  if (rowCount !== 1) throw new LeaseLost();
}

/** Streams the file's identifiers into import_rows; answers the rows read. */
async function stageFile(run: Run): Promise<number> {
  const { deps, task } = run;
  const source = await openSource(run);
  let bytesRead = 0;
  let rowsRead = 0;
  await writeProgress(run, { rowsRead, bytesRead, bytesTotal: source.bytesTotal });
  const idType = idTypeOf(run.config);
  const batches = identifierBatches(source.stream, { idType, batchRows: deps.batchRows ?? 10_000, onBytes: (n) => { bytesRead = n; } });
  for await (const batch of batches) {
    if (run.ctx.signal.aborted) {
      source.stream.destroy();
      throw run.ctx.signal.reason instanceof Error && run.ctx.signal.reason.message === 'lease lost' ? new LeaseLost() : new Aborted();
    }
    await stageRows(deps.db, task.id, idType, rowsRead + 1, batch);
    rowsRead += batch.length;
    await writeProgress(run, { rowsRead, bytesRead });
  }
  return rowsRead;
}

class Aborted extends Error {}

/** The segment a segment import evaluates: its segment's current content, else the given conditions. */
async function segmentOf(run: Run): Promise<Segment> {
  const { deps, task, config } = run;
  if (config.type !== 'segment') throw new Error('not a segment import');
  if (config.segmentId) {
    const segment = await segments.findSegment(deps.db, task.app_id, config.segmentId);
    if (!segment) throw new ImportFailure('AudienceNotExist', 'AudienceNotExist: the segment of this import was deleted');
    return readSegmentDocument(deps.db, deps.liveDocs, segment.doc_name);
  }
  if (config.config) return config.config;
  throw new ImportFailure('AudienceNotValid', 'AudienceNotValid: the import names no segment');
}

/** Marks the task done inside the swap transaction; throws LeaseLost (rolling back) when it is no longer ours. */
async function finishTask(client: DbClient, run: Run, r: { personCount: number; rowsRead: number; rowsMatched: number }): Promise<void> {
  const unmatched = r.rowsRead - r.rowsMatched;
  const fileBased = run.config.type !== 'segment' && run.config.type !== 'performance_report';
  const warning = !fileBased ? null
    : r.rowsRead === 0 ? 'The file has no rows under its header'
    : unmatched > 0 ? `${unmatched} of ${r.rowsRead} rows matched nobody and were skipped` : null;
  const { rowCount } = await client.query(
    `UPDATE import_tasks SET status = 'ready', person_count = $3, rows_read = $4::bigint, rows_matched = $5::bigint, rows_unmatched = $4::bigint - $5::bigint, warning = $6,
       error_name = NULL, error_message = NULL, error_line = NULL, finished_at = now(), run_at = NULL, locked_by = NULL, locked_until = NULL, updated_at = now()
     WHERE id = $1 AND locked_by = $2`,
    [run.task.id, run.ctx.workerId, r.personCount, r.rowsRead, r.rowsMatched, warning],
  );
  if (rowCount !== 1) throw new LeaseLost();
}

/** Locks the audience for the swap; a deleted one fails the import. */
async function lockAudience(client: DbClient, audienceId: string): Promise<void> {
  const { rows } = await client.query<{ deleted: boolean }>('SELECT deleted_at IS NOT NULL AS deleted FROM audiences WHERE id = $1 FOR UPDATE', [audienceId]);
  if (!rows[0] || rows[0].deleted) throw new ImportFailure('AudienceNotExist', 'AudienceNotExist: the audience of this import was deleted');
}

/**
 * Resolves the matched rows to people and replaces the members with them, in one transaction and
 * one statement (members no longer matched are removed, new ones added, the others kept with their
 * added_at), then records success. `matched` yields (n, person_id) with $1 the app and $2 the
 * audience; its own parameters follow.
 */
async function swapMembers(run: Run, matched: { sql: string; params: unknown[]; verifyPeople: boolean }, rowsRead: number | null): Promise<void> {
  const { task, audienceId } = run;
  await tx(run.deps.db, async (client) => {
    await client.query(`SELECT set_config('statement_timeout', $1, true), set_config('work_mem', '64MB', true)`, [String(SEGMENT_LIMITS.refreshTimeoutMs)]);
    await lockAudience(client, audienceId);
    const target = matched.verifyPeople
      ? 'SELECT DISTINCT m.person_id FROM matched m JOIN people p ON p.app_id = $1 AND p.id = m.person_id'
      : 'SELECT DISTINCT m.person_id FROM matched m';
    const { rows } = await client.query<{ matched_rows: number; people: number }>(
      `WITH matched AS MATERIALIZED (${matched.sql}),
       target AS MATERIALIZED (${target}),
       removed AS (
         DELETE FROM audience_members am WHERE am.app_id = $1 AND am.audience_id = $2
            AND NOT EXISTS (SELECT 1 FROM target t WHERE t.person_id = am.person_id)),
       added AS (
         INSERT INTO audience_members (app_id, audience_id, person_id)
         SELECT $1, $2, t.person_id FROM target t ORDER BY t.person_id ON CONFLICT DO NOTHING)
       SELECT (SELECT count(DISTINCT n) FROM matched) AS matched_rows, (SELECT count(*) FROM target) AS people`,
      [task.app_id, audienceId, ...matched.params],
    );
    const personCount = rows[0]?.people ?? 0;
    const matchedRows = rows[0]?.matched_rows ?? 0;
    await segments.recordRefreshed(client, audienceId, { count: personCount, definition: null });
    await finishTask(client, run, { personCount, rowsRead: rowsRead ?? matchedRows, rowsMatched: matchedRows });
  });
  await clearRows(run.deps.db, task.id);
}

async function runSegment(run: Run): Promise<void> {
  const definition = await segmentOf(run);
  const compiled = await compileFor(run.deps.db, definition, { appId: run.task.app_id, selfAudienceId: run.audienceId, requireConditions: true });
  if (!compiled.ok) throw new ImportFailure(errorNameOf(compiled.problems), describeProblems(compiled.problems));
  await tx(run.deps.db, async (client) => {
    await client.query(`SELECT set_config('statement_timeout', $1, true)`, [String(SEGMENT_LIMITS.refreshTimeoutMs)]);
    await lockAudience(client, run.audienceId);
    const personCount = await materialise(client, run.audienceId, compiled.value);
    await segments.recordRefreshed(client, run.audienceId, { count: personCount, definition });
    await finishTask(client, run, { personCount, rowsRead: personCount, rowsMatched: personCount });
  });
}

/** Marks the audience in_progress; fails for a deleted or inactive one. */
async function startAudience(run: Run): Promise<void> {
  const { rows } = await run.deps.db.query<{ status: string }>(
    `UPDATE audiences SET status = CASE WHEN status = 'inactive' THEN status ELSE 'in_progress' END, refresh_started_at = now(), updated_at = now()
      WHERE id = $1 AND deleted_at IS NULL RETURNING status`,
    [run.audienceId],
  );
  if (!rows[0]) throw new ImportFailure('AudienceNotExist', 'AudienceNotExist: the audience of this import was deleted');
  if (rows[0].status === 'inactive') throw new ImportFailure('AudienceNotValid', 'AudienceNotValid: the audience is inactive; activate it to import into it');
}

/** An audience left in_progress by a run that stopped: back to its last state. */
export async function settleAudience(db: Db, audienceId: string): Promise<void> {
  await db.query(
    `UPDATE audiences SET status = CASE WHEN error_name IS NOT NULL THEN 'error' WHEN person_count IS NULL THEN 'new' ELSE 'ready' END, refresh_started_at = NULL
      WHERE id = $1 AND status = 'in_progress'`,
    [audienceId],
  );
}

function asFailure(error: unknown): ImportFailure {
  if (error instanceof ImportFailure) return error;
  const code = (error as { code?: string } | null)?.code;
  const connection = typeof code === 'string' && (code.startsWith('08') || code === '57P01' || code === 'ECONNRESET' || code === 'ECONNREFUSED');
  const message = code === '57014' ? 'the members took too long to save' : `the members could not be saved${code ? ` (database error ${code})` : ''}`;
  return new ImportFailure('SaveDataError', `SaveDataError: ${message}; the previous members are kept`, { recoverable: connection, cause: error });
}

async function recordFailure(run: Run, job: Claimed, failure: ImportFailure): Promise<void> {
  const { db, log } = run.deps;
  await clearRows(db, run.task.id);
  const retry = failure.recoverable && job.attempts < job.max_attempts;
  if (retry) {
    const delay = (run.deps.retryBaseSeconds ?? 30) * 4 ** (job.attempts - 1);
    await db.query(
      `UPDATE import_tasks SET error_name = 'RecoverableTaskError', error_message = left($3, 1000), error_line = NULL,
         run_at = now() + make_interval(secs => $4), locked_by = NULL, locked_until = NULL, updated_at = now()
       WHERE id = $1 AND locked_by = $2`,
      [run.task.id, run.ctx.workerId, `RecoverableTaskError: try ${job.attempts} of ${job.max_attempts} failed (${failure.message}); trying again in ${Math.round(delay)} s`, delay],
    );
    log.info({ task: run.task.id, attempts: job.attempts, err: failure.message }, 'import try failed; retrying');
    return;
  }
  const { rowCount } = await db.query(
    `UPDATE import_tasks SET status = 'error', error_name = $3, error_message = left($4, 1000), error_line = $5, finished_at = now(),
       run_at = NULL, locked_by = NULL, locked_until = NULL, updated_at = now()
     WHERE id = $1 AND locked_by = $2`,
    [run.task.id, run.ctx.workerId, failure.kind, failure.message, failure.line],
  );
  if (rowCount === 1 && run.audienceId) await segments.recordRefreshFailed(db, run.audienceId, { name: failure.kind, message: failure.message });
  log.info({ task: run.task.id, err: failure.message }, 'import failed');
}

/**
 * Tells the live journeys entered from the audience that it has new members (features/journeyRun
 * enrols them). The members are stored either way; a notification that fails records
 * NotifyJourneysError on the finished task (the engine's periodic check makes it up within a minute).
 */
async function notifyJourneys(run: Run): Promise<void> {
  try {
    await notifyAudienceJourneys(run.deps.db, run.audienceId);
    run.deps.notifyJourneys?.();
  } catch (error) {
    run.deps.log.warn({ err: error, task: run.task.id }, 'the journeys of the audience could not be told about the import');
    await run.deps.db.query(
      `UPDATE import_tasks SET error_name = 'NotifyJourneysError', error_message = $2, updated_at = now() WHERE id = $1`,
      [run.task.id, `NotifyJourneysError: the members are stored, but the journeys that start from this audience could not be told (${error instanceof Error ? error.message : String(error)}); they will pick the new members up shortly`],
    ).catch(() => undefined);
  }
}

export async function runImport(deps: ImportRunDeps, job: Claimed, ctx: JobContext): Promise<void> {
  const task = await repo.findTaskById(deps.db, job.id);
  if (!task) return;
  const parsed = ImportConfig.safeParse({ ...(task.config as object), type: task.type });
  const run: Run = { deps, task, ctx, audienceId: task.audience_id ?? '', config: parsed.success ? parsed.data : ({ type: 'csv' }) };
  try {
    if (!parsed.success) throw new ImportFailure('NoRecoverableTaskError', 'NoRecoverableTaskError: the stored import settings are not valid');
    if (!task.audience_id) throw new ImportFailure('AudienceNotExist', 'AudienceNotExist: the audience of this import was deleted');
    if (job.attempts > job.max_attempts) {
      throw new ImportFailure('NoRecoverableTaskError', `NoRecoverableTaskError: the import stopped unfinished ${job.max_attempts} times (its worker ended); retry it`);
    }
    await clearRows(deps.db, task.id);
    const started = await deps.db.query(
      `UPDATE import_tasks SET status = 'in_progress', started_at = now(), finished_at = NULL, rows_read = 0, rows_matched = 0, rows_unmatched = 0,
         bytes_read = 0, bytes_total = NULL, warning = NULL, updated_at = now() WHERE id = $1 AND locked_by = $2`,
      [task.id, ctx.workerId],
    );
    if (started.rowCount !== 1) throw new LeaseLost();
    await startAudience(run);
    switch (run.config.type) {
      case 'segment':
        await runSegment(run);
        break;
      case 'performance_report':
        await swapMembers(run, { ...performanceSql(run.config, 2), verifyPeople: true }, null);
        break;
      default: {
        const rowsRead = await stageFile(run);
        const idType = idTypeOf(run.config);
        await swapMembers(run, { sql: matchedRowsSql(idType), params: [task.id], verifyPeople: idType === 'deviceId' }, rowsRead);
      }
    }
    deps.log.info({ task: task.id }, 'import done');
    await notifyJourneys(run);
  } catch (error) {
    if (error instanceof Aborted || (ctx.signal.aborted && !(error instanceof LeaseLost))) {
      // Shutdown: the runner releases the lease; the next run starts over.
      return;
    }
    if (error instanceof LeaseLost) {
      await clearRows(deps.db, task.id);
      if (!(await repo.findTaskById(deps.db, task.id)) && task.audience_id) await settleAudience(deps.db, task.audience_id);
      return;
    }
    await recordFailure(run, job, asFailure(error));
  }
}
