/**
 * Journeys: list, create, rename, assign, clone, delete, launch (./launch.ts), stop. Their
 * documents open through features/documents (tokens, live reads, versions).
 */
import { randomUUID } from 'node:crypto';
import type { Router } from 'express';
import { journeyDraftChanged } from '@gd/shared/docs/editedBeyond';
import {
  ErrorCode, JourneyListQuery, can, docName, fail, ok, type JourneySummary, type PermissionKey, type PermissionSubject, conflict, DOC_SUMMARY_CHANGED,
} from '@gd/shared';
import type { Deps, Principal } from '../../http/context.ts';
import { route } from '../../http/endpoint.ts';
import { isUuid, parseWith } from '../../http/validate.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { tx } from '../../db/pool.ts';
import { findUserInAccount, moveAccessVersions } from '../accounts/repository.ts';
import * as repo from './repository.ts';
import { launchJourney } from './launch.ts';
import { journeyStopped } from '../journeyRun/lifecycle.ts';
import { processVersions } from '../journeyRun/definitions.ts';
import { insertDocument } from '../documents/repository.ts';
import { readLive } from '../documents/liveDocs.ts';

const nameTaken = () => fail(ErrorCode.NAME_DUPLICATED, 'A journey with that name already exists in this app', [{ path: 'name', message: 'Name already in use' }]);
const notFound = () => fail(ErrorCode.NO_PERMISSION, 'No permission for this journey');

/** Whether the stored draft holds edits the live version lacks (state vectors compared client by client). */
function draftChanged(row: repo.JourneyRow): boolean {
  if (row.live_state_vector === null || row.doc_state === null) return false;
  return journeyDraftChanged(row.doc_state, row.live_state_vector);
}
export const summary = (row: repo.JourneyRow): JourneySummary => repo.toSummary(row, draftChanged(row));

/** Item-level check: the base key, or its owner variant on journeys the user created. */
const allowed = (subject: PermissionSubject, key: PermissionKey, row: repo.JourneyRow) => can(subject, key, { ownerId: row.created_by });

