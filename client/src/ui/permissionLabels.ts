/**
 * Human labels and groups for permission keys (role editor, app restrictions). Groups: routes by
 * area, UI actions by resource, API keys together. Pure apart from the `t` it is given.
 */
import { findRoute, type Area } from '@gd/shared/routes';
import type { PermissionDef } from '@gd/shared/permissions/keys';
import { navKey, type TFunction, type TKey } from '../i18n/keys.ts';

export interface ParsedKey {
  kind: 'route' | 'ui' | 'api';
  /** Area for routes, resource for UI actions, `account` for API keys. */
  group: string;
  /** Route path, UI action or API action. */
  item: string;
  owner: boolean;
}

export function parseKey(key: string): ParsedKey | undefined {
  if (key.startsWith('route:')) {
    const path = key.slice('route:'.length);
    return { kind: 'route', group: findRoute(path)?.area ?? 'main', item: path, owner: false };
  }
  const ui = /^ui:([A-Za-z]+)\.([A-Za-z]+)(:owner)?$/.exec(key);
  if (ui) return { kind: 'ui', group: ui[1] ?? '', item: ui[2] ?? '', owner: ui[3] !== undefined };
  // API keys form one group; an account key's item is its action, another resource's is
  // resource + Action (api:events.edit → eventsEdit), the i18n key under perm.api.
  const apiKey = /^api:([A-Za-z]+)\.([A-Za-z]+)$/.exec(key);
  if (apiKey) {
    const [, resource = '', action = ''] = apiKey;
    const item = resource === 'account' ? action : `${resource}${action.charAt(0).toUpperCase()}${action.slice(1)}`;
    return { kind: 'api', group: 'account', item, owner: false };
  }
  return undefined;
}

export interface PermissionGroup {
  id: string;
  kind: ParsedKey['kind'];
  group: string;
  keys: string[];
}

const KIND_ORDER = { route: 0, ui: 1, api: 2 } as const;

/** Groups in catalogue order: routes by area, UI actions by resource, then API keys. */
export function groupPermissions(defs: readonly Pick<PermissionDef, 'key'>[]): PermissionGroup[] {
  const groups = new Map<string, PermissionGroup>();
  for (const { key } of defs) {
    const parsed = parseKey(key);
    if (!parsed) continue;
    const id = `${parsed.kind}:${parsed.group}`;
    let group = groups.get(id);
    if (!group) {
      group = { id, kind: parsed.kind, group: parsed.group, keys: [] };
      groups.set(id, group);
    }
    group.keys.push(key);
  }
  return [...groups.values()].sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind]);
}

export function groupLabel(group: Pick<PermissionGroup, 'kind' | 'group'>, t: TFunction): string {
  switch (group.kind) {
    case 'route':
      return `${t('perm.kind.route')} · ${t(`area.${group.group as Area}` as TKey)}`;
    case 'ui':
      return `${t('perm.kind.ui')} · ${t(`perm.resource.${group.group}` as TKey)}`;
    case 'api':
      return t('perm.kind.api');
    default: {
      const never: never = group.kind;
      return never;
    }
  }
}

/** The label of one key, without its group. */
export function permissionLabel(key: string, t: TFunction): string {
  const parsed = parseKey(key);
  if (!parsed) return key;
  switch (parsed.kind) {
    case 'route': {
      const route = findRoute(parsed.item);
      return route ? t(navKey(route.label)) : parsed.item;
    }
    case 'ui': {
      const action = t(`perm.action.${parsed.item}` as TKey);
      return parsed.owner ? t('perm.ownOnly', { action }) : action;
    }
    case 'api':
      return t(`perm.api.${parsed.item}` as TKey);
    default: {
      const never: never = parsed.kind;
      return never;
    }
  }
}

/** Label with its group, for flat lists (search results, chips). */
export function permissionFullLabel(key: string, t: TFunction): string {
  const parsed = parseKey(key);
  if (!parsed) return key;
  return parsed.kind === 'api' ? permissionLabel(key, t) : `${groupLabel(parsed, t).split(' · ')[1] ?? ''} · ${permissionLabel(key, t)}`;
}
