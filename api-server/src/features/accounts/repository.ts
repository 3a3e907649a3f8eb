/** SQL for accounts, users and roles. Rows never leave this module unmapped. */
import {
  ACCESS_TOKEN_TTL_SECONDS, apiVersionForPlan, type Account, type JobDepartment, type Language, type Plan, type SupportLevel, type User,
  type UserRole, type UserTypeValue,
} from '@gd/shared';
import { single, statement, type Queryable } from '../../db/pool.ts';

interface AccountRow { id: string; name: string; plan: Plan; support_level: SupportLevel; created_at: Date }
export interface UserRow {
  id: string; account_id: string; email: string; name: string; password_hash: string | null; role_id: string;
  role_name: string; user_type: UserTypeValue; grants: string[]; job_department: JobDepartment | null;
  language: Language; active: boolean; created_at: Date; last_login_at: Date | null;
}
interface RoleRow { id: string; name: string; built_in: string | null; user_type: UserTypeValue; grants: string[]; user_count: number }

export const toAccount = (r: AccountRow): Account => ({
  id: r.id, name: r.name, plan: r.plan, supportLevel: r.support_level, apiVersion: apiVersionForPlan(r.plan), createdAt: r.created_at.toISOString(),
});
export const toUser = (r: UserRow): User => ({
  id: r.id, accountId: r.account_id, email: r.email, name: r.name, userType: r.user_type, roleId: r.role_id,
  roleName: r.role_name, jobDepartment: r.job_department, language: r.language, active: r.active, passwordSet: r.password_hash !== null,
  createdAt: r.created_at.toISOString(), lastLoginAt: r.last_login_at?.toISOString() ?? null,
});
const toRole = (r: RoleRow): UserRole => ({ id: r.id, name: r.name, builtIn: r.built_in, userType: r.user_type, grants: r.grants, userCount: r.user_count });

// Grants travel as one comma-joined string: splitting it is far cheaper than parsing a text[] literal
// of a few hundred keys on every request (measured in the /user/meta benchmark).
const USER_SELECT = `SELECT u.id, u.account_id, u.email, u.name, u.password_hash, u.role_id, r.name AS role_name,
  r.user_type, array_to_string(r.grants, ',') AS grants_csv, u.job_department, u.language, u.active, u.created_at, u.last_login_at
  FROM users u JOIN user_roles r ON r.account_id = u.account_id AND r.id = u.role_id`;

type UserQueryRow = Omit<UserRow, 'grants'> & { grants_csv: string };
const withGrants = (r: UserQueryRow | undefined): UserRow | undefined => {
  if (!r) return undefined;
  const { grants_csv, ...rest } = r;
  return { ...rest, grants: grants_csv ? grants_csv.split(',') : [] };
};

export async function findUserById(db: Queryable, id: string): Promise<UserRow | undefined> {
  return withGrants((await db.query<UserQueryRow>(`${USER_SELECT} WHERE u.id = $1`, [id])).rows[0]);
}
export async function findUserByEmail(db: Queryable, email: string): Promise<UserRow | undefined> {
  return withGrants((await db.query<UserQueryRow>(`${USER_SELECT} WHERE lower(u.email) = lower($1)`, [email])).rows[0]);
}
export async function findUserInAccount(db: Queryable, accountId: string, id: string): Promise<UserRow | undefined> {
  return withGrants((await db.query<UserQueryRow>(`${USER_SELECT} WHERE u.id = $1 AND u.account_id = $2`, [id, accountId])).rows[0]);
}
/**
 * Moves these users' access versions (migration 008's trigger does it on any update of the row):
 * the sync server decides their open document connections again (accessWatch.ts). For changes of a
 * document's owner, which decide the `:owner` permission variants without touching a user or role.
 */
