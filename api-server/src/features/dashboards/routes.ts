/**
 * Dashboards (/main/dashboards): list, get (with the widgets the live document holds), create,
 * rename or change the window type, delete. Item-level checks use the owner variants: a user
 * holding only `ui:dashboards.edit:owner` / `delete:owner` acts on the dashboards they created;
 * others' dashboards answer 10004 like missing ones, and so does an id of another app or account.
 * A name is unique per app among live dashboards (30 otherwise).
 */
import { randomUUID } from 'node:crypto';
import type { Router } from 'express';
import * as Y from 'yjs';
import { ErrorCode, can, dashboardLayout, docName, fail, ok, type PermissionKey, type PermissionSubject, type Result } from '@gd/shared';
import type { Deps } from '../../http/context.ts';
import { route } from '../../http/endpoint.ts';
import { isUuid } from '../../http/validate.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { readLatest } from '../documents/liveDocs.ts';
import * as repo from './repository.ts';

const nameTaken = () => fail(ErrorCode.NAME_DUPLICATED, 'A dashboard with that name already exists in this app', [{ path: 'name', message: 'Name already in use' }]);
const noDashboard = () => fail(ErrorCode.NO_PERMISSION, 'No permission for this dashboard');
const allowed = (subject: PermissionSubject, key: PermissionKey, row: { created_by: string | null }) => can(subject, key, { ownerId: row.created_by });

async function unlessNameTaken<T>(fn: () => Promise<T>): Promise<Result<T>> {
  try {
    return ok(await fn());
  } catch (error) {
    if (isUniqueViolation(error)) return nameTaken();
    throw error;
  }
}

export function dashboardRoutes(router: Router, deps: Deps): void {
  const { db } = deps;
  const find = (appId: string, id: string | undefined) => (id && isUuid(id) ? repo.findDashboard(db, appId, id) : Promise.resolve(undefined));
  const answer = async (appId: string, id: string) => {
    const row = await repo.findDashboard(db, appId, id);
    return row ? ok({ dashboard: repo.toDashboardSummary(row) }) : noDashboard();
  };

  route(router, deps, 'listDashboards', async ({ app }) => ok({ dashboards: (await repo.listDashboards(db, app.id)).map(repo.toDashboardSummary) }));

  route(router, deps, 'getDashboard', async ({ app, params }) => {
    const row = await find(app.id, params.dashboardId);
    if (!row) return noDashboard();
    const state = await readLatest(deps.liveDocs, db, row.doc_name);
    const doc = new Y.Doc();
    try {
      if (state) Y.applyUpdate(doc, state);
      return ok({ dashboard: repo.toDashboardSummary(row), widgets: dashboardLayout(doc) });
    } finally {
      doc.destroy();
    }
  });

  route(router, deps, 'createDashboard', async ({ app, principal, body }) => {
    const id = randomUUID();
    const created = await unlessNameTaken(() => repo.insertDashboard(db, {
      id, accountId: principal.account.id, appId: app.id, name: body.name, window: body.window,
      docName: docName(principal.account.id, app.id, 'dashboard', id), createdBy: principal.user.id,
    }));
    return created.ok ? answer(app.id, id) : created;
  });

  route(router, deps, 'updateDashboard', async ({ app, subject, params, body }) => {
    const row = await find(app.id, params.dashboardId);
    if (!row || !allowed(subject, 'ui:dashboards.edit', row)) return noDashboard();
    const updated = await unlessNameTaken(() => repo.updateDashboard(db, app.id, row.id, body));
    return updated.ok ? answer(app.id, row.id) : updated;
  });

  route(router, deps, 'deleteDashboard', async ({ app, subject, params }) => {
    const row = await find(app.id, params.dashboardId);
    if (!row || !allowed(subject, 'ui:dashboards.delete', row)) return noDashboard();
    await repo.softDeleteDashboard(db, app.id, row.id);
    return ok({});
  });
}
