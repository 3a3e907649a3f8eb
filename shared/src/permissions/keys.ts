/**
 * The permission catalogue of SPEC.md sections 3 ("Permission keys") and 6.
 *
 * A key is `<kind>:<resource>` with kind ui, api or route and an access of read or write.
 * Owner-only variants end in `:owner` and apply only to items the user created.
 */
import { ROUTES } from '../routes.ts';

export type PermissionKind = 'ui' | 'api' | 'route';
export type Access = 'read' | 'write';

export interface PermissionDef {
  key: string;
  kind: PermissionKind;
  access: Access;
  /** For an owner-only variant: the key it narrows. */
  ownerOf?: string;
}

const READ_ACTIONS = new Set(['view', 'read', 'download', 'history']);

/** UI actions per resource (SPEC.md section 3). */
export const UI_ACTIONS = {
  app: ['new', 'edit', 'delete'],
  testDevices: ['add', 'edit', 'delete', 'view'],
  accountUsers: ['add', 'edit', 'delete', 'view'],
  apptracker: ['create', 'clone', 'edit', 'delete', 'download', 'view', 'exportFraud'],
  sources: ['create', 'edit', 'delete', 'view'],
  retargeting: ['create', 'edit', 'delete', 'view'],
  audience: ['create', 'delete', 'view', 'edit', 'clone', 'shareSocial', 'shareSearchAds', 'shareTradeDesk'],
  importTask: ['create', 'edit', 'delete'],
  dashboards: ['new', 'edit', 'delete', 'view'],
  journey: ['assign', 'clone', 'create', 'delete', 'edit', 'launch', 'stop', 'view'],
  mailProviders: ['activate', 'edit', 'delete', 'view'],
  tags: ['edit', 'view'],
  message: [
    'approve', 'assign', 'clone', 'create', 'delete', 'draft', 'edit', 'editTarget', 'pause', 'play',
    'read', 'submit', 'test', 'history', 'view', 'toValidate',
  ],
  nativeAdVariants: ['create', 'edit', 'delete', 'view'],
  rule: ['clone', 'create', 'delete', 'edit', 'view'],
  journeys: ['showAll'],
  messaging: ['showAll'],
  segment: ['modify'],
  audienceSelection: ['nonTest'],
} as const satisfies Record<string, readonly string[]>;

/** Actions that also exist as an owner-only variant. */
export const OWNER_VARIANTS = {
  apptracker: ['edit', 'delete'],
  audience: ['edit', 'delete', 'clone'],
  dashboards: ['edit', 'delete'],
  journey: ['clone', 'delete', 'edit', 'launch', 'stop', 'view'],
  message: ['clone', 'delete', 'edit', 'editTarget', 'pause', 'play', 'submit', 'view'],
  rule: ['clone', 'delete', 'edit'],
} as const satisfies { [R in keyof typeof UI_ACTIONS]?: readonly (typeof UI_ACTIONS)[R][number][] };

/** API-level keys: account administration and app settings that have no single screen action. */
export const API_KEYS = {
  'api:account.roles': 'write',
  'api:account.edit': 'write',
  'api:account.plan': 'write',
  /** Editing the custom event catalogue (/manage/events): labels, conversion types, hidden flags. */
  'api:events.edit': 'write',
  /** Scheduling reports (/main/reports): create, edit, delete, run now. */
  'api:reports.edit': 'write',
  /** Changing the skudo marketplace (/products/skudo): providers, offers, tracking URLs, campaigns, partners, codes. */
  'api:skudo.edit': 'write',
  /** Integrations of an app (/manage/integrations): create, edit, connect (OAuth 2), test, disconnect, delete. */
  'api:integrations.edit': 'write',
  /** Categories of the account (/manage/categories): create, edit, delete. */
  'api:categories.edit': 'write',
  /** Landing pages (/manage/landings): create, edit, publish, unpublish, delete. */
  'api:landings.edit': 'write',
  /** Wallet (/products/wallet): pass designs, issuing, voiding and redeeming passes, the account's signing settings. */
  'api:wallet.edit': 'write',
} as const satisfies Record<string, Access>;

type UiKeyOf<R extends keyof typeof UI_ACTIONS> = `ui:${R}.${(typeof UI_ACTIONS)[R][number]}`;
export type UiKey = { [R in keyof typeof UI_ACTIONS]: UiKeyOf<R> }[keyof typeof UI_ACTIONS];
type OwnerKeyOf<R extends keyof typeof OWNER_VARIANTS> = `ui:${R}.${(typeof OWNER_VARIANTS)[R][number]}:owner`;
export type OwnerKey = { [R in keyof typeof OWNER_VARIANTS]: OwnerKeyOf<R> }[keyof typeof OWNER_VARIANTS];
export type RouteKey = `route:${string}`;
export type ApiKey = keyof typeof API_KEYS;
export type PermissionKey = UiKey | OwnerKey | RouteKey | ApiKey;

function buildCatalogue(): PermissionDef[] {
  const defs: PermissionDef[] = [];
  for (const route of ROUTES) defs.push({ key: `route:${route.path}`, kind: 'route', access: 'read' });
  for (const [resource, actions] of Object.entries(UI_ACTIONS)) {
    for (const action of actions) {
      defs.push({ key: `ui:${resource}.${action}`, kind: 'ui', access: READ_ACTIONS.has(action) ? 'read' : 'write' });
    }
  }
  for (const [resource, actions] of Object.entries(OWNER_VARIANTS)) {
    for (const action of actions as readonly string[]) {
      const base = `ui:${resource}.${action}`;
      defs.push({ key: `${base}:owner`, kind: 'ui', access: READ_ACTIONS.has(action) ? 'read' : 'write', ownerOf: base });
    }
  }
  for (const [key, access] of Object.entries(API_KEYS)) defs.push({ key, kind: 'api', access });
  return defs;
}

export const PERMISSIONS: readonly PermissionDef[] = buildCatalogue();
export const PERMISSION_KEYS: readonly PermissionKey[] = PERMISSIONS.map((p) => p.key as PermissionKey);
const byKey = new Map(PERMISSIONS.map((p) => [p.key, p]));

export function permissionDef(key: string): PermissionDef | undefined {
  return byKey.get(key);
}
export function isPermissionKey(key: string): key is PermissionKey {
  return byKey.has(key);
}
/** The owner-only variant of a key, when it has one. */
export function ownerVariant(key: PermissionKey): OwnerKey | undefined {
  const candidate = `${key}:owner`;
  return byKey.has(candidate) ? (candidate as OwnerKey) : undefined;
}
