/**
 * Launch refuses a journey that names what the app does not have (issue 11): an audience id, a
 * custom event outside the app's catalogue (shared journey/references.ts, the same rule the editor
 * shows), and, in the conditions of an audience entry or a split, an audience or tag that does not
 * exist (the segment compiler's own checks: `audience_not_exist`, `unknown_target`).
 */
import { referenceViolations, journeyReferences, type Journey, type JourneyViolation, type Segment } from '@gd/shared';
import type { Queryable } from '../../db/pool.ts';
import { eventKnown } from '../analytics/catalogue.ts';
import { compileFor } from '../segments/definition.ts';
import { existingAudiences } from '../segments/repository.ts';

const REFERENCE_CODES = new Set(['audience_not_exist', 'unknown_target']);

async function conditionNamesMissing(db: Queryable, appId: string, segment: Segment | null | undefined): Promise<boolean> {
  if (!segment) return false;
  const compiled = await compileFor(db, segment, { appId, requireConditions: false });
  return !compiled.ok && compiled.problems.some((p) => REFERENCE_CODES.has(p.code));
}

export async function missingReferences(db: Queryable, appId: string, journey: Journey): Promise<JourneyViolation[]> {
  const refs = journeyReferences(journey);
  const [audiences, events] = await Promise.all([
    existingAudiences(db, appId, refs.audienceIds.filter((id) => /^[0-9a-f-]{36}$/i.test(id))),
    Promise.all(refs.eventNames.map(async (name) => [name, await eventKnown(db, appId, name)] as const)),
  ]);
  const knownEvents = new Set(events.filter(([, known]) => known).map(([name]) => name));
  const out = referenceViolations(journey, { audienceExists: (id) => audiences.has(id), eventExists: (name) => knownEvents.has(name) });
  for (const s of journey.steps) {
    if (s.type === 'sourceAudience' && !s.audienceId && (await conditionNamesMissing(db, appId, s.segment))) {
      out.push({ stepId: s.id, path: ['segment'], code: 'segment_reference_missing' });
    }
    if (s.type === 'flowSplit') {
      for (const [i, p] of s.paths.entries()) {
        if (await conditionNamesMissing(db, appId, p.segment)) out.push({ stepId: s.id, path: ['paths', i, 'segment'], code: 'segment_reference_missing' });
      }
    }
  }
  return out;
}
