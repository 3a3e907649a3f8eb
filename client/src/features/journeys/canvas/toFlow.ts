/**
 * Journey → React Flow nodes and edges. Pure: translation happens in the components (labels are
 * described by kind, see PathLabel), except the optional `describe` for node aria-labels.
 */
import type { LayoutPosition } from '@gd/shared/docs/journeyDoc';
import { outEdges } from '@gd/shared/journey/graph';
import { STEP_TYPES, stepCategory, type Journey, type JourneyStep, type StepType } from '@gd/shared/journey/model';
import { canAddAfter } from '@gd/shared/journey/rules';
import type { JourneyViolation } from '@gd/shared/journey/validate';
import { autoLayout } from './layout.ts';
import type { CanvasMarks, PathLabel, PeerPresence, StepFlowEdge, StepFlowNode, StepMark } from './types.ts';

/** The handle of a link: `next` for a single next, `path-<i>` for path i. */
export const handleIdFor = (pathIndex: number | null): string => (pathIndex === null ? 'next' : `path-${pathIndex}`);

/** The path index of a handle id: null for `next`, undefined when it is not one of ours. */
export function pathIndexOfHandle(handleId: string | null | undefined): number | null | undefined {
  if (handleId === 'next') return null;
  const m = /^path-(\d+)$/.exec(handleId ?? '');
  return m ? Number(m[1]) : undefined;
}

/** What the edge of path `index` of a branching step says. */
export function pathLabel(step: JourneyStep, index: number): PathLabel {
  if (!('paths' in step)) return { kind: 'none' };
  const path = step.paths[index];
  if (!path) return { kind: 'none' };
  if (path.name.trim() !== '') return { kind: 'name', text: path.name.trim() };
  const last = index === step.paths.length - 1;
  switch (step.type) {
    case 'flowRandom': {
      const total = step.paths.reduce((sum, p) => sum + (p.amount ?? 0), 0);
      return { kind: 'percent', value: total > 0 ? Math.round(((path.amount ?? 0) / total) * 100) : 0 };
    }
    case 'flowWaitInteraction':
      if (last) return { kind: 'timeout', seconds: path.duration ?? 0 };
      return path.action ? { kind: 'action', action: path.action } : { kind: 'none' };
    case 'flowInteraction':
      if (last) return { kind: 'otherwise' };
      return path.action ? { kind: 'action', action: path.action } : { kind: 'none' };
    case 'flowEvent':
      if (last) return { kind: 'otherwise' };
      return path.eventId ? { kind: 'event', eventId: path.eventId } : { kind: 'none' };
    case 'flowSplit':
      return last ? { kind: 'otherwise' } : { kind: 'segment', index: index + 1 };
    default: {
      const never: never = step;
      throw new Error(`unknown branching step ${JSON.stringify(never)}`);
    }
  }
}

/** Step types the "+" of a link offers. An end is offered only where the link already ends. */
export function addableTypes(journey: Journey, from: string, pathIndex: number | null, target: JourneyStep | undefined): StepType[] {
  return STEP_TYPES.filter(
    (type) => canAddAfter(journey, from, pathIndex, type) && (type !== 'end' || target === undefined || (target.type === 'end' && !!target.auto)),
  );
}

export interface ToFlowInput {
  journey: Journey;
  /** Stored positions; the others are laid out automatically. */
  layout: Readonly<Record<string, LayoutPosition>>;
  violations: readonly JourneyViolation[];
  peers: readonly PeerPresence[];
  selectedStepId: string | null;
  readOnly: boolean;
  /** The accessible name of a node. */
  describe?: (step: JourneyStep, problems: number) => string;
  /** The launched version's counts by step id (run/format.ts nodeCounts) and the version counted. */
  counts?: Readonly<Record<string, { now: number; total: number; conversions: number }>>;
  countsVersion?: number | null;
  marks?: CanvasMarks | null;
}

/** The mark of a step: in focus, else on the marked path or dimmed off it, else none. */
export function markOf(stepId: string, marks: CanvasMarks | null | undefined): StepMark | null {
  if (!marks) return null;
  if (marks.focus === stepId) return 'focus';
  if (marks.path) return marks.path.includes(stepId) ? 'path' : 'dim';
  return null;
}

export function toFlow(input: ToFlowInput): { nodes: StepFlowNode[]; edges: StepFlowEdge[] } {
  const { journey, violations, peers, selectedStepId, readOnly } = input;
  const positions = autoLayout(journey, input.layout);
  const byId = new Map(journey.steps.map((s) => [s.id, s]));
  const countOf = (id: string) => {
    const c = input.counts?.[id];
    return c && input.countsVersion != null ? { ...c, version: input.countsVersion } : null;
  };
  const nodes = journey.steps.map((step): StepFlowNode => {
    const own = violations.filter((v) => v.stepId === step.id);
    const category = stepCategory(step.type);
    const selected = step.id === selectedStepId;
    return {
      id: step.id,
      type: category,
      position: positions[step.id] ?? { x: 0, y: 0 },
      selected,
      draggable: !readOnly,
      connectable: !readOnly,
      deletable: false,
      ariaRole: 'button',
      zIndex: selected ? 10 : 0,
      ...(input.describe ? { ariaLabel: input.describe(step, own.length) } : {}),
      data: {
        step,
        category,
        isEntry: step.id === journey.entryId,
        violations: own.map((v) => (v.params ? { code: v.code, params: v.params } : { code: v.code })),
        peers: peers.filter((p) => p.selectedStepId === step.id).map((p) => ({ name: p.name, color: p.color })),
        outlets: outEdges(step).map((e) => ({ handleId: handleIdFor(e.pathIndex), pathIndex: e.pathIndex })),
        readOnly,
        count: countOf(step.id),
        mark: markOf(step.id, input.marks),
      },
    };
  });
  const edges = journey.steps.flatMap((step) =>
    outEdges(step).flatMap((e): StepFlowEdge[] => {
      const target = e.to === null ? undefined : byId.get(e.to);
      if (!target) return [];
      return [
        {
          id: `${step.id}:${handleIdFor(e.pathIndex)}`,
          type: 'step',
          source: step.id,
          sourceHandle: handleIdFor(e.pathIndex),
          target: target.id,
          targetHandle: 'in',
          deletable: false,
          markerEnd: { type: 'arrowclosed', width: 16, height: 16 },
          data: {
            from: step.id,
            pathIndex: e.pathIndex,
            label: e.pathIndex === null ? { kind: 'none' } : pathLabel(step, e.pathIndex),
            pathCount: 'paths' in step ? step.paths.length : 1,
            addable: readOnly ? [] : addableTypes(journey, step.id, e.pathIndex, target),
            auto: !!target.auto || !!step.auto,
          },
        },
      ];
    }),
  );
  return { nodes, edges };
}

/** The journey link an edge draws. */
export function linkOfEdge(edge: Pick<StepFlowEdge, 'source' | 'sourceHandle' | 'target'>): { from: string; pathIndex: number | null; to: string } | null {
  const pathIndex = pathIndexOfHandle(edge.sourceHandle);
  return pathIndex === undefined ? null : { from: edge.source, pathIndex, to: edge.target };
}
