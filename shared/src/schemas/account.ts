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
const OAID_HEX_PATTERN = /^[0-9a-f]{16,64}$/i;
/** Only zeros (and dashes): the id of no device in particular. */
const ZERO_PATTERN = /^[0-]+$/;

/**
 * Why a test device id does not fit its type (SPEC.md section 3: idfa, idfv, gaid, oaid, auto);
 * the client translates these codes, the API answers 10001 (MANDATORY) with the English text of
 * `deviceIdProblemText` on `deviceId`.
 */
export type DeviceIdProblem = 'not_uuid' | 'not_oaid' | 'zero';

/**
 * The format of each device id type. Decisions (the spec names the types only):
 * - IDFA and IDFV (iOS `UUID.uuidString`) and GAID (Android `AdvertisingIdClient`) are UUIDs,
 *   8-4-4-4-12 hexadecimal digits. Any letter case is accepted, since ids are copied from logs and
 *   tools that print them either way; the stored form is the platform's own (see `canonicalDeviceId`).
 * - OAID (MSA, Huawei/Xiaomi/OPPO/vivo phones) has no single format: a UUID or 16 to 64
 *   hexadecimal digits, whatever the vendor prints.
 * - The all-zero id is refused for every one of those types: it is what a phone reports when the
 *   person limits ad tracking (IDFA, GAID, OAID), shared by every such phone, so it names no device.
 * - `auto` (the SDK's install id) is any id of letters, digits and : _ . - (`TestDeviceInput`).
 */
export function deviceIdProblem(idType: z.infer<typeof DeviceIdType>, deviceId: string): DeviceIdProblem | null {
  switch (idType) {
    case 'idfa':
    case 'idfv':
    case 'gaid':
      if (!UUID_PATTERN.test(deviceId)) return 'not_uuid';
      return ZERO_PATTERN.test(deviceId) ? 'zero' : null;
    case 'oaid':
      if (!UUID_PATTERN.test(deviceId) && !OAID_HEX_PATTERN.test(deviceId)) return 'not_oaid';
      return ZERO_PATTERN.test(deviceId) ? 'zero' : null;
    case 'auto':
      return null;
    default: {
      const never: never = idType;
      return never;
    }
  }
}

/** The API's (English) text of a device id problem; the client shows its own translation. */
export function deviceIdProblemText(idType: z.infer<typeof DeviceIdType>, problem: DeviceIdProblem): string {
  const type = idType.toUpperCase();
  switch (problem) {
    case 'not_uuid':
      return `An ${type} is a UUID: 8-4-4-4-12 hexadecimal digits, like 6D92078A-8246-4BA4-AE5B-76104861E7DC`;
    case 'not_oaid':
      return 'An OAID is a UUID or 16 to 64 hexadecimal digits';
    case 'zero':
      return `An ID of only zeros is the ${type} of every phone that limits ad tracking, not of one device`;
    default: {
      const never: never = problem;
      return never;
    }
  }
}

/**
 * A valid device id in the form its platform reports it: IDFA and IDFV upper case (iOS), GAID and
 * OAID lower case (Android). One device typed in two cases is then one test device (the unique
 * index on app and device id) and reads as the SDK sends it. `auto` ids are kept as typed.
 */
export function canonicalDeviceId(idType: z.infer<typeof DeviceIdType>, deviceId: string): string {
  switch (idType) {
    case 'idfa':
    case 'idfv':
      return deviceId.toUpperCase();
    case 'gaid':
    case 'oaid':
      return deviceId.toLowerCase();
    case 'auto':
      return deviceId;
    default: {
      const never: never = idType;
      return never;
    }
  }
}

export const TestDeviceInput = z.object({
  name: Name,
  idType: DeviceIdType,
  deviceId: z.string().trim().min(4, 'Too short').max(200).regex(/^[A-Za-z0-9:_.-]+$/, 'Letters, digits, colon, dot, dash and underscore only'),
}).superRefine((input, ctx) => {
  const problem = deviceIdProblem(input.idType, input.deviceId);
  if (problem) ctx.addIssue({ code: 'custom', path: ['deviceId'], message: deviceIdProblemText(input.idType, problem), params: { problem } });
}).transform((input) => ({ ...input, deviceId: canonicalDeviceId(input.idType, input.deviceId) }));
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
