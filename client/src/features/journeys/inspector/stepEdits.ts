/** Small pure step edits of the inspector. */
import { createStep, type JourneyStep, type StepOf, type StepType } from '@gd/shared/journey/model';

type Source = StepOf<'sourceAudience'> | StepOf<'sourceEvents'>;

/** The same entry step as the other kind (keeps id, name and link; the kind's fields start empty). */
export function switchSourceKind(step: Source, type: Source['type']): JourneyStep {
  const next = createStep(type, step.id);
  return { ...next, next: step.next, ...(step.name ? { name: step.name } : {}) };
}

/** The step named `name` (trimmed); an empty name removes the field. */
export function withName(step: JourneyStep, name: string): JourneyStep {
  const copy = { ...step };
  if (name.trim() === '') delete copy.name;
  else copy.name = name.trim();
  return copy;
}

/** A type guard for steps of the given types. */
export const isOneOf =
  <T extends StepType>(...types: T[]) =>
  (s: JourneyStep): s is StepOf<T> =>
    (types as StepType[]).includes(s.type);
