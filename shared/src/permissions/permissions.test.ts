import { describe, expect, it } from 'vitest';
import { UserType } from '../enums.ts';
import { can, disallowedFor, subjectFor, type PermissionExpr } from './can.ts';
import { PERMISSIONS, PERMISSION_KEYS, permissionDef, type PermissionKey } from './keys.ts';
import { BuiltInRole, ROLE_GRANTS, USER_TYPE_GRANTS } from './roles.ts';

type Who = BuiltInRole | 'super_admin' | 'guest_admin' | 'eat_out' | 'nopaid';
const WHO: readonly Who[] = [...BuiltInRole, 'super_admin', 'guest_admin', 'eat_out', 'nopaid'];
const grantsOf = (who: Who): readonly string[] => {
  switch (who) {
    case 'super_admin': return USER_TYPE_GRANTS[UserType.SUPER_ADMIN]!;
    case 'guest_admin': return USER_TYPE_GRANTS[UserType.GUEST_ADMIN]!;
    case 'eat_out': return USER_TYPE_GRANTS[UserType.EAT_OUT]!;
    case 'nopaid': return USER_TYPE_GRANTS[UserType.NOPAID]!;
    default: return ROLE_GRANTS[who];
  }
};
const subject = (who: Who, appRestricted: string[] = []) => subjectFor('me', disallowedFor(grantsOf(who), appRestricted));

/**
 * The policy written out for representative capabilities: one letter per role, in the order of
 * WHO: client admin manager client_pm agency author analyst provider super_admin guest_admin eat_out nopaid.
 * Y allowed, n refused, o only on items the user created.
 */
const MATRIX: Record<string, string> = {
  'route:/user/account':            'YYYYYYYYYYYY',
  'route:/user/plan':               'YYYYYYYYYYYY',
  'route:/admin/roles':             'YYnnnnnnYnnn',
  'route:/admin/providers':         'nnnnnnnnYnnn',
  'route:/behavior/explore':        'YYYYYYYnYYnn',
  'route:/acquisition/installs':    'YYYYYYYYYYYn',
  'route:/main/dashboards':         'YYYYYYYnYYYn',
  'api:account.roles':              'YYnnnnnnYnnn',
  'api:account.plan':               'YYnnnnnnYnnn',
  'ui:app.new':                     'YYnnnnnnYnnn',
  'ui:app.edit':                    'YYYYYnnnYnnn',
  'api:events.edit':                'YYYYYnnnYnnn',
  'route:/manage/events':           'YYYYYYYnYYnn',
  'ui:app.delete':                  'YYnnnnnnYnnn',
  'ui:accountUsers.view':           'YYYYYYYnYYnn',
  'ui:accountUsers.add':            'YYnnnnnnYnnn',
  'ui:testDevices.add':             'YYYYYYnnYnnn',
  'ui:testDevices.delete':          'YYYYnnnnYnnn',
  'ui:journey.create':              'YYYYYYnnYnnn',
  'ui:journey.edit':                'YYYYYonnYnnn',
  'ui:journey.launch':              'YYYnYnnnYnnn',
  'ui:journey.view':                'YYYYYYYnYYnn',
  'ui:message.approve':             'YYYnYnnnYnnn',
  'ui:message.submit':              'YYYYYonnYnnn',
  'ui:message.delete':              'YYYYYonnYnnn',
  'ui:dashboards.edit':             'YYYYYoonYnnn',
  'ui:dashboards.view':             'YYYYYYYnYYYn',
  'ui:apptracker.download':         'YYYYYYYYYYnn',
  'ui:tags.edit':                   'YYYYnnnnYnnn',
  'ui:importTask.create':           'YYYYnnnnYnnn',
  'ui:audienceSelection.nonTest':   'YYYYYnnnYnnn',
  'ui:segment.modify':              'YYYYYYnnYnnn',
};

