/**
 * Moving entries: one batch of due entries per short transaction (docs/design/journey-engine.md
 * sections 2 and 3).
 *
 * - Lease: the batch takes up to `limit` due entries FOR UPDATE SKIP LOCKED inside its own
 *   transaction; the row locks are the lease. Other workers skip them; a worker killed mid-batch
 *   rolls back with its connection and the entries are due again at once: nothing lost, nothing
 *   doubled (new state, trace rows, counts, outbox rows, postback rows and tag changes commit
 *   together or not at all; outbox rows are also keyed `j:<journey>:<version>:<step>:<person>:<entry>`).
 * - Facts are preloaded for the batch (facts.ts) and every entry moves through the pure `advance`
 *   (shared/src/journey/run) with the entry's deterministic draw, so a retried batch takes the same
 *   paths. Writes are bulk (`unnest`).
 * - Effects: `send` through delivery's enqueueSends in this transaction (a skipped send is recorded
 *   on the step's trace row with its reason; the person moves on); `postback` writes a
 *   journey_postbacks row, called later outside any transaction (postbacks.ts); `tag` adds the
 *   amount to the person's numeric user tag (a missing or non-number tag is recorded as skipped).
 * - Before moving, an entry whose version no longer runs (journey stopped, deleted, or the version
 *   stopped) exits `stopped`; with an exit segment, a person no longer in it exits `exit_segment`
 *   (checked whenever the entry is processed; waiting entries are woken for it at least every
 *   EXIT_SEGMENT_RECHECK_MS). Exits cancel the entry's queued sends.
 * - A version that no longer parses exits its people (`journey_invalid`); an `advance` that throws
 *   (a bug) exits that one entry (`error`) so nobody is stuck and the batch goes on.
 */
import { advance } from '@gd/shared/journey/run/advance';
import { entryDraw } from '@gd/shared/journey/run/draw';
import type { Advance, EntryState } from '@gd/shared/journey/run/types';
import type { Logger } from 'pino';
import { tx, type Db, type DbClient } from '../../db/pool.ts';
import { cancelQueued, enqueueSends, type SendRequest } from '../delivery/enqueue.ts';
import { isValid, versionKey, type RunVersion, type VersionCache } from './definitions.ts';
import { loadFacts, peopleIn, type SegmentCache } from './facts.ts';
import * as repo from './repository.ts';

/** How often a waiting entry is looked at again when its journey has an exit segment. */
export const EXIT_SEGMENT_RECHECK_MS = 15 * 60_000;

export interface EngineContext {
  db: Db;
  log: Logger;
  now: () => Date;
  versions: VersionCache;
  segments: SegmentCache;
  /** Tests: only these apps' work (files sharing a database leave each other's entries alone); null: all. */
  appIds: readonly string[] | null;
}

export const sendKey = (journeyId: string, version: number, stepId: string, personId: string, entryId: string) =>
  `j:${journeyId}:${version}:${stepId}:${personId}:${entryId}`;

/** What one batch writes, gathered while its entries move, written in bulk by `flush`. */
export class BatchWrites {
  readonly updates: repo.EntryUpdate[] = [];
  readonly passages: repo.PassageRow[] = [];
  readonly tally = new repo.Tally();
  readonly sends: { request: SendRequest; passage: number }[] = [];
  readonly tags: { appId: string; personId: string; tagId: string; amount: number; passage: number }[] = [];
  readonly postbacks: repo.PostbackInsert[] = [];
  readonly exited: string[] = [];
  readonly now: Date;
  constructor(now: Date) {
    this.now = now;
  }

  exit(e: repo.EntryRow, reason: string): void {
    this.updates.push({ id: e.id, status: 'exited', stepId: e.state.stepId, state: e.state, wakeAt: null, waitingFor: null, endedAt: this.now, endReason: reason, lastMessageStepId: e.last_message_step_id });
    this.passages.push({ entryId: e.id, stepId: e.state.stepId, pathId: null, at: this.now, reason, detail: null, effectKind: null, effectStatus: null, effectReason: null });
    this.exited.push(e.id);
    this.tally.add(e.journey_id, e.version, repo.TOTAL_EXITED, 'cumulative');
  }

