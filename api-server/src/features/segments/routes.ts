/**
 * Segments (list, get, create, rename, clone, delete, estimate, field values) and audiences (list, get, create,
 * update with activation, refresh now, clone, delete). Item-level checks use the owner variants:
 * a user holding only `...:owner` acts on what they created; others' items answer 10004 like
 * missing ones.
 */
import { randomUUID } from 'node:crypto';
import type { Response, Router } from 'express';
import {
  ErrorCode, SEGMENT_LIMITS, audienceRulesToSegment, can, docName, fail, normalizeSegment, ok, type AudienceSourceInput, type PermissionKey, type PermissionSubject, type Result, type Segment, conflict, unavailable,
} from '@gd/shared';
import type { Deps } from '../../http/context.ts';
import { route } from '../../http/endpoint.ts';
import { isUuid } from '../../http/validate.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { tx } from '../../db/pool.ts';
import { readLive } from '../documents/liveDocs.ts';
import { insertDocument } from '../documents/repository.ts';
import { compileFor, compiledOrFailure, readSegmentDocument, toSegmentProblems } from './definition.ts';
import { EstimateStopped, estimate } from './evaluate.ts';
import { refreshNow } from './refresh.ts';
import * as repo from './repository.ts';
import { fieldValues } from './values.ts';

const segmentNameTaken = () => fail(ErrorCode.NAME_DUPLICATED, 'A segment with that name already exists in this app', [{ path: 'name', message: 'Name already in use' }]);
const audienceNameTaken = () => fail(ErrorCode.NAME_DUPLICATED, 'An audience with that name already exists in this app', [{ path: 'name', message: 'Name already in use' }]);
const noSegment = () => fail(ErrorCode.NO_PERMISSION, 'No permission for this segment');
const noAudience = () => fail(ErrorCode.NO_PERMISSION, 'No permission for this audience');

const allowed = (subject: PermissionSubject, key: PermissionKey, row: { created_by: string | null }) => can(subject, key, { ownerId: row.created_by });

/** Runs `fn`, answering 30 when it trips the name's unique index. */
async function unlessNameTaken<T>(fn: () => Promise<T>, taken: () => Result<never>): Promise<Result<T>> {
  try {
    return ok(await fn());
  } catch (error) {
    if (isUniqueViolation(error)) return taken();
    throw error;
  }
}

/** Aborted when the caller goes away before the answer is written. */
function callerGone(res: Response): AbortSignal {
  const controller = new AbortController();
  res.on('close', () => { if (!res.writableFinished) controller.abort(); });
  return controller.signal;
}

