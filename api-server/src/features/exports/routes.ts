/**
 * Audience exports: list, create (queues the job), delete, and the download of the file. The
 * download streams the stored chunks, so it is a `fileRoute` (the same checks as `route`, which
 * answers JSON).
 */
import { randomUUID } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import type { Router } from 'express';
import { ErrorCode, can, fail, ok } from '@gd/shared';
import type { Deps } from '../../http/context.ts';
import { fileRoute, route } from '../../http/endpoint.ts';
import { isUuid } from '../../http/validate.ts';
import { wakeJobRunners } from '../../jobs/runner.ts';
import { deleteFile, readFile } from '../../jobs/storedFiles.ts';
import * as segments from '../segments/repository.ts';
import * as repo from './repository.ts';

const noExport = () => fail(ErrorCode.NO_PERMISSION, 'No permission for this export');

export function exportRoutes(router: Router, deps: Deps): void {
  const { db } = deps;
  const findExport = (appId: string, id: string | undefined) => (id && isUuid(id) ? repo.findExport(db, appId, id) : Promise.resolve(undefined));

  route(router, deps, 'listAudienceExports', async ({ app, query }) => ok({ exports: (await repo.listExports(db, app.id, query.audienceId)).map(repo.toAudienceExport) }));

  route(router, deps, 'createAudienceExport', async ({ app, principal, params, body }) => {
    const audience = params.audienceId && isUuid(params.audienceId) ? await segments.findAudience(db, app.id, params.audienceId) : undefined;
    if (!audience) return fail(ErrorCode.NO_PERMISSION, 'No permission for this audience');
    const id = randomUUID();
    await repo.insertExport(db, {
      id, accountId: principal.account.id, appId: app.id, audienceId: audience.id, audienceName: audience.name, format: body.format,
      queue: deps.config.JOB_QUEUE, createdBy: principal.user.id,
    });
    wakeJobRunners();
    const row = await repo.findExport(db, app.id, id);
    return row ? ok({ export: repo.toAudienceExport(row) }) : noExport();
  });

  route(router, deps, 'deleteAudienceExport', async ({ app, subject, params }) => {
    const row = await findExport(app.id, params.exportId);
    if (!row || !can(subject, 'ui:audience.edit', { ownerId: row.created_by })) return noExport();
    await repo.deleteExport(db, row.id);
    await deleteFile(db, row.id);
    return ok({});
  });

  fileRoute(router, deps, 'downloadAudienceExport', async ({ app, params, res }) => {
    const row = await findExport(app.id, params.exportId);
    if (!row) return noExport();
    if (row.status !== 'ready' && row.status !== 'warning') {
      return fail(ErrorCode.NOT_EXIST, row.status === 'processing' ? 'The export is still being written' : 'The export failed; it has no file');
    }
    const name = row.file_name ?? `export.${row.format}`;
    res.setHeader('Content-Type', row.format === 'zip' ? 'application/zip' : 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="${name.replace(/[^\w.-]/g, '_')}"`);
    if (row.byte_size !== null) res.setHeader('Content-Length', String(row.byte_size));
    await pipeline(readFile(db, row.id), res).catch((error: unknown) => deps.log.warn({ err: error, export: row.id }, 'export download interrupted'));
    return undefined;
  });
}
