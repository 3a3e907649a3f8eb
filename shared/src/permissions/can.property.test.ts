/**
 * The permission model (SPEC.md section 6; can.ts, roles.ts, docs.ts) over random grants, app
 * restrictions and expressions:
 * - a key is allowed exactly when it is granted (a granted key implies its owner-only variant) and
 *   the app does not disallow it, or, on an item the user created, when its owner-only variant is;
 * - and/or expressions are monotone: a grant added never removes an ability, a restriction added
 *   never adds one, and what is allowed on others' items is allowed on one's own;
 * - AND is all, OR any, XOR exactly one, at any depth;
 * - no role or user type gets a key it is not granted; the super admin gets everything, the account
 *   owner (client) everything but the platform admin screens;
 * - document access only grows with grants; the disallowed list is the complement of the grants
 *   plus the app's list, whatever the order of either;
 * - every permission the HTTP contract names is in the catalogue (an unknown key is never in a
 *   disallowed list, so it would be allowed to everyone).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { endpoints } from '../endpoints.ts';
import { UserType } from '../enums.ts';
import { can, disallowedFor, subjectFor, type PermissionExpr } from './can.ts';
import { docAccess, type DocKind } from './docs.ts';
import { PERMISSION_KEYS, isPermissionKey, ownerVariant, type PermissionKey } from './keys.ts';
import { BuiltInRole, ROLE_GRANTS, USER_TYPE_GRANTS } from './roles.ts';

// Keys with owner variants weigh more: they are where the rules interact.
const OWNED = PERMISSION_KEYS.filter((k) => ownerVariant(k) !== undefined || k.endsWith(':owner'));
const key = fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...OWNED) }, { weight: 1, arbitrary: fc.constantFrom(...PERMISSION_KEYS) });
const keys = fc.uniqueArray(key, { maxLength: 40 });
const USER = 'me';
const ctx = fc.constantFrom<{ ownerId?: string | null } | undefined>(undefined, { ownerId: null }, { ownerId: USER }, { ownerId: 'someone-else' });

type Monotone = PermissionKey | { and: Monotone[] } | { or: Monotone[] };
const { monotone } = fc.letrec<{ monotone: Monotone }>((tie) => ({
  monotone: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    key,
    fc.array(tie('monotone'), { maxLength: 3 }).map((and): Monotone => ({ and })),
    fc.array(tie('monotone'), { maxLength: 3 }).map((or): Monotone => ({ or })),
  ),
}));
const { expr } = fc.letrec<{ expr: PermissionExpr }>((tie) => ({
  expr: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    key,
    fc.array(tie('expr'), { maxLength: 3 }).map((and): PermissionExpr => ({ and })),
    fc.array(tie('expr'), { maxLength: 3 }).map((or): PermissionExpr => ({ or })),
    fc.array(tie('expr'), { maxLength: 3 }).map((xor): PermissionExpr => ({ xor })),
  ),
}));

const subject = (grants: readonly string[], app: readonly string[] = []) => subjectFor(USER, disallowedFor(grants, app));
/** What the model says about one key, computed from the grants directly. */
function oracle(grants: readonly string[], app: readonly string[], k: PermissionKey, c: { ownerId?: string | null } | undefined): boolean {
  const granted = new Set<string>(grants);
  for (const g of grants) { const o = ownerVariant(g as PermissionKey); if (o) granted.add(o); }
  const effective = (x: string) => granted.has(x) && !app.includes(x);
  if (effective(k)) return true;
  const owner = ownerVariant(k);
  return owner !== undefined && c?.ownerId === USER && effective(owner);
}

