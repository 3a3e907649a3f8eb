/** Creating an account: the account row, its built-in roles, and its owner (role Client). */
import { BUILT_IN_ROLES, BuiltInRole, ROLE_GRANTS, type JobDepartment, type Language, type Plan } from '@gd/shared';
import type { Queryable } from '../../db/pool.ts';
import { insertAccount, insertRole, insertUser } from './repository.ts';

export async function provisionAccount(db: Queryable, input: {
  accountName: string; plan: Plan; owner: { name: string; email: string; passwordHash: string | null; jobDepartment?: JobDepartment | undefined; language?: Language | undefined };
}): Promise<{ accountId: string; ownerId: string; roleIds: Record<BuiltInRole, string> }> {
  const account = await insertAccount(db, { name: input.accountName, plan: input.plan });
  const roleIds = {} as Record<BuiltInRole, string>;
  for (const key of BuiltInRole) {
    const def = BUILT_IN_ROLES[key];
    roleIds[key] = await insertRole(db, account.id, { name: def.label, builtIn: key, userType: def.userType, grants: ROLE_GRANTS[key] });
  }
  const ownerId = await insertUser(db, { accountId: account.id, ...input.owner, roleId: roleIds.client });
  return { accountId: account.id, ownerId, roleIds };
}
