/**
 * What a journey names outside itself, and whether it exists (issue 11): the audience of an
 * audience entry, the events of an events entry and of an event branch, and the events of its
 * settings (exit criteria and conversion goal, issue 14). A journey must not go live
 * on an audience id or event name that the app does not have (a typed "Android" as an audience).
 * The editor checks with the lists it has loaded (the problem shows on the step as it is made);
 * launch checks with the database and also compiles the conditions of audience entries and splits
 * (an audience or tag a condition names must exist: api-server journeys/launch).
 *
 * An event exists when it is a built-in event (or the screen event) or in the app's event catalogue
 * (every event the app has sent, and those defined in /manage/events before they are sent).
 */
import { SCREEN_EVENT, isBuiltInEvent } from '../behaviour/events.ts';
import type { Journey } from './model.ts';
import type { JourneyViolation } from './validate.ts';

export interface JourneyReferences {
  audienceIds: string[];
  /** Custom events (built-in ones always exist). */
  eventNames: string[];
}

export interface ReferenceLookup {
  audienceExists(id: string): boolean;
  /** Whether a custom event is in the app's catalogue. */
  eventExists(name: string): boolean;
}

const custom = (name: string) => !isBuiltInEvent(name) && name !== SCREEN_EVENT;

export function journeyReferences(j: Journey): JourneyReferences {
  const audienceIds = new Set<string>();
  const eventNames = new Set<string>();
  for (const s of j.steps) {
    if (s.type === 'sourceAudience' && s.audienceId) audienceIds.add(s.audienceId);
    if (s.type === 'sourceEvents') for (const e of s.eventIds) if (e.trim() && custom(e.trim())) eventNames.add(e.trim());
    if (s.type === 'flowEvent') for (const p of s.paths) if (p.eventId?.trim() && custom(p.eventId.trim())) eventNames.add(p.eventId.trim());
  }
  for (const e of [...(j.settings?.exit.eventIds ?? []), j.settings?.goal.eventId ?? '']) if (e.trim() && custom(e.trim())) eventNames.add(e.trim());
  return { audienceIds: [...audienceIds], eventNames: [...eventNames] };
}

/** The references of `j` that do not exist, as problems on their steps and fields. */
export function referenceViolations(j: Journey, lookup: ReferenceLookup): JourneyViolation[] {
  const out: JourneyViolation[] = [];
  const missingEvent = (name: string | null | undefined) => !!name?.trim() && custom(name.trim()) && !lookup.eventExists(name.trim());
  for (const s of j.steps) {
    if (s.type === 'sourceAudience' && s.audienceId && !lookup.audienceExists(s.audienceId)) {
      out.push({ stepId: s.id, path: ['audienceId'], code: 'audience_not_found', params: { id: s.audienceId } });
    }
    if (s.type === 'sourceEvents') {
      for (const name of s.eventIds) if (missingEvent(name)) out.push({ stepId: s.id, path: ['eventIds'], code: 'event_not_found', params: { name: name.trim() } });
    }
    if (s.type === 'flowEvent') {
      s.paths.forEach((p, i) => {
        if (missingEvent(p.eventId)) out.push({ stepId: s.id, path: ['paths', i, 'eventId'], code: 'event_not_found', params: { name: (p.eventId ?? '').trim() } });
      });
    }
  }
  // Settings problems have no step (as validate.ts's settings codes): their path starts with `settings`.
  j.settings?.exit.eventIds.forEach((name, i) => {
    if (missingEvent(name)) out.push({ stepId: null, path: ['settings', 'exit', 'eventIds', i], code: 'event_not_found', params: { name: name.trim() } });
  });
  if (missingEvent(j.settings?.goal.eventId)) out.push({ stepId: null, path: ['settings', 'goal', 'eventId'], code: 'event_not_found', params: { name: (j.settings?.goal.eventId ?? '').trim() } });
  return out;
}