describe('can() (property)', () => {
  it('allows a key exactly as the grants, the owner variants and the app list say', () => {
    fc.assert(fc.property(keys, keys, key, ctx, (grants, app, k, c) => {
      expect(can(subject(grants, app), k, c)).toBe(oracle(grants, app, k, c));
    }), { numRuns: 2000 });
  });

  it('combines with AND (all), OR (any) and XOR (exactly one) at any depth', () => {
    const evaluate = (s: ReturnType<typeof subject>, e: PermissionExpr, c: { ownerId?: string | null } | undefined): boolean => {
      if (typeof e === 'string') return can(s, e, c);
      if ('and' in e) return e.and.every((x) => evaluate(s, x, c));
      if ('or' in e) return e.or.some((x) => evaluate(s, x, c));
      return e.xor.filter((x) => evaluate(s, x, c)).length === 1;
    };
    fc.assert(fc.property(keys, keys, expr, ctx, (grants, app, e, c) => {
      const s = subject(grants, app);
      expect(can(s, e, c)).toBe(evaluate(s, e, c));
    }), { numRuns: 1000 });
  });

  it('a grant added never removes an ability; a restriction added never adds one', () => {
    fc.assert(fc.property(keys, keys, keys, monotone, ctx, (grants, more, app, e, c) => {
      if (can(subject(grants, app), e, c)) expect(can(subject([...grants, ...more], app), e, c)).toBe(true);
      if (can(subject(grants, [...app, ...more]), e, c)) expect(can(subject(grants, app), e, c)).toBe(true);
    }), { numRuns: 1000 });
  });

  it("what is allowed on others' items is allowed on one's own", () => {
    fc.assert(fc.property(keys, keys, monotone, (grants, app, e) => {
      const s = subject(grants, app);
      if (can(s, e, { ownerId: 'someone-else' })) expect(can(s, e, { ownerId: USER })).toBe(true);
      if (can(s, e)) expect(can(s, e, { ownerId: USER })).toBe(true);
    }), { numRuns: 1000 });
  });

  it('document access only grows with grants', () => {
    const rank = { null: 0, read: 1, write: 2 } as const;
    fc.assert(fc.property(keys, keys, fc.constantFrom<DocKind>('journey', 'segment', 'message'), fc.constantFrom(USER, 'someone-else', null), (grants, more, kind, owner) => {
      const before = docAccess(subject(grants), kind, owner);
      const after = docAccess(subject([...grants, ...more]), kind, owner);
      expect(rank[after ?? 'null']).toBeGreaterThanOrEqual(rank[before ?? 'null']);
    }), { numRuns: 1000 });
  });

  it('the disallowed list is the complement of the grants plus the app list, in any order', () => {
    fc.assert(fc.property(keys, keys, (grants, app) => {
      const list = disallowedFor(grants, app);
      expect(disallowedFor([...grants].reverse(), [...app].reverse())).toEqual(list);
      expect([...list].sort()).toEqual(list);
      expect(new Set(list).size).toBe(list.length);
      for (const k of PERMISSION_KEYS) expect(list.includes(k), k).toBe(!oracle(grants, app, k, undefined));
    }), { numRuns: 300 });
  });
});

describe('roles and user types', () => {
  const WHO: [string, readonly PermissionKey[]][] = [
    ...BuiltInRole.map((r) => [r, ROLE_GRANTS[r]] as [string, readonly PermissionKey[]]),
    ...Object.entries(USER_TYPE_GRANTS).map(([t, g]) => [`type ${t}`, g] as [string, readonly PermissionKey[]]),
  ];
  it.each(WHO)('%s gets no key it is not granted', (_who, grants) => {
    fc.assert(fc.property(key, ctx, (k, c) => {
      expect(can(subject(grants), k, c)).toBe(oracle(grants, [], k, c));
    }), { numRuns: 300 });
  });

  it('the super admin gets everything, the account owner everything but the platform admin screens', () => {
    fc.assert(fc.property(expr, ctx, (e, c) => {
      const everything = subjectFor(USER, []);
      expect(can(subject(USER_TYPE_GRANTS[UserType.SUPER_ADMIN]!), e, c)).toBe(can(everything, e, c));
    }), { numRuns: 500 });
    const client = subject(ROLE_GRANTS.client);
    for (const k of PERMISSION_KEYS) expect(can(client, k), k).toBe(k !== 'route:/admin/providers' && k !== 'route:/admin/native-templates');
  });
});

describe('the HTTP contract', () => {
  it('names only permissions of the catalogue', () => {
    const unknown: string[] = [];
    const visit = (name: string, e: PermissionExpr) => {
      if (typeof e === 'string') { if (!isPermissionKey(e)) unknown.push(`${name}: ${String(e)}`); return; }
      for (const x of 'and' in e ? e.and : 'or' in e ? e.or : e.xor) visit(name, x);
    };
    for (const [name, endpoint] of Object.entries(endpoints)) {
      if (typeof endpoint.auth === 'string' && ['public', 'session', 'appKey'].includes(endpoint.auth)) continue;
      visit(name, endpoint.auth as PermissionExpr);
    }
    expect(unknown).toEqual([]);
  });
});