export function segmentRoutes(router: Router, deps: Deps): void {
  const { db } = deps;
  const findSegment = (appId: string, id: string | undefined) => (id && isUuid(id) ? repo.findSegment(db, appId, id) : Promise.resolve(undefined));
  const findAudience = (appId: string, id: string | undefined) => (id && isUuid(id) ? repo.findAudience(db, appId, id) : Promise.resolve(undefined));
  const audienceAnswer = async (appId: string, id: string) => {
    const row = await repo.findAudience(db, appId, id);
    return row ? ok({ audience: repo.toAudienceSummary(row) }) : noAudience();
  };

  route(router, deps, 'listSegments', async ({ app }) => ok({ segments: (await repo.listSegments(db, app.id)).map(repo.toSegmentSummary) }));

  route(router, deps, 'getSegment', async ({ app, params }) => {
    const row = await findSegment(app.id, params.segmentId);
    if (!row) return noSegment();
    const definition = await readSegmentDocument(db, deps.liveDocs, row.doc_name);
    const compiled = await compileFor(db, definition, { appId: app.id, requireConditions: false });
    return ok({ segment: repo.toSegmentSummary(row), definition, problems: compiled.ok ? [] : toSegmentProblems(compiled.problems) });
  });

  route(router, deps, 'createSegment', async ({ app, principal, body }) => {
    const id = randomUUID();
    const created = await unlessNameTaken(() => repo.insertSegment(db, {
      id, accountId: principal.account.id, appId: app.id, name: body.name, docName: docName(principal.account.id, app.id, 'segment', id), createdBy: principal.user.id,
    }), segmentNameTaken);
    if (!created.ok) return created;
    const row = await repo.findSegment(db, app.id, id);
    return row ? ok({ segment: repo.toSegmentSummary(row) }) : noSegment();
  });

  route(router, deps, 'renameSegment', async ({ app, subject, params, body }) => {
    const row = await findSegment(app.id, params.segmentId);
    if (!row || !allowed(subject, 'ui:audience.edit', row)) return noSegment();
    const renamed = await unlessNameTaken(() => repo.renameSegment(db, row.id, body.name), segmentNameTaken);
    if (!renamed.ok) return renamed;
    const updated = await repo.findSegment(db, app.id, row.id);
    return updated ? ok({ segment: repo.toSegmentSummary(updated) }) : noSegment();
  });

  route(router, deps, 'cloneSegment', async ({ app, principal, subject, params, body }) => {
    const source = await findSegment(app.id, params.segmentId);
    if (!source || !allowed(subject, 'ui:audience.clone', source)) return noSegment();
    // The copy forks the live content into a new document; the source document is untouched.
    const read = await readLive(deps.liveDocs, db, source.doc_name);
    if (!read.ok) return read;
    const { state } = read;
    const id = randomUUID();
    const name = docName(principal.account.id, app.id, 'segment', id);
    const created = await unlessNameTaken(() => tx(db, async (client) => {
      await repo.insertSegment(client, { id, accountId: principal.account.id, appId: app.id, name: body.name, docName: name, createdBy: principal.user.id });
      if (state) await insertDocument(client, { name, accountId: principal.account.id, appId: app.id, kind: 'segment', entityId: id, state });
    }), segmentNameTaken);
    if (!created.ok) return created;
    const row = await repo.findSegment(db, app.id, id);
    return row ? ok({ segment: repo.toSegmentSummary(row) }) : noSegment();
  });

  route(router, deps, 'deleteSegment', async ({ app, subject, params }) => {
    const row = await findSegment(app.id, params.segmentId);
    if (!row || !allowed(subject, 'ui:audience.delete', row)) return noSegment();
    await repo.softDeleteSegment(db, row.id);
    return ok({});
  });

  route(router, deps, 'estimateSegment', async ({ app, body, res }) => {
    const compiled = compiledOrFailure(await compileFor(db, normalizeSegment(body.segment), { appId: app.id, requireConditions: false }));
    if (!compiled.ok) return compiled;
    try {
      const { count, sample } = await estimate(db, compiled.value, {
        signal: callerGone(res), timeoutMs: SEGMENT_LIMITS.estimateTimeoutMs, sampleSize: SEGMENT_LIMITS.sample,
        cancelBackend: deps.config.DATABASE_URL !== undefined,
      });
      return ok({ count, sample: sample.map(repo.toSamplePerson) });
    } catch (error) {
      if (!(error instanceof EstimateStopped)) throw error;
      return error.reason === 'timeout'
        ? unavailable(`The estimate took longer than ${SEGMENT_LIMITS.estimateTimeoutMs / 1000} s; narrow the segment or try again`)
        : unavailable('The estimate was cancelled');
    }
  });

  route(router, deps, 'segmentValues', ({ app, query }) => fieldValues(db, app.id, query));

  // ---------------------------------------------------------------------------------------------

  route(router, deps, 'listAudiences', async ({ app, principal, subject, query }) => {
    const rows = await repo.listAudiences(db, app.id, {
      ownerId: query.owner === 'me' ? principal.user.id : undefined,
      // Without "select non-test audience or segment" only test audiences may be picked as targets.
      testOnly: query.selectable && !can(subject, 'ui:audienceSelection.nonTest'),
    });
    return ok({ audiences: rows.map(repo.toAudienceSummary) });
  });

  route(router, deps, 'getAudience', async ({ app, params }) => {
    const row = await findAudience(app.id, params.audienceId);
    if (!row) return noAudience();
    const sample = await repo.memberSample(db, app.id, row.id, SEGMENT_LIMITS.sample);
    return ok({ audience: repo.toAudienceSummary(row), sample: sample.map(repo.toSamplePerson) });
  });

  /** The definition a new audience evaluates, and the segment it follows. */
  async function sourceDefinition(appId: string, source: AudienceSourceInput): Promise<Result<{ segment: Segment; segmentId: string | null }>> {
    switch (source.from) {
      case 'segment': {
        const row = await repo.findSegment(db, appId, source.segmentId);
        if (!row) return noSegment();
        return ok({ segment: await readSegmentDocument(db, deps.liveDocs, row.doc_name), segmentId: row.id });
      }
      case 'definition':
        return ok({ segment: normalizeSegment(source.segment), segmentId: null });
      case 'rules':
        return ok({ segment: audienceRulesToSegment(source.rules), segmentId: null });
      default: {
        const never: never = source;
        throw new Error(`unknown audience source ${String(never)}`);
      }
    }
  }

  route(router, deps, 'createAudience', async ({ app, principal, body }) => {
    const source = await sourceDefinition(app.id, body.source);
    if (!source.ok) return source;
    // A definition that does not evaluate is refused before anything is created.
    const compiled = compiledOrFailure(await compileFor(db, source.value.segment, { appId: app.id, requireConditions: true }));
    if (!compiled.ok) return compiled;
    const id = randomUUID();
    const created = await unlessNameTaken(() => repo.insertAudience(db, {
      id, accountId: principal.account.id, appId: app.id, name: body.name, sourceType: 'segment', segmentId: source.value.segmentId,
      definition: source.value.segment, isTest: body.isTest, refreshEveryMinutes: body.refreshEveryMinutes, createdBy: principal.user.id,
    }), audienceNameTaken);
    if (!created.ok) return created;
    const refreshed = await refreshNow(deps, app.id, id, source.value.segment);
    return refreshed.ok ? ok({ audience: repo.toAudienceSummary(refreshed.value) }) : refreshed;
  });

  route(router, deps, 'updateAudience', async ({ app, subject, params, body }) => {
    const row = await findAudience(app.id, params.audienceId);
    if (!row || !allowed(subject, 'ui:audience.edit', row)) return noAudience();
    if (body.active === false && row.status === 'in_progress') return conflict('The audience is being refreshed; deactivate it when the refresh ends');
    const reactivate = body.active === true && row.status === 'inactive';
    const status = body.active === false ? 'inactive' as const : reactivate ? 'new' as const : undefined;
    const updated = await unlessNameTaken(() => repo.updateAudience(db, row.id, {
      name: body.name, isTest: body.isTest, refreshEveryMinutes: body.refreshEveryMinutes, ...(status ? { status } : {}),
    }), audienceNameTaken);
    if (!updated.ok) return updated;
    if (reactivate) {
      const refreshed = await refreshNow(deps, app.id, row.id);
      if (!refreshed.ok) return refreshed;
    }
    return audienceAnswer(app.id, row.id);
  });

  route(router, deps, 'refreshAudience', async ({ app, subject, params }) => {
    const row = await findAudience(app.id, params.audienceId);
    if (!row || !allowed(subject, 'ui:audience.edit', row)) return noAudience();
    const refreshed = await refreshNow(deps, app.id, row.id);
    return refreshed.ok ? ok({ audience: repo.toAudienceSummary(refreshed.value) }) : refreshed;
  });

  route(router, deps, 'cloneAudience', async ({ app, principal, subject, params, body }) => {
    const source = await findAudience(app.id, params.audienceId);
    if (!source || !allowed(subject, 'ui:audience.clone', source)) return noAudience();
    const id = randomUUID();
    // A segment audience is recomputed; an import's members are copied.
    const withMembers = source.source_type !== 'segment';
    const created = await unlessNameTaken(() => tx(db, (client) => repo.cloneAudience(client, source.id, { id, name: body.name, createdBy: principal.user.id, withMembers })), audienceNameTaken);
    if (!created.ok) return created;
    if (withMembers) return audienceAnswer(app.id, id);
    const refreshed = await refreshNow(deps, app.id, id);
    return refreshed.ok ? ok({ audience: repo.toAudienceSummary(refreshed.value) }) : refreshed;
  });

  route(router, deps, 'deleteAudience', async ({ app, subject, params }) => {
    const row = await findAudience(app.id, params.audienceId);
    if (!row || !allowed(subject, 'ui:audience.delete', row)) return noAudience();
    await tx(db, (client) => repo.softDeleteAudience(client, row.id));
    return ok({});
  });
}