export async function moveAccessVersions(db: Queryable, userIds: readonly (string | null)[]): Promise<void> {
  const ids = [...new Set(userIds.filter((id): id is string => id !== null))];
  if (ids.length) await db.query('UPDATE users SET meta_version = meta_version WHERE id = ANY($1::uuid[])', [ids]);
}
export async function listUsers(db: Queryable, accountId: string): Promise<UserRow[]> {
  const { rows } = await db.query<UserQueryRow>(`${USER_SELECT} WHERE u.account_id = $1 ORDER BY lower(u.name), u.email`, [accountId]);
  return rows.map((r) => withGrants(r) as UserRow);
}

/**
 * The signed-in principal in one round trip: the user with its role, and its account, with the
 * versions of what `/user/meta` shows (migration 008: bumped by triggers in the writing transaction).
 */
const PRINCIPAL_SQL = `${USER_SELECT.replace('FROM users u', `, a.name AS a_name, a.plan AS a_plan, a.support_level AS a_support_level, a.created_at AS a_created_at,
  a.meta_version::text || '.' || u.meta_version::text AS meta_version,
  ARRAY(SELECT DISTINCT t.family_id::text FROM refresh_tokens t
        WHERE t.user_id = u.id AND t.revoked_at > now() - make_interval(secs => ${2 * ACCESS_TOKEN_TTL_SECONDS})) AS revoked_sessions FROM users u`)}
  JOIN accounts a ON a.id = u.account_id WHERE u.id = $1`;

export interface PrincipalRow {
  user: UserRow;
  account: Account;
  /** `<account version>.<user version>`: changes whenever the user, its role, the account or its apps change. */
  metaVersion: string;
  /** Sessions revoked recently enough that their access tokens may still be presented (revoking moves the version). */
  revokedSessions: readonly string[];
}

/** The signed-in principal in one round trip (a named prepared statement: it runs on every call). */
export async function findPrincipal(db: Queryable, userId: string): Promise<PrincipalRow | undefined> {
  const { rows } = await db.query<UserQueryRow & { a_name: string; a_plan: Plan; a_support_level: SupportLevel; a_created_at: Date; meta_version: string; revoked_sessions: string[] }>(
    statement('find_principal', PRINCIPAL_SQL, [userId]),
  );
  const row = rows[0];
  const user = withGrants(row);
  if (!row || !user) return undefined;
  return {
    user,
    account: toAccount({ id: row.account_id, name: row.a_name, plan: row.a_plan, support_level: row.a_support_level, created_at: row.a_created_at }),
    metaVersion: row.meta_version,
    revokedSessions: row.revoked_sessions,
  };
}
const META_VERSION_SQL = `SELECT a.meta_version::text || '.' || u.meta_version::text AS v
  FROM users u JOIN accounts a ON a.id = u.account_id WHERE u.id = $1`;

/**
 * The per-request principal query when this process already holds the principal: only the meta
 * version (`<account version>.<user version>`), none when the user is gone.
 */
export async function findMetaVersion(db: Queryable, userId: string): Promise<string | undefined> {
  const { rows } = await db.query<{ v: string }>(statement('find_meta_version', META_VERSION_SQL, [userId]));
  return rows[0]?.v;
}

export async function findAccount(db: Queryable, id: string): Promise<Account | undefined> {
  const row = (await db.query<AccountRow>('SELECT * FROM accounts WHERE id = $1', [id])).rows[0];
  return row && toAccount(row);
}
export async function insertAccount(db: Queryable, a: { name: string; plan: Plan }): Promise<Account> {
  const row = single((await db.query<AccountRow>('INSERT INTO accounts (name, plan) VALUES ($1, $2) RETURNING *', [a.name, a.plan])).rows);
  return toAccount(row);
}
export async function updateAccount(db: Queryable, id: string, patch: { name?: string | undefined; supportLevel?: SupportLevel | undefined; plan?: Plan | undefined }): Promise<Account | undefined> {
  const row = (await db.query<AccountRow>(
    `UPDATE accounts SET name = COALESCE($2, name), support_level = COALESCE($3, support_level), plan = COALESCE($4, plan)
     WHERE id = $1 RETURNING *`,
    [id, patch.name ?? null, patch.supportLevel ?? null, patch.plan ?? null],
  )).rows[0];
  return row && toAccount(row);
}

