/**
 * Runs' definitions (`message_sends`: the account and the definition a run was played with),
 * read through a bounded per-process cache. A run's definition never changes once written, so
 * an entry is never stale; the cache only forgets its oldest entries past `max`.
 *
 * `many` reads every missing run in ONE round trip (a batch's rows, a person's in-app rows, come
 * from several runs). The send workers (senderCache.ts) and the SDK's in-app endpoint
 * (sdkMessages/) both read runs through it.
 */
import type { MessageDraft } from '@gd/shared';
import type { Queryable } from '../../db/pool.ts';

export interface RunRecord {
  account_id: string; definition: MessageDraft;
  /** A journey's or rule's standing run (enqueue.ts): its message sends while approved and not paused. */
  standing: boolean;
}

export class RunDefinitions {
  private readonly runs = new Map<string, RunRecord>();
  private readonly max: number;

  constructor(max = 500) {
    this.max = max;
  }

  /** One run (throws when it is gone: a row always names an existing run). */
  async get(db: Queryable, sendId: string): Promise<RunRecord> {
    const run = (await this.many(db, [sendId])).get(sendId);
    if (!run) throw new Error(`run ${sendId} is gone`);
    return run;
  }

  /** The runs of `sendIds` (those gone are absent), the ones not cached read in one query. */
  async many(db: Queryable, sendIds: readonly string[]): Promise<Map<string, RunRecord>> {
    const found = new Map<string, RunRecord>();
    const missing: string[] = [];
    for (const id of new Set(sendIds)) {
      const run = this.runs.get(id);
      if (run) found.set(id, run);
      else missing.push(id);
    }
    if (missing.length > 0) {
      const { rows } = await db.query<RunRecord & { id: string }>(
        `SELECT id::text, account_id, definition, kind IN ('journey', 'rule') AS standing FROM message_sends WHERE id = ANY($1::uuid[])`, [missing]);
      for (const { id, account_id, definition, standing } of rows) {
        const run = { account_id, definition, standing };
        this.remember(id, run);
        found.set(id, run);
      }
    }
    return found;
  }

  private remember(id: string, run: RunRecord): void {
    this.runs.set(id, run);
    if (this.runs.size > this.max) {
      const oldest = this.runs.keys().next();
      if (!oldest.done) this.runs.delete(oldest.value);
    }
  }
}
