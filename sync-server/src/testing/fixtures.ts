/**
 * Test data written straight to Postgres: an account with built-in roles, one user per role, an app
 * and a journey, plus document tokens signed like the API signs them. Every call makes fresh ids,
 * so test files share the migrated database without interfering.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import type pg from 'pg';
import {
  BUILT_IN_ROLES, DOC_TOKEN_ISSUER, ROLE_GRANTS, docName, type BuiltInRole, type DocTokenClaims,
} from '@gd/shared';

export const TEST_SECRET = 'sync-test-secret-0123456789abcdef0123456789';

type Role = 'manager' | 'author' | 'analyst' | 'provider';
const ROLES: readonly Role[] = ['manager', 'author', 'analyst', 'provider'];

export interface TestUser { id: string; name: string }

export interface Fixture {
  accountId: string;
  appId: string;
  journeyId: string;
  /** The journey's document name. */
  doc: string;
  users: Record<Role, TestUser>;
  /** A signed document token; `claims` overrides the defaults (a 'doc' token for `doc`, write access). */
  token(user: TestUser, claims?: Partial<DocTokenClaims>, opts?: { secret?: string; expiresIn?: string | number }): Promise<string>;
  /** Another journey in the same app, created by `createdBy`; returns its document name. */
  newJourneyDoc(createdBy?: TestUser): Promise<string>;
  /** A segment in the same app, created by `createdBy`; returns its document name. */
  newSegmentDoc(createdBy?: TestUser): Promise<string>;
  /** A message (in a new campaign) of the same app, created and owned by `createdBy`; returns its document name. */
  newMessageDoc(createdBy?: TestUser): Promise<string>;
  /** A dashboard of the same app, created by `createdBy`; returns its document name. */
  newDashboardDoc(createdBy?: TestUser): Promise<string>;
}

const one = async <T>(db: pg.Pool, sql: string, params: unknown[]): Promise<T> => {
  const row = (await db.query<T & pg.QueryResultRow>(sql, params)).rows[0];
  if (!row) throw new Error(`no row from ${sql}`);
  return row;
};

export function signDocToken(claims: DocTokenClaims, opts: { secret?: string; expiresIn?: string | number } = {}): Promise<string> {
  return new SignJWT({ ...claims })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(DOC_TOKEN_ISSUER)
    .setIssuedAt()
    .setExpirationTime(opts.expiresIn ?? '5m')
    .sign(new TextEncoder().encode(opts.secret ?? TEST_SECRET));
}

export async function createFixture(db: pg.Pool, opts: { appRestricted?: string[] } = {}): Promise<Fixture> {
  const tag = randomBytes(4).toString('hex');
  const { id: accountId } = await one<{ id: string }>(db, `INSERT INTO accounts (name, plan) VALUES ($1, 'growth') RETURNING id`, [`Sync ${tag}`]);
  const users = {} as Record<Role, TestUser>;
  for (const role of ROLES) {
    const builtIn: BuiltInRole = role;
    const { id: roleId } = await one<{ id: string }>(db,
      `INSERT INTO user_roles (account_id, name, built_in, user_type, grants) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      [accountId, BUILT_IN_ROLES[builtIn].label, builtIn, BUILT_IN_ROLES[builtIn].userType, [...ROLE_GRANTS[builtIn]]]);
    const name = `${role[0]?.toUpperCase()}${role.slice(1)} ${tag}`;
    const { id } = await one<{ id: string }>(db,
      `INSERT INTO users (account_id, email, name, role_id) VALUES ($1, $2, $3, $4) RETURNING id`,
      [accountId, `${role}-${tag}@sync.test`, name, roleId]);
    users[role] = { id, name };
  }
  const { id: appId } = await one<{ id: string }>(db,
    `INSERT INTO apps (account_id, name, os, app_key, restricted) VALUES ($1, $2, 'iOS', $3, $4) RETURNING id`,
    [accountId, `App ${tag}`, `key-${tag}-${randomUUID()}`, opts.appRestricted ?? []]);

  const addJourney = async (createdBy: TestUser) => {
    const id = randomUUID();
    const doc = docName(accountId, appId, 'journey', id);
    await db.query(
      `INSERT INTO journeys (id, account_id, app_id, name, doc_name, created_by) VALUES ($1, $2, $3, $4, $5, $6)`,
      [id, accountId, appId, `Journey ${id}`, doc, createdBy.id]);
    return { id, doc };
  };
  const { id: journeyId, doc } = await addJourney(users.manager);

  return {
    accountId, appId, journeyId, doc, users,
    newJourneyDoc: async (createdBy = users.manager) => (await addJourney(createdBy)).doc,
    newSegmentDoc: async (createdBy = users.manager) => {
      const id = randomUUID();
      const name = docName(accountId, appId, 'segment', id);
      await db.query(
        `INSERT INTO segments (id, account_id, app_id, name, doc_name, created_by) VALUES ($1, $2, $3, $4, $5, $6)`,
        [id, accountId, appId, `Segment ${id}`, name, createdBy.id]);
      return name;
    },
    newMessageDoc: async (createdBy = users.manager) => {
      const id = randomUUID();
      const name = docName(accountId, appId, 'message', id);
      const { id: campaignId } = await one<{ id: string }>(db,
        `INSERT INTO campaigns (account_id, app_id, name, created_by) VALUES ($1, $2, $3, $4) RETURNING id`, [accountId, appId, `Campaign ${id}`, createdBy.id]);
      await db.query(
        `INSERT INTO messages (id, account_id, app_id, campaign_id, name, type, origin, doc_name, created_by, owner_id)
         VALUES ($1, $2, $3, $4, $5, 'push', 'classic', $6, $7, $7)`,
        [id, accountId, appId, campaignId, `Message ${id}`, name, createdBy.id]);
      return name;
    },
    newDashboardDoc: async (createdBy = users.manager) => {
      const id = randomUUID();
      const name = docName(accountId, appId, 'dashboard', id);
      await db.query(
        `INSERT INTO dashboards (id, account_id, app_id, name, doc_name, created_by) VALUES ($1, $2, $3, $4, $5, $6)`,
        [id, accountId, appId, `Dashboard ${id}`, name, createdBy.id]);
      return name;
    },
    token: (user, claims = {}, signOpts = {}) =>
      signDocToken({ typ: 'doc', sub: user.id, acc: accountId, doc, access: 'write', ...claims }, signOpts),
  };
}
