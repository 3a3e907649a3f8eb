/**
 * Audience refreshes: on demand (the API) and on a schedule (the worker). A refresh is claimed
 * first (state in_progress, committed, so lists show it), then the members are recomputed and
 * replaced and the count written in ONE transaction: if anything fails the transaction rolls
 * back, the previous members and count stay, and the audience records the error (state error,
 * SPEC.md section 8 name: AudienceNotValid / AudienceNotExist for a definition that no longer
 * evaluates, SaveDataError when saving the members failed or ran past its time).
 *
 * The schedule: each segment audience is refreshed `refresh_every_minutes` after its last
 * refresh (successful or not); inactive audiences never. The worker claims due audiences with
 * SKIP LOCKED, so several workers share the work; a refresh left in progress for 15 minutes (its
 * process died) is taken over. This uses the same polling pattern as the mail worker rather than
 * a queue library: it runs unchanged on embedded PGlite.
 */
import type { Logger } from 'pino';
import {
  ErrorCode, SEGMENT_LIMITS, Segment, fail, ok, type Result, conflict,
} from '@gd/shared';
import { tx, type Db } from '../../db/pool.ts';
import type { LiveDocReader } from '../documents/liveDocs.ts';
import { compileFor, describeProblems, errorNameOf, readSegmentDocument } from './definition.ts';
import { materialise } from './evaluate.ts';
import { notifyAudienceJourneys } from '../journeyRun/enter.ts';
import * as repo from './repository.ts';

export interface RefreshDeps {
  db: Db;
  log: Logger;
  liveDocs?: LiveDocReader | undefined;
  /** statement_timeout of the materialisation (default SEGMENT_LIMITS.refreshTimeoutMs). */
  timeoutMs?: number;
}

/** What a segment audience evaluates: its segment's current content, else its last snapshot. */
async function currentDefinition(deps: RefreshDeps, row: repo.AudienceRow): Promise<Segment | null> {
  if (row.segment_doc_name) return readSegmentDocument(deps.db, deps.liveDocs, row.segment_doc_name);
  const stored = Segment.safeParse(row.definition);
  return stored.success ? stored.data : null;
}

/** Runs a claimed refresh to its end state (ready or error); never throws for expected failures. */
export async function runRefresh(deps: RefreshDeps, row: repo.AudienceRow, preloaded?: Segment): Promise<void> {
  const { db } = deps;
  try {
    if (row.source_type !== 'segment') {
      // Imports write their members themselves; a refresh recounts them.
      await repo.recordRefreshed(db, row.id, { count: await repo.countMembers(db, row.app_id, row.id), definition: null });
      return;
    }
    const definition = preloaded ?? (await currentDefinition(deps, row));
    if (!definition) {
      await repo.recordRefreshFailed(db, row.id, { name: 'AudienceNotValid', message: 'AudienceNotValid: the audience has no segment definition' });
      return;
    }
    const compiled = await compileFor(db, definition, { appId: row.app_id, selfAudienceId: row.id, requireConditions: true });
    if (!compiled.ok) {
      await repo.recordRefreshFailed(db, row.id, { name: errorNameOf(compiled.problems), message: describeProblems(compiled.problems) });
      return;
    }
    await tx(db, async (client) => {
      await client.query(`SELECT set_config('statement_timeout', $1, true)`, [String(deps.timeoutMs ?? SEGMENT_LIMITS.refreshTimeoutMs)]);
      const count = await materialise(client, row.id, compiled.value);
      await repo.recordRefreshed(client, row.id, { count, definition });
    });
    // Live journeys entered from the audience enrol its new members (features/journeyRun; the engine also checks every 30 s).
    await notifyAudienceJourneys(db, row.id).catch((error: unknown) => deps.log.warn({ err: error, audienceId: row.id }, 'journeys could not be told about the refresh'));
  } catch (error) {
    const code = (error as { code?: string } | null)?.code;
    deps.log.warn({ err: error, audienceId: row.id }, 'audience refresh failed');
    const message = code === '57014'
      ? 'SaveDataError: the refresh ran past its time limit; the previous members are kept'
      : `SaveDataError: the members could not be saved${code ? ` (database error ${code})` : ''}; the previous members are kept`;
    await repo.recordRefreshFailed(db, row.id, { name: 'SaveDataError', message }).catch((e: unknown) => deps.log.error({ err: e }, 'recording a refresh failure failed'));
  }
}

/** Refresh now (the API): claims, runs, answers the audience as it ended up. */
export async function refreshNow(deps: RefreshDeps, appId: string, audienceId: string, preloaded?: Segment): Promise<Result<repo.AudienceRow>> {
  if (!(await repo.claimRefresh(deps.db, audienceId))) {
    const row = await repo.findAudience(deps.db, appId, audienceId);
    if (!row) return fail(ErrorCode.NO_PERMISSION, 'No permission for this audience');
    if (row.status === 'inactive') return conflict('The audience is inactive; activate it to refresh it');
    return conflict('The audience is being refreshed already; try again when it is ready');
  }
  const claimed = await repo.findAudience(deps.db, appId, audienceId);
  if (!claimed) return fail(ErrorCode.NO_PERMISSION, 'No permission for this audience');
  await runRefresh(deps, claimed, preloaded);
  const done = await repo.findAudience(deps.db, appId, audienceId);
  return done ? ok(done) : fail(ErrorCode.NO_PERMISSION, 'No permission for this audience');
}

/** Refreshes due audiences one by one (up to `max`); answers how many ran. */
export async function refreshDueAudiences(deps: RefreshDeps, max = 10): Promise<number> {
  let done = 0;
  while (done < max) {
    const claimed = await repo.claimDueAudience(deps.db);
    if (!claimed) break;
    const row = await repo.findAudience(deps.db, claimed.app_id, claimed.id);
    if (row) await runRefresh(deps, row);
    done++;
  }
  return done;
}

/** The worker loop: looks for due audiences every `intervalMs`, one pass at a time. */
export function startAudienceScheduler(deps: RefreshDeps, intervalMs = 30_000) {
  let pass: Promise<void> | null = null;
  let stopped = false;
  const tick = (): Promise<void> => {
    pass ??= stopped ? null : refreshDueAudiences(deps)
      .then(() => undefined, (error: unknown) => deps.log.error({ err: error }, 'audience scheduler pass failed'))
      .finally(() => { pass = null; });
    return pass ?? Promise.resolve();
  };
  const timer = setInterval(() => void tick(), intervalMs);
  timer.unref();
  return {
    tick,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await pass;
    },
  };
}
