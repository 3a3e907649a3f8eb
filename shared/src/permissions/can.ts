/**
 * One answer to "may this user do this here?", used by the API, the sync server and the client.
 *
 * The current app carries a disallowed list (SPEC.md section 6): an action is allowed unless its
 * permission is in that list. The API computes the list per user and app (everything the user's
 * role does not grant, plus what the app itself disallows) and sends it in `/user/meta`.
 */
import { PERMISSIONS, ownerVariant, type PermissionKey } from './keys.ts';

export interface PermissionSubject {
  userId: string;
  /** Disallowed permission keys for the current app. */
  disallowed: ReadonlySet<string>;
}

export interface PermissionContext {
  /** Creator of the item acted on; enables owner-only variants. */
  ownerId?: string | null;
}

/** Combination of several permissions (SPEC.md section 6). */
export type PermissionExpr =
  | PermissionKey
  | { and: readonly PermissionExpr[] }
  | { or: readonly PermissionExpr[] }
  | { xor: readonly PermissionExpr[] };

function allowedKey(subject: PermissionSubject, key: PermissionKey, ctx?: PermissionContext): boolean {
  if (!subject.disallowed.has(key)) return true;
  const owner = ownerVariant(key);
  return owner !== undefined && ctx?.ownerId != null && ctx.ownerId === subject.userId && !subject.disallowed.has(owner);
}

/**
 * AND: all allowed. OR: at least one allowed (the spec leaves OR's intent open; "any" is what a
 * reader of `or` expects). XOR: exactly one allowed.
 */
export function can(subject: PermissionSubject, expr: PermissionExpr, ctx?: PermissionContext): boolean {
  if (typeof expr === 'string') return allowedKey(subject, expr, ctx);
  if ('and' in expr) return expr.and.every((e) => can(subject, e, ctx));
  if ('or' in expr) return expr.or.some((e) => can(subject, e, ctx));
  return expr.xor.filter((e) => can(subject, e, ctx)).length === 1;
}

/**
 * The disallowed list for a user in an app: every key the role does not grant, plus the app's own
 * disallowed list. A granted key implies its owner-only variant.
 */
export function disallowedFor(grants: readonly string[], appDisallowed: readonly string[] = []): string[] {
  // Pure and called on every request for the same few roles: memoised by its inputs.
  const memoKey = `${grants.join(',')}|${appDisallowed.join(',')}`;
  const cached = memo.get(memoKey);
  if (cached) return cached;
  const result = computeDisallowed(grants, appDisallowed);
  if (memo.size >= MEMO_LIMIT) memo.delete(memo.keys().next().value as string);
  memo.set(memoKey, result);
  return result;
}
const MEMO_LIMIT = 500;
const memo = new Map<string, string[]>();

function computeDisallowed(grants: readonly string[], appDisallowed: readonly string[]): string[] {
  const granted = new Set(grants);
  for (const key of [...granted]) {
    const owner = ownerVariant(key as PermissionKey);
    if (owner) granted.add(owner);
  }
  const out = new Set<string>();
  for (const p of PERMISSIONS) if (!granted.has(p.key)) out.add(p.key);
  for (const key of appDisallowed) out.add(key);
  return Object.freeze([...out].sort()) as string[];
}

export function subjectFor(userId: string, disallowed: Iterable<string>): PermissionSubject {
  // Sets are cheap to build; callers hold them for one request or one render.
  return { userId, disallowed: new Set(disallowed) };
}
