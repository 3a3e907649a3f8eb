/** The step being inspected: its violations (for field errors) and a patch function on its latest value. */
import { createContext, useCallback, useContext, useEffect, useRef } from 'react';
import type { JourneyStep } from '@gd/shared/journey/model';
import type { JourneyViolation } from '@gd/shared/journey/validate';
import { useT } from '../../../i18n/useT.ts';
import { violationText } from '../../../entities/journey/violationText.ts';
import { violationsAt, type FieldPath } from './fieldErrors.ts';

export interface InspectorState {
  stepId: string;
  violations: readonly JourneyViolation[];
  readOnly: boolean;
}

export const InspectorContext = createContext<InspectorState>({ stepId: '', violations: [], readOnly: true });

/** A function giving the translated error(s) of a field, or undefined. */
export function useFieldErrors(): (path: FieldPath) => string | undefined {
  const { t } = useT();
  const { stepId, violations } = useContext(InspectorContext);
  return (path) => {
    const found = violationsAt(violations, stepId, path);
    return found.length > 0 ? found.map((v) => violationText(t, v)).join(' ') : undefined;
  };
}

/** The translated error(s) of one field, or undefined. */
export const useFieldError = (path: FieldPath): string | undefined => useFieldErrors()(path);

export type Patch<S extends JourneyStep> = (fn: (step: S) => S) => void;

/**
 * A patch function that applies to the latest step (a debounced commit must not overwrite fields
 * changed since it was typed), then hands the result to `onChange`.
 */
export function useStepPatch<S extends JourneyStep>(step: S, onChange: (step: JourneyStep) => void): Patch<S> {
  const latest = useRef(step);
  const change = useRef(onChange);
  useEffect(() => {
    latest.current = step;
    change.current = onChange;
  });
  return useCallback((fn: (s: S) => S) => {
    const next = fn(latest.current);
    latest.current = next;
    change.current(next);
  }, []);
}

/** Whether the inspected step can be changed here. */
export const useInspectorReadOnly = (): boolean => useContext(InspectorContext).readOnly;