  /** Records what `advance` answered for one entry. */
  moved(e: repo.EntryRow, v: RunVersion, accountId: string, r: Advance, opts: { recheckMs: number | null }): void {
    const at = this.now;
    const passageOf = new Map<string, number>();
    for (const p of r.passed) {
      passageOf.set(p.stepId, this.passages.length);
      this.passages.push({ entryId: e.id, stepId: p.stepId, pathId: p.pathId, at: new Date(p.at), reason: p.reason, detail: p.detail ?? null, effectKind: null, effectStatus: null, effectReason: null });
    }
    // Arrivals: every step after the first left here, and the step the entry now waits at.
    for (const p of r.passed.slice(1)) this.tally.add(v.journeyId, v.version, p.stepId, 'cumulative');
    if (r.next.kind === 'wake' && r.passed.length > 0) this.tally.add(v.journeyId, v.version, r.state.stepId, 'cumulative');
    let lastMessage: EntryState['lastMessage'] = e.state.lastMessage;
    for (const effect of r.effects) {
      const passage = passageOf.get(effect.stepId) ?? -1;
      switch (effect.kind) {
        case 'send':
          this.sends.push({ passage, request: {
            appId: e.app_id, accountId, messageId: effect.messageId, personId: e.person_id, origin: 'automaticJourney',
            idempotencyKey: sendKey(v.journeyId, v.version, effect.stepId, e.person_id, e.id), journeyEntryId: e.id, journeyId: v.journeyId, stepId: effect.stepId,
          } });
          lastMessage = { stepId: effect.stepId, channel: effect.channel, at: at.getTime() };
          break;
        case 'postback': {
          const message = lastMessage ? v.steps.get(lastMessage.stepId) : undefined;
          const campaignId = message && 'campaignId' in message ? message.campaignId : null;
          this.postbacks.push({ appId: e.app_id, journeyId: v.journeyId, version: v.version, entryId: e.id, personId: e.person_id, stepId: effect.stepId, campaignId, campaignType: lastMessage?.channel ?? null });
          const row = this.passages[passage];
          if (row) Object.assign(row, { effectKind: 'postback', effectStatus: 'pending' });
          break;
        }
        case 'tag':
          this.tags.push({ appId: e.app_id, personId: e.person_id, tagId: effect.tagId, amount: effect.amount, passage });
          break;
        default: {
          const never: never = effect;
          throw new Error(`unknown effect ${JSON.stringify(never)}`);
        }
      }
    }
    const lastMessageStepId = r.state.lastMessage?.stepId ?? null;
    if (r.next.kind === 'end') {
      this.tally.add(v.journeyId, v.version, repo.TOTAL_ENDED, 'cumulative');
      this.updates.push({ id: e.id, status: 'ended', stepId: r.state.stepId, state: r.state, wakeAt: null, waitingFor: null, endedAt: at, endReason: r.next.reason, lastMessageStepId });
      return;
    }
    let wake = r.next.at;
    const recheck = r.next.waitingFor === 'segment' ? EXIT_SEGMENT_RECHECK_MS : opts.recheckMs;
    if (recheck !== null) wake = Math.min(wake ?? Infinity, at.getTime() + recheck);
    this.updates.push({ id: e.id, status: 'waiting', stepId: r.state.stepId, state: r.state, wakeAt: wake === null ? null : new Date(wake), waitingFor: r.next.waitingFor, endedAt: null, endReason: null, lastMessageStepId });
  }

  async flush(client: DbClient): Promise<void> {
    await repo.updateEntries(client, this.updates);
    if (this.sends.length > 0) {
      const results = await enqueueSends(client, this.sends.map((s) => s.request), this.now);
      this.sends.forEach((s, i) => {
        const result = results[i];
        const row = this.passages[s.passage];
        if (!row || !result) return;
        Object.assign(row, { effectKind: 'send', effectStatus: result.status, effectReason: result.status === 'skipped' ? result.reason : null });
      });
    }
    for (const [appId, items] of groupBy(this.tags, (t) => t.appId)) {
      const applied = await repo.addToTags(client, appId, items);
      for (const t of items) {
        const row = this.passages[t.passage];
        const ok = applied.has(`${t.personId}:${t.tagId}`);
        if (row) Object.assign(row, { effectKind: 'tag', effectStatus: ok ? 'applied' : 'skipped', effectReason: ok ? null : 'tag_gone' });
      }
    }
    await repo.insertPostbacks(client, this.postbacks, this.now);
    await repo.insertPassages(client, this.passages);
    await repo.addCounts(client, this.tally.map);
    if (this.exited.length > 0) await cancelQueued(client, this.exited, 'journey_exit');
  }
}

function groupBy<T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const i of items) {
    const k = key(i);
    const list = m.get(k);
    if (list) list.push(i);
    else m.set(k, [i]);
  }
  return m;
}

/** One batch: answers how many entries it took and how many steps they passed. */
export async function transitionBatch(ctx: EngineContext, limit: number): Promise<{ entries: number; passages: number }> {
  const now = ctx.now();
  return tx(ctx.db, async (client) => {
    const rows = await repo.lockDue(client, now, limit, ctx.appIds);
    if (rows.length === 0) return { entries: 0, passages: 0 };
    const journeys = await repo.journeysOf(client, [...new Set(rows.map((r) => r.journey_id))]);
    const groups = groupBy(rows, (r) => versionKey(r.journey_id, r.version));
    const versions = await ctx.versions.load(client, [...groups.values()].map((g) => ({ journeyId: g[0]?.journey_id ?? '', version: g[0]?.version ?? 0 })));
    const out = new BatchWrites(now);
    for (const [key, group] of groups) {
      const first = group[0];
      if (!first) continue;
      const journey = journeys.get(first.journey_id);
      const v = versions.get(key);
      if (!journey || !repo.versionRuns(journey, first.version)) {
        for (const e of group) out.exit(e, 'stopped');
        continue;
      }
      if (!isValid(v)) {
        for (const e of group) out.exit(e, 'journey_invalid');
        continue;
      }
      let moving: readonly repo.EntryRow[] = group;
      const exitSegment = v.settings.exit.segment;
      if (exitSegment) {
        const compiled = await ctx.segments.compiled(ctx.db, ctx.log, journey.app_id, `${v.journeyId}:${v.version}:exit`, exitSegment, now);
        const inside = await peopleIn(client, compiled, group.map((e) => e.person_id));
        moving = group.filter((e) => {
          if (inside.has(e.person_id)) return true;
          out.exit(e, 'exit_segment');
          return false;
        });
      }
      const facts = await loadFacts(client, ctx, v, journey.app_id, moving, now);
      const recheckMs = exitSegment ? EXIT_SEGMENT_RECHECK_MS : null;
      for (const e of moving) {
        let moved: Advance;
        try {
          moved = advance(v.journey, e.state, now.getTime(), facts.of(e), (stepId) => entryDraw(e.person_id, e.id, stepId));
        } catch (error) {
          ctx.log.error({ err: error, entryId: e.id, journeyId: e.journey_id }, 'a journey entry could not move; it exits');
          out.exit(e, 'error');
          continue;
        }
        out.moved(e, v, journey.account_id, moved, { recheckMs });
      }
    }
    await out.flush(client);
    return { entries: rows.length, passages: out.passages.length };
  });
}
