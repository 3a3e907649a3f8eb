/**
 * Communication parameters of an app (/manage/communication-parameters): list, create, edit,
 * delete. Names are unique per app (30). Submit checks every message against them
 * (features/messages/lifecycle.ts reads `parameterDefinitions`). Another app's or account's
 * parameter id answers like an unused one (10).
 */
import type { Router } from 'express';
import { ErrorCode, fail, ok } from '@gd/shared';
import { isUniqueViolation } from '../../db/errors.ts';
import type { Deps } from '../../http/context.ts';
import { route } from '../../http/endpoint.ts';
import { isUuid } from '../../http/validate.ts';
import * as repo from './repository.ts';

const notFound = () => fail(ErrorCode.NOT_EXIST, 'Communication parameter not found');
const taken = () => fail(ErrorCode.NAME_DUPLICATED, 'The app already has a parameter with that name', [{ path: 'name', message: 'name_taken' }]);

export function commParameterRoutes(router: Router, deps: Deps): void {
  const { db } = deps;

  route(router, deps, 'listCommunicationParameters', async ({ app }) => ok({ parameters: await repo.listParameters(db, app.id) }));

  route(router, deps, 'createCommunicationParameter', async ({ app, principal, body }) => {
    try {
      return ok({ parameter: await repo.insertParameter(db, { accountId: principal.account.id, appId: app.id, userId: principal.user.id, parameter: body }) });
    } catch (error) {
      if (isUniqueViolation(error)) return taken();
      throw error;
    }
  });

  route(router, deps, 'updateCommunicationParameter', async ({ app, params, body }) => {
    const id = params.parameterId ?? '';
    if (!isUuid(id)) return notFound();
    try {
      const parameter = await repo.updateParameter(db, app.id, id, body);
      return parameter ? ok({ parameter }) : notFound();
    } catch (error) {
      if (isUniqueViolation(error)) return taken();
      throw error;
    }
  });

  route(router, deps, 'deleteCommunicationParameter', async ({ app, params }) => {
    const id = params.parameterId ?? '';
    return isUuid(id) && (await repo.deleteParameter(db, app.id, id)) ? ok({}) : notFound();
  });
}
