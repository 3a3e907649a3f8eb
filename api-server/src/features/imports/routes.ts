/**
 * Import tasks and object storage integrations. Creating a task creates (or names) its audience and
 * queues the job; the worker does the rest (run.ts). Secrets are sealed here and never answered.
 *
 * An SFTP source's host key fingerprint (`ftpHostKeyFingerprint`) is kept apart from the config
 * (column sftp_host_key): given, it is pinned; null forgets it; absent on an edit keeps it unless
 * the edit changes the server (host, port, or FTP to SFTP), which forgets it (the next login pins
 * the key it meets). A plain FTP source has no host key: one given is refused.
 */
import { randomUUID } from 'node:crypto';
import type { Request, Router } from 'express';
import {
  ErrorCode, IMPORT_LIMITS, fail, ok, type FieldIssue, type ImportConfig, type ImportSourceInput, conflict,
} from '@gd/shared';
import type { Deps } from '../../http/context.ts';
import { route } from '../../http/endpoint.ts';
import { isUuid } from '../../http/validate.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { tx, type Queryable } from '../../db/pool.ts';
import { wakeJobRunners } from '../../jobs/runner.ts';
import { FileTooLarge, deleteFile, storeStream } from '../../jobs/storedFiles.ts';
import * as segments from '../segments/repository.ts';
import { hostKeyOnSave, netPolicy } from '../../net/index.ts';
import { ISSUE_TEXT, addressProblems, sourceAddressProblems } from './netConfig.ts';
import * as repo from './repository.ts';
import { clearRows } from './resolve.ts';
import { settleAudience } from './run.ts';
import { sealSecrets } from './secretBox.ts';

const noTask = () => fail(ErrorCode.NO_PERMISSION, 'No permission for this import task');
const noIntegration = () => fail(ErrorCode.NO_PERMISSION, 'No permission for this integration');
const invalid = (details: FieldIssue[]) => fail(ErrorCode.MANDATORY, details.map((d) => `${d.path}: ${ISSUE_TEXT[d.message] ?? d.message}`).join('; '), details);
const busy = () => conflict('The import is running; wait for it to end (or delete it)');

/** The stored config: the source without its write-only parts. */
function configOf(source: ImportSourceInput): ImportConfig {
  switch (source.type) {
    case 'csv':
    case 'csv_dynamic': {
      const { csvContent: _content, ...config } = source;
      return config;
    }
    case 'ftp': {
      const { ftpPassword: _password, ftpHostKeyFingerprint: _hostKey, ...config } = source;
      return config;
    }
    default:
      return source;
  }
}

/** The host key to write for a source (see the header); undefined keeps the pinned one. */
export function hostKeyOf(source: ImportSourceInput, stored?: Pick<repo.ImportTaskRow, 'type' | 'config'>): string | null | undefined {
  if (source.type !== 'ftp' || !source.isSecureFtp) return null;
  const was = stored?.config as { ftpHost?: unknown; ftpPort?: unknown; isSecureFtp?: unknown } | undefined;
  const before = stored?.type === 'ftp' && was?.isSecureFtp === true && typeof was.ftpHost === 'string' && typeof was.ftpPort === 'number'
    ? { host: was.ftpHost, port: was.ftpPort } : null;
  return hostKeyOnSave(source.ftpHostKeyFingerprint, before, { host: source.ftpHost, port: source.ftpPort });
}

