import { describe, expect, it } from 'vitest';
import { PERMISSIONS } from '@gd/shared/permissions/keys';
import type { TFunction } from '../i18n/keys.ts';
import { groupPermissions, parseKey, permissionLabel } from './permissionLabels.ts';

const t: TFunction = (key, vars) => (vars ? `${key}(${Object.values(vars).join(',')})` : key);

describe('permission keys for editors', () => {
  it('parses the three kinds and owner variants', () => {
    expect(parseKey('route:/behavior/funnels')).toEqual({ kind: 'route', group: 'behavior', item: '/behavior/funnels', owner: false });
    expect(parseKey('ui:message.approve')).toEqual({ kind: 'ui', group: 'message', item: 'approve', owner: false });
    expect(parseKey('ui:journey.edit:owner')).toEqual({ kind: 'ui', group: 'journey', item: 'edit', owner: true });
    expect(parseKey('api:account.plan')).toEqual({ kind: 'api', group: 'account', item: 'plan', owner: false });
    expect(parseKey('nonsense')).toBeUndefined();
  });

  it('puts every catalogue key in exactly one group, routes first and API last', () => {
    const groups = groupPermissions(PERMISSIONS);
    const keys = groups.flatMap((g) => g.keys);
    expect(keys.sort()).toEqual(PERMISSIONS.map((p) => p.key).sort());
    expect(groups[0]?.kind).toBe('route');
    expect(groups.at(-1)?.kind).toBe('api');
    expect(groups.find((g) => g.id === 'ui:message')?.keys).toContain('ui:message.play:owner');
  });

  it('labels routes by navigation label and owner variants as own-items-only', () => {
    expect(permissionLabel('route:/user/account', t)).toBe('nav.account');
    expect(permissionLabel('ui:rule.clone:owner', t)).toBe('perm.ownOnly(perm.action.clone)');
    expect(permissionLabel('api:account.roles', t)).toBe('perm.api.roles');
  });
});
