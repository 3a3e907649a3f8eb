/**
 * Launch refuses a journey that names what the app does not have (issue 11): an audience id, a
 * custom event outside the app's catalogue (shared journey/references.ts, the same rule the editor
 * shows), and, in the conditions of an audience entry or a split, an audience or tag that does not
 * exist (the segment compiler's own checks: `audience_not_exist`, `unknown_target`).
 *
 * Cost: the references of all the journeys checked together (the home screen checks every live
 * journey) are looked up at once, one query per kind (audiences, events, tags, and the app's time
 * zone when a condition is compiled), however many journeys there are.
 */
import { referenceViolations, journeyReferences, type Journey, type JourneyViolation, type Segment } from '@gd/shared';
import type { Queryable } from '../../db/pool.ts';
import { compileSegment, segmentReferences } from '../segments/compile.ts';
import { appTimezone, existingAudiences, tagTypes } from '../segments/repository.ts';

const REFERENCE_CODES = new Set(['audience_not_exist', 'unknown_target']);

const isUuidLike = (id: string) => /^[0-9a-f-]{36}$/i.test(id);

/** The conditions of a journey that launch compiles: an audience entry's own (no audience named), each split path's. */
interface JourneyConditions { stepId: string; path: JourneyViolation['path']; segment: Segment }

function journeyConditions(journey: Journey): JourneyConditions[] {
  const out: JourneyConditions[] = [];
  for (const s of journey.steps) {
    if (s.type === 'sourceAudience' && !s.audienceId && s.segment) out.push({ stepId: s.id, path: ['segment'], segment: s.segment });
    if (s.type === 'flowSplit') {
      for (const [i, p] of s.paths.entries()) if (p.segment) out.push({ stepId: s.id, path: ['paths', i, 'segment'], segment: p.segment });
    }
  }
  return out;
}

/**
 * The names among `names` the app has ever received an event of (catalogue or rollup), in one
 * query: the batched form of analytics/catalogue.ts `eventKnown`, one index probe per name.
 */
async function knownEvents(db: Queryable, appId: string, names: readonly string[]): Promise<Set<string>> {
  if (names.length === 0) return new Set();
  const { rows } = await db.query<{ name: string }>(
    `SELECT n.name FROM unnest($2::text[]) AS n(name)
      WHERE EXISTS (SELECT 1 FROM event_definitions d WHERE d.app_id = $1 AND d.name = n.name)
         OR EXISTS (SELECT 1 FROM event_daily r WHERE r.app_id = $1 AND r.name = n.name)`,
    [appId, names],
  );
  return new Set(rows.map((r) => r.name));
}

/** What each of `journeys` names that the app does not have (in the order of `journeys`). */
export async function missingReferencesMany(db: Queryable, appId: string, journeys: readonly Journey[]): Promise<JourneyViolation[][]> {
  const refs = journeys.map(journeyReferences);
  const conditions = journeys.map(journeyConditions);
  const conditionRefs = conditions.flat().map((c) => segmentReferences(c.segment));
  const unique = (values: string[]) => [...new Set(values)];
  const compiles = conditionRefs.length > 0;
  const [audiences, events, tags, timezone] = await Promise.all([
    existingAudiences(db, appId, unique([...refs.flatMap((r) => r.audienceIds.filter(isUuidLike)), ...conditionRefs.flatMap((r) => r.audienceIds)])),
    knownEvents(db, appId, unique(refs.flatMap((r) => r.eventNames))),
    tagTypes(db, appId, unique(conditionRefs.flatMap((r) => r.tagIds))),
    compiles ? appTimezone(db, appId) : 'UTC',
  ]);
  const now = new Date();
  return journeys.map((journey, i) => {
    const out = referenceViolations(journey, { audienceExists: (id) => audiences.has(id), eventExists: (name) => events.has(name) });
    // Compiled as launch's segment check does (segments/definition.ts compileFor, conditions not
    // required), with what every journey names: each condition only asks about its own ids.
    for (const c of conditions[i] ?? []) {
      const compiled = compileSegment(c.segment, { appId, timezone, now, tags, audiences });
      if (!compiled.ok && compiled.problems.some((p) => REFERENCE_CODES.has(p.code))) out.push({ stepId: c.stepId, path: c.path, code: 'segment_reference_missing' });
    }
    return out;
  });
}

/** What `journey` names that the app does not have (launch's check). */
export async function missingReferences(db: Queryable, appId: string, journey: Journey): Promise<JourneyViolation[]> {
  const [missing] = await missingReferencesMany(db, appId, [journey]);
  return missing ?? [];
}
