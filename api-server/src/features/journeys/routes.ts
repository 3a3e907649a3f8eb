/** Journeys: list, create, rename, assign, clone, delete, launch, stop; and document tokens. */
import { createHash, randomUUID } from 'node:crypto';
import type { Request, Router } from 'express';
import * as Y from 'yjs';
import { hasEditsBeyond } from '@gd/shared/docs/stateVector';
import {
  DOC_TOKEN_TTL_SECONDS, ErrorCode, JourneyListQuery, journeyFingerprint, can, disallowedFor, docAccess, docName, fail, subjectFor, journeyFromDoc, normalizeJourney, ok, parseDocName, validateJourney, type Journey, type JourneySummary, type PermissionKey, type PermissionSubject, conflict, unavailable, DOC_SUMMARY_CHANGED,
} from '@gd/shared';
import type { Deps, Principal } from '../../http/context.ts';
import { route } from '../../http/endpoint.ts';
import { isUuid, parseWith } from '../../http/validate.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { tx } from '../../db/pool.ts';
import { findApp } from '../apps/repository.ts';
import { signJwt } from '../auth/accessToken.ts';
import { findUserInAccount } from '../accounts/repository.ts';
import * as repo from './repository.ts';
import { findSegment } from '../segments/repository.ts';
import { missingReferences } from './references.ts';
import { SyncUnreachable } from './liveDocs.ts';

const nameTaken = () => fail(ErrorCode.NAME_DUPLICATED, 'A journey with that name already exists in this app', [{ path: 'name', message: 'Name already in use' }]);
const notFound = () => fail(ErrorCode.NO_PERMISSION, 'No permission for this journey');

/** Whether the stored draft holds edits the live version lacks (state vectors compared client by client). */
function draftChanged(row: repo.JourneyRow): boolean {
  if (row.live_state_vector === null || row.doc_state === null) return false;
  return hasEditsBeyond(Y.decodeStateVector(Y.encodeStateVectorFromUpdate(row.doc_state)), Y.decodeStateVector(row.live_state_vector));
}
export const summary = (row: repo.JourneyRow): JourneySummary => repo.toSummary(row, draftChanged(row));

/** Item-level check: the base key, or its owner variant on journeys the user created. */
const allowed = (subject: PermissionSubject, key: PermissionKey, row: repo.JourneyRow) => can(subject, key, { ownerId: row.created_by });