export function importRoutes(router: Router, deps: Deps): void {
  const { db } = deps;
  const net = () => netPolicy(deps.config);
  const findTask = (appId: string, id: string | undefined) => (id && isUuid(id) ? repo.findTask(db, appId, id) : Promise.resolve(undefined));
  const answer = async (appId: string, id: string) => {
    const row = await repo.findTask(db, appId, id);
    return row ? ok({ task: repo.toImportTask(row) }) : noTask();
  };

  /** What keeps a source from running, as field issues (empty when it may run). */
  async function sourceProblems(appId: string, source: ImportSourceInput, hasUpload: boolean, awaitUpload: boolean): Promise<FieldIssue[]> {
    const issues = await sourceAddressProblems(source, net());
    switch (source.type) {
      case 'ftp':
        if (!source.isSecureFtp && source.ftpHostKeyFingerprint) issues.push({ path: 'source.ftpHostKeyFingerprint', message: 'host_key_sftp_only' });
        break;
      case 'csv':
      case 'csv_dynamic':
        if (!source.csvContent && !source.csvFileURL && !hasUpload && !awaitUpload) issues.push({ path: 'source.csvFileURL', message: 'Upload a CSV file or give its URL' });
        break;
      case 's3':
        if (!(await repo.findIntegration(db, appId, source.s3IntegrationId))) issues.push({ path: 'source.s3IntegrationId', message: 'No such object storage integration in this app' });
        break;
      case 'adobe':
        if (!(await repo.findExperiencePlatform(db, appId, source.adobeId))) issues.push({ path: 'source.adobeId', message: 'No such experience-platform integration in this app' });
        break;
      case 'segment':
        if (source.segmentId && !(await segments.findSegment(db, appId, source.segmentId))) issues.push({ path: 'source.segmentId', message: 'No such segment in this app' });
        if (!source.segmentId && !source.config) issues.push({ path: 'source.segmentId', message: 'Choose a segment' });
        break;
      default:
        break;
    }
    return issues;
  }

  /** Seals the source's secrets for the row (null when it has none; undefined keeps the stored ones). */
  function sealedSecret(id: string, source: ImportSourceInput): Buffer | null | undefined {
    if (source.type !== 'ftp') return null;
    return source.ftpPassword === undefined ? undefined : sealSecrets(deps.secret, id, { ftpPassword: source.ftpPassword });
  }

  async function storeInline(client: Queryable, id: string, content: string): Promise<void> {
    await storeStream(client, id, [Buffer.from(content, 'utf8')], IMPORT_LIMITS.uploadMaxBytes);
  }

  route(router, deps, 'listImportTasks', async ({ app }) => ok({ tasks: (await repo.listTasks(db, app.id)).map(repo.toImportTask) }));

  route(router, deps, 'getImportTask', async ({ app, params }) => {
    const row = await findTask(app.id, params.taskId);
    return row ? ok({ task: repo.toImportTask(row) }) : noTask();
  });

  route(router, deps, 'createImportTask', async ({ app, principal, body }) => {
    const { source } = body;
    const issues = await sourceProblems(app.id, source, false, body.awaitUpload);
    let target: segments.AudienceRow | undefined;
    if (body.audienceId) {
      target = await segments.findAudience(db, app.id, body.audienceId);
      if (!target) issues.push({ path: 'audienceId', message: 'No such audience in this app' });
      else if (target.source_type === 'segment' && source.type !== 'segment') {
        issues.push({ path: 'audienceId', message: 'This audience is computed from a segment; import into another audience' });
      }
    }
    if (issues.length) return invalid(issues);
    const id = randomUUID();
    const audienceId = target?.id ?? randomUUID();
    const inline = (source.type === 'csv' || source.type === 'csv_dynamic') && source.csvContent ? source.csvContent : null;
    try {
      await tx(db, async (client) => {
        if (!target) {
          await segments.insertAudience(client, {
            id: audienceId, accountId: principal.account.id, appId: app.id, name: body.name, sourceType: source.type,
            segmentId: source.type === 'segment' ? source.segmentId ?? null : null, definition: null, sourceConfig: configOf(source),
            isTest: body.isTest, refreshEveryMinutes: 60, createdBy: principal.user.id,
          });
        }
        await repo.insertTask(client, {
          id, accountId: principal.account.id, appId: app.id, audienceId, name: body.name, type: source.type, config: configOf(source),
          secret: sealedSecret(id, source) ?? null, hostKey: hostKeyOf(source) ?? null, hasUpload: inline !== null, queue: deps.config.JOB_QUEUE,
          runNow: !body.awaitUpload || inline !== null, maxAttempts: IMPORT_LIMITS.maxAttempts, createdBy: principal.user.id,
        });
        if (inline !== null) await storeInline(client, id, inline);
      });
    } catch (error) {
      if (isUniqueViolation(error)) return fail(ErrorCode.NAME_DUPLICATED, 'An audience with that name already exists in this app', [{ path: 'name', message: 'Name already in use' }]);
      throw error;
    }
    wakeJobRunners();
    return answer(app.id, id);
  });

  route(router, deps, 'updateImportTask', async ({ app, params, body }) => {
    const row = await findTask(app.id, params.taskId);
    if (!row) return noTask();
    if (repo.isRunning(row)) return busy();
    const { source } = body;
    if (source) {
      if (source.type !== row.type) return invalid([{ path: 'source.type', message: 'An import keeps its type; create another import for another type' }]);
      const issues = await sourceProblems(app.id, source, row.has_upload, false);
      if (issues.length) return invalid(issues);
    }
    const inline = source && (source.type === 'csv' || source.type === 'csv_dynamic') && source.csvContent ? source.csvContent : null;
    await tx(db, async (client) => {
      await repo.updateTask(client, row.id, {
        name: body.name, config: source ? configOf(source) : undefined, secret: source ? sealedSecret(row.id, source) : undefined,
        hostKey: source ? hostKeyOf(source, row) : undefined,
      });
      if (inline !== null) {
        await storeInline(client, row.id, inline);
        await client.query('UPDATE import_tasks SET has_upload = true WHERE id = $1', [row.id]);
      }
    });
    return answer(app.id, row.id);
  });

  route(router, deps, 'uploadImportFile', async ({ app, params, req }) => {
    const row = await findTask(app.id, params.taskId);
    if (!row) return noTask();
    if (row.type !== 'csv' && row.type !== 'csv_dynamic') return invalid([{ path: 'file', message: 'Only csv imports take an uploaded file' }]);
    if (repo.isRunning(row)) return busy();
    if (req.is('application/json')) return invalid([{ path: 'file', message: 'Send the file itself as the body (Content-Type text/csv)' }]);
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > IMPORT_LIMITS.uploadMaxBytes) return tooLarge();
    try {
      await storeStream(db, row.id, req as Request & AsyncIterable<Uint8Array>, IMPORT_LIMITS.uploadMaxBytes);
    } catch (error) {
      if (error instanceof FileTooLarge) return tooLarge();
      throw error;
    }
    await repo.queueTask(db, row.id, { hasUpload: true });
    wakeJobRunners();
    return answer(app.id, row.id);
  });

  route(router, deps, 'retryImportTask', async ({ app, params }) => {
    const row = await findTask(app.id, params.taskId);
    if (!row) return noTask();
    if (repo.isRunning(row)) return busy();
    if ((row.type === 'csv' || row.type === 'csv_dynamic') && !row.has_upload && !(row.config as { csvFileURL?: string }).csvFileURL) {
      return invalid([{ path: 'file', message: 'Upload the CSV file first' }]);
    }
    await repo.queueTask(db, row.id);
    wakeJobRunners();
    return answer(app.id, row.id);
  });

  route(router, deps, 'deleteImportTask', async ({ app, params }) => {
    const row = await findTask(app.id, params.taskId);
    if (!row) return noTask();
    await tx(db, async (client) => {
      await repo.deleteTask(client, row.id);
      await deleteFile(client, row.id);
      await clearRows(client, row.id);
    });
    // A run in progress notices at its next progress write and stops; its audience returns to its last state.
    if (row.status === 'in_progress' && row.audience_id) await settleAudience(db, row.audience_id);
    return ok({});
  });

  // ---------------------------------------------------------------------------------------------

  route(router, deps, 'listStorageIntegrations', async ({ app }) => ok({ integrations: (await repo.listIntegrations(db, app.id)).map(repo.toS3Integration) }));

  route(router, deps, 'createStorageIntegration', async ({ app, principal, body }) => {
    const issues = await addressProblems([{ path: 'endpoint', host: new URL(body.endpoint).hostname }], net());
    if (issues.length) return invalid(issues);
    const id = randomUUID();
    try {
      await repo.insertIntegration(db, {
        id, accountId: principal.account.id, appId: app.id, name: body.name, createdBy: principal.user.id,
        config: { endpoint: body.endpoint, region: body.region, bucket: body.bucket, accessKeyId: body.accessKeyId },
        secret: sealSecrets(deps.secret, id, { secretAccessKey: body.secretAccessKey }),
      });
    } catch (error) {
      if (isUniqueViolation(error)) return fail(ErrorCode.NAME_DUPLICATED, 'An integration with that name already exists in this app', [{ path: 'name', message: 'Name already in use' }]);
      throw error;
    }
    const row = await repo.findIntegration(db, app.id, id);
    return row ? ok({ integration: repo.toS3Integration(row) }) : noIntegration();
  });

  route(router, deps, 'deleteStorageIntegration', async ({ app, params }) => {
    const id = params.integrationId;
    const row = id && isUuid(id) ? await repo.findIntegration(db, app.id, id) : undefined;
    if (!row) return noIntegration();
    await repo.deleteIntegration(db, row.id);
    return ok({});
  });
}

const tooLarge = () => fail(ErrorCode.MANDATORY, `The file is larger than ${IMPORT_LIMITS.uploadMaxBytes / 1024 / 1024} MiB`, [{ path: 'file', message: 'File too large' }]);
