/** Applies a canvas or inspector edit to the journey with the shared rules. Pure. */
import type { Journey } from '@gd/shared/journey/model';
import { addPath, addStepAfter, connect, putBackStep, removePath, removeStep, updateStep } from '@gd/shared/journey/rules';
import type { JourneyOp } from './types.ts';

/** The normalized journey after `op` (an op that does not apply returns the normalized input). */
export function applyOp(journey: Journey, op: JourneyOp): Journey {
  switch (op.kind) {
    case 'add':
      return addStepAfter(journey, op.from, op.pathIndex, op.type, op.newId);
    case 'remove':
      return removeStep(journey, op.stepId);
    case 'connect':
      return connect(journey, op.from, op.pathIndex, op.to);
    case 'update':
      return updateStep(journey, op.step);
    case 'addPath':
      return addPath(journey, op.stepId, op.pathId);
    case 'removePath':
      return removePath(journey, op.stepId, op.pathIndex);
    case 'putBack':
      return putBackStep(journey, op.step, op.into);
    default: {
      const never: never = op;
      throw new Error(`unknown journey op ${JSON.stringify(never)}`);
    }
  }
}

/** A fresh id for a step or a path (unique enough across replicas). */
export const newStepId = (): string => crypto.randomUUID();
export const newPathId = (): string => `p-${crypto.randomUUID().slice(0, 8)}`;
