/**
 * The signed-in principal of a request (user, role grants, account), kept per process and user for
 * as long as its meta version is unchanged.
 *
 * Every request still makes one query: with nothing kept, the full principal query (which returns
 * the version with the data, in one snapshot); with a principal kept, only the version
 * (`findMetaVersion`, one short text column instead of twenty columns and the grant list). Any write
 * to the user row, its role or its account takes a new version from a sequence in the writing
 * transaction (migration 008), so an equal version means nothing the principal holds has changed
 * since it was read: a deactivation, a new role, new grants or a new plan count from the next
 * request on, in every process.
 *
 * Kept principals are frozen (handlers share them) and bounded in number; the oldest go first.
 */
import type { Principal } from '../../http/context.ts';
import { findMetaVersion, findPrincipal } from './repository.ts';
import type { Queryable } from '../../db/pool.ts';

/** A few KB each (the grant list): ~30 MB at most per process. */
export const PRINCIPALS_KEPT = 10_000;

const keptByDb = new WeakMap<Queryable, Map<string, Principal>>();

export async function loadPrincipal(db: Queryable, userId: string): Promise<Principal | undefined> {
  let kept = keptByDb.get(db);
  if (!kept) keptByDb.set(db, (kept = new Map<string, Principal>()));
  const held = kept.get(userId);
  if (held) {
    const version = await findMetaVersion(db, userId);
    if (version === held.metaVersion) return held;
    kept.delete(userId);
    if (version === undefined) return undefined;
  }
  const fresh = await findPrincipal(db, userId);
  if (!fresh) return undefined;
  Object.freeze(fresh.user.grants);
  Object.freeze(fresh.user);
  Object.freeze(fresh.account);
  const principal = Object.freeze(fresh);
  if (kept.size >= PRINCIPALS_KEPT) kept.delete(kept.keys().next().value as string);
  kept.set(userId, principal);
  return principal;
}