export async function insertUser(db: Queryable, u: {
  accountId: string; email: string; name: string; passwordHash: string | null; roleId: string;
  jobDepartment?: JobDepartment | null | undefined; language?: Language | undefined;
}): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO users (account_id, email, name, password_hash, role_id, job_department, language, password_changed_at)
     VALUES ($1, lower($2), $3, $4, $5, $6, $7, CASE WHEN $4::text IS NULL THEN NULL ELSE now() END) RETURNING id`,
    [u.accountId, u.email, u.name, u.passwordHash, u.roleId, u.jobDepartment ?? null, u.language ?? 'en'],
  );
  return single(rows).id;
}
export async function updateUser(db: Queryable, accountId: string, id: string, patch: {
  name?: string | undefined; roleId?: string | undefined; active?: boolean | undefined;
  jobDepartment?: JobDepartment | null | undefined; language?: Language | undefined;
}): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE users SET name = COALESCE($3, name), role_id = COALESCE($4, role_id), active = COALESCE($5, active),
       job_department = CASE WHEN $6::boolean THEN $7 ELSE job_department END, language = COALESCE($8, language)
     WHERE id = $1 AND account_id = $2`,
    [id, accountId, patch.name ?? null, patch.roleId ?? null, patch.active ?? null, patch.jobDepartment !== undefined, patch.jobDepartment ?? null, patch.language ?? null],
  );
  return (rowCount ?? 0) > 0;
}
export async function deleteUser(db: Queryable, accountId: string, id: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM users WHERE id = $1 AND account_id = $2', [id, accountId]);
  return (rowCount ?? 0) > 0;
}
export async function touchLogin(db: Queryable, id: string): Promise<void> {
  await db.query('UPDATE users SET last_login_at = now() WHERE id = $1', [id]);
}

export async function listRoles(db: Queryable, accountId: string): Promise<UserRole[]> {
  const { rows } = await db.query<RoleRow>(
    `SELECT r.id, r.name, r.built_in, r.user_type, r.grants, count(u.id)::int AS user_count
     FROM user_roles r LEFT JOIN users u ON u.account_id = r.account_id AND u.role_id = r.id
     WHERE r.account_id = $1 GROUP BY r.account_id, r.id ORDER BY r.built_in IS NULL, r.created_at, lower(r.name)`,
    [accountId],
  );
  return rows.map(toRole);
}
export async function findRole(db: Queryable, accountId: string, id: string): Promise<UserRole | undefined> {
  return (await listRoles(db, accountId)).find((r) => r.id === id);
}
export async function findRoleByBuiltIn(db: Queryable, accountId: string, builtIn: string): Promise<{ id: string } | undefined> {
  return (await db.query<{ id: string }>('SELECT id FROM user_roles WHERE account_id = $1 AND built_in = $2', [accountId, builtIn])).rows[0];
}
export async function insertRole(db: Queryable, accountId: string, r: { id?: string; name: string; builtIn: string | null; userType: number; grants: readonly string[] }): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO user_roles (id, account_id, name, built_in, user_type, grants) VALUES (COALESCE($1, gen_random_uuid()), $2, $3, $4, $5, $6) RETURNING id`,
    [r.id ?? null, accountId, r.name, r.builtIn, r.userType, [...r.grants]],
  );
  return single(rows).id;
}
export async function updateRole(db: Queryable, accountId: string, id: string, r: { name: string; userType: number; grants: readonly string[] }): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE user_roles SET name = $3, user_type = $4, grants = $5, updated_at = now() WHERE id = $1 AND account_id = $2`,
    [id, accountId, r.name, r.userType, [...r.grants]],
  );
  return (rowCount ?? 0) > 0;
}
export async function deleteRole(db: Queryable, accountId: string, id: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM user_roles WHERE id = $1 AND account_id = $2', [id, accountId]);
  return (rowCount ?? 0) > 0;
}
