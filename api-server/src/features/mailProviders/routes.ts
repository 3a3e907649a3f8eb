/**
 * Mail providers of the account (/manage/mail-providers): list, read, create, edit, delete,
 * activate and deactivate, and a connection test. Account-wide: every query is scoped by the
 * caller's account, and an id of another account answers like an unused one (10004).
 *
 * The password is sealed with the server secret and the row id (imports/secretBox.ts) and never
 * answered. Editing without a password keeps the stored one, except when the host or the TLS
 * mode changes: the stored password would then go to a server it was not given for (or over a
 * plain connection), so a new one is asked for (10001 on `password`).
 */
import { randomUUID } from 'node:crypto';
import type { Router } from 'express';
import { ErrorCode, fail, ok, type FieldIssue } from '@gd/shared';
import type { MailProviderInput } from '@gd/shared/schemas/mailProviders';
import { isUniqueViolation } from '../../db/errors.ts';
import type { Deps } from '../../http/context.ts';
import { route } from '../../http/endpoint.ts';
import { isUuid } from '../../http/validate.ts';
import { netPolicy } from '../../net/index.ts';
import { ISSUE_TEXT, addressProblems } from '../imports/netConfig.ts';
import * as repo from './repository.ts';
import { sealPassword, testConnection } from './transport.ts';

const notFound = () => fail(ErrorCode.NO_PERMISSION, 'No permission for this mail provider');
const taken = () => fail(ErrorCode.NAME_DUPLICATED, 'The account already has a mail provider with that name', [{ path: 'name', message: 'name_taken' }]);
const PASSWORD_TEXT: Readonly<Record<string, string>> = {
  password_required: 'a username needs its password',
  password_again: 'enter the password again: the host or the TLS mode changed',
};
const invalid = (details: FieldIssue[]) =>
  fail(ErrorCode.MANDATORY, details.map((d) => `${d.path}: ${ISSUE_TEXT[d.message] ?? PASSWORD_TEXT[d.message] ?? d.message}`).join('; '), details);

export function mailProviderRoutes(router: Router, deps: Deps): void {
  const { db } = deps;
  const policy = () => netPolicy(deps.config);
  const hostProblems = (body: MailProviderInput) => addressProblems([{ path: 'host', host: body.host }], policy());

  route(router, deps, 'listMailProviders', async ({ principal }) => ok({ providers: await repo.listProviders(db, principal.account.id) }));

  route(router, deps, 'getMailProvider', async ({ principal, params }) => {
    const id = params.providerId ?? '';
    const provider = isUuid(id) ? await repo.findProvider(db, principal.account.id, id) : undefined;
    return provider ? ok({ provider }) : notFound();
  });

  route(router, deps, 'createMailProvider', async ({ principal, body }) => {
    const issues = await hostProblems(body);
    if (body.username && body.password === undefined) issues.push({ path: 'password', message: 'password_required' });
    if (issues.length) return invalid(issues);
    const id = randomUUID();
    const secret = body.username && body.password !== undefined ? sealPassword(deps.secret, id, body.password) : null;
    try {
      return ok({ provider: await repo.insertProvider(db, { id, accountId: principal.account.id, userId: principal.user.id, provider: body, secret }) });
    } catch (error) {
      if (isUniqueViolation(error, 'mail_providers_account_name')) return taken();
      throw error;
    }
  });

  route(router, deps, 'updateMailProvider', async ({ principal, params, body }) => {
    const id = params.providerId ?? '';
    const accountId = principal.account.id;
    const current = isUuid(id) ? await repo.providerSettings(db, accountId, { id }) : undefined;
    if (!current) return notFound();
    const issues = await hostProblems(body);
    const moved = current.host.toLowerCase() !== body.host.toLowerCase() || current.tls !== body.tls;
    if (body.username && body.password === undefined) {
      if (!current.secret) issues.push({ path: 'password', message: 'password_required' });
      else if (moved) issues.push({ path: 'password', message: 'password_again' });
    }
    if (issues.length) return invalid(issues);
    const secret = !body.username ? null : body.password !== undefined ? sealPassword(deps.secret, id, body.password) : current.secret;
    try {
      const provider = await repo.updateProvider(db, accountId, id, body, secret);
      return provider ? ok({ provider }) : notFound();
    } catch (error) {
      if (isUniqueViolation(error, 'mail_providers_account_name')) return taken();
      throw error;
    }
  });

  route(router, deps, 'deleteMailProvider', async ({ principal, params }) => {
    const id = params.providerId ?? '';
    return isUuid(id) && (await repo.deleteProvider(db, principal.account.id, id)) ? ok({}) : notFound();
  });

  for (const [name, active] of [['activateMailProvider', true], ['deactivateMailProvider', false]] as const) {
    route(router, deps, name, async ({ principal, params }) => {
      const id = params.providerId ?? '';
      const provider = isUuid(id) ? await repo.setActive(db, principal.account.id, id, active) : undefined;
      return provider ? ok({ provider }) : notFound();
    });
  }

  route(router, deps, 'testMailProvider', async ({ principal, params }) => {
    const id = params.providerId ?? '';
    const settings = isUuid(id) ? await repo.providerSettings(db, principal.account.id, { id }) : undefined;
    if (!settings) return notFound();
    return ok({ result: await testConnection(settings, deps.secret, policy()) });
  });
}
