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
export function disallowedFor(grants: Iterable<string>, appDisallowed: Iterable<string> = []): string[] {
  const granted = new Set(grants);
  for (const key of [...granted]) {
    const owner = ownerVariant(key as PermissionKey);
    if (owner) granted.add(owner);
  }
  const out = new Set<string>();
  for (const p of PERMISSIONS) if (!granted.has(p.key)) out.add(p.key);
  for (const key of appDisallowed) out.add(key);
  return [...out].sort();
}

export function subjectFor(userId: string, disallowed: Iterable<string>): PermissionSubject {
  return { userId, disallowed: new Set(disallowed) };
}
