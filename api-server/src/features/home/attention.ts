/**
 * "Needs attention" of the home screen, over the areas the caller may see: live journeys (all of
 * them with ui:journey.view, else the caller's own with the owner variant, as the journeys list),
 * audiences (ui:audience.view) and import tasks (the import screen's route key).
 *
 * A live journey's launched version is checked again for what it names (journeys/references.ts,
 * the check launch makes): an audience deleted, a custom event dropped from the catalogue, or a tag
 * or audience a condition names, since launch. "Edited since launch" compares the stored
 * document's state vector with the version's, as the journeys list does.
 */
import { journeyDraftChanged } from '@gd/shared/docs/editedBeyond';
import { HOME_LIMITS, Journey, can, type AttentionItem, type HomeAttention, type LaunchViolation, type PermissionSubject } from '@gd/shared';
import type { Queryable } from '../../db/pool.ts';
import { missingReferencesMany } from '../journeys/references.ts';
import { mergeAttention } from './items.ts';
import * as repo from './repository.ts';

/** The problem of a launched version this build cannot read (the screen has a text for it). */
export const VERSION_UNREADABLE = 'version_unreadable';

function editedSinceLaunch(row: repo.LiveJourneyRow): boolean {
  if (row.doc_state === null) return false;
  return journeyDraftChanged(row.doc_state, row.live_state_vector);
}

async function journeyItems(db: Queryable, appId: string, ownerId: string | null): Promise<AttentionItem[]> {
  const rows = await repo.liveJourneys(db, appId, ownerId, HOME_LIMITS.maxItems);
  const parsed = rows.map((row) => Journey.safeParse(row.definition));
  // The references of every readable version, looked up together (one query per kind, not per journey).
  const readable = parsed.flatMap((p) => (p.success ? [p.data] : []));
  const missing = await missingReferencesMany(db, appId, readable);
  const items: AttentionItem[] = [];
  let next = 0;
  for (const [i, row] of rows.entries()) {
    // A version stored by this code always parses; one that does not cannot be checked, not "all good" either.
    const problems: LaunchViolation[] = parsed[i]?.success
      ? (missing[next++] ?? []).map((p) => ({ stepId: p.stepId, path: p.path.join('.'), code: p.code, ...(p.params ? { params: p.params } : {}) }))
      : [{ stepId: null, path: '', code: VERSION_UNREADABLE }];
    if (problems.length > 0) items.push({ type: 'journey_problems', journeyId: row.id, name: row.name, version: row.live_version, problems });
    if (editedSinceLaunch(row)) {
      items.push({ type: 'journey_unlaunched_edits', journeyId: row.id, name: row.name, version: row.live_version, editedAt: (row.doc_updated_at ?? row.launched_at).toISOString() });
    }
  }
  return items;
}

export async function homeAttention(db: Queryable, appId: string, subject: PermissionSubject): Promise<HomeAttention> {
  const checked = {
    journeys: can(subject, { or: ['ui:journey.view', 'ui:journey.view:owner'] }),
    audiences: can(subject, 'ui:audience.view'),
    imports: can(subject, 'route:/manage/import-task'),
  };
  const [journeys, audiences, imports] = await Promise.all([
    checked.journeys ? journeyItems(db, appId, can(subject, 'ui:journey.view') ? null : subject.userId) : [],
    checked.audiences ? repo.audiencesInError(db, appId, HOME_LIMITS.maxItems) : [],
    checked.imports ? repo.failedImports(db, appId, HOME_LIMITS.importFailureDays, HOME_LIMITS.maxItems) : [],
  ]);
  const items: AttentionItem[] = [
    ...journeys,
    ...audiences.map((a): AttentionItem => ({
      type: 'audience_error', audienceId: a.id, name: a.name, errorName: a.error_name, errorMessage: a.error_message, at: a.updated_at.toISOString(),
    })),
    ...imports.map((t): AttentionItem => ({
      type: 'import_failed', taskId: t.id, name: t.name, audienceId: t.audience_id, errorName: t.error_name, errorMessage: t.error_message, at: t.at.toISOString(),
    })),
  ];
  return { items: mergeAttention(items, HOME_LIMITS.maxItems), checked };
}
