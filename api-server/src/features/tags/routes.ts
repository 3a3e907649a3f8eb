/** Tags of an app: list with value counts, create, edit, delete (ui:tags.view / ui:tags.edit). */
import type { Router } from 'express';
import { ErrorCode, fail, ok } from '@gd/shared';
import type { Deps } from '../../http/context.ts';
import { route } from '../../http/endpoint.ts';
import { isUuid } from '../../http/validate.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import * as repo from './repository.ts';

const notFound = () => fail(ErrorCode.NOT_EXIST, 'Tag not found');
const taken = () => fail(ErrorCode.NAME_DUPLICATED, 'A tag of this kind with that name already exists', [{ path: 'name', message: 'Name already in use' }]);

export function tagRoutes(router: Router, deps: Deps): void {
  const { db } = deps;
  route(router, deps, 'listTags', async ({ app }) => ok({ tags: await repo.listTags(db, app.id) }));

  route(router, deps, 'createTag', async ({ app, principal, body }) => {
    try {
      return ok({ tag: await repo.insertTag(db, app.id, principal.user.id, body) });
    } catch (error) {
      if (isUniqueViolation(error)) return taken();
      throw error;
    }
  });

  route(router, deps, 'updateTag', async ({ app, params, body }) => {
    const id = params.tagId ?? '';
    if (!isUuid(id)) return notFound();
    try {
      const tag = await repo.updateTag(db, app.id, id, body);
      if (tag === 'typed') return fail(ErrorCode.MANDATORY, 'People already have values of this tag: its type cannot change', [{ path: 'valueType', message: 'The tag has values' }]);
      return tag ? ok({ tag }) : notFound();
    } catch (error) {
      if (isUniqueViolation(error)) return taken();
      throw error;
    }
  });

  route(router, deps, 'deleteTag', async ({ app, params }) => {
    const id = params.tagId ?? '';
    return isUuid(id) && (await repo.deleteTag(db, app.id, id)) ? ok({}) : notFound();
  });
}