export function journeyRoutes(router: Router, deps: Deps): void {
  const { db } = deps;

  async function load(_principal: Principal, appId: string, id: string | undefined) {
    return id && isUuid(id) ? repo.findJourney(db, appId, id) : undefined;
  }

  route(router, deps, 'listJourneys', async ({ app, principal, subject, req }) => {
    const query = parseWith(JourneyListQuery, req.query);
    if (!query.ok) return query;
    // Without the view permission a user sees only the journeys they created.
    const mineOnly = query.value.owner === 'me' || !can(subject, 'ui:journey.view');
    const rows = await repo.listJourneys(db, app.id, { ownerId: mineOnly ? principal.user.id : undefined, includeStopped: query.value.scope === 'all' });
    return ok({ journeys: rows.map(summary) });
  });

  route(router, deps, 'createJourney', async ({ app, principal, body }) => {
    const id = randomUUID();
    try {
      await repo.insertJourney(db, { id, accountId: principal.account.id, appId: app.id, name: body.name, docName: docName(principal.account.id, app.id, 'journey', id), createdBy: principal.user.id });
    } catch (error) {
      if (isUniqueViolation(error)) return nameTaken();
      throw error;
    }
    await repo.recordEvent(db, id, 'created', principal.user.id);
    const row = await repo.findJourney(db, app.id, id);
    return row ? ok({ journey: summary(row) }) : notFound();
  });

  route(router, deps, 'renameJourney', async ({ app, principal, subject, params, body }) => {
    const row = await load(principal, app.id, params.journeyId);
    if (!row || !allowed(subject, 'ui:journey.edit', row)) return notFound();
    try {
      await repo.updateJourney(db, row.id, { name: body.name });
    } catch (error) {
      if (isUniqueViolation(error)) return nameTaken();
      throw error;
    }
    await repo.recordEvent(db, row.id, 'renamed', principal.user.id);
    const updated = await repo.findJourney(db, app.id, row.id);
    return updated ? ok({ journey: summary(updated) }) : notFound();
  });

  route(router, deps, 'assignJourney', async ({ app, principal, params, body }) => {
    const row = await load(principal, app.id, params.journeyId);
    if (!row) return notFound();
    if (body.userId && !(await findUserInAccount(db, principal.account.id, body.userId))) return fail(ErrorCode.NO_PERMISSION, 'No permission for this user');
    await tx(db, async (client) => {
      await repo.updateJourney(client, row.id, { assignedTo: body.userId });
      // The previous and the new owner's open editors are decided again (an owner-only editor loses or gains writing).
      await moveAccessVersions(client, [row.assigned_to, body.userId]);
    });
    const updated = await repo.findJourney(db, app.id, row.id);
    return updated ? ok({ journey: summary(updated) }) : notFound();
  });

  route(router, deps, 'cloneJourney', async ({ app, principal, subject, params, body }) => {
    const source = await load(principal, app.id, params.journeyId);
    if (!source || !allowed(subject, 'ui:journey.clone', source)) return notFound();
    if (!can(subject, 'ui:journey.create')) return fail(ErrorCode.NO_PERMISSION, 'No permission to create journeys');
    // The clone forks the live content into a new document name; the source document is untouched.
    const read = await readLive(deps.liveDocs, db, source.doc_name);
    if (!read.ok) return read;
    const { state } = read;
    const id = randomUUID();
    const name = docName(principal.account.id, app.id, 'journey', id);
    try {
      await tx(db, async (client) => {
        await repo.insertJourney(client, { id, accountId: principal.account.id, appId: app.id, name: body.name, docName: name, createdBy: principal.user.id });
        if (state) await insertDocument(client, { name, accountId: principal.account.id, appId: app.id, kind: 'journey', entityId: id, state });
        await repo.recordEvent(client, id, 'cloned', principal.user.id);
      });
    } catch (error) {
      if (isUniqueViolation(error)) return nameTaken();
      throw error;
    }
    const row = await repo.findJourney(db, app.id, id);
    return row ? ok({ journey: summary(row) }) : notFound();
  });

  route(router, deps, 'deleteJourney', async ({ app, principal, subject, params }) => {
    const row = await load(principal, app.id, params.journeyId);
    if (!row || !allowed(subject, 'ui:journey.delete', row)) return notFound();
    await tx(db, async (client) => {
      await repo.softDeleteJourney(client, row.id);
      // A deleted live journey stops: its people exit (features/journeyRun/lifecycle.ts).
      if (row.status === 'live') await journeyStopped(client, processVersions, { journeyId: row.id, appId: app.id, version: row.live_version });
      await repo.recordEvent(client, row.id, 'deleted', principal.user.id);
    });
    deps.notifyJourneys?.();
    return ok({});
  });

  /** Open editors fetch the summary again (Live, edited since launch, Launch); best effort, not awaited. */
  const announceSummary = (docName: string) => {
    deps.liveDocs?.announce(docName, DOC_SUMMARY_CHANGED).catch((error: unknown) => deps.log.warn({ err: error, doc: docName }, 'could not announce the new summary'));
  };

  route(router, deps, 'getJourneyVersion', async ({ app, principal, subject, params }) => {
    const row = await load(principal, app.id, params.journeyId);
    if (!row || !allowed(subject, 'ui:journey.view', row)) return notFound();
    const number = Number(params.version);
    const version = Number.isSafeInteger(number) && number > 0 ? await repo.findVersion(db, row.id, number) : undefined;
    if (!version) return fail(ErrorCode.NO_PERMISSION, 'This journey has no such version', [{ path: 'version', message: 'not_found' }]);
    return ok({ version: version.version, definition: version.definition, launchedAt: version.launched_at.toISOString(), launchedByName: version.launched_by_name });
  });

  route(router, deps, 'launchJourney', async ({ app, principal, subject, params, body }) => {
    const row = await load(principal, app.id, params.journeyId);
    if (!row || !allowed(subject, 'ui:journey.launch', row)) return notFound();
    const launched = await launchJourney(deps, { appId: app.id, row, userId: principal.user.id, reviewed: body.reviewed });
    if (!launched.ok) return launched;
    const { version } = launched;
    announceSummary(row.doc_name);
    const updated = await repo.findJourney(db, app.id, row.id);
    return updated ? ok({ journey: summary(updated), version }) : notFound();
  });

  route(router, deps, 'stopJourney', async ({ app, principal, subject, params }) => {
    const row = await load(principal, app.id, params.journeyId);
    if (!row || !allowed(subject, 'ui:journey.stop', row)) return notFound();
    if (row.status !== 'live') return conflict('Only a live journey can be stopped');
    // Stopped with the engine in one transaction: no new entries, its people exit (features/journeyRun/lifecycle.ts).
    await tx(db, async (client) => {
      await repo.updateJourney(client, row.id, { status: 'stopped' });
      await journeyStopped(client, processVersions, { journeyId: row.id, appId: app.id, version: row.live_version });
      await repo.recordEvent(client, row.id, 'stopped', principal.user.id, row.live_version ?? undefined);
    });
    deps.notifyJourneys?.();
    announceSummary(row.doc_name);
    const updated = await repo.findJourney(db, app.id, row.id);
    return updated ? ok({ journey: summary(updated) }) : notFound();
  });
}
