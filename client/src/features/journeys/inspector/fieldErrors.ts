/** Which violations a field of the inspector shows. Pure. */
import type { JourneyViolation } from '@gd/shared/journey/validate';

export type FieldPath = readonly (string | number)[];

export const pathKey = (path: FieldPath): string => path.map(String).join('.');

/** Violations of `stepId` at exactly `path`. */
export function violationsAt(violations: readonly JourneyViolation[], stepId: string, path: FieldPath): JourneyViolation[] {
  const key = pathKey(path);
  return violations.filter((v) => v.stepId === stepId && pathKey(v.path) === key);
}

/**
 * Violations about the step as a whole or its links (no field shows them): an empty path, or a
 * path ending in `next` (open ends, cycles, missing waits).
 */
export function stepLevelViolations(violations: readonly JourneyViolation[], stepId: string): JourneyViolation[] {
  return violations.filter((v) => v.stepId === stepId && (v.path.length === 0 || v.path[v.path.length - 1] === 'next'));
}
