/**
 * Built-in roles and what each may do.
 *
 * SPEC.md section 6 names the user types, role labels and role groups but not the capabilities of
 * each role ("not shown"). Our decision, written once here and tested role by capability:
 *
 * - Client (account owner), Admin and Super admin: everything in their account. Only Super admin
 *   sees the platform admin screens (/admin/providers, /admin/native-templates); account roles
 *   (/admin/roles) belong to Client, Admin and Super admin.
 * - Manager: runs marketing: every read and write except account administration (apps new and
 *   delete, account users, roles, plan, account settings, admin screens).
 * - Client P. manager: a Manager that prepares but does not publish: no approve, launch, stop,
 *   play or pause.
 * - Agency: a Manager for campaigns and acquisition, without the account's plumbing (integrations, mail
 *   providers, tags, import tasks, test-device deletion).
 * - Author: reads everything, creates drafts, edits/deletes/submits only what they created (owner
 *   variants), may only target test audiences and never publishes.
 * - Analyst: reads everything and keeps their own dashboards.
 * - Provider: an ad provider; sees acquisition screens and may download its tracker data.
 * - Guest admin: support staff, read-only everywhere but the admin screens.
 * - Eat out: an external reader of the main and acquisition screens.
 * - No paid: an account without a paid plan; only its user screens, to pick a plan.
 * Every role reads the user screens (/user/...), which show only the user's own data.
 * App settings (ui:app.edit) and the app's event catalogue (api:events.edit, /manage/events) go
 * together: Client, Admin, Manager, Client P. manager and Agency edit both (through ALL and
 * MANAGER); Author, Analyst and Provider only read the catalogue, as they read the app settings.
 */
import { UserType, type UserTypeValue } from '../enums.ts';
import { PERMISSIONS, type PermissionKey } from './keys.ts';

export const BuiltInRole = ['client', 'admin', 'manager', 'client_pm', 'agency', 'author', 'analyst', 'provider'] as const;
export type BuiltInRole = (typeof BuiltInRole)[number];

export const BUILT_IN_ROLES: Record<BuiltInRole, { label: string; userType: UserTypeValue }> = {
  client: { label: 'Client', userType: UserType.CLIENT },
  admin: { label: 'Admin', userType: UserType.ADMIN },
  manager: { label: 'Manager', userType: UserType.MANAGER },
  client_pm: { label: 'Client P. manager', userType: UserType.MANAGER },
  agency: { label: 'Agency', userType: UserType.AGENCY },
  author: { label: 'Author', userType: UserType.AUTHOR },
  analyst: { label: 'Analyst', userType: UserType.ANALYST },
  provider: { label: 'Provider', userType: UserType.PROVIDER },
};

const ALL = PERMISSIONS.map((p) => p.key as PermissionKey);
const READS = PERMISSIONS.filter((p) => p.access === 'read').map((p) => p.key as PermissionKey);
const USER_ROUTES = ALL.filter((k) => k.startsWith('route:/user/'));
const PLATFORM_ADMIN: PermissionKey[] = ['route:/admin/providers', 'route:/admin/native-templates'];
const ACCOUNT_ADMIN: PermissionKey[] = [
  'ui:app.new', 'ui:app.delete', 'ui:accountUsers.add', 'ui:accountUsers.edit', 'ui:accountUsers.delete',
  'api:account.roles', 'api:account.edit', 'api:account.plan', 'route:/admin/roles',
];
const PUBLISH: PermissionKey[] = [
  'ui:message.approve', 'ui:message.play', 'ui:message.pause', 'ui:message.play:owner', 'ui:message.pause:owner',
  'ui:journey.launch', 'ui:journey.stop', 'ui:journey.launch:owner', 'ui:journey.stop:owner',
];
const PLUMBING: PermissionKey[] = [
  'ui:mailProviders.activate', 'ui:mailProviders.edit', 'ui:mailProviders.delete', 'ui:tags.edit',
  'ui:importTask.create', 'ui:importTask.edit', 'ui:importTask.delete', 'ui:testDevices.delete', 'api:integrations.edit',
];
const AUTHOR_WRITES: PermissionKey[] = [
  'ui:message.create', 'ui:message.draft', 'ui:message.test', 'ui:message.clone',
  'ui:message.edit:owner', 'ui:message.editTarget:owner', 'ui:message.delete:owner', 'ui:message.submit:owner',
  'ui:message.clone:owner', 'ui:message.view:owner',
  'ui:journey.create', 'ui:journey.clone', 'ui:journey.edit:owner', 'ui:journey.delete:owner',
  'ui:journey.clone:owner', 'ui:journey.view:owner',
  'ui:audience.create', 'ui:audience.clone', 'ui:audience.edit:owner', 'ui:audience.delete:owner', 'ui:audience.clone:owner',
  'ui:rule.create', 'ui:rule.clone', 'ui:rule.edit:owner', 'ui:rule.delete:owner', 'ui:rule.clone:owner',
  'ui:dashboards.new', 'ui:dashboards.edit:owner', 'ui:dashboards.delete:owner',
  'ui:segment.modify', 'ui:testDevices.add', 'ui:testDevices.edit', 'ui:nativeAdVariants.create',
];
const ANALYST_WRITES: PermissionKey[] = ['ui:dashboards.new', 'ui:dashboards.edit:owner', 'ui:dashboards.delete:owner'];

const without = (keys: readonly PermissionKey[], remove: readonly PermissionKey[]) => {
  const drop = new Set<string>(remove);
  return keys.filter((k) => !drop.has(k));
};
const union = (...lists: readonly (readonly PermissionKey[])[]) => [...new Set(lists.flat())];
const byPrefix = (...prefixes: string[]) => ALL.filter((k) => prefixes.some((p) => k.startsWith(p)));

const MANAGER = without(ALL, [...ACCOUNT_ADMIN, ...PLATFORM_ADMIN]);

export const ROLE_GRANTS: Record<BuiltInRole, readonly PermissionKey[]> = {
  client: without(ALL, PLATFORM_ADMIN),
  admin: without(ALL, PLATFORM_ADMIN),
  manager: MANAGER,
  client_pm: without(MANAGER, PUBLISH),
  agency: without(MANAGER, PLUMBING),
  author: union(without(READS, [...PLATFORM_ADMIN, 'route:/admin/roles']), AUTHOR_WRITES),
  analyst: union(without(READS, [...PLATFORM_ADMIN, 'route:/admin/roles']), ANALYST_WRITES),
  provider: union(
    byPrefix('route:/acquisition/', 'route:/user/'),
    ['ui:apptracker.view', 'ui:apptracker.download', 'ui:sources.view'],
  ),
};

/** Grants of the user types that have no account role label (platform and special accounts). */
export const USER_TYPE_GRANTS: Partial<Record<UserTypeValue, readonly PermissionKey[]>> = {
  [UserType.SUPER_ADMIN]: ALL,
  [UserType.GUEST_ADMIN]: without(READS, [...PLATFORM_ADMIN, 'route:/admin/roles']),
  [UserType.EAT_OUT]: union(byPrefix('route:/main/', 'route:/acquisition/', 'route:/user/'), ['ui:dashboards.view', 'ui:apptracker.view']),
  [UserType.NOPAID]: USER_ROUTES,
};
