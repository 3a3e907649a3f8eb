/**
 * The invariants that normalizeJourney establishes, as a checker. Tests assert it is empty after
 * every edit; the editor may assert it in development builds.
 */
import { outEdges, predecessors, stepIndex } from './graph.ts';
import { isSource, isWaitLike, type Journey } from './model.ts';
import { allowedInteractions } from './normalize.ts';

export type InvariantCode =
  | 'duplicate_step_id'
  | 'duplicate_path_id'
  | 'entry_invalid'
  | 'no_paths'
  | 'open_end'
  | 'dangling_next'
  | 'next_is_source'
  | 'wait_self_loop'
  | 'consecutive_waits'
  | 'invalid_interaction_action'
  | 'wait_missing_before'
  | 'wait_missing_after_in_app'
  | 'orphan_auto_step';

export interface InvariantIssue {
  code: InvariantCode;
  stepId: string;
  pathIndex?: number | null;
}

export function journeyInvariantIssues(j: Journey): InvariantIssue[] {
  const out: InvariantIssue[] = [];
  const byId = stepIndex(j);
  const preds = predecessors(j);
  const ids = new Set<string>();
  for (const s of j.steps) {
    if (ids.has(s.id)) out.push({ code: 'duplicate_step_id', stepId: s.id });
    ids.add(s.id);
  }
  const entry = j.entryId === null ? undefined : byId.get(j.entryId);
  const firstSource = j.steps.find((s) => isSource(s.type));
  if (j.entryId === null ? !!firstSource : !entry || !isSource(entry.type)) {
    out.push({ code: 'entry_invalid', stepId: j.entryId ?? '' });
  }
  for (const s of j.steps) {
    if ('paths' in s) {
      if (s.paths.length === 0) out.push({ code: 'no_paths', stepId: s.id });
      if (new Set(s.paths.map((p) => p.id)).size !== s.paths.length) out.push({ code: 'duplicate_path_id', stepId: s.id });
    }
    for (const e of outEdges(s)) {
      const issue = (code: InvariantCode) => out.push({ code, stepId: s.id, pathIndex: e.pathIndex });
      if (e.to === null) {
        issue('open_end');
        continue;
      }
      const target = byId.get(e.to);
      if (!target) issue('dangling_next');
      else if (isSource(target.type)) issue('next_is_source');
      else if (s.type === 'flowWait' && target.id === s.id) issue('wait_self_loop');
      else if (s.type === 'flowWait' && target.type === 'flowWait') issue('consecutive_waits');
      else if (s.type === 'actionMessageInApp' && !isWaitLike(target.type)) issue('wait_missing_after_in_app');
      else if ((target.type === 'flowInteraction' || target.type === 'flowEvent') && !isWaitLike(s.type)) {
        issue('wait_missing_before');
      }
    }
    if (s.type === 'flowInteraction' || s.type === 'flowWaitInteraction') {
      const allowed = allowedInteractions(j, s.id);
      s.paths.forEach((p, i) => {
        if (p.action && !allowed.includes(p.action)) {
          out.push({ code: 'invalid_interaction_action', stepId: s.id, pathIndex: i });
        }
      });
    }
    if (s.auto && s.id !== j.entryId && (preds.get(s.id) ?? []).length === 0) {
      out.push({ code: 'orphan_auto_step', stepId: s.id });
    }
  }
  return out;
}
