/** The contract between the journey canvas and the page that owns the document. */
import type { Edge, Node } from '@xyflow/react';
import type { NamedLink } from '@gd/shared/journey/rules';
import type { InteractionType, JourneyStep, StepCategory, StepType } from '@gd/shared/journey/model';
import type { JourneyViolation } from '@gd/shared/journey/validate';

/** Another editor of the same journey (from awareness). Pointer in flow coordinates. */
export interface PeerPresence {
  clientId: number;
  name: string;
  color: string;
  selectedStepId: string | null;
  pointer: { x: number; y: number } | null;
}

/**
 * One user edit, expressed in terms of the shared journey rules (`applyOp` in ops.ts maps it).
 * `pathIndex` is null for a step's single `next`.
 */
export type JourneyOp =
  | { kind: 'add'; from: string; pathIndex: number | null; type: StepType; newId: string }
  | { kind: 'remove'; stepId: string }
  | { kind: 'connect'; from: string; pathIndex: number | null; to: string | null }
  | { kind: 'update'; step: JourneyStep }
  | { kind: 'addPath'; stepId: string; pathId: string }
  | { kind: 'removePath'; stepId: string; pathIndex: number }
  /** A step someone else removed, put back where it was (`into`: the links that led into it). */
  | { kind: 'putBack'; step: JourneyStep; into: NamedLink[] };

/** A peer shown on a step (it selected the step). */
export interface PeerTag {
  name: string;
  color: string;
}

/** An outgoing connection point of a node: one per link (`next` or each path). */
export interface Outlet {
  handleId: string;
  pathIndex: number | null;
}

export interface StepNodeData extends Record<string, unknown> {
  step: JourneyStep;
  category: StepCategory;
  isEntry: boolean;
  /** Violation codes on this step (the node shows their count and, on hover, their text). */
  violations: Pick<JourneyViolation, 'code' | 'params'>[];
  peers: PeerTag[];
  outlets: Outlet[];
  readOnly: boolean;
  /** The launched version's counts at this step (none for a step the version lacks, or before a launch). */
  count?: { now: number; total: number; conversions: number; version: number } | null;
  /**
   * A mark from a panel: `path` a step the shown simulation passed, `dim` one it did not, `focus`
   * the step a passage or a timeline row points at.
   */
  mark?: StepMark | null;
}
export type StepMark = 'path' | 'dim' | 'focus';

/** What a panel asks the canvas to mark: the steps of a path (the others dimmed) and one step in focus. */
export interface CanvasMarks {
  path: readonly string[] | null;
  focus: string | null;
}
export type StepFlowNode = Node<StepNodeData, StepCategory>;

/** What an edge label says, before translation (see pathLabel in toFlow.ts). */
export type PathLabel =
  | { kind: 'none' }
  | { kind: 'name'; text: string }
  | { kind: 'otherwise' }
  | { kind: 'action'; action: InteractionType }
  | { kind: 'event'; eventId: string }
  | { kind: 'segment'; index: number }
  | { kind: 'percent'; value: number }
  | { kind: 'timeout'; seconds: number };

export interface StepEdgeData extends Record<string, unknown> {
  from: string;
  pathIndex: number | null;
  label: PathLabel;
  /** How many links leave the source step (1 for a single next). */
  pathCount: number;
  /** Step types that may be inserted on this link (empty when read-only). */
  addable: StepType[];
  auto: boolean;
}
export type StepFlowEdge = Edge<StepEdgeData, 'step'>;
