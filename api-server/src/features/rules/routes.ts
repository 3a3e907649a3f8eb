/**
 * Automatic rules of an app (/communication/rules; endpoints/rules.ts): list, read, the form's
 * choices, create, edit, clone, delete (soft), activate and pause. Item-level rights: edit,
 * delete and clone have owner variants, checked here on the rule's creator; a rule the caller may
 * not act on answers like an unused id (10004) and changes nothing.
 *
 * Every change that can alter what the app's active rules listen to rewrites the app's `rules`
 * trigger interests in the same transaction (repository.ts rewriteInterests), and wakes the
 * rules loop so a new daily rule whose hour has passed is looked at at once.
 */
import { randomUUID } from 'node:crypto';
import type { Router } from 'express';
import { ErrorCode, can, fail, ok, type FieldIssue, type PermissionKey, type PermissionSubject, type Result } from '@gd/shared';
import { normalizeRuleInput, validateRule } from '@gd/shared/rules/validate';
import type { RuleInput } from '@gd/shared/rules/model';
import type { Rule } from '@gd/shared/schemas/rules';
import { isUniqueViolation } from '../../db/errors.ts';
import { tx, type Queryable } from '../../db/pool.ts';
import type { Deps } from '../../http/context.ts';
import { route } from '../../http/endpoint.ts';
import { isUuid } from '../../http/validate.ts';
import { wakeRules } from './loop.ts';
import * as repo from './repository.ts';

const notFound = () => fail(ErrorCode.NO_PERMISSION, 'No permission for this rule');
const taken = () => fail(ErrorCode.NAME_DUPLICATED, 'The app already has a rule with that name', [{ path: 'name', message: 'name_taken' }]);
const NAME_INDEX = 'rules_app_name';

/** Whether the subject may act on this rule (the key, or its owner variant on a rule they created). */
const allowed = (subject: PermissionSubject, key: PermissionKey, rule: Rule) => can(subject, key, { ownerId: rule.ownerId });

/** The input's checks against the app's data; a failure names the fields (10001). */
async function checked(db: Queryable, appId: string, body: RuleInput): Promise<Result<RuleInput>> {
  const input = normalizeRuleInput(body);
  const violations = validateRule(input, await repo.referenceFacts(db, appId, input));
  if (violations.length === 0) return ok(input);
  const details: FieldIssue[] = violations.map((v) => ({ path: v.path, message: v.code }));
  return fail(ErrorCode.MANDATORY, violations.map((v) => `${v.path}: ${v.code}`).join('; '), details);
}

export function ruleRoutes(router: Router, deps: Deps): void {
  const { db } = deps;
  const wake = wakeRules;
  const load = (appId: string, id: string | undefined) => (id && isUuid(id) ? repo.findRule(db, appId, id) : Promise.resolve(undefined));

  /** A save that may hit the name index: 30 for a name in use. */
  const saving = async (run: () => Promise<Result<{ rule: Rule }>>): Promise<Result<{ rule: Rule }>> => {
    try {
      const result = await run();
      if (result.ok) wake();
      return result;
    } catch (error) {
      if (isUniqueViolation(error, NAME_INDEX)) return taken();
      throw error;
    }
  };

  route(router, deps, 'listRules', async ({ app }) => ok({ rules: await repo.listRules(db, app.id) }));

  route(router, deps, 'ruleChoices', async ({ app }) => ok({ choices: await repo.ruleChoices(db, app.id) }));

  route(router, deps, 'getRule', async ({ app, params }) => {
    const rule = await load(app.id, params.ruleId);
    return rule ? ok({ rule }) : notFound();
  });

  route(router, deps, 'createRule', async ({ app, principal, body }) => {
    const input = await checked(db, app.id, body);
    if (!input.ok) return input;
    return saving(() => tx(db, async (client) => {
      const id = randomUUID();
      await repo.insertRule(client, { id, accountId: principal.account.id, appId: app.id, userId: principal.user.id, input: input.value, status: 'active' });
      await repo.rewriteInterests(client, app.id);
      const rule = await repo.findRule(client, app.id, id);
      return rule ? ok({ rule }) : notFound();
    }));
  });

  route(router, deps, 'updateRule', async ({ app, subject, params, body }) => {
    const current = await load(app.id, params.ruleId);
    if (!current || !allowed(subject, 'ui:rule.edit', current)) return notFound();
    const input = await checked(db, app.id, body);
    if (!input.ok) return input;
    return saving(() => tx(db, async (client) => {
      if (!(await repo.updateRule(client, app.id, current.id, input.value))) return notFound();
      await repo.rewriteInterests(client, app.id);
      const rule = await repo.findRule(client, app.id, current.id);
      return rule ? ok({ rule }) : notFound();
    }));
  });

  route(router, deps, 'cloneRule', async ({ app, principal, subject, params, body }) => {
    const source = await load(app.id, params.ruleId);
    if (!source || !allowed(subject, 'ui:rule.clone', source)) return notFound();
    if (!can(subject, 'ui:rule.create')) return fail(ErrorCode.NO_PERMISSION, 'No permission to create rules');
    // A copy starts paused: two identical active rules would send the same message twice.
    const input: RuleInput = { name: body.name, trigger: source.trigger, messageId: source.messageId, sendHour: source.sendHour };
    return saving(() => tx(db, async (client) => {
      const id = randomUUID();
      await repo.insertRule(client, { id, accountId: principal.account.id, appId: app.id, userId: principal.user.id, input, status: 'paused' });
      const rule = await repo.findRule(client, app.id, id);
      return rule ? ok({ rule }) : notFound();
    }));
  });

  route(router, deps, 'deleteRule', async ({ app, subject, params }) => {
    const rule = await load(app.id, params.ruleId);
    if (!rule || !allowed(subject, 'ui:rule.delete', rule)) return notFound();
    const done = await tx(db, async (client) => {
      if (!(await repo.softDelete(client, app.id, rule.id))) return false;
      await repo.rewriteInterests(client, app.id);
      return true;
    });
    return done ? ok({}) : notFound();
  });

  for (const [name, status] of [['activateRule', 'active'], ['pauseRule', 'paused']] as const) {
    route(router, deps, name, async ({ app, subject, params }) => {
      const current = await load(app.id, params.ruleId);
      if (!current || !allowed(subject, 'ui:rule.edit', current)) return notFound();
      if (status === 'active') {
        // The message may have been deleted or sent back to review since the rule was saved.
        const check = await checked(db, app.id, { name: current.name, trigger: current.trigger, messageId: current.messageId, sendHour: current.sendHour });
        if (!check.ok) return check;
      }
      const rule = await tx(db, async (client) => {
        if (!(await repo.setStatus(client, app.id, current.id, status))) return undefined;
        await repo.rewriteInterests(client, app.id);
        return repo.findRule(client, app.id, current.id);
      });
      if (!rule) return notFound();
      if (status === 'active') wake();
      return ok({ rule });
    });
  }
}
