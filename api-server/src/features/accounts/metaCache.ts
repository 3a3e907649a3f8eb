/**
 * The serialised GET /user/meta answers this process has built, one per user, each valid for the
 * meta version it was built under (`<account version>.<user version>`, migration 008).
 *
 * Why it is never stale: the request reads the version in the principal query it makes anyway, and
 * every write to what the answer shows (user, role, account, apps) bumps a version in its own
 * transaction (triggers). An entry is served only when its version equals the one just read, so any
 * change committed before the request started, by any process, misses. An answer built on a miss
 * reads the apps after the version, so it is never older than the version it is stored under.
 * Entries are per user id and also checked against the account id; another user never matches.
 *
 * Bounded by bytes; the oldest entries go first (Map keeps insertion order, a refreshed entry moves
 * to the end).
 */
import type { UserMeta } from '@gd/shared';
import type { Principal } from '../../http/context.ts';
import type { Serialised } from '../../http/respond.ts';

interface Entry { accountId: string; version: string; answer: Serialised<UserMeta> }

/** ~7.5 KB for an analyst with three apps: room for a few thousand signed-in users per process. */
export const META_CACHE_BYTES = 32 * 1024 * 1024;

export class MetaCache {
  readonly #entries = new Map<string, Entry>();
  readonly #maxBytes: number;
  #bytes = 0;

  constructor(maxBytes = META_CACHE_BYTES) {
    this.#maxBytes = maxBytes;
  }

  /** The answer kept for this principal, if it was built under the version just read. */
  get(principal: Principal): Serialised<UserMeta> | undefined {
    const entry = this.#entries.get(principal.user.id);
    if (!entry || entry.version !== principal.metaVersion || entry.accountId !== principal.account.id) return undefined;
    return entry.answer;
  }

  set(principal: Principal, answer: Serialised<UserMeta>): void {
    this.#drop(principal.user.id);
    if (answer.body.length > this.#maxBytes) return;
    while (this.#bytes + answer.body.length > this.#maxBytes) {
      const oldest = this.#entries.keys().next();
      if (oldest.done) break;
      this.#drop(oldest.value);
    }
    this.#entries.set(principal.user.id, { accountId: principal.account.id, version: principal.metaVersion, answer });
    this.#bytes += answer.body.length;
  }

  get size(): number {
    return this.#entries.size;
  }

  #drop(userId: string): void {
    const entry = this.#entries.get(userId);
    if (!entry) return;
    this.#entries.delete(userId);
    this.#bytes -= entry.answer.body.length;
  }
}
