/** Enumerations of SPEC.md sections 1, 2, 3 and 6, defined once. */
import { z } from 'zod';

export const Plan = z.enum(['padawan', 'knight', 'master', 'growth', 'advanced', 'enterprise']);
export type Plan = z.infer<typeof Plan>;

export const SupportLevel = z.enum(['basic', 'account_manager', 'customer_success']);
export type SupportLevel = z.infer<typeof SupportLevel>;

/** Plan level decides the API version: padawan, knight and master use 1; the others 2. */
export function apiVersionForPlan(plan: Plan): 1 | 2 {
  switch (plan) {
    case 'padawan':
    case 'knight':
    case 'master':
      return 1;
    case 'growth':
    case 'advanced':
    case 'enterprise':
      return 2;
    default: {
      const never: never = plan;
      throw new Error(`unknown plan ${String(never)}`);
    }
  }
}

/** App operating systems and platform titles. */
export const AppOs = z.enum([
  'iOS',
  'Android',
  'Other',
  'Windows Phone',
  'Web',
  'iOS Web',
  'Android Web',
  'Windows Phone Web',
]);
export type AppOs = z.infer<typeof AppOs>;

/** Numeric user types (SPEC.md section 6). */
export const UserType = {
  SUPER_ADMIN: 0,
  CLIENT: 1,
  AGENCY: 2,
  PROVIDER: 3,
  ADMIN: 4,
  EAT_OUT: 5,
  NOPAID: 6,
  AUTHOR: 77,
  MANAGER: 78,
  ANALYST: 79,
  GUEST_ADMIN: 80,
} as const;
export type UserTypeName = keyof typeof UserType;
export type UserTypeValue = (typeof UserType)[UserTypeName];
export const UserTypeValueSchema = z.union(
  Object.values(UserType).map((v) => z.literal(v)) as unknown as [
    z.ZodLiteral<UserTypeValue>,
    ...z.ZodLiteral<UserTypeValue>[],
  ],
);
export const userTypeName = (v: UserTypeValue): UserTypeName =>
  (Object.entries(UserType).find(([, value]) => value === v)?.[0] ?? 'CLIENT') as UserTypeName;

/** Role groups (SPEC.md section 6). */
export const RoleGroups = {
  author: [UserType.AUTHOR, UserType.CLIENT],
  manager: [UserType.MANAGER, UserType.ADMIN],
  analyst: [UserType.ANALYST],
} as const satisfies Record<string, readonly UserTypeValue[]>;

export const JobDepartment = z.enum([
  'Technology',
  'Support',
  'Product',
  'Marketing',
  'Management',
  'Finance',
  'Sales',
  'Other',
]);
export type JobDepartment = z.infer<typeof JobDepartment>;

export const Environment = z.enum(['beta', 'development', 'production', 'staging', 'qa', 'test']);
export const DeviceIdType = z.enum(['idfa', 'idfv', 'gaid', 'oaid', 'auto']);
export type DeviceIdType = z.infer<typeof DeviceIdType>;
export const SdkVersion = z.enum(['1.0', '2.0']);
export const TimeGroup = z.enum(['hour', 'day', 'week', 'month']);
export type TimeGroup = z.infer<typeof TimeGroup>;
export const DashboardWindow = z.enum(['day', 'week', 'month']);
export const CampaignScope = z.enum(['current', 'all']);
export const OwnershipFilter = z.enum(['me', 'all']);
export const LinkOpeningMode = z.enum(['app', 'browser']);
export const LinkActionKind = z.enum(['deeplink', 'customUrl', 'changeUrl', 'tap']);
export const JourneyLinkTarget = z.enum(['web', 'deeplink']);
