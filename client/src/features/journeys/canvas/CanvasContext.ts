/** What edges and nodes need from the canvas: the edit callbacks (set once per canvas). */
import { createContext, useContext } from 'react';
import type { SummaryNames } from './labels.ts';
import type { JourneyOp } from './types.ts';

export interface CanvasActions {
  readOnly: boolean;
  onOp: (op: JourneyOp) => void;
  onSelect: (stepId: string | null) => void;
  /** The label of a step (for "Add a step after …"). */
  labelOf: (stepId: string) => string;
  /** Names for the ids steps hold, in node summaries. */
  names?: SummaryNames;
}

const noop = () => undefined;
export const CanvasContext = createContext<CanvasActions>({ readOnly: true, onOp: noop, onSelect: noop, labelOf: (id) => id });

export const useCanvasActions = (): CanvasActions => useContext(CanvasContext);