describe('role x capability', () => {
  it('every key in the matrix exists', () => {
    for (const key of Object.keys(MATRIX)) expect(permissionDef(key), key).toBeDefined();
  });

  for (const [key, row] of Object.entries(MATRIX)) {
    it.each(WHO.map((who, i) => [who, row[i]!] as const))(`${key}: %s -> %s`, (who, letter) => {
      const s = subject(who);
      const k = key as PermissionKey;
      expect(can(s, k), 'on items of others').toBe(letter === 'Y');
      expect(can(s, k, { ownerId: 'me' }), 'on own items').toBe(letter === 'Y' || letter === 'o');
    });
  }

  // Every role against every capability: the invariants the policy promises.
  it.each(WHO)('%s: every capability follows the policy', (who) => {
    const s = subject(who);
    for (const def of PERMISSIONS) {
      const key = def.key as PermissionKey;
      const allowed = can(s, key);
      if (key.startsWith('route:/user/')) expect(allowed, `${who} ${key}`).toBe(true);
      if (key === 'route:/admin/providers' || key === 'route:/admin/native-templates') expect(allowed, `${who} ${key}`).toBe(who === 'super_admin');
      if (who === 'client' || who === 'admin') expect(allowed, `${who} ${key}`).toBe(!key.startsWith('route:/admin/') || key === 'route:/admin/roles');
      if (who === 'super_admin') expect(allowed, key).toBe(true);
      if (def.access === 'write' && ['analyst', 'guest_admin', 'eat_out', 'provider', 'nopaid'].includes(who)) {
        expect(allowed && !key.startsWith('ui:dashboards.'), `${who} may not write ${key}`).toBe(false);
      }
      if (who === 'guest_admin' && def.access === 'read') expect(allowed, key).toBe(!key.startsWith('route:/admin/'));
      if (who === 'nopaid') expect(allowed, key).toBe(key.startsWith('route:/user/'));
      // A key allowed on others' items is always allowed on one's own.
      if (allowed) expect(can(s, key, { ownerId: 'me' })).toBe(true);
    }
  });

  it('author may edit only what they created', () => {
    const s = subject('author');
    expect(can(s, 'ui:journey.edit', { ownerId: 'me' })).toBe(true);
    expect(can(s, 'ui:journey.edit', { ownerId: 'someone-else' })).toBe(false);
    expect(can(s, 'ui:journey.edit', { ownerId: null })).toBe(false);
  });
});

describe('app disallowed list', () => {
  it('an app restriction refuses a key even to the owner role, and its owner variant with it', () => {
    const s = subject('client', ['ui:journey.edit', 'ui:journey.edit:owner']);
    expect(can(s, 'ui:journey.edit')).toBe(false);
    expect(can(s, 'ui:journey.edit', { ownerId: 'me' })).toBe(false);
    expect(can(s, 'ui:journey.create')).toBe(true);
  });
  it('a granted key implies its owner variant', () => {
    const list = disallowedFor(['ui:journey.edit']);
    expect(list).not.toContain('ui:journey.edit');
    expect(list).not.toContain('ui:journey.edit:owner');
    expect(list).toContain('ui:journey.launch');
  });
  it('the disallowed list of full grants is empty, and of no grants is everything', () => {
    expect(disallowedFor(PERMISSION_KEYS)).toEqual([]);
    expect(disallowedFor([])).toHaveLength(PERMISSION_KEYS.length);
  });
});

describe('combinations', () => {
  const s = subjectFor('me', ['ui:app.new', 'ui:app.delete']);
  const A: PermissionKey = 'ui:app.edit'; // allowed
  const B: PermissionKey = 'ui:app.new'; // refused
  const C: PermissionKey = 'ui:app.delete'; // refused
  const cases: [string, PermissionExpr, boolean][] = [
    ['AND all allowed', { and: [A, 'ui:tags.view'] }, true],
    ['AND one refused', { and: [A, B] }, false],
    ['OR one allowed', { or: [B, A] }, true],
    ['OR none allowed', { or: [B, C] }, false],
    ['XOR exactly one', { xor: [A, B] }, true],
    ['XOR both allowed', { xor: [A, 'ui:tags.view'] }, false],
    ['XOR none allowed', { xor: [B, C] }, false],
    ['nested', { and: [A, { or: [B, { xor: [A, C] }] }] }, true],
    ['empty AND', { and: [] }, true],
    ['empty OR', { or: [] }, false],
  ];
  it.each(cases)('%s', (_name, expr, expected) => expect(can(s, expr)).toBe(expected));
});
