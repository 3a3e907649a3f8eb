/**
 * The facts of a batch (docs/design/journey-engine.md section 2), preloaded so the pure `advance`
 * can ask them synchronously:
 * - interactions with the journey's message steps, from message_interactions, since the earliest
 *   last send of the batch's entries: those that carry the journey and step they answer (e-mail
 *   tracking, an SDK that echoes them), and those that name only the message (push and in-app as
 *   SDKs report them), matched to the step that sends that message; the send time bounds both;
 * - the version's flowEvent events from `events`, since the earliest `since` of the batch;
 * - each flowSplit path's segment, and the exit segment, evaluated now for the batch's people with
 *   the shared segment compiler (segments/definition.ts compileFor, which reads the catalogue through
 *   the pool, outside the batch's transaction), one query per segment.
 * Everything is read up to `now` (the engine's clock), never past it.
 */
import type { InteractionType, Segment } from '@gd/shared';
import type { Facts } from '@gd/shared/journey/run/types';
import type { Logger } from 'pino';
import type { Queryable } from '../../db/pool.ts';
import { compileFor } from '../segments/definition.ts';
import type { RunVersion } from './definitions.ts';
import type { EntryRow } from './repository.ts';

interface Hit { name: string; at: number; stepId?: string | null; messageId?: string | null }

/** Compiled segments, kept for a minute of the engine's clock (relative dates move with it). */
export class SegmentCache {
  private readonly cache = new Map<string, Promise<{ where: string; params: unknown[] } | null>>();
  private minute = -1;

  compiled(db: Queryable, log: Logger, appId: string, key: string, segment: Segment, now: Date): Promise<{ where: string; params: unknown[] } | null> {
    const minute = Math.floor(now.getTime() / 60_000);
    if (minute !== this.minute) {
      this.cache.clear();
      this.minute = minute;
    }
    let found = this.cache.get(`${appId}:${key}`);
    if (!found) {
      found = compileFor(db, segment, { appId, now, requireConditions: false }).then((c) => {
        if (c.ok) return c.value;
        log.warn({ appId, key, problems: c.problems }, 'a journey segment does not compile; nobody is in it');
        return null;
      });
      this.cache.set(`${appId}:${key}`, found);
    }
    return found;
  }
}

/** Which of `personIds` are in the compiled segment now. */
export async function peopleIn(db: Queryable, compiled: { where: string; params: unknown[] } | null, personIds: readonly string[]): Promise<Set<string>> {
  if (!compiled || personIds.length === 0) return new Set();
  const n = compiled.params.length;
  const { rows } = await db.query<{ id: string }>(`SELECT p.id::text AS id FROM people p WHERE (${compiled.where}) AND p.id = ANY($${n + 1}::bigint[])`, [...compiled.params, [...personIds]]);
  return new Set(rows.map((r) => r.id));
}

export interface BatchFacts { of(entry: EntryRow): Facts }

export async function loadFacts(db: Queryable, ctx: { db: Queryable; log: Logger; segments: SegmentCache }, v: RunVersion, appId: string, entries: readonly EntryRow[], now: Date): Promise<BatchFacts> {
  const people = [...new Set(entries.map((e) => e.person_id))];
  const interactions = new Map<string, Hit[]>();
  const events = new Map<string, Hit[]>();
  const segments = new Map<string, Set<string>>();
  const push = (m: Map<string, Hit[]>, person: string, hit: Hit) => {
    const list = m.get(person);
    if (list) list.push(hit);
    else m.set(person, [hit]);
  };
  // One connection (the batch's transaction) answers one query at a time: the reads run in turn.
  const jobs: (() => Promise<void>)[] = [];
  const sent = entries.map((e) => e.state.lastMessage?.at).filter((x): x is number => typeof x === 'number');
  // The message each message step sends: interactions reported without their journey step match by it.
  const messageOfStep = new Map(v.journey.steps.flatMap((st) => ('messageId' in st && st.messageId ? [[st.id, st.messageId] as const] : [])));
  if (v.hasInteractionSteps && sent.length > 0) {
    jobs.push(() => db.query<{ person_id: string; step_id: string | null; message_id: string | null; kind: string; at: Date }>(
      `SELECT person_id::text, step_id, message_id, kind, event_time AS at FROM message_interactions
        WHERE app_id = $1 AND person_id = ANY($3::bigint[]) AND event_time >= $4 AND event_time <= $5
          AND (journey_id = $2 OR (journey_id IS NULL AND message_id = ANY($6::text[])))
        ORDER BY event_time`,
      [appId, v.journeyId, people, new Date(Math.min(...sent)), now, [...new Set(messageOfStep.values())]]).then(({ rows }) => {
      for (const r of rows) push(interactions, r.person_id, { name: r.kind, at: r.at.getTime(), stepId: r.step_id, messageId: r.message_id });
    }));
  }
  if (v.flowEventIds.length > 0) {
    const since = Math.min(...entries.map((e) => e.state.since));
    jobs.push(() => db.query<{ person_id: string; name: string; at: Date }>(
      `SELECT person_id::text, name, event_time AS at FROM events
        WHERE app_id = $1 AND person_id = ANY($2::bigint[]) AND name = ANY($3::text[]) AND event_time >= $4 AND event_time <= $5 ORDER BY event_time`,
      [appId, people, v.flowEventIds, new Date(since), now]).then(({ rows }) => {
      for (const r of rows) push(events, r.person_id, { name: r.name, at: r.at.getTime() });
    }));
  }
  for (const { stepId, pathId } of v.splitPaths) {
    const step = v.steps.get(stepId);
    const segment = step && 'paths' in step ? step.paths.find((p) => p.id === pathId)?.segment : null;
    if (!segment) continue;
    jobs.push(() => ctx.segments.compiled(ctx.db, ctx.log, appId, `${v.journeyId}:${v.version}:${stepId}:${pathId}`, segment, now)
      .then((compiled) => peopleIn(db, compiled, people))
      .then((inside) => void segments.set(`${stepId}\u0000${pathId}`, inside)));
  }
  for (const job of jobs) await job();
  return {
    of(entry) {
      const person = entry.person_id;
      return {
        interaction(messageStepId: string, kinds: readonly InteractionType[], since: number, until: number) {
          let best: { kind: InteractionType; at: number; rank: number } | null = null;
          for (const h of interactions.get(person) ?? []) {
            const answers = h.stepId ? h.stepId === messageStepId : !!h.messageId && h.messageId === messageOfStep.get(messageStepId);
            if (!answers || h.at < since || h.at > until) continue;
            const rank = kinds.indexOf(h.name as InteractionType);
            if (rank < 0) continue;
            if (!best || h.at < best.at || (h.at === best.at && rank < best.rank)) best = { kind: h.name as InteractionType, at: h.at, rank };
          }
          return best ? { kind: best.kind, at: best.at } : null;
        },
        event(eventIds: readonly string[], since: number, until: number) {
          let best: { eventId: string; at: number; rank: number } | null = null;
          for (const h of events.get(person) ?? []) {
            if (h.at < since || h.at > until) continue;
            const rank = eventIds.indexOf(h.name);
            if (rank < 0) continue;
            if (!best || h.at < best.at || (h.at === best.at && rank < best.rank)) best = { eventId: h.name, at: h.at, rank };
          }
          return best ? { eventId: best.eventId, at: best.at } : null;
        },
        inSegment(stepId: string, pathId: string) {
          return segments.get(`${stepId}\u0000${pathId}`)?.has(person) ?? false;
        },
      };
    },
  };
}
