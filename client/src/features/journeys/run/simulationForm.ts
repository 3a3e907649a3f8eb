/**
 * The simulation panel's form (what the described person does) and the request it makes
 * (schemas/journeySimulation.ts), both ways: a stored simulation's request fills the form again.
 * Pure.
 */
import type { InteractionType, Journey } from '@gd/shared/journey/model';
import type { JourneySimulationRequest, JourneySimulationSource } from '@gd/shared/schemas/journeySimulation';

export interface SimEvent {
  key: string;
  eventId: string | null;
  atSeconds: number;
}
export interface SimInteraction {
  key: string;
  kind: InteractionType;
  afterSeconds: number;
  /** Only the message of this step; null: every message. */
  stepId: string | null;
}
export interface SimForm {
  source: JourneySimulationSource;
  personId: string;
  events: SimEvent[];
  interactions: SimInteraction[];
  /** flowSplit membership per `stepId:pathId`. */
  segments: Record<string, boolean>;
}

export const HOUR = 3_600;
export const emptyForm = (source: JourneySimulationSource = 'draft'): SimForm => ({ source, personId: '', events: [], interactions: [], segments: {} });

const PERSON_ID = /^[1-9][0-9]{0,18}$/;
/** A typed person id is usable: empty (none) or a positive whole number. */
export const personIdValid = (value: string): boolean => value.trim() === '' || PERSON_ID.test(value.trim());

/** The request of a form: events without a name are left out, segments only when true. */
export function toRequest(form: SimForm): JourneySimulationRequest {
  const personId = form.personId.trim();
  return {
    source: form.source,
    ...(personId === '' ? {} : { personId }),
    behaviour: {
      events: form.events.flatMap((e) => (e.eventId ? [{ eventId: e.eventId, atSeconds: Math.max(0, Math.round(e.atSeconds)) }] : [])),
      interactions: form.interactions.map((i) => ({
        kind: i.kind,
        afterSeconds: Math.max(0, Math.round(i.afterSeconds)),
        ...(i.stepId ? { stepId: i.stepId } : {}),
      })),
      segments: Object.fromEntries(Object.entries(form.segments).filter(([, v]) => v)),
    },
  };
}

/** The form a request was made from (keys are positions: a stored request has none). */
export function fromRequest(request: JourneySimulationRequest): SimForm {
  return {
    source: request.source,
    personId: request.personId ?? '',
    events: request.behaviour.events.map((e, i) => ({ key: `e${i}`, eventId: e.eventId, atSeconds: e.atSeconds })),
    interactions: request.behaviour.interactions.map((x, i) => ({ key: `i${i}`, kind: x.kind, afterSeconds: x.afterSeconds, stepId: x.stepId ?? null })),
    segments: { ...request.behaviour.segments },
  };
}

/** The split paths a person may be put in: every flowSplit path but the last ("otherwise"). */
export function splitPaths(journey: Journey): { stepId: string; pathId: string; index: number }[] {
  return journey.steps.flatMap((s) => (s.type === 'flowSplit' ? s.paths.slice(0, -1).map((p, index) => ({ stepId: s.id, pathId: p.id, index })) : []));
}

/** The message steps of the journey (an interaction may follow only one of them). */
export const messageSteps = (journey: Journey) =>
  journey.steps.filter((s) => s.type === 'actionMessagePush' || s.type === 'actionMessageInApp' || s.type === 'actionMessageEmail');
