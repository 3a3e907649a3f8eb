/**
 * Native ad templates: an app's own (/manage/native-templates) and the platform's, shared by every
 * account (/admin/native-templates, platform administrators only). The same rules for both scopes:
 * names unique in the scope (32), exactly one default once the scope has a template (the first
 * one becomes it; making another the default moves it; unsetting or deleting it: 33). The
 * platform's default is seeded by migration 015.
 *
 * An app's route never reaches the platform's templates or another app's, and the platform's
 * routes never reach an app's: such an id answers like an unused one (10).
 */
import type { Router } from 'express';
import { ErrorCode, fail, ok, type Failure, type Result } from '@gd/shared';
import type { NativeTemplate, NativeTemplateInput } from '@gd/shared/schemas/messageSettings';
import { isUniqueViolation } from '../../db/errors.ts';
import { tx } from '../../db/pool.ts';
import type { Deps } from '../../http/context.ts';
import { route } from '../../http/endpoint.ts';
import { isUuid } from '../../http/validate.ts';
import * as repo from './repository.ts';

const notFound = () => fail(ErrorCode.NOT_EXIST, 'Native ad template not found');
const taken = () => fail(ErrorCode.NATIVE_AD_TEMPLATE_DUPLICATED, 'A template with that name already exists', [{ path: 'name', message: 'name_taken' }]);
const keepsDefault = (why: string) => fail(ErrorCode.NATIVE_AD_TEMPLATE_DEFAULT, `${why}: make another template the default first`, [{ path: 'isDefault', message: 'default_required' }]);

const NAME_INDEXES = ['native_ad_templates_app_name', 'native_ad_templates_platform_name'];
/** A name taken answers 32; any other refusal of the database is not ours to explain. */
async function naming<T>(run: () => Promise<Result<T>>): Promise<Result<T>> {
  try {
    return await run();
  } catch (error) {
    if (NAME_INDEXES.some((index) => isUniqueViolation(error, index))) return taken();
    throw error;
  }
}

export function create(deps: Deps, scope: repo.Scope, userId: string, template: NativeTemplateInput): Promise<Result<{ template: NativeTemplate }>> {
  return naming(() => tx(deps.db, async (client) => {
    await repo.lockScope(client, scope);
    // The scope's first template is its default, whatever was asked: a scope with templates always has one.
    const isDefault = template.isDefault === true || !(await repo.hasDefault(client, scope));
    if (isDefault) await repo.clearDefault(client, scope);
    return ok({ template: await repo.insertTemplate(client, scope, { userId, template, isDefault }) });
  }));
}

export function update(deps: Deps, scope: repo.Scope, id: string | undefined, template: NativeTemplateInput): Promise<Result<{ template: NativeTemplate }>> {
  if (!id || !isUuid(id)) return Promise.resolve(notFound());
  return naming(() => tx(deps.db, async (client): Promise<Result<{ template: NativeTemplate }>> => {
    await repo.lockScope(client, scope);
    const row = await repo.findTemplate(client, scope, id);
    if (!row) return notFound();
    if (row.is_default && template.isDefault === false) return keepsDefault('This is the default template');
    const isDefault = row.is_default || template.isDefault === true;
    if (isDefault && !row.is_default) await repo.clearDefault(client, scope);
    const updated = await repo.updateTemplate(client, scope, id, { template, isDefault });
    return updated ? ok({ template: updated }) : notFound();
  }));
}

export function remove(deps: Deps, scope: repo.Scope, id: string | undefined): Promise<Result<Record<string, never>> | Failure> {
  if (!id || !isUuid(id)) return Promise.resolve(notFound());
  return tx(deps.db, async (client) => {
    await repo.lockScope(client, scope);
    const row = await repo.findTemplate(client, scope, id);
    if (!row) return notFound();
    if (row.is_default) return keepsDefault('The default template cannot be deleted');
    await repo.deleteTemplate(client, scope, id);
    return ok({});
  });
}

export function nativeTemplateRoutes(router: Router, deps: Deps): void {
  const { db } = deps;
  const appScope = (accountId: string, appId: string): repo.Scope => ({ accountId, appId });

  route(router, deps, 'listNativeTemplates', async ({ app }) => ok({ templates: await repo.listTemplates(db, appScope(app.accountId, app.id)) }));
  route(router, deps, 'listNativeTemplateChoices', async ({ app }) => {
    const own = await repo.listTemplates(db, appScope(app.accountId, app.id));
    const platform = await repo.listTemplates(db, null);
    // The app's default when it has templates, else the platform's.
    const defaultId = (own.find((t) => t.isDefault) ?? platform.find((t) => t.isDefault))?.id ?? null;
    return ok({ templates: [...own, ...platform], defaultId });
  });
  route(router, deps, 'createNativeTemplate', ({ app, principal, body }) => create(deps, appScope(app.accountId, app.id), principal.user.id, body));
  route(router, deps, 'updateNativeTemplate', ({ app, params, body }) => update(deps, appScope(app.accountId, app.id), params.templateId, body));
  route(router, deps, 'deleteNativeTemplate', ({ app, params }) => remove(deps, appScope(app.accountId, app.id), params.templateId));

  route(router, deps, 'listPlatformNativeTemplates', async () => ok({ templates: await repo.listTemplates(db, null) }));
  route(router, deps, 'createPlatformNativeTemplate', ({ principal, body }) => create(deps, null, principal.user.id, body));
  route(router, deps, 'updatePlatformNativeTemplate', ({ params, body }) => update(deps, null, params.templateId, body));
  route(router, deps, 'deletePlatformNativeTemplate', ({ params }) => remove(deps, null, params.templateId));
}
