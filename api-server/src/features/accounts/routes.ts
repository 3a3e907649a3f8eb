/** The signed-in user's meta, profile and account; account users; account roles (/user-roles). */
import type { Router } from 'express';
import {
  BUILT_IN_ROLES, ErrorCode, can, disallowedFor, fail, ok, type BuiltInRole, conflict,
} from '@gd/shared';
import type { Deps } from '../../http/context.ts';
import { accountSubject, route } from '../../http/endpoint.ts';
import { serialise } from '../../http/respond.ts';
import { isUuid } from '../../http/validate.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { tx } from '../../db/pool.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import { renderMail } from '../../mail/templates.ts';
import { listApps } from '../apps/repository.ts';
import { createAutoLoginLink, publicBaseUrl } from '../auth/routes.ts';
import { revokeAllForUser } from '../auth/repository.ts';
import { MetaCache } from './metaCache.ts';
import * as repo from './repository.ts';

/** An id that is not of the caller's account answers like one of another account: no permission. */
const notInAccount = (what: string) => fail(ErrorCode.NO_PERMISSION, `No permission for this ${what}`);
const roleNameTaken = () => fail(ErrorCode.NAME_DUPLICATED, 'A role with that name already exists', [{ path: 'name', message: 'Name already in use' }]);

/**
 * GET /user/meta, registered by app.ts ahead of the body parser and CSRF check. Served from this
 * process's cache while the meta version read with the principal is unchanged (metaCache.ts says why
 * that is never stale); the apps are read only on a miss.
 */
export function metaRoute(router: Router, deps: Deps): void {
  const { db } = deps;
  const metaCache = new MetaCache();
  route(router, deps, 'meta', async ({ principal }) => {
    const cached = metaCache.get(principal);
    if (cached) return ok(cached);
    const apps = await listApps(db, principal.account.id);
    const { grants } = principal.user;
    const answer = serialise({
      user: repo.toUser(principal.user),
      account: principal.account,
      apps: apps.map((app) => ({ ...app, disallowed: disallowedFor(grants, app.restricted) })),
      disallowed: disallowedFor(grants),
      build: deps.config.BUILD_HASH,
    });
    metaCache.set(principal, answer);
    return ok(answer);
  });
}

