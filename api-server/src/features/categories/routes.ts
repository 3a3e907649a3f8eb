/**
 * Categories of the account (/manage/categories) and their assignments to apps, campaigns and
 * messages (shared schemas/categories.ts has the decisions). Categories are scoped by the caller's
 * account: another account's id answers like an unused one (10). Assignments are scoped by the
 * app in the path: an entity of another app or account answers like an unused id (10) and
 * changes nothing; each replacement is one transaction.
 */
import type { Router } from 'express';
import { ErrorCode, can, fail, ok, type CategoryEntityType } from '@gd/shared';
import { MAX_CATEGORIES } from '@gd/shared/schemas/categories';
import type { PermissionSubject } from '@gd/shared/permissions/can';
import { isUniqueViolation } from '../../db/errors.ts';
import { tx } from '../../db/pool.ts';
import type { Deps } from '../../http/context.ts';
import { route } from '../../http/endpoint.ts';
import { isUuid } from '../../http/validate.ts';
import * as repo from './repository.ts';

const notFound = () => fail(ErrorCode.NOT_EXIST, 'Category not found');
const taken = () => fail(ErrorCode.NAME_DUPLICATED, 'The account already has a category with that name', [{ path: 'name', message: 'name_taken' }]);
const full = () => fail(ErrorCode.MANDATORY, `An account has at most ${MAX_CATEGORIES} categories`, [{ path: 'name', message: 'too_many_categories' }]);
const entityMissing = (type: CategoryEntityType) => fail(ErrorCode.NOT_EXIST, `No such ${type} in this app`, [{ path: 'entityId', message: 'not_found' }]);

/** Whether the subject may edit the entity (the owner variant only for what they own). */
function mayAssign(subject: PermissionSubject, userId: string, entity: repo.EntityFacts): boolean {
  const own = entity.ownerId !== null && entity.ownerId === userId;
  switch (entity.kind) {
    case 'app': return can(subject, 'ui:app.edit');
    case 'acqCampaign': return can(subject, 'ui:apptracker.edit') || (own && can(subject, 'ui:apptracker.edit:owner'));
    case 'messageCampaign':
    case 'message': return can(subject, 'ui:message.edit') || (own && can(subject, 'ui:message.edit:owner'));
    default: {
      const never: never = entity.kind;
      throw new Error(`unknown entity kind ${String(never)}`);
    }
  }
}

export function categoryRoutes(router: Router, deps: Deps): void {
  const { db } = deps;

  route(router, deps, 'listCategories', async ({ principal, query }) => ok({ categories: await repo.listCategories(db, principal.account.id, query.entityType) }));

  route(router, deps, 'createCategory', async ({ principal, body }) => {
    try {
      const category = await repo.insertCategory(db, principal.account.id, principal.user.id, body);
      return category === 'full' ? full() : ok({ category });
    } catch (error) {
      if (isUniqueViolation(error, 'categories_account_name')) return taken();
      throw error;
    }
  });

  route(router, deps, 'updateCategory', async ({ principal, params, body }) => {
    const id = params.categoryId ?? '';
    if (!isUuid(id)) return notFound();
    try {
      const category = await tx(db, (client) => repo.updateCategory(client, principal.account.id, id, body));
      return category ? ok({ category }) : notFound();
    } catch (error) {
      if (isUniqueViolation(error, 'categories_account_name')) return taken();
      throw error;
    }
  });

  route(router, deps, 'deleteCategory', async ({ principal, params }) => {
    const id = params.categoryId ?? '';
    return isUuid(id) && (await repo.deleteCategory(db, principal.account.id, id)) ? ok({}) : notFound();
  });

  route(router, deps, 'appCategories', async ({ principal }) => ok({ assignments: await repo.appAssignments(db, principal.account.id) }));

  route(router, deps, 'categoryAssignments', async ({ app, query }) => ok({ assignments: await repo.assignmentsOf(db, app.id, query.entityType) }));

  route(router, deps, 'setCategoryAssignments', async ({ app, principal, subject, body }) => {
    const entityId = body.entityId.toLowerCase();
    const entity = await repo.findEntity(db, app.id, body.entityType, entityId);
    if (!entity) return entityMissing(body.entityType);
    if (!mayAssign(subject, principal.user.id, entity)) return fail(ErrorCode.NO_PERMISSION, `No permission to edit this ${body.entityType}`);
    const found = await repo.categoriesOf(db, principal.account.id, body.categoryIds, body.entityType);
    const missing = body.categoryIds.filter((id) => !found.has(id));
    if (missing.length) return fail(ErrorCode.NOT_EXIST, 'Category not found', [{ path: 'categoryIds', message: 'not_found' }]);
    const wrongType = body.categoryIds.filter((id) => found.get(id) === false);
    if (wrongType.length) {
      return fail(ErrorCode.MANDATORY, `These categories do not apply to a ${body.entityType}`, [{ path: 'categoryIds', message: 'category_not_for_type' }]);
    }
    const assignment = await tx(db, async (client) => {
      // The entity is locked for the replacement, so a delete at the same time leaves no orphan.
      if (!(await repo.lockEntity(client, app.id, entity.kind, entityId))) return undefined;
      return repo.replaceAssignments(client, app.id, body.entityType, entityId, body.categoryIds);
    });
    return assignment ? ok({ assignment }) : entityMissing(body.entityType);
  });
}