export function syncUrlFor(deps: Deps, req: Request): string {
  if (deps.config.SYNC_PUBLIC_URL) return deps.config.SYNC_PUBLIC_URL;
  const scheme = req.protocol === 'https' ? 'wss' : 'ws';
  return `${scheme}://${req.get('host') ?? 'localhost'}/collab`;
}

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
    await repo.updateJourney(db, row.id, { assignedTo: body.userId });
    const updated = await repo.findJourney(db, app.id, row.id);
    return updated ? ok({ journey: summary(updated) }) : notFound();
  });

  route(router, deps, 'cloneJourney', async ({ app, principal, subject, params, body }) => {
    const source = await load(principal, app.id, params.journeyId);
    if (!source || !allowed(subject, 'ui:journey.clone', source)) return notFound();
    if (!can(subject, 'ui:journey.create')) return fail(ErrorCode.NO_PERMISSION, 'No permission to create journeys');
    // The clone forks the live content into a new document name; the source document is untouched.
    let state: Uint8Array | undefined;
    try {
      state = deps.liveDocs ? await deps.liveDocs.read(source.doc_name) : await repo.storedDocState(db, source.doc_name);
    } catch (error) {
      if (error instanceof SyncUnreachable) return unavailable('The sync server is not reachable; try again');
      throw error;
    }
    const id = randomUUID();
    const name = docName(principal.account.id, app.id, 'journey', id);
    try {
      await tx(db, async (client) => {
        await repo.insertJourney(client, { id, accountId: principal.account.id, appId: app.id, name: body.name, docName: name, createdBy: principal.user.id });
        if (state) await repo.insertDocument(client, { name, accountId: principal.account.id, appId: app.id, kind: 'journey', entityId: id, state });
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
    await repo.softDeleteJourney(db, row.id);
    await repo.recordEvent(db, row.id, 'deleted', principal.user.id);
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
    if (!deps.liveDocs) return unavailable('The sync server is not reachable; try again');
    // Never launched from the stored copy (it can lag the editors by seconds): no live read, no launch.
    let state: Uint8Array;
    try {
      state = await deps.liveDocs.read(row.doc_name);
    } catch (error) {
      if (error instanceof SyncUnreachable) return unavailable('The sync server is not reachable; try again');
      throw error;
    }
    const doc = new Y.Doc();
    Y.applyUpdate(doc, state);
    // What editors see once their client repairs the merged state (SPEC §4 rules), then SPEC §5 checks.
    let journey: Journey;
    try {
      journey = normalizeJourney(journeyFromDoc(doc));
    } catch {
      doc.destroy();
      return fail(ErrorCode.MANDATORY, 'The journey cannot be brought to a valid shape; change it in the editor and try again', [{ path: 'journey', message: 'not_normalizable' }]);
    }
    // Messages are not built yet: no message exists, so a message step cannot launch.
    const violations = validateJourney(journey, { messageExists: () => false });
    if (violations.length > 0) {
      // details: `steps.<stepId>.<field path>` (or `journey` for graph problems) and the violation code.
      return fail(ErrorCode.MANDATORY, `The journey has ${violations.length} problem(s) and cannot be launched`,
        violations.map((v) => ({ path: [v.stepId ? `steps.${v.stepId}` : 'journey', ...v.path].join('.'), message: v.code })));
    }
    // What it names must exist: audiences, events, and what the conditions of audience entries and
    // splits name (shared journey/references.ts; the editor shows the same problems on the steps).
    const missing = await missingReferences(db, app.id, journey);
    if (missing.length > 0) {
      doc.destroy();
      return fail(ErrorCode.MANDATORY, `The journey names ${missing.length} thing(s) this app does not have and cannot be launched`,
        missing.map((v) => ({ path: [v.stepId ? `steps.${v.stepId}` : 'journey', ...v.path].join('.'), message: v.code })));
    }
    // Launched only as reviewed: a journey changed since (by anyone) is reviewed again.
    if (body.reviewed !== undefined && body.reviewed !== (await journeyFingerprint(journey))) {
      doc.destroy();
      return { ...conflict('The journey changed after it was reviewed; review it again'), details: [{ path: 'reviewed', message: 'changed_since_review' }] };
    }
    const encoded = Y.encodeStateAsUpdate(doc);
    const version = await tx(db, async (client) => {
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [row.id]);
      const next = await repo.nextVersion(client, row.id);
      await repo.insertVersion(client, {
        journeyId: row.id, version: next, definition: journey, state: encoded, stateVector: Y.encodeStateVector(doc),
        sha256: createHash('sha256').update(encoded).digest('hex'), launchedBy: principal.user.id,
      });
      await repo.updateJourney(client, row.id, { status: 'live', liveVersion: next });
      await repo.recordEvent(client, row.id, 'launched', principal.user.id, next);
      return next;
    });
    doc.destroy();
    announceSummary(row.doc_name);
    const updated = await repo.findJourney(db, app.id, row.id);
    return updated ? ok({ journey: summary(updated), version }) : notFound();
  });

  route(router, deps, 'stopJourney', async ({ app, principal, subject, params }) => {
    const row = await load(principal, app.id, params.journeyId);
    if (!row || !allowed(subject, 'ui:journey.stop', row)) return notFound();
    if (row.status !== 'live') return conflict('Only a live journey can be stopped');
    await repo.updateJourney(db, row.id, { status: 'stopped' });
    await repo.recordEvent(db, row.id, 'stopped', principal.user.id, row.live_version ?? undefined);
    announceSummary(row.doc_name);
    const updated = await repo.findJourney(db, app.id, row.id);
    return updated ? ok({ journey: summary(updated) }) : notFound();
  });

  route(router, deps, 'docToken', async ({ principal, body, req }) => {
    const parsed = parseDocName(body.name);
    if (!parsed || parsed.accountId !== principal.account.id) return fail(ErrorCode.NO_PERMISSION, 'No permission for this document');
    const app = await findApp(db, principal.account.id, parsed.appId);
    if (!app) return fail(ErrorCode.NO_PERMISSION, 'No permission for this document');
    let ownerId: string | null;
    if (parsed.kind === 'journey') {
      const row = await repo.findJourney(db, app.id, parsed.id);
      if (!row || row.doc_name !== body.name) return fail(ErrorCode.NO_PERMISSION, 'No permission for this document');
      ownerId = row.created_by;
    } else if (parsed.kind === 'segment') {
      const row = await findSegment(db, app.id, parsed.id);
      if (!row || row.doc_name !== body.name) return fail(ErrorCode.NO_PERMISSION, 'No permission for this document');
      ownerId = row.created_by;
    } else {
      return fail(ErrorCode.NO_PERMISSION, `Documents of kind ${parsed.kind} are not available yet`);
    }
    const subject = subjectFor(principal.user.id, disallowedFor(principal.user.grants, app.restricted));
    const access = docAccess(subject, parsed.kind, ownerId);
    if (!access) return fail(ErrorCode.NO_PERMISSION, 'No permission for this document');
    const token = signJwt(deps.secret, { typ: 'doc', sub: principal.user.id, acc: principal.account.id, doc: body.name, access }, DOC_TOKEN_TTL_SECONDS);
    return ok({ token, access, url: syncUrlFor(deps, req) });
  });
}
