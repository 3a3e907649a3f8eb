import { z } from 'zod';
import { Name } from './common.ts';
import { AppOs, DeviceIdType, JobDepartment, Plan, SupportLevel, UserTypeValueSchema } from '../enums.ts';
import { Email } from '../formats.ts';
import { LANGUAGES } from '../language.ts';
import { isPermissionKey } from '../permissions/keys.ts';

const Id = z.string().uuid();
const Timestamp = z.string();

export const PermissionKeyList = z
  .array(z.string().refine(isPermissionKey, { message: 'Unknown permission key' }))
  .max(1000);

export const User = z.object({
  id: Id,
  accountId: Id,
  email: z.string(),
  name: z.string(),
  userType: UserTypeValueSchema,
  roleId: Id,
  roleName: z.string(),
  jobDepartment: JobDepartment.nullable(),
  language: z.enum(LANGUAGES),
  active: z.boolean(),
  /** False for a user invited by link who has not chosen a password yet. */
  passwordSet: z.boolean(),
  createdAt: Timestamp,
  lastLoginAt: Timestamp.nullable(),
});
export type User = z.infer<typeof User>;

export const Account = z.object({
  id: Id,
  name: z.string(),
  plan: Plan,
  supportLevel: SupportLevel,
  apiVersion: z.union([z.literal(1), z.literal(2)]),
  createdAt: Timestamp,
});
export type Account = z.infer<typeof Account>;

export const App = z.object({
  id: Id,
  accountId: Id,
  name: z.string(),
  os: AppOs,
  bundleId: z.string().nullable(),
  timezone: z.string(),
  appKey: z.string(),
  /** Permissions the app itself restricts for everyone (set by account admins). */
  restricted: z.array(z.string()),
  createdAt: Timestamp,
  createdBy: Id.nullable(),
});
export type App = z.infer<typeof App>;

export const isTimeZone = (tz: string) => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
};

export const AppInput = z.object({
  name: Name,
  os: AppOs,
  bundleId: z.string().trim().max(200).regex(/^[A-Za-z0-9._-]*$/, 'Letters, digits, dot, dash and underscore only').nullable().optional(),
  timezone: z.string().refine(isTimeZone, { message: 'Unknown time zone' }).default('UTC'),
  restricted: PermissionKeyList.optional(),
});
export type AppInput = z.infer<typeof AppInput>;

export const AccountUserInput = z.object({ name: Name, email: Email, roleId: Id });
export type AccountUserInput = z.infer<typeof AccountUserInput>;
export const AccountUserUpdate = z.object({ name: Name.optional(), roleId: Id.optional(), active: z.boolean().optional() });
export type AccountUserUpdate = z.infer<typeof AccountUserUpdate>;

export const ProfileUpdate = z.object({
  name: Name.optional(),
  jobDepartment: JobDepartment.nullable().optional(),
  language: z.enum(LANGUAGES).optional(),
});
export type ProfileUpdate = z.infer<typeof ProfileUpdate>;

export const AccountUpdate = z.object({ name: Name.optional(), supportLevel: SupportLevel.optional() });
export type AccountUpdate = z.infer<typeof AccountUpdate>;
export const PlanUpdate = z.object({ plan: Plan });
export type PlanUpdate = z.infer<typeof PlanUpdate>;

export const TestDevice = z.object({
  id: Id,
  appId: Id,
  name: z.string(),
  idType: DeviceIdType,
  deviceId: z.string(),
  createdAt: Timestamp,
  createdBy: Id.nullable(),
});
export type TestDevice = z.infer<typeof TestDevice>;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/**
 * The format of each device id type: IDFA, IDFV and GAID are UUIDs; an OAID is a UUID or 16 to 64
 * hexadecimal digits; `auto` (the SDK's install id) any id of letters, digits and : _ . -.
 */
export function deviceIdProblem(idType: z.infer<typeof DeviceIdType>, deviceId: string): string | null {
  switch (idType) {
    case 'idfa':
    case 'idfv':
    case 'gaid':
      return UUID_PATTERN.test(deviceId) ? null : `An ${idType.toUpperCase()} is a UUID: 8-4-4-4-12 hexadecimal digits, like 6D92078A-8246-4BA4-AE5B-76104861E7DC`;
    case 'oaid':
      return UUID_PATTERN.test(deviceId) || /^[0-9a-f]{16,64}$/i.test(deviceId) ? null : 'An OAID is a UUID or 16 to 64 hexadecimal digits';
    default:
      return null;
  }
}
export const TestDeviceInput = z.object({
  name: Name,
  idType: DeviceIdType,
  deviceId: z.string().trim().min(4, 'Too short').max(200).regex(/^[A-Za-z0-9:_.-]+$/, 'Letters, digits, colon, dot, dash and underscore only'),
}).superRefine((input, ctx) => {
  const problem = deviceIdProblem(input.idType, input.deviceId);
  if (problem) ctx.addIssue({ code: 'custom', path: ['deviceId'], message: problem });
});
export type TestDeviceInput = z.infer<typeof TestDeviceInput>;

/** An account-level role (SPEC.md section 7: /user-roles). */
export const UserRole = z.object({
  id: Id,
  name: z.string(),
  /** Built-in roles carry their key (client, admin, ...); custom roles are null. */
  builtIn: z.string().nullable(),
  userType: UserTypeValueSchema,
  grants: z.array(z.string()),
  userCount: z.number().int(),
});
export type UserRole = z.infer<typeof UserRole>;
export const UserRoleInput = z.object({ name: Name, userType: UserTypeValueSchema, grants: PermissionKeyList });
export type UserRoleInput = z.infer<typeof UserRoleInput>;

/** An app as the current user sees it: with the user's disallowed permission list for it. */
export const MetaApp = App.extend({ disallowed: z.array(z.string()) });
export type MetaApp = z.infer<typeof MetaApp>;
/** `GET /user/meta`: who I am, my account, my apps and, per app, my disallowed permission list. */
export const UserMeta = z.object({
  user: User,
  account: Account,
  apps: z.array(MetaApp),
  /** Disallowed list outside any app (account screens), from the role alone. */
  disallowed: z.array(z.string()),
  build: z.string(),
});
export type UserMeta = z.infer<typeof UserMeta>;