export function accountRoutes(router: Router, deps: Deps): void {
  const { db } = deps;

  route(router, deps, 'updateProfile', async ({ principal, body }) => {
    await repo.updateUser(db, principal.account.id, principal.user.id, body);
    const user = await repo.findUserById(db, principal.user.id);
    return user ? ok({ user: repo.toUser(user) }) : fail(ErrorCode.NOT_EXIST, 'User not found');
  });

  route(router, deps, 'getAccount', ({ principal }) => ok({ account: principal.account }));

  route(router, deps, 'updateAccount', async ({ principal, body }) => {
    const account = await repo.updateAccount(db, principal.account.id, body);
    return account ? ok({ account }) : fail(ErrorCode.NOT_EXIST, 'Account not found');
  });

  route(router, deps, 'updatePlan', async ({ principal, body }) => {
    const account = await repo.updateAccount(db, principal.account.id, { plan: body.plan });
    return account ? ok({ account }) : fail(ErrorCode.NOT_EXIST, 'Account not found');
  });

  route(router, deps, 'listUsers', async ({ principal }) => ok({ users: (await repo.listUsers(db, principal.account.id)).map(repo.toUser) }));

  route(router, deps, 'addUser', async ({ principal, body, req }) => {
    const role = await repo.findRole(db, principal.account.id, body.roleId);
    if (!role) return notInAccount('role');
    const base = publicBaseUrl(deps, req);
    try {
      const user = await tx(db, async (client) => {
        const id = await repo.insertUser(client, { accountId: principal.account.id, email: body.email, name: body.name, passwordHash: null, roleId: role.id, language: principal.user.language });
        const row = await repo.findUserById(client, id);
        if (!row) throw new Error('user vanished inside its own transaction');
        const link = await createAutoLoginLink(deps, client, base, row, '/user/password');
        await enqueueMail(client, { to: row.email, kind: 'invitation', ...renderMail('invitation', row.language, { name: row.name, link, account: principal.account.name }) });
        return row;
      });
      deps.notifyMail();
      return ok({ user: repo.toUser(user) });
    } catch (error) {
      if (isUniqueViolation(error, 'users_email')) {
        return fail(ErrorCode.EMAIL_EXISTS, 'A user with that e-mail already exists', [{ path: 'email', message: 'Already registered' }]);
      }
      throw error;
    }
  });

  route(router, deps, 'updateUser', async ({ principal, params, body }) => {
    const id = params.userId ?? '';
    const target = isUuid(id) ? await repo.findUserInAccount(db, principal.account.id, id) : undefined;
    if (!target) return notInAccount('user');
    if (id === principal.user.id && (body.roleId !== undefined || body.active === false)) {
      return fail(ErrorCode.NO_PERMISSION, 'You cannot change your own role or deactivate yourself');
    }
    if (body.roleId && !(await repo.findRole(db, principal.account.id, body.roleId))) return notInAccount('role');
    await tx(db, async (client) => {
      await repo.updateUser(client, principal.account.id, id, body);
      if (body.active === false) await revokeAllForUser(client, id);
    });
    const user = await repo.findUserById(db, id);
    return user ? ok({ user: repo.toUser(user) }) : fail(ErrorCode.NOT_EXIST, 'User not found');
  });

  route(router, deps, 'deleteUser', async ({ principal, params }) => {
    const id = params.userId ?? '';
    if (id === principal.user.id) return fail(ErrorCode.USER_DELETION_FIRST_FAIL, 'You cannot delete your own user');
    return isUuid(id) && (await repo.deleteUser(db, principal.account.id, id)) ? ok({}) : notInAccount('user');
  });

  route(router, deps, 'listRoles', async ({ principal }) => ok({ roles: await repo.listRoles(db, principal.account.id) }));

  route(router, deps, 'putRole', async ({ principal, params, body }) => {
    const id = params.roleId ?? '';
    if (!isUuid(id)) return fail(ErrorCode.MANDATORY, 'Role ids are UUIDs', [{ path: 'roleId', message: 'Expected a UUID' }]);
    const existing = await repo.findRole(db, principal.account.id, id);
    if (existing?.builtIn === 'client') return fail(ErrorCode.NO_PERMISSION, 'The Client role of the account owner cannot be changed');
    if (existing?.builtIn && body.userType !== BUILT_IN_ROLES[existing.builtIn as BuiltInRole].userType) {
      return fail(ErrorCode.NO_PERMISSION, 'A built-in role keeps its user type', [{ path: 'userType', message: 'Fixed for built-in roles' }]);
    }
    // Nobody may grant what they do not hold themselves.
    const subject = accountSubject(principal);
    const beyond = body.grants.filter((key) => !can(subject, key as Parameters<typeof can>[1]));
    if (beyond.length > 0) return fail(ErrorCode.NO_PERMISSION, `You cannot grant permissions you do not have: ${beyond.slice(0, 5).join(', ')}`);
    try {
      if (existing) {
        if (existing.id === principal.user.role_id && !body.grants.includes('api:account.roles')) {
          return fail(ErrorCode.NO_PERMISSION, 'You cannot remove the roles permission from your own role');
        }
        await repo.updateRole(db, principal.account.id, id, body);
      } else {
        await repo.insertRole(db, principal.account.id, { id, name: body.name, builtIn: null, userType: body.userType, grants: body.grants });
      }
    } catch (error) {
      if (isUniqueViolation(error)) return roleNameTaken();
      throw error;
    }
    const role = await repo.findRole(db, principal.account.id, id);
    return role ? ok({ role }) : fail(ErrorCode.NOT_EXIST, 'Role not found');
  });

  route(router, deps, 'deleteRole', async ({ principal, params }) => {
    const id = params.roleId ?? '';
    const role = isUuid(id) ? await repo.findRole(db, principal.account.id, id) : undefined;
    if (!role) return notInAccount('role');
    if (role.builtIn) return fail(ErrorCode.NO_PERMISSION, 'Built-in roles cannot be deleted');
    if (role.userCount > 0) return conflict(`This role still has ${role.userCount} user(s); give them another role first`);
    await repo.deleteRole(db, principal.account.id, id);
    return ok({});
  });
}
