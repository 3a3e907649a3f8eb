/**
 * What launch and stop tell the engine, and the stop sweep.
 *
 * - Launch (in launch.ts's transaction, so a version and its start commit together): the journey's
 *   run row; for a sourceAudience entry, an enrolment of the audience's members as of the launch
 *   (enter.ts); the app's trigger interests for consumer 'journeys' rewritten. People inside an
 *   older version finish it (their entries keep their version; only new entries take the new
 *   one), and that version's exits, flowEvent and interaction names stay registered while it has
 *   people inside.
 * - Stop: the run row records every version up to the live one as stopped; from then no entry of
 *   them moves (transition.ts checks before moving), no new entry is made (the journey is not live),
 *   timers are moot, and the sweep exits the open entries a page at a time (`stopped`, queued
 *   sends cancelled). A deleted journey is swept the same way.
 */
import type { Logger } from 'pino';
import { tx, type Db, type Queryable } from '../../db/pool.ts';
import { cancelQueued } from '../delivery/enqueue.ts';
import { setInterests } from '../ingest/triggers.ts';
import { runVersionOf, triggerNames, isValid, type VersionCache } from './definitions.ts';
import { appJourneys } from './enter.ts';
import * as repo from './repository.ts';

export const STOP_PAGE = 2000;

/** Rewrites the app's journey interests from its live journeys (every version with people inside included). */
export async function refreshInterests(db: Queryable, versions: VersionCache, appId: string): Promise<string[]> {
  const journeys = (await appJourneys(db, versions, [appId])).get(appId) ?? [];
  const names = [...new Set(journeys.flatMap((j) => j.running.flatMap(triggerNames)))].sort();
  await setInterests(db, appId, 'journeys', names);
  return names;
}

/** In the launch transaction, after the version is written and the journey is live. */
export async function journeyLaunched(db: Queryable, versions: VersionCache, l: { journeyId: string; appId: string; version: number; definition: unknown }): Promise<void> {
  await repo.upsertRun(db, { journeyId: l.journeyId, appId: l.appId });
  const v = runVersionOf(l.journeyId, l.version, l.definition);
  if (isValid(v) && v.entry?.type === 'sourceAudience') {
    await db.query(
      `INSERT INTO journey_enrolments (app_id, journey_id, version, step_id, audience_id, added_until) VALUES ($1, $2, $3, $4, $5, now())`,
      [l.appId, l.journeyId, l.version, v.entry.id, v.entry.audienceId && /^[0-9a-f-]{36}$/i.test(v.entry.audienceId) ? v.entry.audienceId : null]);
  }
  await refreshInterests(db, versions, l.appId);
}

/** After the journey's status is `stopped` (or it was deleted): its versions up to `version` stop. */
export async function journeyStopped(db: Queryable, versions: VersionCache, s: { journeyId: string; appId: string; version: number | null }): Promise<void> {
  await repo.upsertRun(db, { journeyId: s.journeyId, appId: s.appId, stoppedThrough: s.version ?? 0 });
  await db.query(`UPDATE journey_enrolments SET done_at = now(), error = 'stopped' WHERE journey_id = $1 AND done_at IS NULL`, [s.journeyId]);
  await refreshInterests(db, versions, s.appId);
}

/** Exits a page of every stopping journey's people; answers how many left. */
export async function stopSweep(ctx: { db: Db; log: Logger; now: () => Date; appIds: readonly string[] | null }, pageSize = STOP_PAGE): Promise<number> {
  let total = 0;
  for (const j of await repo.stoppingJourneys(ctx.db, ctx.appIds)) {
    const now = ctx.now();
    const n = await tx(ctx.db, async (client) => {
      const page = await repo.lockStopped(client, j, pageSize);
      const exited = await repo.exitEntries(client, { ids: page.map((p) => p.id) }, 'stopped', now);
      await repo.insertPassages(client, exited.map((e) => ({ entryId: e.id, stepId: e.step_id, pathId: null, at: now, reason: 'stopped', detail: null, effectKind: null, effectStatus: null, effectReason: null })));
      await cancelQueued(client, exited.map((e) => e.id), 'journey_stopped');
      const tally = new repo.Tally();
      for (const e of exited) tally.add(e.journey_id, e.version, repo.TOTAL_EXITED, 'cumulative');
      await repo.addCounts(client, tally.map);
      return page.length;
    });
    if (n < pageSize) await repo.clearStopping(ctx.db, j.id);
    total += n;
  }
  return total;
}
